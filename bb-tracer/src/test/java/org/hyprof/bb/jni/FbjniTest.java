package org.hyprof.bb.jni;

import static org.junit.jupiter.api.Assertions.*;

import com.facebook.jni.HybridData;
import com.facebook.jni.NativeRunnable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.hyprof.bb.Engines;
import org.hyprof.bb.RealLibraries;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Userland;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * fbjni 0.7.0's unmodified libfbjni.so with the libc++_shared.so its AAR ships (issue 16, item 2):
 * C++ exceptions thrown, unwound (libunwind through dl_iterate_phdr on arm64, the ARM EHABI
 * unwinder through dl_unwind_find_exidx on armeabi-v7a) and caught in the emulator, and turned
 * into a Java exception through JNI {@code Throw}. Through test-only twins of its Java classes.
 * Both ABIs, both engines.
 */
class FbjniTest {
    static final Twin RUNNABLE = new Twin(NativeRunnable.class, 100), DESTRUCTOR = new Twin(HybridData.Destructor.class, 200);
    static final java.util.Map<Integer, String> KEYS = new java.util.HashMap<>();

    static {
        KEYS.putAll(RUNNABLE.keys);
        KEYS.putAll(DESTRUCTOR.keys);
    }

    /** Every function that ran in any native method so far (system libraries' as {@code libc.so!memcpy}). */
    static Set<String> functionsRun(NativeLibrary lib) {
        Set<String> out = new TreeSet<>();
        for (long[] counts : lib.countsByMethod().values())
            for (int i = 0; i < counts.length; i++)
                if (counts[i] > 0 && lib.tracer.block(i).function() != null) out.add(lib.tracer.block(i).function());
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void aCppExceptionIsThrownCaughtAndBecomesAJavaException(String abi) throws Throwable {
        Path lib = RealLibraries.fbjni(abi);
        for (Engine engine : Engines.all()) {
            String what = abi + " " + engine.id;
            HybridRuntime h = new HybridRuntime(lib.getParent(), abi, null, engine, Userland.BIONIC, KEYS::get);
            try {
                h.loadLibrary("fbjni");
                NativeLibrary fbjni = h.libraries().get(0);
                assertEquals(List.of("libfbjni.so", "libm.so", "libc++_shared.so", "libc.so"),
                        fbjni.tracer.emulator.modules.stream().map(m -> m.name()).toList(), what + ": DT_NEEDED order; the app's libc++_shared.so from its directory, libandroid/liblog/libdl stand in");
                // a NativeRunnable whose C++ half is gone: fbjni's getNativePointer throws a C++ exception
                // (a JniException holding a new NullPointerException), its JNI wrapper catches it and
                // Throws the Java exception
                NativeRunnable r = new NativeRunnable(new HybridData());
                for (int round = 0; round < 2; round++) {
                    NullPointerException e = assertThrows(NullPointerException.class, () -> RUNNABLE.call(h, r, "run"), what);
                    assertEquals("java.lang.NullPointerException", e.getMessage(), what);
                }
                Set<String> ran = functionsRun(fbjni);
                for (String f : List.of("libc++_shared.so!__cxa_throw", "libc++_shared.so!__gxx_personality_v0", "libc++_shared.so!__cxa_begin_catch"))
                    assertTrue(ran.contains(f), what + ": " + f + " did not run; ran " + ran.stream().filter(n -> n.startsWith("libc++")).toList());
                // the unwinding is counted in the native method that threw
                Map<String, Long> byLibrary = ZstdJniTest.instructionsByLibrary(fbjni);
                assertTrue(byLibrary.getOrDefault("libc++_shared.so", 0L) > 0 && byLibrary.getOrDefault("libfbjni.so", 0L) > 0, what + ": " + byLibrary);
            } finally {
                for (NativeLibrary l : h.libraries()) l.close();
            }
        }
    }
}
