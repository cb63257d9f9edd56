package org.hyprof.runtime;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Probe sites that cost nothing when their probe is off (JVM only; the class-file rewriter emits
 * them, DEX output keeps {@link Probe}'s flag checks).
 *
 * <p>An instrumented method's entry is {@code invokedynamic begin ()I} (a loop's entry edge
 * {@code loopBegin ()I}) with the probe id as the bootstrap's static argument. All sites of one
 * probe share one {@link MutableCallSite}, whose target is the constant 0 while the probe is off:
 * HotSpot compiles a mutable call site's current target as a constant (with a dependency that
 * deoptimizes the code when it changes), so an off probe leaves no load, no branch and no call in
 * compiled code; the token it returns is the constant 0, and the exit's {@code token != 0} test
 * folds away with it. Switching the probe re-targets the site ({@link Recorder#publish} tells this
 * class), which takes effect at the next execution of the site in every thread once
 * {@link MutableCallSite#syncAll} returns.
 *
 * <p>Targets: off → constant 0; on → {@link Recorder#begin(int)} bound to the id; count-only →
 * a guard: {@link Recorder#countFast(int)} (counts, reads no clock, calls nothing), else
 * {@link Recorder#count(int)} ({@link #countOnly}). A loop's sites link to
 * {@link OutOfLineLoops#loopBegin} (a call the JIT keeps out of the app's method), and to the
 * constant {@link OutOfLineLoops#COUNT_IN_CODE} when the loop goes count-only (the code counts it).
 * The recording paths read the volatile config again, so a site that is re-linked a moment late
 * records nothing it should not.
 */
@JvmOnly
public final class ProbeSites {
    private ProbeSites() {}

    private static final MethodHandle OFF = MethodHandles.constant(int.class, 0);
    /** A count-only loop's entry: the code counts it ({@link OutOfLineLoops#COUNT_IN_CODE}). */
    private static final MethodHandle COUNT_IN_CODE = MethodHandles.constant(int.class, OutOfLineLoops.COUNT_IN_CODE);
    private static final MethodHandle BEGIN, COUNT_FAST, COUNT_SLOW, LOOP_BEGIN;

    static {
        // loops' out-of-line paths first: recording may start just below, and its calibration
        // measures loops through them
        OutOfLineLoops.install();
        // Offline-instrumented code has no agent: its first probe starts recording (as Probe's
        // does), and with invokedynamic sites the first probe is a bootstrap, not a Probe call.
        Bootstrap.startFromResources(ProbeSites.class.getClassLoader());
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            MethodType t = MethodType.methodType(int.class, int.class);
            BEGIN = l.findStatic(Recorder.class, "begin", t);
            COUNT_FAST = l.findStatic(Recorder.class, "countFast", MethodType.methodType(boolean.class, int.class));
            COUNT_SLOW = l.findStatic(ProbeSites.class, "countSlow", t);
            LOOP_BEGIN = l.findStatic(OutOfLineLoops.class, "loopBegin", t);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * sites[2 * id] / sites[2 * id + 1]: the {@code begin} / {@code loopBegin} call site of probe
     * id, or null while none is linked. Keyed by kind too: ids are reused after
     * {@link Hyprof#reset} (tests, restarts), and a site linked for a method must never serve a
     * loop of the same id.
     */
    private static MutableCallSite[] sites = new MutableCallSite[0];
    /** The state each site is linked for: 0 off, 1 on, 2 count-only. */
    private static byte[] linked = new byte[0];

    private static final Recorder.SiteListener LISTENER = new Recorder.SiteListener() {
        @Override
        public void changed(Config before, Config after) {
            relink(after);
        }
    };

    /**
     * Bootstrap of the {@code begin}/{@code loopBegin} sites ({@code name}), type {@code ()I}.
     * Links every site of probe {@code id} to one call site.
     */
    public static CallSite bootstrap(MethodHandles.Lookup caller, String name, MethodType type, int id) {
        boolean isLoop = name.equals("loopBegin");
        if (!isLoop && !name.equals("begin")) throw new IllegalArgumentException("unknown probe site " + name);
        if (!type.equals(MethodType.methodType(int.class))) throw new IllegalArgumentException("probe site type " + type);
        if (id < 0 || id > Integer.MAX_VALUE / 2 - 1) throw new IllegalArgumentException("probe id " + id);
        synchronized (ProbeSites.class) {
            // listening before reading the config: a publish in between re-links once we are done
            Recorder.sites = LISTENER;
            int slot = 2 * id + (isLoop ? 1 : 0);
            if (slot >= sites.length) {
                int n = Math.max(slot + 2, sites.length * 2);
                sites = Arrays.copyOf(sites, n);
                linked = Arrays.copyOf(linked, n);
            }
            MutableCallSite s = sites[slot];
            if (s == null) {
                byte state = state(Recorder.config, id);
                s = new MutableCallSite(target(id, isLoop, state));
                linked[slot] = state;
                sites[slot] = s;
            }
            return s;
        }
    }

    /**
     * Bootstrap of the sites of a piece instrumented on its own ({@link Hyprof#piece}): probe
     * {@code base + local}, the piece's base found (and its probes defined, the first time) through
     * the calling class's loader.
     */
    public static CallSite bootstrap(MethodHandles.Lookup caller, String name, MethodType type, String pieceKey, int local) {
        if (local < 0) throw new IllegalArgumentException("probe id " + local);
        return bootstrap(caller, name, type, Hyprof.piece(pieceKey, caller.lookupClass()) + local);
    }

    /**
     * What a site of probe id must be linked to: 0 off, 1 on, 2 count-only. A count-only loop's
     * sites hand out the constant {@link OutOfLineLoops#COUNT_IN_CODE}: the code then adds its
     * activations up in locals, so a tight inner loop costs two register increments per
     * activation, not a call into the runtime (re-linking deoptimizes the methods holding the
     * site once, when the loop goes count-only).
     */
    private static byte state(Config c, int id) {
        if (id >= c.on.length || !c.on[id]) return 0;
        return c.countOnly(id) ? (byte) 2 : (byte) 1;
    }

    private static MethodHandle target(int id, boolean isLoop, byte state) {
        if (state == 0) return OFF;
        if (isLoop && state == 2) return COUNT_IN_CODE;
        if (state == 2) {
            if (id < refreshed.length) refreshed[id] = 0; // linked count-only anew: its fresh guards anew (callers hold the class lock)
            return countOnly(id);
        }
        return MethodHandles.insertArguments(isLoop ? LOOP_BEGIN : BEGIN, 0, id);
    }

    /**
     * A count-only method's sites: {@link Recorder#countFast} (no call out), and {@link #countSlow}
     * when it returns false. A fresh guard each time: its branch profile is its own (HotSpot keeps
     * one per {@code guardWithTest}), so C2 compiles the slow branch as a trap while this site has
     * never taken it, and the fast path inlines into the app's loop without a call in it.
     */
    private static MethodHandle countOnly(int id) {
        return MethodHandles.guardWithTest(MethodHandles.insertArguments(COUNT_FAST, 0, id), OFF,
                MethodHandles.insertArguments(COUNT_SLOW, 0, id));
    }

    /** Fresh guards a count-only probe's site gets after its first (see {@link #countSlow}). */
    static final int COUNT_REFRESHES = 3;
    /** refreshed[id]: fresh guards the site of count-only probe id has had (written under the class lock). */
    private static byte[] refreshed = new byte[0];

    /**
     * The full count-only path ({@link Recorder#count}) of a site whose fast path could not count:
     * a thread's first call, another path in the slot, no tree. The guard has then seen its slow
     * branch taken, and C2 would compile the call into the app's code for good; while the case
     * may have been a one-off (a thread's first call, a slot taken from another path), the site
     * gets a fresh guard, up to {@link #COUNT_REFRESHES} times (each re-link deoptimizes the
     * methods that inline the site once).
     */
    static int countSlow(int id) {
        Recorder.count(id);
        byte[] r = refreshed; // racy read: a stale one only costs the lock below
        if (id < r.length && r[id] >= COUNT_REFRESHES) return 0;
        try {
            refresh(id);
        } catch (Throwable t) {
            Recorder.internalFailure(t);
        }
        return 0;
    }

    private static synchronized void refresh(int id) {
        int slot = 2 * id;
        if (slot >= sites.length || sites[slot] == null || linked[slot] != 2) return;
        if (id >= refreshed.length) refreshed = Arrays.copyOf(refreshed, Math.max(id + 1, 2 * refreshed.length));
        if (refreshed[id] >= COUNT_REFRESHES) return;
        refreshed[id]++;
        sites[slot].setTarget(countOnly(id));
        MutableCallSite.syncAll(new MutableCallSite[] {sites[slot]});
    }

    /** Re-targets every linked site whose probe changed state, then publishes them to all threads. */
    static synchronized void relink(Config c) {
        List<MutableCallSite> changed = null;
        MutableCallSite[] s = sites;
        for (int slot = 0; slot < s.length; slot++) {
            if (s[slot] == null) continue;
            int id = slot >> 1;
            byte state = state(c, id);
            if (state == linked[slot]) continue;
            s[slot].setTarget(target(id, (slot & 1) != 0, state));
            linked[slot] = state;
            if (changed == null) changed = new ArrayList<MutableCallSite>();
            changed.add(s[slot]);
        }
        if (changed != null) MutableCallSite.syncAll(changed.toArray(new MutableCallSite[0]));
    }

    /**
     * Builds and calls once, with stand-in targets, each kind of method handle the sites link to
     * (a probe's begin, a count-only guard), so that the JDK generates their shared code (lambda
     * forms, bound-handle species) now rather than at the app's first timed call. Why: a cold JVM
     * generates such code when a site is first linked, inside its method's first timed call; with
     * the outlined bodies' sites among them (removed since: bodies are called statically) that
     * came to 6–8 ms of perturb.Kernels' insertion sort (26 ms plain, 36 ms profiled; bench/README).
     * Called by the agent before the program's main, and by this class's initialization
     * (offline-instrumented code: before its first probe's clock read). Never throws: a failure
     * only leaves the work to the first sites.
     */
    public static void warmUp() {
        if (warmedUp) return;
        warmedUp = true;
        warmUpNow();
    }

    /** {@link #warmUp}'s work, each time it is called (tests): false, reported, if it failed. */
    static boolean warmUpNow() {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            MethodHandle standIn = l.findStatic(ProbeSites.class, "standIn", MethodType.methodType(int.class, int.class));
            int zero = (int) new MutableCallSite(MethodHandles.insertArguments(standIn, 0, 0)).dynamicInvoker().invokeExact();
            MethodHandle test = l.findStatic(ProbeSites.class, "standInTest", MethodType.methodType(boolean.class, int.class));
            MethodHandle guard = MethodHandles.guardWithTest(MethodHandles.insertArguments(test, 0, 0), OFF,
                    MethodHandles.insertArguments(standIn, 0, 1));
            zero += (int) new MutableCallSite(guard).dynamicInvoker().invokeExact();
            return zero == 0;
        } catch (Throwable e) {
            Recorder.report("probe sites not warmed up: " + e);
            return false;
        }
    }

    private static volatile boolean warmedUp;

    // after every static field: offline-instrumented code's first site initializes this class
    static {
        warmUp();
    }

    private static int standIn(int id) {
        return 0;
    }

    private static boolean standInTest(int id) {
        return id == 0;
    }

    /** Probes with a linked site (tests, diagnostics). */
    static synchronized int linkedSites() {
        int n = 0;
        for (MutableCallSite x : sites) if (x != null) n++;
        return n;
    }
}
