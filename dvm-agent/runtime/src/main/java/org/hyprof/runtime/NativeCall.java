package org.hyprof.runtime;

/**
 * Where instrumented code goes for native code in a hybrid run. The instrumenter rewrites each
 * {@code native} method into a body that boxes its arguments and calls {@link #invoke}, and each
 * {@code System.loadLibrary}/{@code System.load} into {@link #loadLibrary}/{@link #load}. The
 * agent installs a {@link Handler} that runs the app's {@code .so} in the emulator; the runtime
 * itself knows nothing of it. Without a handler the calls do what the JVM would do.
 */
public final class NativeCall {
    private NativeCall() {}

    /** Runs native code for the app (implemented by the hybrid agent). */
    public interface Handler {
        void loadLibrary(String name);

        void load(String path);

        /**
         * Calls native method {@code nativeId} (the method's probe id) with its receiver (the
         * class for static methods) and boxed arguments; returns the boxed result (null for void).
         */
        Object invoke(int nativeId, Object self, Object[] args) throws Throwable;
    }

    private static volatile Handler handler;

    public static void install(Handler h) {
        handler = h;
    }

    public static Handler handler() {
        return handler;
    }

    public static void loadLibrary(String name) {
        Handler h = handler;
        if (h == null) System.loadLibrary(name);
        else h.loadLibrary(name);
    }

    public static void load(String path) {
        Handler h = handler;
        if (h == null) System.load(path);
        else h.load(path);
    }

    /** {@code Runtime.getRuntime().loadLibrary(name)}, redirected. */
    public static void loadLibrary(Runtime r, String name) {
        Handler h = handler;
        if (h == null) r.loadLibrary(name);
        else h.loadLibrary(name);
    }

    /** {@code Runtime.getRuntime().load(path)}, redirected. */
    public static void load(Runtime r, String path) {
        Handler h = handler;
        if (h == null) r.load(path);
        else h.load(path);
    }

    /** The body of every rewritten native method. Exceptions of the native code propagate. */
    public static Object invoke(int nativeId, Object self, Object[] args) throws Throwable {
        Handler h = handler;
        if (h == null) throw new UnsatisfiedLinkError("hyprof: native method #" + nativeId + " has no emulator (profile with --native-libs)");
        return h.invoke(nativeId, self, args);
    }

    /**
     * Charges native work to the calling Java method (the nearest method activation on this
     * thread): instructions, estimated cycles, estimated device time and energy (pJ).
     */
    public static void charge(long instructions, long cycles, long estimatedNanos, long energyPicojoules) {
        try {
            Recorder.state().nativeCost(instructions, cycles, estimatedNanos, energyPicojoules);
        } catch (Throwable t) {
            Recorder.internalFailure(t);
        }
    }

    /**
     * Replaces emulator time by device time on this thread's clock: the emulator just spent
     * {@code emulatorNanos} running native code the device would run in {@code estimatedNanos}.
     * Called at the end of every stretch of emulation (before a JNI call back into Java, and when
     * the native method returns), so Java code called back from native code keeps its real time.
     */
    public static void shiftClock(long emulatorNanos, long estimatedNanos) {
        try {
            Recorder.state().shiftClock(emulatorNanos, estimatedNanos);
        } catch (Throwable t) {
            Recorder.internalFailure(t);
        }
    }

    /** Hands a session chunk of the hybrid run (native blocks, epochs) to the session. */
    public static void chunk(int type, byte[] payload) {
        try {
            Recorder.sink().custom(type, payload);
        } catch (Throwable t) {
            Recorder.internalFailure(t);
        }
    }
}
