package org.hyprof.bb;

import static org.hyprof.bb.SandboxTest.call;
import static org.hyprof.bb.SandboxTest.sample;
import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Userland;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code libandroid.so} stand-in (issue 16, item 3), on {@code samples/native/src/android.c},
 * a library whose {@code DT_NEEDED} lists libandroid.so: it loads, an asset manager opens no asset
 * (the code takes its default), there is no native window (error codes), and a function of
 * libandroid the stand-in lacks fails when called, in one line naming it. Both ABIs, both
 * userlands.
 */
class LibAndroidTest {
    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void noAssetNoWindowAndALackingFunctionNamed(String abi) {
        for (Engine engine : Engines.all()) {
            for (Userland u : Userland.values()) {
                String what = engine.id + " " + u.id;
                try (Tracer t = Tracer.open(sample(abi, "libandroid-test.so"), null, engine, u)) {
                    // never loaded from a file: the stand-in is Java
                    assertEquals(List.of("libandroid-test.so"), t.emulator.modules.stream().map(Emulator.Module::name).toList(), what);
                    assertEquals(42, call(t, "asset_or_default"), what);
                    assertEquals(-1000 - 22 - 22, call(t, "window_or_error"), what);
                    NativeException e = assertThrows(NativeException.class, () -> t.call("configuration", List.of()), what);
                    assertEquals(u == Userland.BIONIC
                            ? "libandroid-test.so called AConfiguration_new, which hyprof's libandroid.so stand-in does not have"
                            : "native code called AConfiguration_new, which has no stub in bb-tracer", e.getMessage(), what);
                    assertEquals(42, call(t, "asset_or_default"), what + ": the emulator goes on");
                }
            }
        }
    }
}
