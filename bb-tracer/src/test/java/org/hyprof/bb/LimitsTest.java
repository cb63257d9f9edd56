package org.hyprof.bb;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Limits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Native code that never returns or asks for more than the emulated memory holds (issue 20):
 * samples/native/src/limits.c, on every engine and both instruction sets. No assertion on speed:
 * a call stopped by the wall-time limit is checked by its error only.
 */
class LimitsTest {
    static final Path ARM = Path.of("../samples/native/lib/armeabi-v7a/liblimits.so");
    static final Path ARM64 = Path.of("../samples/native/lib/arm64-v8a/liblimits.so");
    /** spin's offset in each library (objdump -d: "b ." at the function's start). */
    static final long SPIN_ARM = 0x254, SPIN_ARM64 = 0x3c0;

    static Stream<Arguments> cases() {
        return Engines.all().stream().flatMap(e -> Stream.of(Arguments.of(e, ARM, SPIN_ARM), Arguments.of(e, ARM64, SPIN_ARM64)));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void anEndlessLoopStopsAtTheInstructionBudgetAndTheNextCallRuns(Engine engine, Path lib, long spin) {
        try (Tracer t = Tracer.open(lib, null, engine)) {
            t.emulator.limits(new Limits(1_000_000, 0));
            NativeException e = assertThrows(NativeException.class, () -> t.call("spin", List.of()));
            assertEquals("spin did not return within 1,000,000 instructions (the limit per native call; --native-limit changes it);"
                    + " stopped at liblimits.so+0x" + Long.toHexString(spin), e.getMessage());
            // the emulator is usable again, with a fresh budget
            NativeRun r = t.call("fill", List.of(Emulator.Arg.ofInt(Emulator.HEAP), Emulator.Arg.ofInt(7), Emulator.Arg.ofInt(16)));
            assertEquals(Emulator.HEAP, r.returnValue());
            assertThrows(NativeException.class, () -> t.call("spin", List.of()));
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void anEndlessLoopStopsAtTheTimeLimit(Engine engine, Path lib, long spin) {
        try (Tracer t = Tracer.open(lib, null, engine)) {
            t.emulator.limits(new Limits(0, 200));
            NativeException e = assertThrows(NativeException.class, () -> t.call("spin", List.of()));
            assertEquals("spin did not return within 0.2 s (the limit per native call; --native-limit changes it);"
                    + " stopped at liblimits.so+0x" + Long.toHexString(spin), e.getMessage());
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void aMemsetFarBeyondTheHeapIsRefusedWithoutHostMemory(Engine engine, Path lib, long spin) throws Exception {
        try (Tracer t = Tracer.open(lib, null, engine)) {
            long rss = rssKib();
            NativeException e = assertThrows(NativeException.class, () -> t.call("fill",
                    List.of(Emulator.Arg.ofInt(Emulator.HEAP), Emulator.Arg.ofInt(0), Emulator.Arg.ofInt(0x7ffffff0))));
            assertEquals("memset(0x30000000, 0, 2147483632): 2,147,483,632 bytes from 0x30000000 run past the end of the emulated heap"
                    + " (0x30000000-0x40000000, 268,435,456 bytes)", e.getMessage());
            // before: a 2 GiB host array (2.2 GB RSS, or OutOfMemoryError under a smaller heap)
            assertTrue(rssKib() - rss < 64 * 1024, "resident memory grew by " + (rssKib() - rss) + " KiB");
            e = assertThrows(NativeException.class, () -> t.call("copy",
                    List.of(Emulator.Arg.ofInt(Emulator.HEAP), Emulator.Arg.ofInt(Emulator.STACK), Emulator.Arg.ofInt(0x10000000))));
            assertTrue(e.getMessage().startsWith("memcpy(0x30000000, 0x70000000, 268435456): 268,435,456 bytes from 0x70000000 run past"
                    + " the end of the emulated stack"), e.getMessage());
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void memsetAndMemcpyOfMoreThanOneChunkAreExact(Engine engine, Path lib, long spin) {
        try (Tracer t = Tracer.open(lib, null, engine)) {
            long a = Emulator.HEAP + 16, b = Emulator.HEAP + (1 << 20);
            int n = 200_003; // four chunks of 64 KiB and a bit
            t.call("fill", List.of(Emulator.Arg.ofInt(a - 1), Emulator.Arg.ofInt(0), Emulator.Arg.ofInt(n + 2)));
            t.call("fill", List.of(Emulator.Arg.ofInt(a), Emulator.Arg.ofInt(0x5a), Emulator.Arg.ofInt(n)));
            t.call("copy", List.of(Emulator.Arg.ofInt(b), Emulator.Arg.ofInt(a - 1), Emulator.Arg.ofInt(n + 2)));
            byte[] got = t.emulator.cpu.read(b, n + 2);
            assertEquals(0, got[0]);
            assertEquals(0, got[n + 1]);
            for (int i = 1; i <= n; i++) if (got[i] != 0x5a) fail("byte " + i + " is " + got[i]);
        }
    }

    @Test
    void aLogMessageIsCutAt4KiBWithControlCharactersEscaped() {
        for (Engine engine : Engines.all()) {
            String out;
            PrintStream err = System.err;
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            try (Tracer t = Tracer.open(ARM64, null, engine)) {
                System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
                t.call("log_noise", List.of(Emulator.Arg.ofInt(65536)));
            } finally {
                System.setErr(err);
            }
            out = buf.toString(StandardCharsets.UTF_8);
            assertTrue(out.startsWith("native log [4] limits: \\x1b\\ncdef"), out.substring(0, 60));
            assertTrue(out.endsWith(" ... (cut at 4096 bytes)" + System.lineSeparator()), out.substring(out.length() - 60));
            assertEquals(1, out.lines().count(), "one line");
            assertEquals(-1, out.indexOf('\033'));
            assertTrue(out.length() < 4096 * 2, "printed " + out.length() + " chars"); // before: 64 KiB raw
        }
    }

    @Test
    void limitsAreParsedAsTheHelpSays() {
        assertEquals(Limits.DEFAULT, Limits.parse(null));
        assertEquals(new Limits(10_000_000_000L, 120_000), Limits.parse("10g,120s"));
        assertEquals(new Limits(500_000_000, 30_000), Limits.parse("500m;30s"));
        assertEquals(new Limits(Limits.DEFAULT.instructions(), 1500), Limits.parse("1500ms"));
        assertEquals(new Limits(2000, Limits.DEFAULT.wallMillis()), Limits.parse("2k"));
        assertEquals(Limits.NONE, Limits.parse("off"));
        assertEquals(new Limits(0, 0), Limits.parse("0,0s"));
        assertEquals(Limits.parse("500m,30s"), Limits.parse(Limits.parse("500m,30s").setting()));
        NativeException e = assertThrows(NativeException.class, () -> Limits.parse("lots"));
        assertTrue(e.getMessage().startsWith("--native-limit 'lots': 'lots' is neither an instruction count"), e.getMessage());
    }

    static long rssKib() throws Exception {
        for (String l : Files.readAllLines(Path.of("/proc/self/status")))
            if (l.startsWith("VmRSS:")) return Long.parseLong(l.replaceAll("\\D", ""));
        throw new AssertionError("no VmRSS");
    }
}
