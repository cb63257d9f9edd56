package org.hyprof.bb;

import static org.junit.jupiter.api.Assertions.*;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Userland;
import org.junit.jupiter.api.Test;

/**
 * Real Android code on real bionic (issue 16): conscrypt-android 2.5.2's unmodified
 * libconscrypt_jni.so with Android 6.0's libc.so and libm.so, loaded and initialised
 * (libc's __libc_preinit included) in the emulator, every block counted.
 */
class BionicTest {
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void sha256OfOneMebibyteThroughBoringSslOnBionic(String abi) throws Exception {
        byte[] data = new byte[1 << 20];
        new Random(16).nextBytes(data);
        byte[] expected = MessageDigest.getInstance("SHA-256").digest(data);
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(RealLibraries.conscrypt(abi), null, engine, Userland.BIONIC)) {
                Emulator e = t.emulator;
                assertEquals(List.of("libconscrypt_jni.so", "libm.so", "libc.so"), e.modules.stream().map(Emulator.Module::name).toList());
                long in = e.heap.malloc(data.length), out = e.heap.malloc(32);
                e.cpu.write(in, data);
                NativeRun r = t.call("SHA256", List.of(Emulator.Arg.ofInt(in), Emulator.Arg.ofInt(data.length), Emulator.Arg.ofInt(out)));
                assertEquals(HexFormat.of().formatHex(expected), HexFormat.of().formatHex(e.cpu.read(out, 32)), engine.id);
                assertEquals(out, r.returnValue(), engine.id);
                assertTrue(r.blocks() > 1000, engine.id + ": " + r.blocks());
                // BoringSSL clears its state with libc's memset: libc's instructions are counted, under its name
                assertTrue(r.libraries().get("libc.so").instructions() > 0, engine.id + ": " + r.libraries());
                assertTrue(r.functions().containsKey("libc.so!memset"), engine.id + ": " + r.functions().keySet());
                assertEquals(r.estimate().instructions(), r.libraries().values().stream().mapToLong(x -> x.instructions()).sum());
                assertEquals(java.util.Map.of(), e.syscalls.unknown(), engine.id);
            }
        }
    }

    static final java.nio.file.Path INVALID = java.nio.file.Path.of("../samples/native/invalid");

    /** Calls a function of a loaded system library (not exported by the library itself). */
    static Emulator.Result callLibc(Emulator e, String fn, List<Emulator.Arg> args) {
        Emulator.Module libc = e.modules.stream().filter(m -> m.name().equals("libc.so")).findFirst().orElseThrow();
        return e.callAddress(libc.base() + libc.image().dynamicExports.get(fn), args);
    }

    @Test
    void systemCallsGoThroughLibcAndTheUnknownAreCountedByName() {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(TracerTest.ARM64, null, engine, Userland.BIONIC)) {
                // getpid() is libc's: its svc is answered by the system-call layer (uses_getpid returns getpid() + 1)
                assertEquals(org.hyprof.bb.emu.Syscalls.PID + 1, t.call("uses_getpid", List.of()).returnValue(), engine.id);
                Emulator e = t.emulator;
                assertEquals(-1, (int) callLibc(e, "syscall", List.of(Emulator.Arg.ofInt(999))).r0(), engine.id);
                assertEquals(java.util.Map.of("syscall 999", 1L), e.syscalls.unknown(), engine.id);
                // guest-sized memory requests: past the mmap area's cap is MAP_FAILED (ENOMEM), never a host allocation
                for (long len : new long[] {Long.MAX_VALUE, Emulator.MMAP_SIZE + 1}) {
                    long p = callLibc(e, "mmap", List.of(Emulator.Arg.ofInt(0), Emulator.Arg.ofLong(len), Emulator.Arg.ofInt(3),
                            Emulator.Arg.ofInt(0x22), Emulator.Arg.ofInt(-1), Emulator.Arg.ofInt(0))).r0();
                    assertEquals(-1L, p, engine.id + ": mmap of " + len);
                }
                long page = callLibc(e, "mmap", List.of(Emulator.Arg.ofInt(0), Emulator.Arg.ofLong(1 << 20), Emulator.Arg.ofInt(3),
                        Emulator.Arg.ofInt(0x22), Emulator.Arg.ofInt(-1), Emulator.Arg.ofInt(0))).r0();
                assertTrue(page >= Emulator.MMAP && page < Emulator.MMAP + Emulator.MMAP_SIZE, engine.id + ": 0x" + Long.toHexString(page));
                assertEquals(0, callLibc(e, "munmap", List.of(Emulator.Arg.ofLong(page), Emulator.Arg.ofLong(1 << 20))).r0(), engine.id);
                assertEquals(-1L, callLibc(e, "munmap", List.of(Emulator.Arg.ofLong(-4096L), Emulator.Arg.ofLong(Long.MAX_VALUE))).r0(), engine.id);
                NativeException abort = assertThrows(NativeException.class, () -> callLibc(e, "abort", List.of()));
                assertEquals("native code raised signal 6 (SIGABRT: abort)", abort.getMessage(), engine.id);
                assertEquals(4950, t.call("count_loop", List.of(Emulator.Arg.ofInt(100))).returnValue(), "the emulator is still usable");
            }
        }
    }

    @Test
    void aSymbolNoSystemLibraryDefinesFailsWhenCalledNamingItAndTheLibrary() {
        try (Tracer t = Tracer.open(INVALID.resolve("missing-symbol.so"), null, Engine.defaultEngine(), Userland.BIONIC)) {
            NativeException e = assertThrows(NativeException.class, () -> t.call("call_missing", List.of(Emulator.Arg.ofInt(1))));
            assertEquals("missing-symbol.so called no_such_function_anywhere, which no system library defines", e.getMessage());
        }
    }

    @Test
    void aNeededEntryThatIsAPathIsRefused() {
        java.nio.file.Path so = INVALID.resolve("bad-needed.so");
        NativeException e = assertThrows(NativeException.class, () -> Tracer.open(so, null, Engine.defaultEngine(), Userland.BIONIC));
        assertEquals(so + ": DT_NEEDED entry '../../../etc/passwd' is not a library file name", e.getMessage());
        assertThrows(NativeException.class, () -> Userland.named("glibc"));
    }

    /**
     * What is still missing fails in one line naming the library and function (a hybrid run puts
     * the Java method in front): a system call answered ENOSYS is named in the error that follows
     * it in the same call; a fault names where it happened.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void errorsNameTheLibraryTheFunctionAndTheSystemCallRefused(String abi) {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(SandboxTest.library(abi), null, engine, Userland.BIONIC)) {
                NativeException abort = assertThrows(NativeException.class, () -> t.call("enosys_then_abort", List.of()));
                assertEquals("native code raised signal 6 (SIGABRT: abort); before that it got ENOSYS for syscall 999"
                        + " (from libuserland.so!enosys_then_abort)", abort.getMessage(), engine.id);
                NativeException fault = assertThrows(NativeException.class, () -> t.call("read_unmapped", List.of()));
                assertTrue(fault.getMessage().matches("emulation stopped at 0x[0-9a-f]+: .*UNMAPPED.* in libuserland\\.so!read_unmapped"),
                        engine.id + ": " + fault.getMessage());
                assertEquals(java.util.Map.of("syscall 999", 1L), t.emulator.syscalls.unknown(), engine.id);
            }
        }
    }

    /** The per-call limits hold with libc loaded: an endless loop stops at the instruction budget, on each engine. */
    @Test
    void theInstructionBudgetStillStopsAnEndlessLoop() {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(LimitsTest.ARM64, null, engine, Userland.BIONIC)) {
                t.emulator.limits(new org.hyprof.bb.emu.Limits(1_000_000, 0));
                NativeException e = assertThrows(NativeException.class, () -> t.call("spin", List.of()));
                assertEquals("spin did not return within 1,000,000 instructions (the limit per native call; --native-limit changes it);"
                        + " stopped at liblimits.so+0x" + Long.toHexString(LimitsTest.SPIN_ARM64), e.getMessage(), engine.id);
            }
        }
    }
}
