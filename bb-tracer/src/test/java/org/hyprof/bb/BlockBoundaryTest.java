package org.hyprof.bb;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.junit.jupiter.api.Test;

/**
 * Blocks are the program's, not the engine's (issue 17): straddle_loop's hot loop crosses a 1 KiB
 * boundary (ARM: between two instructions; Thumb: a 32-bit instruction across it; AArch64 too),
 * where Unicorn's 32-bit ARM target ends its translation blocks and qemu-user does not. Both
 * engines must count the blocks and instructions QEMU's own translator executes for the same
 * code: {@code samples/native/reference/straddle-qemu.txt}, counted by a TCG plugin under
 * qemu-user (regenerate with {@code samples/native/reference/straddle-qemu.sh}).
 */
class BlockBoundaryTest {
    static final Path REFERENCE = Path.of("../samples/native/reference/straddle-qemu.txt");

    /** One reference line: library (under samples/native/straddle), symbol, argument, counts. */
    record Reference(Path library, String symbol, int arg, long blocks, long instructions) {}

    static List<Reference> references() throws Exception {
        List<Reference> l = new ArrayList<>();
        for (String line : Files.readAllLines(REFERENCE)) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.trim().split("\\s+"); // LIB SYMBOL ARG blocks N instructions M
            assertEquals(7, f.length, line);
            l.add(new Reference(Path.of("../samples/native/straddle").resolve(f[0]), f[1], Integer.parseInt(f[2]),
                    Long.parseLong(f[4]), Long.parseLong(f[6])));
        }
        assertEquals(3, l.size(), "ARM, Thumb and AArch64 references in " + REFERENCE);
        return l;
    }

    @Test
    void blockAndInstructionCountsEqualQemus() throws Exception {
        for (Reference ref : references()) {
            for (Engine engine : Engines.all()) {
                try (Tracer t = Tracer.open(ref.library(), null, engine)) {
                    for (int round = 0; round < 2; round++) { // the second round runs translated code again
                        NativeRun r = t.call(ref.symbol(), List.of(Emulator.Arg.ofInt(ref.arg())));
                        String what = ref.library() + " on " + engine.id + ", round " + round;
                        assertEquals(37, r.returnValue() & 0x7f, what + ": the static executable's exit status");
                        assertEquals(ref.blocks(), r.blocks(), what + ": blocks");
                        assertEquals(ref.instructions(), r.estimate().instructions(), what + ": instructions");
                    }
                }
            }
        }
    }

    @Test
    void theLoopReallyCrossesAOneKibBoundary() throws Exception {
        for (Reference ref : references()) {
            try (Tracer t = Tracer.open(ref.library(), null, Engine.UNIDBG)) {
                NativeRun r = t.call(ref.symbol(), List.of(Emulator.Arg.ofInt(ref.arg())));
                Tracer.Block hottest = r.hot().get(0).block();
                long end = hottest.offset() + hottest.instructions().stream().mapToLong(i -> i.size()).sum();
                assertTrue(hottest.offset() < 0x1400 && end > 0x1400, ref.library() + ": hottest block "
                        + Long.toHexString(hottest.offset()) + "-" + Long.toHexString(end) + " should cross 0x1400");
            }
        }
    }
}
