package org.hyprof.bb.jni;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hyprof.bb.NativeException;
import org.hyprof.bb.Tracer;
import org.hyprof.bb.cost.CpuProfile;
import org.hyprof.bb.emu.Backend;
import org.hyprof.bb.emu.Emulator;

/**
 * One of the app's shared objects in a hybrid run: its emulator (with block counting), JNIEnv and
 * JavaVM, and the native calls made into it. A call is one epoch: its blocks are counted apart
 * from every other call's (also from a call nested inside it through a Java callback), its cost is
 * charged to the calling Java method, and its stretches of emulation are replaced by estimated
 * device time on the thread's clock.
 *
 * <p>The emulated CPU runs one call at a time: calls from several threads are serialized (on this
 * object); a thread's own nested calls (native → Java → native) re-enter.
 */
final class NativeLibrary implements AutoCloseable {
    /**
     * What one native call returned, left pending, ran and cost; {@code emulatorNanos} is the
     * wall time replaced by device time (the call minus the Java it called back). The last
     * stretch (from {@code stretchStartNanos}) is still open: the caller ends it with
     * {@link #finish()} once its own bookkeeping is done, so that is not the app's time either.
     */
    record Call(Object result, Throwable pending, Tracer.Cost cost, long emulatorNanos, long stretchStartNanos,
                double chargedNanos) {
        /** Ends the call's last stretch: its wall time becomes the rest of the estimated time. */
        void finish() {
            org.hyprof.runtime.NativeCall.shiftClock(System.nanoTime() - stretchStartNanos, Math.round(cost.timeNanos() - chargedNanos));
        }
    }

    final Path file;
    final String name;
    final Tracer tracer;
    final JniEnv env;
    final boolean arm64;
    /** Per native method (probe id): executions of each block (index) over all its calls. */
    private final java.util.Map<Integer, long[]> countsByMethod = new java.util.HashMap<>();

    /** Where the current call (innermost) stands: emulation stretch start, cost already charged. */
    private final List<Segment> open = new ArrayList<>();

    private static final class Segment {
        long startNanos;
        double chargedNanos;
        long emulatorNanos;
    }

    NativeLibrary(Path file, CpuProfile cpu, org.hyprof.bb.emu.Engine engine, org.hyprof.bb.emu.Userland userland,
                  org.hyprof.bb.emu.Sandbox sandbox, ClassLoader loader) {
        this.file = file;
        String n = file.getFileName().toString();
        this.name = n;
        this.tracer = Tracer.open(file, cpu, engine, userland, sandbox);
        this.arm64 = tracer.emulator.cpu.arch() == Backend.Arch.ARM64;
        try {
            this.env = new JniEnv(tracer.emulator, loader);
        } catch (RuntimeException e) {
            tracer.close();
            throw e;
        }
        env.javaCalls = new JniEnv.JavaCalls() {
            @Override public void enter() { endStretch(); }
            @Override public void exit() { if (!open.isEmpty()) open.get(open.size() - 1).startNanos = System.nanoTime(); }
        };
    }

    boolean exports(String symbol) {
        return tracer.emulator.image.exports.containsKey(symbol);
    }

    long address(String symbol) {
        return tracer.emulator.symbol(symbol);
    }

    /**
     * Runs a native method: its arguments become JNI values (primitives per ABI, objects as local
     * references of this call), its result a Java value (boxed; null for void). Returns what ran
     * and what it cost. A pending exception is left in {@link Call#pending()}.
     *
     * <p>Time: from {@code startNanos} (when the Java method handed over) to {@link Call#finish()},
     * except the Java methods native code calls back, is replaced on the thread's clock by the
     * estimated device time of the blocks executed, stretch by stretch; so the bridge's own work
     * (marshalling, emulator set-up, analysis) does not show as the method's time either.
     */
    synchronized Call call(NativeMethod m, Object self, Object[] args, long startNanos) {
        return execute(m.address(), m.declaring().getClassLoader(), m.id(), startNanos, all -> {
            all.add(Emulator.Arg.ofInt(env.envPtr));
            all.add(Emulator.Arg.ofInt(env.refs.local(m.isStatic() ? m.declaring() : self)));
            Class<?>[] types = m.params();
            for (int i = 0; i < types.length; i++) all.add(arg(types[i], args[i]));
        }, r -> result(m.ret(), r));
    }

    /**
     * Runs {@code JNI_OnLoad(JavaVM*, NULL)} if the library has one, for a class of
     * {@code loader} (FindClass there sees that loader's classes); the result is the JNI version
     * it asked for. Null when the library has none. Its blocks count under {@code key}.
     */
    synchronized Call onLoad(ClassLoader loader, int key, long startNanos) {
        if (!exports("JNI_OnLoad")) return null;
        return execute(address("JNI_OnLoad"), loader, key, startNanos, all -> {
            all.add(Emulator.Arg.ofInt(env.vmPtr));
            all.add(Emulator.Arg.ofInt(0));
        }, r -> (int) r.r0());
    }

    private Call execute(long address, ClassLoader loader, int key, long startNanos,
                         java.util.function.Consumer<List<Emulator.Arg>> args,
                         java.util.function.Function<Emulator.Result, Object> result) {
        Throwable outerPending = env.pending;
        ClassLoader outerLoader = env.loader;
        env.pending = null;
        env.loader = loader;
        Segment seg = new Segment();
        seg.startNanos = startNanos;
        open.add(seg);
        env.refs.push();
        try {
            List<Emulator.Arg> all = new ArrayList<>();
            args.accept(all);
            Emulator.Result r = tracer.emulator.callAddress(address, all);
            Object value = result.apply(r);
            long[] counts = r.counts().counts();
            long[] acc = countsByMethod.get(key);
            if (acc == null || acc.length < counts.length) {
                acc = acc == null ? new long[counts.length] : java.util.Arrays.copyOf(acc, counts.length);
                countsByMethod.put(key, acc);
            }
            for (int i = 0; i < counts.length; i++) acc[i] += counts[i];
            Tracer.Cost cost = tracer.cost(counts);
            return new Call(value, env.pending, cost, seg.emulatorNanos + System.nanoTime() - seg.startNanos, seg.startNanos,
                    seg.chargedNanos);
        } finally {
            env.refs.pop();
            open.remove(open.size() - 1);
            env.pending = outerPending;
            env.loader = outerLoader;
        }
    }

    private Emulator.Arg arg(Class<?> t, Object v) {
        if (t == long.class) return Emulator.Arg.ofLong((Long) v);
        if (t == double.class) return Emulator.Arg.ofDouble((Double) v);
        if (t == float.class) return Emulator.Arg.ofFloat((Float) v);
        if (t == int.class) return Emulator.Arg.ofInt((Integer) v);
        if (t == boolean.class) return Emulator.Arg.ofInt((Boolean) v ? 1 : 0);
        if (t == byte.class) return Emulator.Arg.ofInt((Byte) v);
        if (t == short.class) return Emulator.Arg.ofInt((Short) v);
        if (t == char.class) return Emulator.Arg.ofInt((Character) v);
        return Emulator.Arg.ofInt(env.refs.local(v));
    }

    /** The Java value of a native function's result registers (jboolean etc. are narrow: mask them). */
    private Object result(Class<?> t, Emulator.Result r) {
        long r0 = r.r0();
        if (t == void.class) return null;
        if (t == int.class) return (int) r0;
        if (t == long.class) return r.longValue(arm64);
        if (t == boolean.class) return (r0 & 0xff) != 0;
        if (t == byte.class) return (byte) r0;
        if (t == short.class) return (short) r0;
        if (t == char.class) return (char) r0;
        if (t == float.class) return Float.intBitsToFloat((int) (arm64 ? r.fp0() : r0)); // softfp: in r0
        if (t == double.class) return Double.longBitsToDouble(arm64 ? r.fp0() : r.longValue(false)); // softfp: r0:r1
        Object o = env.refs.get(arm64 ? r0 : r0 & 0xffffffffL);
        if (o != null && !t.isInstance(o))
            throw new NativeException("native code returned a " + o.getClass().getName() + " where " + t.getName() + " was expected");
        return o;
    }

    /**
     * Ends a stretch of emulation of the innermost call (native code calls into Java): the
     * stretch's wall time becomes its estimated device time on the thread's clock.
     */
    private void endStretch() {
        if (open.isEmpty()) return;
        Segment seg = open.get(open.size() - 1);
        double soFar = tracer.cost(tracer.emulator.counter.current()).timeNanos();
        long wall = System.nanoTime() - seg.startNanos; // after the analysis (first sight of a block disassembles it)
        seg.emulatorNanos += wall;
        long est = Math.round(soFar - seg.chargedNanos);
        seg.chargedNanos += est;
        org.hyprof.runtime.NativeCall.shiftClock(wall, est);
    }

    /** Executions of each block by the calls of each native method (probe id → index → count). */
    synchronized java.util.Map<Integer, long[]> countsByMethod() {
        return new java.util.TreeMap<>(countsByMethod);
    }

    CpuProfile cpu() {
        return tracer.cpu;
    }

    @Override
    public synchronized void close() {
        tracer.close();
    }

    static NativeException wrongAbi(Path file, String abi, boolean arm64) {
        return new NativeException(file + ": " + (arm64 ? "AArch64 (arm64-v8a)" : "32-bit ARM (armeabi-v7a)")
                + " code, but the ABI chosen is " + abi);
    }
}
