package org.hyprof.runtime;

/**
 * One thread's recording state: a shadow stack of open activations and the thread's aggregate
 * pages. Only its own thread writes it; the writer thread reads it for snapshots (racy reads of
 * counters are acceptable for periodic snapshots; the final snapshot is taken at shutdown).
 *
 * <p>Memory: stats pages of {@link Stats#PAGE_PROBES} probes as the thread first records one of
 * them, within the stats budget (past it the activation is dropped and counted in
 * {@link #statsDrops}); the state is dropped once the thread has ended and its figures are
 * written ({@link Recorder#retire}). The 8-probe, 34-long pages add a null test (the budget) and
 * a lane shift (16-bit histogram counts) to a recorded exit; ProbeBench before and after, on a
 * machine too loaded to tell a few ns apart, is in bench/README.md.
 *
 * <p>Hot-path rules: after the first event of a thread (and the first use of a stats page)
 * nothing here allocates (but a histogram carry page, once per page of probes, when one of them
 * first has 65,536 calls of one duration class, and a probe's fine histogram: created at its
 * second call, doubled when a new duration bucket finds it 3/4 full, at most 8 times; and the
 * calling-context tree's arrays, which double as new paths are first seen, and a node's histogram,
 * made at its first call). With a tree, a recorded call's times go to its node instead of the
 * probe's record, and count-only calls are added up per path in fields here: a pair with the tree
 * costs about what one without does (bench/README.md); a frame is 13 longs in one array, the last its tree node (where parallel arrays
 * cost one cache line per field); deduction uses fixed-point costs, no division. Measured on JDK 17 x86-64
 * (2 × nanoTime = 47 ns): a recording enter+exit pair went from 74 ns with parallel arrays and
 * divisions to 64 ns; a bare push/pop of (id, time) would be 49 ns, the thread-local lookups 3 ns
 * and the aggregates about 6 ns of the rest. The two longs that carry the probe cost at the
 * calibration in force (so a recalibration does not re-price open activations) made no difference
 * measurable above JMH's noise (77.4 vs 77.8 ns, 2 × nanoTime = 54 ns on that machine).
 */
final class ThreadState {
    /** Frames deeper than this are not recorded (counted in {@link #depthDrops}). */
    static final int MAX_STACK = 1 << 16;

    // frame layout: 12 longs per open activation
    private static final int F_ID = 0;          // id << 2 | counted-as-root << 1 | kind (1 = loop)
    private static final int F_START = 1;       // System.nanoTime() at entry
    private static final int F_EVENTS = 2;      // timed events of the thread at entry (own enter included); -1: a call below --max-depth
    private static final int F_ITERS = 3;       // loop-iteration events of the thread at entry
    private static final int F_CHILD_INCL = 4;  // Σ raw inclusive time of direct callees
    private static final int F_COUNTS = 5;      // direct callees (low 32 bits) | timed loop events (high 32)
    private static final int F_DIRECT_ITERS = 6;// loop iterations not inside callees
    private static final int F_ITER_COUNT = 7;  // loops: own iterations
    private static final int F_COST = 8;        // the thread's probe cost (fixed point) at entry, own enter included
    private static final int F_CHILD_DINCL = 9; // Σ deducted inclusive time of direct callees, as recorded (clamped)
    private static final int F_CPU = 10;        // the thread's CPU time at entry (cpuAt)
    private static final int F_CHILD_CPU = 11;  // Σ deducted CPU time of direct callees, as recorded
    private static final int F_NODE = 12;       // the frame's node in the calling-context tree (a marker: its caller's)
    private static final int FRAME = 13;
    private static final long LOOP_EVENT = 1L << 32;
    private static final long KIND_LOOP = 1, ROOT = 2;

    final long tid;
    /**
     * The kernel's id of the thread (what a system trace shows; Android's CPU clock reads
     * {@code /proc/self/task/TID}), or 0 when it could not be read.
     */
    final long osTid;
    final String name;
    /** Unique among the threads registered since the last reset (sinks key what they sent by it). */
    final int index;
    /**
     * The thread recording here, weakly: the reporter retires the state of a thread that has ended
     * ({@link Recorder#deadThreads}) and a dead thread is not kept alive for it.
     */
    final java.lang.ref.WeakReference<Thread> thread;
    /**
     * The thread, strongly, while this state holds its slot in {@link Recorder}'s table (null
     * otherwise): what the count-only paths compare the current thread with. Not the weak
     * reference: its {@code get()} carries the collector's read barrier, and inlined twice into
     * SciMark's Monte Carlo loop it cost more than the count itself (Monte Carlo with method
     * probes on: 405 against 650–785 Mflops, plain ~1,500). Cleared when the slot is freed, so an
     * ended thread is not kept past its state's retirement.
     */
    Thread owner;

    private long[] frames = new long[64 * FRAME];
    /** Top of stack, in longs (depth × FRAME). */
    private int top;
    private int methodDepth;
    private int rootDepth;

    /** Timed probe events (enter/exit/loop enter/loop exit) recorded on this thread so far. */
    private long events;
    /** Loop-iteration events recorded on this thread so far. */
    private long iters;
    /**
     * Σ cost of this thread's probe events so far, each at the calibration in force when it
     * happened (fixed point, {@link Calibration#FX_SHIFT}). An activation's probe cost is the
     * difference between its exit and its entry, so a recalibration while it is open (the runtime
     * recalibrates periodically) changes only the cost of the events after it.
     */
    private long cost;

    /** active[id]: open activations of method id (outermost-activation rule for recursion). */
    private int[] active = new int[0];
    /** Aggregate pages, see {@link Stats}: {@link Stats#REC} longs per probe. */
    volatile long[][] pages = new long[0][];
    /** Hybrid runs: native cost pages, {@link Stats#NAT_REC} longs per probe; null until needed. */
    volatile long[][] natPages;
    /** Histogram carries: wraps of a bucket's 16-bit count (2^16 each); null until a count wraps. */
    volatile int[][] carryPages;
    /**
     * Fine per-call histograms ({@link Buckets}), a page of {@link Stats#PAGE_PROBES} references
     * per stats page; a probe gets one at its second recorded call (its first call's time is its
     * {@link Stats#MIN}), so a probe called once costs nothing more.
     */
    volatile DurationHistogram[][] finePages;
    /** Fine histograms the stats budget refused (their probes report log₂ percentiles). */
    long fineRefused;
    /** Bytes of pages taken from the stats budget (given back when the state is dropped). */
    volatile long statsBytes;
    /** Activations not recorded because a new page would have gone past the stats budget. */
    long statsDrops;

    /** The roots array rootDepth was counted against (reference compare: configs are immutable). */
    private boolean[] rootsSeen = new boolean[0];

    /**
     * Roots changed: recount which open frames are roots, so a root set while its method is
     * already running (a thread's endless {@code run()}) takes effect at once.
     */
    private void recountRoots(Config c) {
        rootsSeen = c.root;
        long[] f = frames;
        int n = 0;
        for (int t = 0; t < top; t += FRAME) {
            long key = f[t + F_ID];
            if ((key & KIND_LOOP) != 0 || f[t + F_EVENTS] < 0) continue;
            int id = (int) (key >>> 2);
            if (c.rootsActive && id < c.root.length && c.root[id]) { f[t + F_ID] = key | ROOT; n++; }
            else f[t + F_ID] = key & ~ROOT;
        }
        rootDepth = n;
    }

    /** Frames not recorded because the shadow stack was full. */
    long depthDrops;

    /**
     * Σ deducted inclusive time of top-level method activations (no method frame below them): the
     * thread's total, against which Σ exclusive time of its methods is checked.
     */
    long topInclNanos;
    /** Native work under top-level activations (hybrid runs): estimated device ns and energy (pJ). */
    long topNativeEstNanos, topNativeEnergyPicojoules;
    /** Σ deducted CPU time of top-level method activations: the thread's CPU total (see {@link #cpuAt}). */
    long topCpuNanos;

    /**
     * Hybrid runs: how far this thread's clock is behind System.nanoTime(). Time the emulator
     * spends running native code is replaced by the estimated device time, segment by segment
     * ({@link #shiftClock}), so every activation open across a native call, and the event log,
     * see device time.
     */
    private long clockShift;

    // Hybrid runs: native costs of open method frames, 8 longs per stack slot (exclusive
    // instructions, cycles, est. ns, pJ; then the same inclusive). Allocated on the first native
    // call only, so runs without native code pay one flag test per method exit.
    private long[] nat;
    private boolean natUsed;

    final EventLog log;

    /** The calling-context tree ({@code treeNodes}); null when the run keeps none. */
    final PathTree tree = PathTree.budget() > 0 ? new PathTree() : null;

    // ------------------------------------------------------------------ thread CPU time

    /**
     * The sampler's last reading of this thread's CPU clock ({@link CpuClock#SAMPLED}), replaced
     * (never mutated) by {@link #cpuSampled}: probes read it with one volatile read.
     */
    volatile CpuSample cpuSample;
    /** The last CPU time handed to a frame: never goes back (own thread only). */
    private long cpuLast;
    /**
     * The wall time {@link #cpuLast} was handed out at (unshifted System.nanoTime()); before the
     * first value, so far back that nothing bounds it (and {@code wall - cpuWall} cannot overflow).
     */
    private long cpuWall = Long.MIN_VALUE / 2;
    /** CPU time at the event being closed ({@link #clock}), for {@link #deduct}. */
    private long cpuClose;

    /** One reading of a thread's CPU clock and the rate since the one before. */
    static final class CpuSample {
        /** System.nanoTime() of the reading. */
        final long wallNanos;
        /** The thread's cumulative CPU time then. */
        final long cpuNanos;
        /** CPU ns per wall ns over the period before, fixed point (1 << 16 = one core busy). */
        final long rateFx;

        CpuSample(long wallNanos, long cpuNanos, long rateFx) {
            this.wallNanos = wallNanos;
            this.cpuNanos = cpuNanos;
            this.rateFx = rateFx;
        }
    }

    /**
     * The sampler read this thread's CPU clock: {@code cpuNanos} at {@code wallNanos}. The rate
     * of the period since the reading before (clamped to [0, 1] core) is what probes extrapolate
     * with until the next reading.
     */
    void cpuSampled(long wallNanos, long cpuNanos) {
        CpuSample p = cpuSample;
        long rate = 0;
        if (p != null) {
            long dw = wallNanos - p.wallNanos, dc = cpuNanos - p.cpuNanos;
            if (dw <= 0) return;
            rate = dc <= 0 ? 0 : dc >= dw ? 1L << 16 : (dc << 16) / dw;
        }
        cpuSample = new CpuSample(wallNanos, cpuNanos, rate);
    }

    /**
     * This thread's CPU time at wall time {@code wallNanos} (unshifted System.nanoTime()), as the
     * mode in force measures it: dual reads the clock; sampled extrapolates from the last reading
     * at the rate of the period before it (a volatile read and a multiply), so a frame's CPU time
     * is its share of each sample period in proportion to the wall time it overlaps, assuming the
     * thread's rate stays as it was, and the error on a frame is at most the CPU time the thread
     * spent in about one sample period at each of its ends. Never goes back, and never moves on
     * by more than the wall time since the value before (a thread runs on one core at most): a
     * reading showing CPU time spent before the last value was handed out (the extrapolation at
     * the old rate lagged) is not charged to the frames opened since. So a frame's CPU time from
     * these values is at most its raw wall time, and the deduction's cap takes nothing off what
     * the frame's event records show ({@link EventLog#record} logs these values).
     */
    long cpuAt(long wallNanos) {
        int mode = Recorder.cpuMode;
        long v;
        if (mode == CpuClock.SAMPLED) {
            CpuSample s = cpuSample;
            if (s == null) return cpuLast;
            long dw = wallNanos - s.wallNanos;
            if (dw > Recorder.cpuStaleNanos) dw = wallNanos - (s = cpuReadLate(wallNanos, s)).wallNanos;
            if (dw < 0) dw = 0;
            else if (dw > 1L << 40) dw = 1L << 40; // no overflow below: 2^40 × 2^16
            v = s.cpuNanos + ((dw * s.rateFx) >> 16);
        } else if (mode == CpuClock.DUAL) {
            CpuClock c = Recorder.cpuClock;
            v = c == null ? -1 : c.currentThreadCpuNanos();
        } else return 0;
        long last = cpuLast, room = wallNanos - cpuWall;
        if (room > 0) cpuWall = wallNanos;
        else room = 0;
        if (v - last > room) v = last + room;
        if (v < last) v = last;
        cpuLast = v;
        return v;
    }

    /**
     * Calibration only, on a state about to be dropped: calls clamped by their deduction (more
     * probe cost inside than they lasted, as a program's first calls can be charged while the
     * calibration's never are), so that {@link #deduct}'s clamps and the clamped count are in the
     * probe path's branch profile; see {@code Calibrator.firstCalls}.
     */
    void takeClamps(Config c, int id) {
        for (int i = 0; i < 4; i++) {
            int outer = enter(c, id);
            exitAt(c, id, enter(c, id), false);
            cost += 1L << 50; // about 2^40 ns of probe cost inside, in Calibration.FX_SHIFT fixed point
            exitAt(c, id, outer, false);
        }
    }

    /**
     * Calibration only, on a state about to be dropped: {@link #cpuAt}'s clamps, which a thread's
     * first readings take (the sampler's rate runs ahead of the wall time, or behind the last value
     * handed out) and the calibration's own readings never do; see {@code Calibrator.firstCalls}.
     */
    void takeCpuClamps() {
        long now = System.nanoTime();
        for (int i = 0; i < 4; i++) {
            cpuSample = new CpuSample(now, 1_000_000L, 2L << 16); // two cores busy: ahead of the wall time
            cpuLast = 0;
            cpuWall = now - 1_000;
            cpuAt(now + 1_000);
            cpuLast = Long.MAX_VALUE >> 2; // behind the last value
            cpuAt(now + 2_000);
            cpuAt(now - 5_000); // a reading older than the sample
        }
    }

    /**
     * The sampler's last reading is older than {@link Recorder#cpuStaleNanos} (two periods): on a
     * loaded machine its thread waits for a core like the app's, and extrapolating at a rate that
     * no longer holds charged a spinning method up to 35 % more CPU than it got (it ran in short
     * turns while the reading said one core). The thread reads its own clock instead, at most once
     * per two periods, so the error stays within about a period's CPU at each end of a frame.
     */
    private CpuSample cpuReadLate(long wallNanos, CpuSample s) {
        CpuClock c = Recorder.cpuClock;
        long cpu = c == null ? -1 : c.currentThreadCpuNanos();
        if (cpu < 0) return s;
        cpuSampled(wallNanos, cpu);
        CpuSample n = cpuSample; // this reading, or the sampler's if it came meanwhile
        return n != null ? n : s;
    }

    /** Wall time now (shifted, see {@link #clockShift}) and the CPU time at it into {@link #cpuClose}. */
    private long clock() {
        long raw = System.nanoTime();
        cpuClose = cpuAt(raw);
        return raw - clockShift;
    }

    ThreadState(Thread t, int index) {
        this.tid = t.getId();
        this.osTid = t == Thread.currentThread() ? currentOsTid() : 0;
        this.name = t.getName();
        this.index = index;
        this.thread = new java.lang.ref.WeakReference<Thread>(t);
        this.log = new EventLog(this);
        // made on its own thread (Recorder.state): the sampler's baseline is read here once, so
        // the CPU time the thread used before its first probe is not charged to its first frame
        CpuClock c = Recorder.cpuClock;
        if (c != null && t == Thread.currentThread()) {
            long cpu = c.currentThreadCpuNanos();
            if (cpu >= 0) {
                cpuLast = cpu;
                cpuWall = System.nanoTime();
                cpuSample = new CpuSample(cpuWall, cpu, 0);
            }
        }
    }

    /**
     * The calling thread's kernel id: Linux and Android name it in the link {@code /proc/thread-self}
     * ({@code /proc/PID/task/TID}); older Android kernels lack it, so {@code android.os.Process.myTid()}
     * then; 0 when neither answers. Read once per thread, when its state is made.
     */
    static long currentOsTid() {
        try {
            return Long.parseLong(new java.io.File("/proc/thread-self").getCanonicalFile().getName());
        } catch (Throwable notLinux) {
            try {
                Object tid = Class.forName("android.os.Process").getMethod("myTid").invoke(null);
                return ((Integer) tid).longValue();
            } catch (Throwable notAndroid) {
                return 0;
            }
        }
    }

    /**
     * The thread has ended (or was collected): nothing will be recorded here again. A true answer
     * from {@code isAlive()} orders everything the thread wrote before the caller's reads (JLS 17.4.4).
     */
    boolean ended() {
        Thread t = thread.get();
        return t == null || !t.isAlive();
    }

    // ------------------------------------------------------------------ open frames (event log)

    /** Frames on the stack now (methods and loops, outermost at 0); read by the event log. */
    int openFrames() {
        return top / FRAME;
    }

    int openFrameId(int i) {
        return (int) (frames[i * FRAME + F_ID] >>> 2);
    }

    boolean openFrameIsLoop(int i) {
        return (frames[i * FRAME + F_ID] & KIND_LOOP) != 0;
    }

    /** Entry time of open frame i, or Long.MIN_VALUE for a marker below --max-depth (never logged). */
    long openFrameStart(int i) {
        int t = i * FRAME;
        return frames[t + F_EVENTS] < 0 ? Long.MIN_VALUE : frames[t + F_START];
    }

    /** The thread's CPU time at open frame i's entry ({@link #cpuAt}; 0 without a CPU clock). */
    long openFrameCpu(int i) {
        return frames[i * FRAME + F_CPU];
    }

    // ------------------------------------------------------------------ methods

    /**
     * Opens a method frame. Returns its token ({@code top} after the push: never 0), or 0 when
     * nothing was opened (filtered by the roots, or the stack is full).
     */
    int enter(Config c, int id) {
        // before the path's frame (top) changes (see countFast), and before this frame's probe cost
        // at entry is taken: count-only calls are charged when flushed (countedSlow)
        flushCounted();
        if (c.root != rootsSeen) recountRoots(c);
        if (c.rootsActive && rootDepth == 0 && !c.root[id]) return 0;
        long[] f = frames;
        int t = top;
        if (t == f.length && (f = growStack()) == null) { depthDrops++; return 0; }
        int node = t == 0 ? 0 : (int) f[t - FRAME + F_NODE];
        if (c.maxDepth > 0 && methodDepth >= c.maxDepth) {
            // below the maximum depth: a marker, so that this call's exit is not taken for an
            // outer activation of the same method (recursion)
            f[t + F_ID] = (long) id << 2;
            f[t + F_EVENTS] = -1;
            f[t + F_NODE] = node;
            top = t + FRAME;
            return top;
        }
        PathTree tr = tree;
        f[t + F_NODE] = tr == null ? 0 : tr.child(node, id << 2);
        if (id >= active.length) growActive(id);
        active[id]++;
        methodDepth++;
        long key = (long) id << 2;
        if (c.rootsActive && c.root[id]) { rootDepth++; key |= ROOT; }
        f[t + F_ID] = key;
        f[t + F_EVENTS] = ++events;
        f[t + F_ITERS] = iters;
        f[t + F_CHILD_INCL] = 0;
        f[t + F_COUNTS] = 0;
        f[t + F_DIRECT_ITERS] = 0;
        f[t + F_COST] = cost += Recorder.calibration.perEventFx;
        f[t + F_CHILD_DINCL] = 0;
        f[t + F_CHILD_CPU] = 0;
        top = t + FRAME;
        long now = clock();
        f[t + F_START] = now;
        f[t + F_CPU] = cpuClose;
        if (c.events) log.record(id, EventLog.ENTER, now, cpuClose, 0);
        return top;
    }

    /**
     * A call of a count-only probe: counted, not timed. Its time stays in the caller's exclusive
     * time, where it was spent, less the count-only call's calibrated cost, which is deducted from
     * the open activations like a probe event. False when nothing was counted (filtered out, or past
     * the stats budget): a loop's iterations are then not counted either.
     */
    boolean countOnly(Config c, int id, boolean loop) {
        if (c.root != rootsSeen) recountRoots(c);
        if (c.rootsActive && rootDepth == 0 && !c.root[id]) return false;
        // Each kind of counting in a method of its own: C2 inlines only the one a site reaches, and
        // counts only its bytecode against its limit of inlined code per compile (see close).
        if (tree != null) countCall(id << 2 | (loop ? PathTree.LOOP : PathTree.METHOD)); // on its path, to its node when flushed
        else if (!countOnPage(id, 1)) return false;
        // taken out of the open activations around it; a method's call on its path when flushed
        if (tree == null || loop) cost += Recorder.calibration.countFx;
        return true;
    }

    /**
     * A call of a count-only method ({@link Recorder#count}): the path the JIT inlines at every
     * count-only site, so kept to a slot test and two adds; everything else (the roots, no tree, a
     * new path, the flush bound) is {@link #countOnly}, called out of line. With the whole of
     * countOnly inlined at each site, four count-only methods calling each other (CallHeavy's
     * "small": a → b → d, a → c → d) compiled to more code than C2 inlines into a caller
     * ({@code InlineSmallCode}): {@code a} stayed a call in its caller's loop ("already compiled
     * into a big method"). ProbeBench's count-only pair: 4.4 → 2.7–3.0 ns with this path.
     */
    void countOnlyCall(Config c, int id) {
        int k = id << 2 | PathTree.METHOD;
        int i = slotOf(k);
        long[] sl = cSlots;
        long n;
        if (sl[i] == slotKey(top, k) && c.root == rootsSeen && (n = sl[i + S_CALLS]) < FLUSH_COUNTED - 1) {
            sl[i + S_CALLS] = n + 1; // as countCalls, below the flush bound (charged when flushed)
            return;
        }
        countOnly(c, id, false);
    }

    /**
     * The count-only call of an {@code invokedynamic} site ({@link Recorder#countFast}): added up on
     * its path, or a free slot taken for the path, with no call out of this method on any branch.
     * False, with nothing done, when the full path must run ({@link #countOnlyCall}: another path
     * in the slot, no tree, no frame open, the roots changed, the call filtered out or a root).
     *
     * <p>Why no call on any branch: inlined into a hot loop of the app (SciMark's Monte Carlo calls
     * two count-only methods an iteration), a call on even a cold branch is a point where every
     * field and array may change, so C2 re-read the runtime's fields on every call and spilled the
     * loop's values around them: 10.4 ns an iteration against 2.7 plain, about 5.7 with this path. The
     * site's guard ({@code ProbeSites}) takes the full path only when this returns false, and its
     * own profile lets C2 compile that branch as a trap while it is never taken. So nothing that
     * happens periodically may return false here, and it has no flush bound: this thread's next
     * timed entry or frame end flushes the slot.
     */
    boolean countFast(Config c, int id) {
        int k = id << 2 | PathTree.METHOD;
        int i = slotOf(k);
        long[] sl = cSlots;
        int t = top;
        long key = slotKey(t, k), held = sl[i];
        if (held != key) {
            // A free slot (frame entries and ends flush every slot, and a flushed or new slot's
            // counts are 0): the path takes it, as countedSlow does. Only here are the roots
            // compared: a path taken is counted on until the next frame entry or end even if the
            // roots changed meanwhile (as a site re-linked a moment late is). A count-only root
            // called outside the roots takes the full path.
            if (held != FREE || t == 0 || c.root != rootsSeen || tree == null || (rootDepth == 0 && c.rootsActive)) return false;
            sl[i] = key;
            cUsed |= 1 << (i >>> 2);
        }
        // One add for both cases, so one range check: each compiled site is smaller (a method of a
        // few count-only sites must stay under C2's InlineSmallCode to be inlined, see
        // InliningTest). No flush bound here: every timed entry and frame end flushes a slot in
        // use (and snapshots add what a slot holds), so its count grows only while no frame changes.
        sl[i + S_CALLS]++;
        return true; // its cost is charged when the slot is flushed (countedSlow)
    }

    /** Count-only calls ({@code n}) without a tree: to the probe's record at once. False past the stats budget. */
    private boolean countOnPage(int id, int n) {
        long[] p = page(id);
        if (p == null) { statsDrops += n; return false; }
        int b = (id & (Stats.PAGE_PROBES - 1)) * Stats.REC;
        p[b + Stats.SEEN] += n;
        p[b + Stats.R_COUNT_ONLY_CALLS] += n;
        return true;
    }

    /** Exits and loop ends whose token named no open frame of theirs (recording restarted, a bug). */
    long staleTokens;

    /**
     * Closes the method frame {@code token} names (see {@link #enter}), whatever the probe's state
     * is now; frames still open above it are closed first (loops) or dropped (methods whose exit
     * never ran).
     */
    void exitAt(Config c, int id, int token, boolean thrown) {
        int t = token - FRAME;
        long[] f = frames;
        if (t < 0 || t >= top || (f[t + F_ID] & ~ROOT) != (long) id << 2) { staleTokens++; return; }
        if (f[t + F_EVENTS] >= 0) close(c, t, NOW, false, thrown, 0);
        else unmarkAt(c, t);
        top = t;
    }

    /** The exit of a marker (a call below the maximum depth) at frame t: frames above it closed first. */
    private void unmarkAt(Config c, int t) {
        closeAbove(c, t, clock());
        unmark(t);
    }

    /** Frames above frame t whose own end never came: loops are closed, methods dropped. */
    private void closeAbove(Config c, int t, long now) {
        long[] f = frames;
        for (int j = top - FRAME; j > t; j -= FRAME) {
            if ((f[j + F_ID] & KIND_LOOP) != 0) close(c, j, now, true, false, 0);
            else discard(c, j, now);
        }
    }

    void exit(Config c, int id, boolean thrown) {
        long now = clock();
        int t = top - FRAME;
        if (t < 0) return;
        long[] f = frames;
        long key = (long) id << 2;
        // Common case: the top frame. Otherwise look down for it: frames above it were left open
        // (a probe switched off in between, an exception through code without probes).
        if ((f[t + F_ID] & ~ROOT) != key) {
            int i = t - FRAME;
            while (i >= 0 && (f[i + F_ID] & ~ROOT) != key) i -= FRAME;
            if (i < 0) return; // entered while off or filtered: nothing to close
            closeAbove(c, i, now);
            t = i;
        }
        if (f[t + F_EVENTS] < 0) unmark(t);
        else close(c, t, now, false, thrown, 0);
        top = t;
    }

    /**
     * The exit of a call below the maximum depth. Its time stays in the enclosing activation's
     * exclusive time, and so do its native costs (hybrid runs).
     */
    private void unmark(int t) {
        flushCounted();
        long[] n = nat;
        int slot = (t / FRAME) * NAT;
        if (!natUsed || n == null || slot + NAT > n.length) return;
        if (t >= FRAME) {
            int ps = slot - NAT;
            for (int i = 0; i < NAT; i++) n[ps + i] += n[slot + i];
        } else {
            topNativeEstNanos += n[slot + 6];
            topNativeEnergyPicojoules += n[slot + 7];
        }
        java.util.Arrays.fill(n, slot, slot + NAT, 0);
    }

    /** {@code now} for {@link #close}: read the clock there, and close the frames left open above first. */
    private static final long NOW = Long.MIN_VALUE;

    /**
     * Closes frame t, a method's or a loop's, at {@code now} ({@link #NOW}: the clock now, after
     * closing the frames above t): its deducted times go to its row or its tree node, its
     * inclusive time to the enclosing frames. {@code loop}: a loop frame, and {@code flag} says
     * whether its own loop-exit event closed it (else its method's end did), which hands over the
     * {@code iterations} its code counted; a method frame: {@code flag} says whether it ended by an
     * exception.
     *
     * <p>One method for both kinds of frame, with the clock read in it, and larger than HotSpot
     * C2's {@code FreqInlineSize} (325 bytes of bytecode) on purpose: C2 never inlines it, so what
     * a probe's exit inlines into the app's method is a token check and a call, the same with or
     * without the calling-context tree. When loop exits inlined their frame's closing, the app's
     * hot methods reached C2's limit of inlined code per compile (then later probes became calls)
     * and the tree's share of it (~900 bytes more per loop exit) made SciMark's FFT compile for
     * seconds and run 20 % slower ({@code InliningTest} keeps the size above the limit).
     */
    private void close(Config c, int t, long now, boolean loop, boolean flag, int codeIterations) {
        long[] f = frames;
        if (now == NOW) {
            now = clock();
            closeAbove(c, t, now);
        }
        if (codeIterations > 0) {
            f[t + F_ITER_COUNT] += codeIterations;
            countIterations(t, codeIterations);
        }
        flushCounted();
        long key = f[t + F_ID];
        int id = (int) (key >>> 2);
        deduct(f, t, now, !loop || flag); // a loop closed by its method's exit had no probe event of its own
        long iterations = 0;
        boolean outermost;
        if (loop) {
            if (flag) countLoopEvent(f, t - FRAME); // its own exit event, in the frames below up to their method
            iterations = f[t + F_ITER_COUNT];
            if (c.events) log.record(id, EventLog.LOOP_EXIT, now, cpuClose, iterations);
            // inclusive figures for the outermost activation only, as for methods: the same loop is
            // open once per activation of a recursive method
            outermost = id >= active.length || --active[id] <= 0;
        } else {
            // charge this activation to the enclosing frames up to the nearest method: their
            // exclusive time does not include it
            long raw = dRaw, incl = dIncl, cpu = dCpuIncl;
            for (int k = t - FRAME; k >= 0; k -= FRAME) {
                f[k + F_CHILD_INCL] += raw;
                f[k + F_CHILD_DINCL] += incl;
                f[k + F_CHILD_CPU] += cpu;
                f[k + F_COUNTS]++;
                if ((f[k + F_ID] & KIND_LOOP) == 0) break;
            }
            outermost = --active[id] == 0;
            if ((key & ROOT) != 0) rootDepth--;
            if (c.events) log.record(id, flag ? EventLog.THROW : EventLog.EXIT, now, cpuClose, 0);
            if (--methodDepth == 0) {
                topInclNanos += dIncl;
                topCpuNanos += dCpuIncl;
            }
        }
        long[] p = page(id);
        if (p == null) { // past the stats budget: dropped, counted
            statsDrops++;
            if (natUsed) finishNative(t, id, false, loop && outermost);
            return;
        }
        int b = (id & (Stats.PAGE_PROBES - 1)) * Stats.REC;
        long seen = ++p[b + Stats.SEEN];
        boolean recorded = (loop || seen > c.minCalls) && dIncl >= c.minDurationNanos;
        if (natUsed) finishNative(t, id, recorded, outermost);
        if (!recorded) return;
        if (tree != null && treeCall(t, !loop && flag, iterations)) addHeldCall(p, b, f, t);
        else addCall(p, b, f, t, id);
        if (tinyCall(Recorder.calibration, loop, !loop && !outermost, dIncl, dRaw, dEventsInside)) p[b + Stats.R_TINY_CALLS]++;
        if (loop) p[b + Stats.ITERATIONS] += iterations;
        else if (flag) p[b + Stats.THROWS]++;
        if (outermost) addOutermost(p, b);
        if (seen >= COUNT_ONLY_AFTER && (seen & (seen - 1)) == 0 && Recorder.countOnlyAllowed) maybeCountOnly(c, id, p, b);
    }

    /** Calls of a probe on one thread after which (and at each power of two after) it may go count-only. */
    static final long COUNT_ONLY_AFTER = 1024;

    /**
     * Switches a probe to count-only when most of its timed calls on this thread were shorter than
     * the tiny-call threshold (their median is below it): their deducted time would be mostly
     * the probe cost's own noise, and the probes would distort their callers more than they
     * tell. Notes the median seen (approximated from the histogram) for the report.
     */
    private void maybeCountOnly(Config c, int id, long[] p, int b) {
        long calls = p[b + Stats.CALLS];
        if (c.decidedCountOnly(id) || calls == 0 || p[b + Stats.R_TINY_CALLS] * 2 <= calls) return;
        long[] counts = new long[Stats.HIST_BUCKETS]; // once per probe switched (at most)
        for (int k = 0; k < Stats.HIST_BUCKETS; k++) counts[k] = Stats.field(pages, null, carryPages, id, Stats.HIST + k);
        if (tree != null) tree.addLog2(id, counts); // the calls the nodes hold
        long half = (calls + 1) / 2, seenSoFar = 0;
        long median = 0;
        for (int k = 0; k < Stats.HIST_BUCKETS; k++) {
            seenSoFar += counts[k];
            if (seenSoFar >= half) {
                median = k == 0 ? 0 : k == 1 ? 1 : 3L << (k - 2); // middle of [2^(k-1), 2^k)
                break;
            }
        }
        p[b + Stats.R_COUNT_ONLY_MEDIAN_NS] = Math.max(median, 1);
        Hyprof.countOnly(id);
    }

    // Results of deduct() for the activation being closed: fields rather than an object, so the
    // hot path allocates nothing; only the closing thread touches them.
    private long dRaw, dIncl, dExclRaw, dExcl, dEventsInside, dItersInside, dCpuIncl, dCpuExcl;
    private boolean dClamped;

    /**
     * The deduction arithmetic of an activation that closes, method or loop (see
     * {@link Calibration}): its raw and deducted inclusive and exclusive times, and the probe events
     * inside it; counts the closing event itself. One routine for both kinds of activation, at no
     * measurable cost: ProbeBench pairOn, quiet machine, two alternating rounds of the copied
     * arithmetic (before) and this routine (after), ns/op: aggregate 75.4, 79.5 → 73.3, 74.6;
     * events 80.7, 79.6 → 83.1, 79.2; loopIterOn 7.1, 7.1 → 7.1, 7.2 (two nanoTime reads: 47.3).
     */
    private void deduct(long[] f, int t, long now, boolean closingEvent) {
        dEventsInside = events - f[t + F_EVENTS];
        dItersInside = iters - f[t + F_ITERS];
        long raw = now - f[t + F_START];
        Calibration cal = Recorder.calibration;
        long inside = cost - f[t + F_COST];
        if (closingEvent) { // a loop closed by its method's exit had no probe event of its own
            events++;
            cost += cal.perEventFx;
        }
        long incl = ((raw << Calibration.FX_SHIFT) - cal.innerFx - inside) >> Calibration.FX_SHIFT;
        // Exclusive = inclusive − what the direct callees recorded as theirs. In exact arithmetic
        // this is the raw exclusive time less its own share of probe cost (inner + each callee's
        // outer part + the loop events in it), and it keeps the books by construction: Σ exclusive
        // over a thread's activations = Σ inclusive of its top-level ones. Where the probe cost
        // (the calibration's noise) exceeds what was measured, the inclusive time is raised to
        // what its callees recorded, never below: both stay ≥ 0, exclusive ≤ inclusive, the sums
        // still add up, and the activation is counted as clamped (Stats.CLAMPED).
        long children = f[t + F_CHILD_DINCL];
        // CPU time: the same probe cost comes off (the probes ran on this CPU), then it is held
        // between what the direct callees recorded as theirs and that plus the exclusive wall
        // time, so 0 ≤ exclusive CPU ≤ exclusive wall, inclusive CPU ≤ inclusive wall, and Σ
        // exclusive CPU over a thread = Σ inclusive CPU of its top-level activations.
        long cpu = (cpuClose - f[t + F_CPU]) - (raw - incl);
        boolean clamped = incl < children;
        if (clamped) incl = children;
        long cpuChildren = f[t + F_CHILD_CPU], excl = incl - children;
        if (cpu > cpuChildren + excl) cpu = cpuChildren + excl;
        if (cpu < cpuChildren) cpu = cpuChildren;
        dRaw = raw;
        dIncl = incl;
        dExclRaw = raw - f[t + F_CHILD_INCL];
        dExcl = excl;
        dClamped = clamped;
        dCpuIncl = cpu;
        dCpuExcl = cpu - cpuChildren;
    }

    /** Statistics of every recorded activation (method or loop), from {@link #deduct} and its frame. */
    private void addCall(long[] p, int b, long[] f, int t, int id) {
        long counts = f[t + F_COUNTS];
        long calls = ++p[b + Stats.CALLS];
        p[b + Stats.EXCL_RAW] += dExclRaw;
        p[b + Stats.EXCL] += dExcl;
        p[b + Stats.R_CPU_EXCL] += dCpuExcl;
        p[b + Stats.CHILD_CALLS] += counts & 0xffffffffL;
        p[b + Stats.DIRECT_LOOP_EVENTS] += counts >>> 32;
        p[b + Stats.DIRECT_ITERS] += f[t + F_DIRECT_ITERS];
        long inclCall = dIncl;
        if (tree != null) {
            // with a tree, only calls no node holds come here (see addHeldCall): the fine
            // histogram from the first of them (MIN is untouched until then)
            DurationHistogram fh = fine(id);
            if (fh == null || !fh.record(inclCall)) fineSlow(fh, id, p[b + Stats.MIN] == Long.MAX_VALUE, -1, inclCall);
        } else if (calls > 1) {
            // the fine histogram from the second call on: the first call's time is MIN until then
            DurationHistogram fh = fine(id);
            if (fh == null || !fh.record(inclCall)) fineSlow(fh, id, calls == 2, p[b + Stats.MIN], inclCall);
        }
        if (inclCall < p[b + Stats.MIN]) p[b + Stats.MIN] = inclCall;
        if (inclCall > p[b + Stats.MAX]) p[b + Stats.MAX] = inclCall;
        // four 16-bit bucket counts to a long (Stats.R_HIST); a count that wraps is carried (and
        // its carry out of the lane taken back)
        int h = Stats.bucket(inclCall);
        int shift = (h & 3) << 4;
        int hi = b + Stats.R_HIST + (h >>> 2);
        long v = p[hi] + (1L << shift);
        p[hi] = v;
        if (((v >>> shift) & 0xffff) == 0) histWrapped(p, hi, shift, id, h);
        if (dClamped) p[b + Stats.R_CLAMPED]++;
    }

    /**
     * Whether an activation just deducted was too short to time honestly: its deducted time is
     * below the tiny-call threshold and so was its raw time, probes inside and all, give or take
     * its own pair. A long raw interval that deduction brought near 0 is not a short call: the
     * cost of the events inside it (hundreds of count-only inner loops, say) was taken out and the
     * calibration's error on them is what is left. Its own pair is a small share of what it
     * measured, so going count-only would lose its time and spare the program nothing (FFT.bitreverse
     * in SciMark: 1023 count-only inner loops per call, about 8 µs raw, clamped to 0 when the
     * count-only call's calibrated cost came out above what it cost there). A loop's activation
     * is held to {@link Calibration#tinyLoopNanos}, the higher threshold.
     *
     * <p>A {@code nested} activation (of a method already open below it: recursion) is held to its
     * raw time less the timed probe events inside it: those are mostly its own recursion's, which
     * going count-only takes away too. Without that, a binary recursion of 1 ns calls had only its
     * leaves tiny, about half its calls, and stayed timed for its first 131,072–262,144 calls
     * (perturb.Kernels' treewalk, one cold call of 8.4 M calls: 10.3× plain; 7.2× now, count-only
     * from its 16,384th call).
     */
    static boolean tinyCall(Calibration cal, boolean loop, boolean nested, long inclNanos, long rawNanos, long eventsInside) {
        long tiny = loop ? cal.tinyLoopNanos : cal.tinyNanos;
        long raw = nested ? rawNanos - eventsInside * cal.perEventPicos / 1000 : rawNanos;
        return inclNanos < tiny && raw < TINY_RAW_FACTOR * tiny;
    }

    /** A call whose raw time is this many tiny thresholds (6 probe events' cost) or more is never tiny. */
    static final int TINY_RAW_FACTOR = 2;

    /**
     * A recorded activation whose tree node holds its time figures and distribution
     * ({@link #treeCall}): the probe's record keeps what the tree cannot give back (its total of
     * calls, the calls and iterations inside it, the clamped and tiny calls); snapshots add the
     * rest from the nodes ({@link HeldCalls}). So that a pair with the tree costs little more than
     * one without: the tree's figures replace the method's rather than repeat them.
     */
    private void addHeldCall(long[] p, int b, long[] f, int t) {
        long counts = f[t + F_COUNTS];
        p[b + Stats.CALLS]++;
        p[b + Stats.CHILD_CALLS] += counts & 0xffffffffL;
        p[b + Stats.DIRECT_LOOP_EVENTS] += counts >>> 32;
        p[b + Stats.DIRECT_ITERS] += f[t + F_DIRECT_ITERS];
        if (dClamped) p[b + Stats.R_CLAMPED]++;
    }

    /**
     * A 16-bit bucket count went from 65,535 to 0: one wrap goes to the probe's carry page. The
     * one allocation after a probe's first use: once per thread and page of probes, when a probe
     * of it first has 65,536 calls of one duration class (the page's probes share it).
     */
    private void histWrapped(long[] p, int hi, int shift, int id, int h) {
        if (shift < 48) p[hi] -= 1L << (shift + 16); // the lane's carry out went into the next lane
        int pi = id >>> Stats.PAGE_SHIFT;
        int[][] cs = carryPages;
        if (cs == null || pi >= cs.length) {
            int[][] n = new int[pages.length][];
            if (cs != null) System.arraycopy(cs, 0, n, 0, cs.length);
            cs = n;
        }
        if (cs[pi] == null) {
            cs[pi] = new int[Stats.PAGE_PROBES * Stats.HIST_BUCKETS];
            Recorder.takeStats(Stats.CARRY_PAGE_BYTES); // counted, never refused: the count is owed
            statsBytes += Stats.CARRY_PAGE_BYTES;
        }
        cs[pi][(id & (Stats.PAGE_PROBES - 1)) * Stats.HIST_BUCKETS + h]++;
        carryPages = cs; // volatile write: the snapshot thread sees the carry with the page
    }

    /** Probe id's fine histogram, or null (called once so far, or refused by the budget). */
    private DurationHistogram fine(int id) {
        DurationHistogram[][] fp = finePages;
        int pi = id >>> Stats.PAGE_SHIFT;
        if (fp == null || pi >= fp.length) return null;
        DurationHistogram[] page = fp[pi];
        return page == null ? null : page[id & (Stats.PAGE_PROBES - 1)];
    }

    /**
     * The fine histogram of probe id has no room for a new bucket, or does not exist yet (the
     * probe's second call: created with the first call's time, {@code firstNanos}). The one place
     * the fine histograms allocate: a table doubles (within {@link DurationHistogram#RUNTIME_MAX_SLOTS})
     * when the stats budget has the bytes, else it halves its resolution, and at log₂ without bytes
     * a call goes to the nearest bucket ({@link DurationHistogram#recordWithin}). A probe whose table the budget refused at its second call gets
     * none (its snapshot then says its percentiles are log₂ ones: the table would miss calls).
     */
    private void fineSlow(DurationHistogram fh, int id, boolean create, long firstNanos, long nanos) {
        if (fh == null) {
            if (!create) return; // refused before: incomplete from then on
            long bytes = DurationHistogram.tableBytes(DurationHistogram.MIN_SLOTS) + 24;
            int pi = id >>> Stats.PAGE_SHIFT;
            DurationHistogram[][] fp = finePages;
            boolean newPage = fp == null || pi >= fp.length || fp[pi] == null;
            if (newPage) bytes += 16 + 4L * Stats.PAGE_PROBES;
            if (!Recorder.reserveStats(bytes)) { fineRefused++; return; }
            statsBytes += bytes;
            fh = new DurationHistogram(DurationHistogram.RUNTIME_MAX_SLOTS);
            if (firstNanos >= 0) fh.record(firstNanos);
            if (newPage) {
                if (fp == null || pi >= fp.length) {
                    DurationHistogram[][] n = new DurationHistogram[Math.max(pi + 1, pages.length)][];
                    if (fp != null) System.arraycopy(fp, 0, n, 0, fp.length);
                    fp = n;
                }
                fp[pi] = new DurationHistogram[Stats.PAGE_PROBES];
            }
            fp[pi][id & (Stats.PAGE_PROBES - 1)] = fh;
            finePages = fp; // volatile write: the snapshot thread sees the histogram with its page
            if (fh.record(nanos)) return;
        }
        statsBytes += fh.recordWithin(nanos, STATS_BUDGET);
    }

    /** The process's stats budget ({@link Recorder#reserveStats}) as the fine histograms grow from it. */
    private static final DurationHistogram.Budget STATS_BUDGET = new DurationHistogram.Budget() {
        @Override
        public boolean take(long bytes) {
            return Recorder.reserveStats(bytes);
        }
    };

    /** Inclusive figures, counted for the outermost activation of a probe only (recursion). */
    private void addOutermost(long[] p, int b) {
        p[b + Stats.OUTER_CALLS]++;
        p[b + Stats.INCL_RAW] += dRaw;
        p[b + Stats.INCL] += dIncl;
        p[b + Stats.R_CPU_INCL] += dCpuIncl;
        p[b + Stats.EVENTS_INSIDE] += dEventsInside;
        p[b + Stats.ITERS_INSIDE] += dItersInside;
    }

    /**
     * Hybrid runs: the emulator ran native code for {@code emulatorNanos} of wall time, which
     * the device would have spent as {@code estimatedNanos}: from now on this thread's clock is
     * behind by the difference more.
     */
    void shiftClock(long emulatorNanos, long estimatedNanos) {
        clockShift += emulatorNanos - estimatedNanos;
    }

    /**
     * Hybrid runs: native work charged to the nearest open method activation (the native
     * method's bridge, or whatever method called it when the bridge's probe is off).
     */
    void nativeCost(long instr, long cycles, long estNanos, long picojoules) {
        int t = top - FRAME;
        long[] f = frames;
        while (t >= 0 && (f[t + F_ID] & KIND_LOOP) != 0) t -= FRAME;
        if (t < 0) { // no method frame open: the thread's total still counts it
            topNativeEstNanos += estNanos;
            topNativeEnergyPicojoules += picojoules;
            return;
        }
        natUsed = true;
        int slot = (t / FRAME) * NAT;
        if (nat == null || nat.length < slot + NAT) nat = java.util.Arrays.copyOf(nat == null ? new long[0] : nat, Math.max(slot + NAT, f.length));
        nat[slot] += instr;
        nat[slot + 1] += cycles;
        nat[slot + 2] += estNanos;
        nat[slot + 3] += picojoules;
        nat[slot + 4] += instr;
        nat[slot + 5] += cycles;
        nat[slot + 6] += estNanos;
        nat[slot + 7] += picojoules;
    }

    private static final int NAT = 8;

    /**
     * A frame ends: its native costs go to its stats when the call is recorded (exclusive;
     * inclusive for the outermost activation; a loop has only inclusive ones), and its inclusive
     * costs to the enclosing frame, or to the thread's top-level totals.
     */
    private void finishNative(int t, int id, boolean recorded, boolean outermost) {
        int slot = (t / FRAME) * NAT;
        long[] n = nat;
        if (n == null || slot + NAT > n.length) return;
        long[] p = recorded ? natPage(id) : null;
        if (p == null && recorded) statsDrops++;
        PathTree tr = tree;
        if (recorded && tr != null) {
            long[] r = tr.rec;
            int nb = (int) frames[t + F_NODE] * PathTree.NREC;
            r[nb + PathTree.NATIVE_INSTR] += n[slot];
            r[nb + PathTree.NATIVE_CYCLES] += n[slot + 1];
            r[nb + PathTree.NATIVE_EST_NS] += n[slot + 2];
            r[nb + PathTree.NATIVE_ENERGY_PJ] += n[slot + 3];
        }
        if (p != null) {
            int b = (id & (Stats.PAGE_PROBES - 1)) * Stats.NAT_REC - Stats.NATIVE_INSTR;
            p[b + Stats.NATIVE_INSTR] += n[slot];
            p[b + Stats.NATIVE_CYCLES] += n[slot + 1];
            p[b + Stats.NATIVE_EST_NS] += n[slot + 2];
            p[b + Stats.NATIVE_ENERGY_PJ] += n[slot + 3];
            if (outermost) {
                p[b + Stats.NATIVE_INSTR_INCL] += n[slot + 4];
                p[b + Stats.NATIVE_CYCLES_INCL] += n[slot + 5];
                p[b + Stats.NATIVE_EST_NS_INCL] += n[slot + 6];
                p[b + Stats.NATIVE_ENERGY_PJ_INCL] += n[slot + 7];
            }
        }
        int parent = t - FRAME;
        if (parent >= 0) {
            int ps = (parent / FRAME) * NAT;
            for (int i = 4; i < NAT; i++) n[ps + i] += n[slot + i];
        } else {
            topNativeEstNanos += n[slot + 6];
            topNativeEnergyPicojoules += n[slot + 7];
        }
        for (int i = 0; i < NAT; i++) n[slot + i] = 0;
    }

    /**
     * A method frame left open above the one being closed (its exit never ran): drop it without
     * recording. Its time stays in the enclosing frame's exclusive time (nothing is charged to the
     * enclosing frame as a callee's), deducted with the probe cost inside it.
     */
    private void discard(Config c, int j, long now) {
        flushCounted();
        if (frames[j + F_EVENTS] < 0) { unmark(j); return; }
        long key = frames[j + F_ID];
        int id = (int) (key >>> 2);
        active[id]--;
        methodDepth--;
        if ((key & ROOT) != 0) rootDepth--;
        if (natUsed && nat != null && (j / FRAME) * NAT + NAT <= nat.length) java.util.Arrays.fill(nat, (j / FRAME) * NAT, (j / FRAME) * NAT + NAT, 0);
        if (c.events) log.record(id, EventLog.THROW, now, cpuClose, 0);
    }

    // ------------------------------------------------------------------ loops

    /** Opens a loop frame; returns its token (as {@link #enter}) or 0. */
    int loopEnter(Config c, int id) {
        if (c.root != rootsSeen) recountRoots(c);
        if (c.rootsActive && rootDepth == 0) return 0;
        long[] f = frames;
        int t = top;
        if (t > 0 && f[t - FRAME + F_EVENTS] < 0) return 0; // inside a call below the maximum depth
        if (t == f.length && (f = growStack()) == null) { depthDrops++; return 0; }
        if (id >= active.length) growActive(id);
        flushCounted(); // count-only calls before this frame's entry cost is taken (see enter)
        PathTree tr = tree;
        f[t + F_NODE] = tr == null ? 0 : tr.child(t == 0 ? 0 : (int) f[t - FRAME + F_NODE], id << 2 | PathTree.LOOP);
        active[id]++; // a loop of a recursive method is open once per activation
        long perEvent = Recorder.calibration.perEventFx;
        countLoopEvent(f, t - FRAME);
        f[t + F_ID] = ((long) id << 2) | KIND_LOOP;
        f[t + F_EVENTS] = ++events;
        f[t + F_ITERS] = iters;
        f[t + F_CHILD_INCL] = 0;
        f[t + F_COUNTS] = 0;
        f[t + F_DIRECT_ITERS] = 0;
        f[t + F_ITER_COUNT] = 0;
        f[t + F_COST] = cost += perEvent;
        f[t + F_CHILD_DINCL] = 0;
        f[t + F_CHILD_CPU] = 0;
        top = t + FRAME;
        long now = clock();
        f[t + F_START] = now;
        f[t + F_CPU] = cpuClose;
        if (c.events) log.record(id, EventLog.LOOP_ENTER, now, cpuClose, 0);
        return top;
    }

    /**
     * Closes the loop frame {@code token} names, whose back edges the code counted:
     * {@code iterations}. Iterations counted in the code cost no probe event, so nothing is
     * deducted for them.
     */
    void loopExitAt(Config c, int id, int token, int iterations) {
        int t = token - FRAME;
        long[] f = frames;
        if (t < 0 || t >= top || f[t + F_ID] != (((long) id << 2) | KIND_LOOP)) { staleTokens++; return; }
        close(c, t, NOW, true, true, iterations);
        top = t;
    }

    void loopIter(int id) {
        int i = top - FRAME;
        if (i < 0) return;
        long[] f = frames;
        long key = ((long) id << 2) | KIND_LOOP;
        if (f[i + F_ID] != key) {
            // an inner loop left by an exception edge may still be open above it
            while (i >= 0 && (f[i + F_ID] & KIND_LOOP) != 0 && f[i + F_ID] != key) i -= FRAME;
            if (i < 0 || f[i + F_ID] != key) return;
        }
        iters++;
        long perIter = Recorder.calibration.perIterFx;
        cost += perIter;
        f[i + F_ITER_COUNT]++;
        for (int k = i; k >= 0; k -= FRAME) {
            f[k + F_DIRECT_ITERS]++;
            if ((f[k + F_ID] & KIND_LOOP) == 0) break;
        }
    }

    void loopExit(Config c, int id) {
        long now = clock();
        long[] f = frames;
        int t = top - FRAME;
        long key = ((long) id << 2) | KIND_LOOP;
        int i = t;
        while (i >= 0 && (f[i + F_ID] & KIND_LOOP) != 0 && f[i + F_ID] != key) i -= FRAME;
        if (i < 0 || f[i + F_ID] != key) return;
        closeAbove(c, i, now);
        close(c, i, now, true, true, 0);
        top = i;
    }

    /** A timed loop event (enter, exit) in the frames up to the nearest method (counted for the host). */
    private static void countLoopEvent(long[] f, int from) {
        for (int k = from; k >= 0; k -= frameStride) {
            f[k + F_COUNTS] += LOOP_EVENT;
            if ((f[k + F_ID] & KIND_LOOP) == 0) break;
        }
    }

    /**
     * {@link #FRAME}, as a field the JIT cannot take for a constant: with a constant step C2 made
     * {@link #countLoopEvent}'s walk a counted loop guarded by a loop-limit predicate, which failed
     * the first time the walk met a stack deeper than before (a program's measured phase after its
     * warm-up): loopEnter and close, with the walk inlined, went back to the interpreter until C2
     * compiled them again, tens of milliseconds of every timed loop event at interpreter speed.
     */
    private static int frameStride = FRAME;

    /** The token {@link #loopEnter}'s count-only path hands out: no frame, iterations still counted. */
    static final int COUNT_ONLY_LOOP = -1;

    /**
     * The token of a count-only loop whose activations the code itself adds up and hands over in
     * bulk ({@link #loopsCounted}; the JVM's loop sites, see {@code OutOfLineLoops}). A loop end
     * that gets it one activation at a time (code rewritten before the code added them up) counts
     * that one.
     */
    static final int COUNT_IN_CODE = -2;

    /**
     * {@code n} activations of count-only loop id with {@code iterations} back edges in all, added up
     * by the code since it last handed them over — never past a frame: the code hands them over
     * before the frame they ran in ends (the enclosing timed loop's end, the method's exits) and
     * every {@code OutOfLineLoops.ACTIVATIONS} activations, so they go to the same frame and
     * path as one by one, and a loop that runs on is seen while it does. Charged one hand-over's cost.
     */
    void loopsCounted(Config c, int id, int n, long iterations) {
        if (c.root != rootsSeen) recountRoots(c);
        if (c.rootsActive && rootDepth == 0 && (id >= c.root.length || !c.root[id])) return; // the probe may be gone since
        if (tree != null) countCalls(id << 2 | PathTree.LOOP, n);
        else if (!countOnPage(id, n)) return;
        cost += Recorder.calibration.loopFlushFx; // taken out of the open activations around it
        loopCounted(id, iterations);
    }

    /**
     * The end of a count-only loop's activation: its iterations are counted (the loop's and the
     * enclosing frames' up to their method, as for a timed loop), no clock read, no frame.
     */
    void loopCounted(int id, long iterations) {
        if (iterations <= 0) return;
        long[] p = page(id);
        if (p == null) { statsDrops++; return; }
        p[(id & (Stats.PAGE_PROBES - 1)) * Stats.REC + Stats.ITERATIONS] += iterations;
        PathTree tr = tree;
        if (tr != null) countIterationsOnPath(id << 2 | PathTree.LOOP, iterations);
        countIterations(top - FRAME, iterations);
    }

    /**
     * Iterations counted in the code, handed over at a loop's end: the thread's total, and the
     * direct iterations of frame {@code from} and the frames under it up to their method.
     */
    private void countIterations(int from, long iterations) {
        iters += iterations;
        long[] f = frames;
        for (int k = from; k >= 0; k -= FRAME) {
            f[k + F_DIRECT_ITERS] += iterations;
            if ((f[k + F_ID] & KIND_LOOP) == 0) break;
        }
    }

    // ------------------------------------------------------------------ calling-context tree

    // With a tree: count-only calls and count-only loops' iterations on a path (a key under the
    // frame at its top), added up here before they go to its tree node and the probe's record: a
    // tiny method called in a loop costs two compares and an add per call rather than a node
    // lookup and a stats page (SciMark 2.0's Monte Carlo, two count-only calls in a 15 ns
    // iteration, ran ~35 % slower with the lookup). C_SLOTS paths at once, a slot per probe id
    // modulo C_SLOTS: with two slots, tiny methods calling each other (a → b → c → d, all
    // count-only, so all four counted under the same timed frame) took each other's slot on every
    // call, and every call went the slow way (CallHeavy's "small": ~40 ns a call where the
    // calibration, which calls one probe, charged 6). A path is flushed when another takes its
    // slot, every FLUSH_COUNTED calls of the slow paths, and before a frame is pushed or popped
    // (enter, loopEnter, close, discard, unmark: out of the code probes inline into the app; so a
    // slot's top names the same frame throughout, and the calls it holds fell inside the frames
    // open now). Snapshots add the calls not flushed yet to the probe's row (pendingCountOnly), so
    // the method table is whole; the tree lags by the calls made since the last frame change.
    static final int C_SLOTS = 8;
    /**
     * Per slot, {@link #S_STRIDE} longs from {@code 4i}: the path ({@link #slotKey}: the frame, top,
     * its path is under and the probe's key), {@link #FREE} when free; the calls; the iterations
     * added up. One array and one compare of the path (it was two int fields in one array and the
     * counts in another): the fast path inlined at each count-only site of the app is smaller
     * (fewer loads and range checks), and C2 inlines a method of several such sites into its
     * callers, where it refused one of more than {@code InlineSmallCode} bytes of compiled code
     * ("already compiled into a big method": CallHeavy's "small" 3-4x slower in one JVM of two).
     */
    private final long[] cSlots = freeSlots();
    private static final int S_STRIDE = 4, S_CALLS = 1, S_ITERS = 2;
    /** A free slot's path: no {@link #slotKey} is negative. */
    private static final long FREE = -1L;

    /** The path of probe key k under the frame top t, as a slot holds it. */
    private static long slotKey(int t, int k) {
        return (long) t << 32 | (k & 0xffffffffL);
    }
    /** Bit i: slot i holds a path. */
    private int cUsed;
    /** Calls a slow path adds to a slot before it flushes it. */
    static final long FLUSH_COUNTED = 1 << 16;

    private static long[] freeSlots() {
        long[] p = new long[S_STRIDE * C_SLOTS];
        for (int i = 0; i < p.length; i += S_STRIDE) p[i] = FREE;
        return p;
    }

    /** The index in {@link #cSlots} of key k's slot: its probe id modulo C_SLOTS, times the stride. */
    private static int slotOf(int k) {
        return k & (S_STRIDE * C_SLOTS - S_STRIDE);
    }

    /**
     * The probes whose count-only calls are added up and not flushed yet ({@code ids[0..n)}) and
     * how many ({@code calls[0..n)}); returns n ≤ {@link #C_SLOTS} (the arrays' length at least).
     * Snapshot thread: racy reads, as of the counters (a value torn between two paths is off for
     * one snapshot).
     */
    int pendingCountOnly(int[] ids, long[] calls) {
        int n = 0;
        long[] sl = cSlots;
        for (int i = 0; i < sl.length; i += S_STRIDE) {
            long key = sl[i];
            long m = sl[i + S_CALLS];
            if (key != FREE && m > 0) { ids[n] = (int) key >>> 2; calls[n++] = m; }
        }
        return n;
    }

    private void countCall(int k) {
        countCalls(k, 1);
    }

    private void countCalls(int k, int n) {
        int i = slotOf(k);
        long[] sl = cSlots;
        if (sl[i] == slotKey(top, k) && (sl[i + S_CALLS] += n) < FLUSH_COUNTED) return;
        countedSlow(k, n, 0); // a new path, or one at the flush bound: one call out of line for both
    }

    private void countIterationsOnPath(int k, long iterations) {
        int i = slotOf(k);
        long[] sl = cSlots;
        if (sl[i] == slotKey(top, k)) sl[i + S_ITERS] += iterations;
        else countedSlow(k, 0, iterations);
    }

    /**
     * Everything about count-only paths but the fast path, in one method: a call or iterations on
     * a path not in its slot (it takes the slot, the path there flushed), a path at
     * {@link #FLUSH_COUNTED} calls (flushed), and the flush of every slot before a frame is popped
     * ({@code k == FLUSH_ALL}). Kept above C2's {@code FreqInlineSize} (InliningTest): at the start
     * of a run most count-only calls come here, so the JIT profiles this call as hot and would
     * inline it, with the node lookup behind it, into {@link #countCall}'s own compiled code; a
     * count-only site in the app (five or six levels deep behind the {@code invokedynamic} site's
     * method handles) then refuses to inline that big compiled method, and every count-only call in
     * SciMark's Monte Carlo became a call (−15 %).
     */
    private void countedSlow(int k, long calls, long iterations) {
        if (k == FLUSH_ALL) Recorder.offerHot(this);
        long[] sl = cSlots;
        int i = k == FLUSH_ALL ? -1 : slotOf(k);
        boolean bound = i >= 0 && sl[i] == slotKey(top, k); // the call is added, and the path is at its bound
        if (i >= 0 && !bound && calls != 0 && page(k >>> 2) == null) { // past the stats budget: dropped, counted
            statsDrops += calls;
            chargeCounted(k, calls);
            return;
        }
        // the slots to flush: every one, or k's (at its bound, or another path's that k takes)
        int flush = i < 0 ? cUsed : cUsed & 1 << (i >>> 2);
        for (; flush != 0; flush &= flush - 1) {
            int j = S_STRIDE * Integer.numberOfTrailingZeros(flush);
            long held = sl[j];
            int t = (int) (held >>> 32), key = (int) held;
            long n = sl[j + S_CALLS], it = sl[j + S_ITERS];
            sl[j] = FREE;
            sl[j + S_CALLS] = 0;
            sl[j + S_ITERS] = 0;
            cUsed &= ~(1 << (j >>> 2));
            chargeCounted(key, n);
            if ((n | it) == 0) continue;
            // a path countFast started may have no page yet: made now, or its calls dropped past the
            // budget (snapshots meanwhile counted them as pending: the row then loses them)
            long[] pg = n != 0 ? page(key >>> 2) : null;
            if (n != 0 && pg == null) { statsDrops += n; continue; }
            // the calls and iterations of key under the frame below t go to their node and probe record
            PathTree tr = tree;
            int node = tr.child(t == 0 ? 0 : (int) frames[t - FRAME + F_NODE], key); // the node first: making it may grow the record array
            long[] r = tr.rec;
            r[node * PathTree.NREC + PathTree.COUNT_ONLY] += n;
            r[node * PathTree.NREC + PathTree.ITERATIONS] += it;
            if (n != 0) {
                int id = key >>> 2;
                int b = (id & (Stats.PAGE_PROBES - 1)) * Stats.REC;
                // an (other paths) node mixes probes: the probe's record keeps those calls (see HeldCalls)
                if (tr.isOther(node)) pg[b + Stats.R_COUNT_ONLY_CALLS] += n;
                pg[b + Stats.SEEN] += n; // after the node's count: a snapshot seeing SEEN move sees the calls
            }
        }
        if (i < 0 || bound) return;
        int t = top;
        sl[i] = slotKey(t, k);
        sl[i + S_CALLS] = calls;
        sl[i + S_ITERS] = iterations;
        cUsed |= 1 << (i >>> 2);
        if (t == 0) countedSlow(FLUSH_ALL, 0, 0); // no frame will end to flush it: at once
    }

    /**
     * The probe cost of {@code n} count-only calls of key k, taken out of the open activations
     * around them: charged when their slot is flushed, not by each call, so that the fast path
     * inlined at every count-only site reads no calibration and writes one field less. Flushes come
     * before any frame's entry or end (enter, loopEnter, close, discard, unmark), so the calls
     * a slot holds all fell inside the frames open now, as when each call was charged. A count-only
     * loop's activations are charged by their own paths (one by one, or a hand-over's cost).
     */
    private void chargeCounted(int k, long n) {
        if ((k & 3) == PathTree.METHOD && n > 0) cost += n * Recorder.calibration.countFx;
    }

    /**
     * Every count added up goes to its node, and is charged, when a path is pending: before a
     * frame is pushed or popped. The test is here, small enough for C2 to inline at each of those
     * places, so that none of them calls out while no slot is in use.
     */
    private void flushCounted() {
        if (cUsed != 0) countedSlow(FLUSH_ALL, 0, 0);
    }

    /** {@link #countedSlow}'s key meaning "flush every slot" (no probe's: its kind bits are 3). */
    private static final int FLUSH_ALL = -1;

    /**
     * A recorded activation (frame t, figures from {@link #deduct}) goes to its tree node. Inside an
     * {@code (other paths)} node (its caller's node is the same) it adds its call and exclusive
     * figures only: the outermost activation there holds its inclusive time. Returns whether the
     * node holds the call ({@link PathTree#histogram}): then the probe's record need not.
     */
    private boolean treeCall(int t, boolean thrown, long iterations) {
        PathTree tr = tree;
        int n = (int) frames[t + F_NODE];
        long[] r = tr.rec;
        int b = n * PathTree.NREC;
        long calls = ++r[b + PathTree.CALLS];
        long incl = dIncl;
        r[b + PathTree.EXCL_RAW] += dExclRaw;
        r[b + PathTree.EXCL] += dExcl;
        r[b + PathTree.CPU_EXCL] += dCpuExcl;
        if (t == 0 || frames[t - FRAME + F_NODE] != n) {
            r[b + PathTree.INCL_RAW] += dRaw;
            r[b + PathTree.INCL] += incl;
            r[b + PathTree.CPU_INCL] += dCpuIncl;
        }
        if (incl < r[b + PathTree.MIN]) r[b + PathTree.MIN] = incl;
        if (incl > r[b + PathTree.MAX]) r[b + PathTree.MAX] = incl;
        if (iterations != 0) r[b + PathTree.ITERATIONS] += iterations;
        if (thrown) r[b + PathTree.THROWS]++;
        return tr.histogram(n, calls, incl);
    }

    // ------------------------------------------------------------------ storage

    /** Current stack depth (for tests and diagnostics). */
    int depth() {
        return top / FRAME;
    }

    /** The stats page of probe id; null when a new one would go past the stats budget. */
    private long[] page(int id) {
        long[][] ps = pages;
        int pi = id >>> Stats.PAGE_SHIFT;
        if (pi >= ps.length || ps[pi] == null) return newPage(pi);
        return ps[pi];
    }

    private long[] newPage(int pi) {
        if (!Recorder.reserveStats(Stats.PAGE_BYTES)) return null;
        statsBytes += Stats.PAGE_BYTES;
        long[][] ps = grown(pages, pi);
        long[] p = Stats.newPage();
        ps[pi] = p;
        pages = ps; // volatile write: the snapshot thread sees the page array and its contents
        return p;
    }

    /** Hybrid runs: the native page of probe id; null past the stats budget. */
    private long[] natPage(int id) {
        int pi = id >>> Stats.PAGE_SHIFT;
        long[][] ps = natPages;
        if (ps != null && pi < ps.length && ps[pi] != null) return ps[pi];
        if (!Recorder.reserveStats(Stats.NAT_PAGE_BYTES)) return null;
        statsBytes += Stats.NAT_PAGE_BYTES;
        ps = grown(ps == null ? new long[0][] : ps, pi);
        long[] p = new long[Stats.PAGE_PROBES * Stats.NAT_REC];
        ps[pi] = p;
        natPages = ps;
        return p;
    }

    /** {@code ps}, or a copy with room for index pi. */
    private static long[][] grown(long[][] ps, int pi) {
        if (pi < ps.length) return ps;
        long[][] n = new long[Math.max(pi + 1, ps.length * 2)][];
        System.arraycopy(ps, 0, n, 0, ps.length);
        return n;
    }

    /** Field {@code f} of probe id in snapshot terms ({@link Stats#field}), read by the snapshot thread. */
    long stat(int id, int f) {
        return Stats.field(pages, natPages, carryPages, id, f);
    }

    private void growActive(int id) {
        int[] n = new int[Math.max(id + 1, active.length * 2)];
        System.arraycopy(active, 0, n, 0, active.length);
        active = n;
    }

    private long[] growStack() {
        int n = frames.length * 2;
        if (n > MAX_STACK * FRAME) return null;
        frames = java.util.Arrays.copyOf(frames, n);
        return frames;
    }
}
