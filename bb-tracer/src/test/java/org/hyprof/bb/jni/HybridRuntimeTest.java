package org.hyprof.bb.jni;

import static org.junit.jupiter.api.Assertions.*;

import demo.JavaKernels;
import demo.NativeKernels;
import demo.Point;
import demo.Square;
import demo.Unsupported;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.hyprof.bb.Engines;
import org.hyprof.bb.emu.Engine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hybrid runtime on the demo library (samples/native/src/hyprofdemo.c), without the agent:
 * the tests hand it native-method ids as the instrumented bridge would, so the demo classes are
 * never initialized (their static initializer would ask the JVM itself for the library). Results
 * must equal the Java twins'; calls back into Java (which need no native code of their own), JNI
 * exceptions, RegisterNatives from JNI_OnLoad and the error paths are covered here; callbacks
 * that re-enter native code need the agent's bridges (HybridIT).
 */
class HybridRuntimeTest {
    static final Path LIBS = Path.of("../samples/native/lib");
    @TempDir Path dir;

    /** Probe ids for the demo's native methods, as the instrumenter would hand them out. */
    static final Map<Integer, String> KEYS = new HashMap<>();
    static final Map<String, Integer> IDS = new HashMap<>();

    static {
        int id = 10;
        for (Class<?> c : new Class<?>[] {NativeKernels.class, Unsupported.class}) {
            for (Method m : c.getDeclaredMethods()) {
                if (!java.lang.reflect.Modifier.isNative(m.getModifiers())) continue;
                String desc = JniEnv.descriptor(m.getParameterTypes(), m.getReturnType());
                KEYS.put(id, c.getName() + "\t" + m.getName() + "\t" + desc);
                IDS.put(c.getSimpleName() + "." + m.getName(), id++);
            }
        }
    }

    static HybridRuntime runtime(String abi) {
        HybridRuntime h = new HybridRuntime(LIBS, abi, null, KEYS::get);
        h.loadLibrary("hyprofdemo");
        return h;
    }

    static Object call(HybridRuntime h, String method, Object self, Object... args) throws Throwable {
        return h.invoke(IDS.get(method), self, args);
    }

    /** Both ABIs on every engine this build has. */
    static Stream<Arguments> abisAndEngines() {
        return Engines.all().stream().flatMap(e -> Stream.of("armeabi-v7a", "arm64-v8a").map(abi -> Arguments.of(abi, e)));
    }

    /** A runtime whose libraries run on {@code engine} (chosen as users do: the hyprof.engine property). */
    static HybridRuntime runtime(String abi, Engine engine) {
        String before = System.getProperty("hyprof.engine");
        System.setProperty("hyprof.engine", engine.id);
        try {
            HybridRuntime h = runtime(abi);
            return h;
        } finally {
            if (before == null) System.clearProperty("hyprof.engine"); else System.setProperty("hyprof.engine", before);
        }
    }

    @ParameterizedTest
    @MethodSource("abisAndEngines")
    void nativeResultsEqualTheJavaTwins(String abi, Engine engine) throws Throwable {
        HybridRuntime h = runtime(abi, engine);
        Class<?> k = NativeKernels.class;
        assertEquals(JavaKernels.fft(64, 2), call(h, "NativeKernels.fft", k, 64, 2));
        assertEquals(JavaKernels.sparse(50, 400, 2), call(h, "NativeKernels.sparse", k, 50, 400, 2));
        assertEquals(JavaKernels.intKernel(1000), call(h, "NativeKernels.intKernel", k, 1000), "bound by RegisterNatives");
        double[] gj = JavaKernels.sorGrid(12), gn = JavaKernels.sorGrid(12);
        assertEquals(JavaKernels.sor(gj, 12, 3), call(h, "NativeKernels.sor", k, gn, 12, 3));
        assertArrayEquals(gj, gn, "the array was written back (ReleaseDoubleArrayElements mode 0)");
        assertEquals(JavaKernels.describe("é-ü", 123), call(h, "NativeKernels.describe", k, "é-ü", 123));
        assertEquals(JavaKernels.mix(-7, -(1L << 41), 2.5f, -0.125, (short) 300, (byte) -9, '\u00e9', false),
                call(h, "NativeKernels.mix", k, -7, -(1L << 41), 2.5f, -0.125, (short) 300, (byte) -9, '\u00e9', false));
        int[] values = {5, -3, 17, 8, 0, -11};
        assertArrayEquals(JavaKernels.histogram(values, 4), (int[]) call(h, "NativeKernels.histogram", k, values, 4));
        Point pj = new Point(3, 4), pn = new Point(3, 4);
        JavaKernels.translate(pj, -1, 9);
        assertNull(call(h, "NativeKernels.translate", k, pn, -1, 9));
        assertEquals(pj.toString(), pn.toString());
        assertEquals(JavaKernels.sumCallbacks(new Square(), 20), call(h, "NativeKernels.sumCallbacks", k, new Square(), 20),
                "native code calls Square.value back 20 times");
    }

    @ParameterizedTest
    @MethodSource("abisAndEngines")
    void anExceptionThrownByNativeCodeReachesTheCaller(String abi, Engine engine) throws Throwable {
        HybridRuntime h = runtime(abi, engine);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> call(h, "NativeKernels.check", NativeKernels.class, -5));
        assertEquals("negative value from native code", e.getMessage());
        assertEquals(5, call(h, "NativeKernels.check", NativeKernels.class, 5), "nothing left pending afterwards");
    }

    @Test
    void jniNameMangling() {
        assertEquals("demo_NativeKernels", HybridRuntime.mangle("demo.NativeKernels"));
        assertEquals("a_1b_00024C", HybridRuntime.mangle("a_b$C"));
        assertEquals("I_3Ljava_lang_String_2", HybridRuntime.mangle("I[Ljava/lang/String;"));
        assertEquals("_000e9t_000e9", HybridRuntime.mangle("\u00e9t\u00e9"));
    }

    @Test
    void missingLibraryWrongAbiAndUnsupportedJniAreOneLineErrors() throws Throwable {
        HybridRuntime none = new HybridRuntime(dir, "armeabi-v7a", null, KEYS::get);
        UnsatisfiedLinkError missing = assertThrows(UnsatisfiedLinkError.class, () -> none.loadLibrary("hyprofdemo"));
        assertTrue(missing.getMessage().contains("libhyprofdemo.so not found"), missing.getMessage());

        Path wrong = dir.resolve("wrong/armeabi-v7a");
        Files.createDirectories(wrong);
        Files.copy(LIBS.resolve("arm64-v8a/libhyprofdemo.so"), wrong.resolve("libhyprofdemo.so"));
        HybridRuntime w = new HybridRuntime(dir.resolve("wrong"), "armeabi-v7a", null, KEYS::get);
        UnsatisfiedLinkError abi = assertThrows(UnsatisfiedLinkError.class, () -> w.loadLibrary("hyprofdemo"));
        assertTrue(abi.getMessage().contains("AArch64 (arm64-v8a) code, but the ABI chosen is armeabi-v7a"), abi.getMessage());

        HybridRuntime h = runtime("arm64-v8a");
        InternalError unsupported = assertThrows(InternalError.class, () -> call(h, "Unsupported.directBuffer", Unsupported.class));
        assertTrue(unsupported.getMessage().contains("unsupported JNI function NewDirectByteBuffer"), unsupported.getMessage());
        for (Throwable t : new Throwable[] {missing, abi, unsupported}) assertFalse(t.getMessage().contains("\n"));
        assertEquals(JavaKernels.intKernel(10), call(h, "NativeKernels.intKernel", NativeKernels.class, 10),
                "the library still works after a failed call");
    }

    @Test
    void unknownAbiOrDirectoryIsRefused() {
        assertThrows(org.hyprof.bb.NativeException.class, () -> new HybridRuntime(LIBS, "x86", null, KEYS::get));
        assertThrows(org.hyprof.bb.NativeException.class, () -> new HybridRuntime(dir.resolve("nope"), null, null, KEYS::get));
    }
}
