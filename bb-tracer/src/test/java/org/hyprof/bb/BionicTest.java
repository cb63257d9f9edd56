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
            try (Tracer t = Tracer.open(Conscrypt.library(abi), null, engine, Userland.BIONIC)) {
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
}
