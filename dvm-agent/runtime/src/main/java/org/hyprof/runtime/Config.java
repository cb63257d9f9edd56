package org.hyprof.runtime;

/**
 * What the runtime records, as one immutable object published through a single volatile field
 * ({@link Recorder#config}): per-probe on/off flags, caller-filter roots, rules and mode. Every
 * change builds a new object (copy-on-write), so a probe sees either the old or the new state in
 * full, never a mix, and a toggle is visible to all threads at their next probe.
 */
final class Config {
    static final byte KIND_METHOD = 0;
    static final byte KIND_LOOP = 1;

    /** on[id]: the probe records. Length = the number of known probe ids. */
    final boolean[] on;
    /** root[id]: a caller-filter root (same length as {@link #on}). */
    final boolean[] root;
    /** kind[id]: {@link #KIND_METHOD} or {@link #KIND_LOOP}. */
    final byte[] kind;
    /** Any root set: probes record only inside an activation of a root. */
    final boolean rootsActive;
    /** Rule: activations shorter than this (deducted inclusive) are not recorded. 0 = off. */
    final long minDurationNanos;
    /** Rule: the first {@code minCalls} calls of a probe on a thread are not recorded. 0 = off. */
    final int minCalls;
    /** Rule: method activations deeper than this are not recorded. 0 = off. */
    final int maxDepth;
    /** Events mode: also log every enter/exit as a compact record. */
    final boolean events;
    /**
     * countOnly[id]: the runtime decided the probe's calls are too short to time honestly; it then
     * counts them without reading the clock, except while it is a caller-filter root
     * ({@link #countOnly(int)}). May be shorter than {@link #on}: ids beyond it are timed.
     */
    final boolean[] countOnly;

    Config(boolean[] on, boolean[] root, byte[] kind, long minDurationNanos, int minCalls,
           int maxDepth, boolean events) {
        this(on, root, kind, minDurationNanos, minCalls, maxDepth, events, new boolean[0]);
    }

    Config(boolean[] on, boolean[] root, byte[] kind, long minDurationNanos, int minCalls,
           int maxDepth, boolean events, boolean[] countOnly) {
        this.countOnly = countOnly;
        this.on = on;
        this.root = root;
        this.kind = kind;
        boolean any = false;
        for (boolean r : root) any |= r;
        this.rootsActive = any;
        this.minDurationNanos = minDurationNanos;
        this.minCalls = minCalls;
        this.maxDepth = maxDepth;
        this.events = events;
    }

    static Config empty() {
        return new Config(new boolean[0], new boolean[0], new byte[0], 0, 0, 0, false);
    }

    /** A copy with room for ids below {@code size}; new probes start with {@code newOn}. */
    Config grow(int size) {
        if (size <= on.length) return this;
        boolean[] o = new boolean[size];
        boolean[] r = new boolean[size];
        byte[] k = new byte[size];
        System.arraycopy(on, 0, o, 0, on.length);
        System.arraycopy(root, 0, r, 0, root.length);
        System.arraycopy(kind, 0, k, 0, kind.length);
        return new Config(o, r, k, minDurationNanos, minCalls, maxDepth, events, countOnly);
    }

    Config withFlags(boolean[] newOn) {
        return new Config(newOn, root, kind, minDurationNanos, minCalls, maxDepth, events, countOnly);
    }

    Config withRoots(boolean[] newRoot) {
        return new Config(on, newRoot, kind, minDurationNanos, minCalls, maxDepth, events, countOnly);
    }

    Config withRules(long minDur, int minC, int maxD) {
        return new Config(on, root, kind, minDur, minC, maxD, events, countOnly);
    }

    Config withEvents(boolean ev) {
        return new Config(on, root, kind, minDurationNanos, minCalls, maxDepth, ev, countOnly);
    }

    Config withCountOnly(boolean[] co) {
        return new Config(on, root, kind, minDurationNanos, minCalls, maxDepth, events, co);
    }

    /**
     * Whether probe id counts its calls without timing them now: decided count-only
     * ({@link #decidedCountOnly}) and not a caller-filter root. A root is timed whatever was
     * decided: what runs under it records only inside its frames, so a zoom step into a tiny
     * method (its loops, its callees) would otherwise record nothing.
     */
    boolean countOnly(int id) {
        return id < countOnly.length && countOnly[id] && !(rootsActive && id < root.length && root[id]);
    }

    /** Whether the runtime decided probe id is too short to time (a root or not). */
    boolean decidedCountOnly(int id) {
        return id < countOnly.length && countOnly[id];
    }
}
