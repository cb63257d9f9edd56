package org.hyprof.bb;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Exact block and instruction counts on count_loop, derived by hand from its disassembly (see
 * samples/native/src/kernels.c; the emulator's blocks are QEMU translation blocks, which end at
 * a branch and do not start at jump targets):
 * <pre>
 * ARM and Thumb (same shape):               AArch64:
 *   B1  subs r2,r0,#0; ble done     2          B1  mov w2,w0; cmp w0,#0; b.le done   3
 *   B2  mov; mov; add; add; cmp; bne  6        B2  mov; mov; add; add; cmp; b.ne     6
 *   B3  add; add; cmp; bne (loop)     4        B3  add; add; cmp; b.ne (loop)        4
 *   B4  bx lr                         1        B4  ret                               1
 *   done: mov r0,#0; bx lr            2        done: mov w0,#0; ret                  2
 * n ≥ 1: blocks = n + 2, instructions = 4n + 5 (ARM/Thumb), 4n + 6 (AArch64)
 * n = 0: blocks = 2, instructions = 4 (ARM/Thumb), 5 (AArch64)
 * </pre>
 */
class TracerTest {
    static final Path ARM = Path.of("../samples/native/lib/armeabi-v7a/libkernels.so");
    static final Path THUMB = Path.of("../samples/native/lib/armeabi-v7a/libkernels-thumb.so");
    static final Path ARM64 = Path.of("../samples/native/lib/arm64-v8a/libkernels.so");

    static Path lib(String name) {
        return switch (name) {
            case "arm" -> ARM;
            case "thumb" -> THUMB;
            default -> ARM64;
        };
    }

    /** Each case on every engine ({@link Engines#all}). */
    static Stream<Arguments> countedLoops() {
        String[] cases = {"arm,0,2,4", "arm,1,3,9", "arm,100,102,405", "thumb,0,2,4", "thumb,1,3,9", "thumb,100,102,405",
                          "arm64,0,2,5", "arm64,1,3,10", "arm64,100,102,406"};
        return Engines.all().stream().flatMap(e -> Stream.of(cases).map(c -> {
            String[] f = c.split(",");
            return Arguments.of(e, f[0], Integer.parseInt(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
        }));
    }

    static Stream<Engine> engines() {
        return Engines.all().stream();
    }

    @ParameterizedTest
    @MethodSource("countedLoops")
    void exactCountsOnACountedLoop(Engine engine, String isa, int n, long blocks, long instructions) {
        try (Tracer t = Tracer.open(lib(isa), null, engine)) {
            assertEquals(engine, t.emulator.cpu.engine());
            NativeRun r = t.call("count_loop", List.of(Emulator.Arg.ofInt(n)));
            assertEquals(n * (n - 1) / 2, r.returnValue());
            assertEquals(blocks, r.blocks());
            assertEquals(instructions, r.estimate().instructions());
        }
    }

    @ParameterizedTest
    @MethodSource("engines")
    void categoriesOfTheLoop(Engine engine) {
        try (Tracer t = Tracer.open(ARM, null, engine)) {
            Map<String, Long> c = t.call("count_loop", List.of(Emulator.Arg.ofInt(100))).categories();
            assertEquals(101, c.get("branch-cond"));
            assertEquals(1, c.get("branch"));
            assertEquals(303, c.get("alu"));
            assertEquals(0, c.get("other"));
        }
        try (Tracer t = Tracer.open(ARM64, null, engine)) {
            Map<String, Long> c = t.call("count_loop", List.of(Emulator.Arg.ofInt(100))).categories();
            assertEquals(101, c.get("branch-cond"));
            assertEquals(1, c.get("branch"));
            assertEquals(304, c.get("alu"));
        }
    }

    @ParameterizedTest
    @MethodSource("engines")
    void argumentsAndResultsPerAbi(Engine engine) {
        for (Path so : new Path[] {ARM, THUMB, ARM64}) {
            try (Tracer t = Tracer.open(so, null, engine)) {
                assertEquals(91, t.call("add_ints", List.of(Emulator.Arg.ofInt(1), Emulator.Arg.ofInt(2), Emulator.Arg.ofInt(3),
                        Emulator.Arg.ofInt(4), Emulator.Arg.ofInt(5), Emulator.Arg.ofInt(6))).returnValue(), so + ": stack arguments");
                double d = t.call("mix_args", List.of(Emulator.Arg.ofInt(3), Emulator.Arg.ofFloat(1.5f), Emulator.Arg.ofDouble(2.25),
                        Emulator.Arg.ofLong(7))).returnDouble();
                assertEquals(3 * 2.0 + 1.5 * 0.5 + 2.25 - 7, d, 0.0, so + ": int, float, double, long long");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("engines")
    void importsWithoutStubFailWhenCalledNamingThem(Engine engine) {
        try (Tracer t = Tracer.open(ARM64, null, engine)) {
            NativeException e = assertThrows(NativeException.class, () -> t.call("uses_getpid", List.of()));
            assertEquals("native code called getpid, which has no stub in bb-tracer", e.getMessage());
            assertEquals(4950, t.call("count_loop", List.of(Emulator.Arg.ofInt(100))).returnValue(), "the emulator is still usable");
        }
    }

    @Test
    void badInputIsAOneLineError() {
        Path inv = Path.of("../samples/native/invalid");
        assertMessage(inv.resolve("not-elf.so"), "not an ELF file");
        assertMessage(inv.resolve("truncated.so"), "truncated");
        assertMessage(inv.resolve("x86-64.so"), "machine 62 is not supported");
        assertMessage(inv.resolve("bad-reloc.so"), "unsupported ARM relocation type 99");
        assertMessage(inv.resolve("missing.so"), "no such file");
        try (Tracer t = Tracer.open(ARM, null)) {
            NativeException e = assertThrows(NativeException.class, () -> t.call("no_such_function", List.of()));
            assertTrue(e.getMessage().endsWith("no symbol 'no_such_function'"), e.getMessage());
        }
        assertThrows(NativeException.class, () -> Tracer.open(ARM, org.hyprof.bb.cost.CpuProfile.load("generic-aarch64")));
    }

    static void assertMessage(Path so, String expected) {
        NativeException e = assertThrows(NativeException.class, () -> Tracer.open(so, null));
        assertTrue(e.getMessage().startsWith(so.toString()) && e.getMessage().contains(expected), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void emulatorNeedsNoneOfTheExcludedUnidbgLibraries() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("com.alibaba.fastjson.JSON"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("com.github.unidbg.Emulator"));
        try (Tracer t = Tracer.open(ARM, null)) {
            assertEquals(4950, t.call("count_loop", List.of(Emulator.Arg.ofInt(100))).returnValue());
        }
    }
}
