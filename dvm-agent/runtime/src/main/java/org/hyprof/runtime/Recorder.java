package org.hyprof.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Global recording state behind {@link Probe}: the published {@link Config}, the calibration in
 * effect, per-thread states, the event-log budget and the sink.
 */
final class Recorder {
    private Recorder() {}

    /** Everything a probe needs to decide whether and how to record; replaced, never mutated. */
    static volatile Config config = Config.empty();
    /** {@code config.on}, read without a barrier by {@link Probe} (see its class comment). */
    static boolean[] fastOn = config.on;
    /**
     * {@link #config}, read without a barrier by the count-only path ({@link #count}), which is
     * inlined into the app's loops: a volatile read is a barrier the JIT moves no load across, and
     * this one needs none. A count-only site reads it only to drop a count that comes a moment
     * after its probe went off; re-linking the site deoptimizes the code that may still hold an
     * older config. (No change measured on its own: CallHeavy's small, 0.63–0.65 ms a call both
     * ways.)
     */
    static Config plainConfig = config;

    /**
     * Re-links JIT-folded probe sites when a config changes ({@link ProbeSites}); null until the
     * first such site is linked, so a runtime without them (Android) never loads java.lang.invoke.
     */
    static volatile SiteListener sites;

    interface SiteListener {
        void changed(Config before, Config after);
    }

    /** Told of loop probes a config switches on ({@link Hyprof#onLoopsSwitchedOn}); null: nobody asks. */
    static volatile Hyprof.LoopsSwitchedOn loopsListener;

    /**
     * How the code's hand-overs of count-only loops reach {@link #loopsCounted}: on the JVM through
     * the path the JIT keeps out of the app's methods ({@link OutOfLineLoops}), directly elsewhere.
     * Set once, before recording starts ({@link Hyprof#start}); the calibrator measures the
     * hand-over through what is installed here, as the app's code calls it.
     */
    static LoopHandOver loopHandOver = LoopHandOver.DIRECT;

    interface LoopHandOver {
        /** Count-only activations the code added up (as {@link #loopsCounted}). */
        void counted(Config c, int id, int activations, long iterations);

        LoopHandOver DIRECT = new LoopHandOver() {
            @Override
            public void counted(Config c, int id, int activations, long iterations) {
                loopsCounted(c, id, activations, iterations);
            }
        };
    }

    /** Publishes a new config (volatile write first, then the mirror, then the linked sites). */
    static void publish(Config c) {
        Config before = config;
        config = c;
        fastOn = c.on;
        plainConfig = c;
        SiteListener l = sites;
        if (l != null) {
            try {
                l.changed(before, c);
            } catch (Throwable t) {
                report("could not re-link probe sites: " + t); // their flags still decide in Recorder
                noTable(); // count-only sites then take their full path, which reads the flags
            }
        }
        Hyprof.LoopsSwitchedOn ll = loopsListener;
        if (ll != null && before.on != c.on) { // rules, roots and count-only changes share the flags
            int[] ids = loopsSwitchedOn(before, c);
            if (ids.length > 0) {
                try {
                    ll.switchedOn(ids);
                } catch (Throwable t) {
                    report("could not place the code of loops switched on: " + t);
                }
            }
        }
    }

    /** Loop probes on in {@code after} and not in {@code before} (new ids included). */
    static int[] loopsSwitchedOn(Config before, Config after) {
        int[] ids = new int[8];
        int n = 0;
        boolean[] was = before.on, on = after.on;
        byte[] kind = after.kind;
        for (int i = 0; i < on.length; i++) {
            if (!on[i] || kind[i] != Config.KIND_LOOP || i < was.length && was[i]) continue;
            if (n == ids.length) ids = java.util.Arrays.copyOf(ids, n * 2);
            ids[n++] = i;
        }
        return java.util.Arrays.copyOf(ids, n);
    }

    /** {@link Probe#begin}'s recording path: the token of the frame opened, 0 if none. */
    static int begin(int id) {
        return begin(config, id);
    }

    /** {@link #begin(int)} under a given config: the calibrator measures exactly this path. */
    static int begin(Config c, int id) {
        try {
            if (id >= c.on.length || !c.on[id]) return 0;
            if (c.countOnly(id)) {
                // the path invokedynamic sites take too (count): one cost, the one the calibrator measures
                stateByTid().countOnlyCall(c, id);
                return 0;
            }
            return state().enter(c, id);
        } catch (Throwable t) {
            internalFailure(t);
            return 0;
        }
    }

    /** The count-only path of a probe site switched to it ({@link ProbeSites}). */
    static int count(int id) {
        try {
            Config c = plainConfig;
            if (id < c.on.length && c.on[id]) {
                ThreadState s = stateByTid();
                offerHot(s);
                s.countOnlyCall(c, id);
            }
        } catch (Throwable t) {
            internalFailure(t);
        }
        return 0;
    }

    /**
     * The fast path of a count-only {@code invokedynamic} site ({@code ProbeSites}): the call counted
     * with no call out ({@link ThreadState#countFast}), or false, with nothing done, when the site
     * must take {@link #count}. Throws nothing (a {@code Thread} subclass may override getId).
     */
    static boolean countFast(int id) {
        return countFast(plainConfig, id);
    }

    /** {@link #countFast(int)} under a given config: the calibrator measures exactly this path. */
    static boolean countFast(Config c, int id) {
        try {
            // No test of the probe's flag: publishing a config that switches it off (or times it)
            // re-links the site before it returns, and if re-linking fails the thread table is emptied
            // (noTable), so that no thread's state is found here and the full path decides. Two
            // loads, a range check and a branch less at every count-only site in the app.
            Thread t = Thread.currentThread();
            // the hot thread's state first (hoisted out of the app's loops), else the table's slot;
            // neither is ever null (VACANT): no null tests here
            ThreadState s = hot;
            if (s.owner != t && (s = tableSlot(t)).owner != t) return false;
            return s.countFast(c, id);
        } catch (Throwable e) {
            return false; // count, the site's other branch, runs and reports it
        }
    }

    /** Closes the frame {@code token} names, recorded whatever the probe's state is now. */
    static void end(int id, int token, boolean thrown) {
        end(config, id, token, thrown);
    }

    static void end(Config c, int id, int token, boolean thrown) {
        try {
            state().exitAt(c, id, token, thrown);
        } catch (Throwable t) {
            internalFailure(t);
        }
    }

    static int loopBegin(Config c, int id) {
        try {
            if (id >= c.on.length || !c.on[id]) return 0;
            if (c.countOnly(id)) { // a loop too short to time: counted, its iterations handed to loopEnd
                return state().countOnly(c, id, true) ? ThreadState.COUNT_ONLY_LOOP : 0;
            }
            return state().loopEnter(c, id);
        } catch (Throwable t) {
            internalFailure(t);
            return 0;
        }
    }

    static void loopEnd(Config c, int id, int token, int iterations) {
        try {
            ThreadState s = state(); // once: each call inlines a ThreadLocal lookup into the app's method
            if (token == ThreadState.COUNT_ONLY_LOOP) s.loopCounted(id, iterations);
            else if (token == ThreadState.COUNT_IN_CODE) s.loopsCounted(c, id, 1, iterations);
            else s.loopExitAt(c, id, token, iterations);
        } catch (Throwable t) {
            internalFailure(t);
        }
    }

    /** Count-only activations of a loop that the code added up (JVM; see {@link ThreadState#COUNT_IN_CODE}). */
    static void loopsCounted(Config c, int id, int activations, long iterations) {
        try {
            if (activations > 0) state().loopsCounted(c, id, activations, iterations);
        } catch (Throwable t) {
            internalFailure(t);
        }
    }

    // The recording paths of Probe's entry points: the volatile config is read again here, so a
    // probe switched off a moment ago records nothing, and rules are always current.

    static void enter(int id) {
        enter(config, id);
    }

    /** {@link #enter(int)} under a given config. */
    static void enter(Config c, int id) {
        try {
            if (id < c.on.length && c.on[id]) state().enter(c, id);
        } catch (Throwable t) {
            internalFailure(t);
        }
    }

    static void exit(int id, boolean thrown) {
        exit(config, id, thrown);
    }

    static void exit(Config c, int id, boolean thrown) {
        try {
            if (id < c.on.length && c.on[id]) state().exit(c, id, thrown);
        } catch (Throwable t) {
            internalFailure(t);
        }
    }

    static void loopEnter(int id) {
        try {
            Config c = config;
            if (id < c.on.length && c.on[id]) state().loopEnter(c, id);
        } catch (Throwable t) {
            internalFailure(t);
        }
    }

    static void loopIter(int id) {
        try {
            state().loopIter(id);
        } catch (Throwable t) {
            internalFailure(t);
        }
    }

    static void loopIter(Config c, int id) {
        try {
            if (id < c.on.length && c.on[id]) state().loopIter(id);
        } catch (Throwable t) {
            internalFailure(t);
        }
    }

    static void loopExit(int id) {
        try {
            Config c = config;
            if (id < c.on.length && c.on[id]) state().loopExit(c, id);
        } catch (Throwable t) {
            internalFailure(t);
        }
    }
    /** False under {@code timeAll=true}: every probe keeps timing, however short its calls. */
    static volatile boolean countOnlyAllowed = true;

    /**
     * How thread CPU time is measured ({@link CpuClock#OFF}, {@code SAMPLED}, {@code DUAL}); set
     * at start, before calibration (which then measures the probe path with its CPU clock reads).
     */
    static int cpuMode = CpuClock.OFF;
    /** The VM's CPU clock, or null (then {@link #cpuMode} is OFF). */
    static volatile CpuClock cpuClock;
    /**
     * A sampled reading older than this is stale (two sampler periods, set when the sampler
     * starts): a probe then reads its thread's clock itself ({@code ThreadState.cpuReadLate}).
     */
    static long cpuStaleNanos = Long.MAX_VALUE;

    /**
     * One pass of the CPU sampler: reads the CPU clock of every registered thread that is still
     * running and hands the reading to its state. The sampler thread calls it every
     * {@code cpuSampleMicros}; tests call it by hand.
     */
    static void sampleCpu() {
        CpuClock c = cpuClock;
        if (c == null || cpuMode != CpuClock.SAMPLED) return;
        for (ThreadState s : threadArray) {
            if (s.ended()) continue;
            long cpu = c.threadCpuNanos(s);
            if (cpu >= 0) s.cpuSampled(System.nanoTime(), cpu);
        }
    }

    /** In effect for deduction; immutable, so a plain field is safe (final-field semantics). */
    static Calibration calibration = Calibration.NONE;

    /** Replaced (not cleared) by {@link #reset()}, so threads re-register afterwards. */
    private static ThreadLocal<ThreadState> STATE = newThreadLocal();

    private static ThreadLocal<ThreadState> newThreadLocal() {
        return new ThreadLocal<ThreadState>() {
            @Override
            protected ThreadState initialValue() {
                return register(Thread.currentThread());
            }
        };
    }

    private static final List<ThreadState> THREADS = new ArrayList<ThreadState>();
    private static volatile ThreadState[] threadArray = new ThreadState[0];
    /** Index of the next thread to register ({@link ThreadState#index}); guarded by THREADS. */
    private static int nextIndex;
    /** Drop counts of threads whose state was dropped ({@link #retire}); guarded by THREADS. */
    private static long retiredEventDrops, retiredEventOverwrites, retiredDepthDrops, retiredStatsDrops;

    /** Default {@code statsBudget}: bytes of stats pages all live threads may hold together. */
    static final long DEFAULT_STATS_BUDGET = 32L << 20;
    /** Stats-page bytes still available ({@link #reserveStats}); may go below 0 by carry pages. */
    private static final AtomicLong statsLeft = new AtomicLong(DEFAULT_STATS_BUDGET);
    private static volatile long statsBudget = DEFAULT_STATS_BUDGET;

    /** Event-log bytes still available; buffers are carved from it. */
    private static final AtomicLong budgetBytes = new AtomicLong(0);
    static final int BUFFER_BYTES = 64 * 1024;
    /**
     * Events mode keeps the last events rather than the first ({@code keep=last}): a thread whose
     * buffer fills past the budget overwrites its oldest kept buffer ({@link EventLog}).
     */
    static volatile boolean keepLast;
    /** Keep last: buffers whose newest record is older than this go back to the budget (0 = no limit). */
    static volatile long maxAgeNanos;
    /**
     * Raised by a dump request ({@code hyprof ctl dump}): each thread sends what its flight-recorder
     * log keeps at its next event ({@link EventLog}; the owner, so no other thread touches its buffers).
     */
    static volatile int dumpEpoch;

    /** Asks every thread to send the events its log keeps (keep last), without stopping. */
    static void requestDump() {
        dumpEpoch++; // one writer: the collector connection's reader thread
    }

    /** Bytes of sent event buffers the flight recorder may take again. */
    static void returnBudget(long bytes) {
        budgetBytes.addAndGet(bytes);
    }
    private static final List<byte[]> FREE_BUFFERS = new ArrayList<byte[]>();

    private static volatile Sink sink = new DiscardSink();
    private static volatile String failure;
    private static final AtomicLong internalDrops = new AtomicLong();

    /**
     * Thread states by thread id ({@code id & (TID_SLOTS - 1)}), for the count-only path
     * ({@link #stateByTid}): a slot load and a compare of the thread cost less than the
     * ThreadLocal's hash lookup (ProbeBench, count-only pair: 4.7 → 3.2 ns). The compare is of the
     * thread itself, not of its id: {@link Thread#getId} may be overridden, and two threads that
     * answer the same id must never share a state. A thread whose slot another live thread holds
     * takes the ThreadLocal; a slot is claimed when its thread registers, and freed when its state
     * is retired or unregistered. Cleared by {@link #reset()}. Final, so that C2 knows its length
     * and drops the range check at each count-only site it inlines; a free slot holds
     * {@link #VACANT}, never null, which no thread owns, so the site needs no null test either.
     */
    static final int TID_SLOTS = 4096;
    private static final ThreadState VACANT = new ThreadState(new Thread("hyprof-vacant"), -1);
    private static final ThreadState[] byTid = vacantTable();

    /**
     * One thread's state in a plain static field, tried before the table at count-only sites
     * ({@link #countFast}): the thread that first took a table slot, or, while this is free, the
     * next one to take the full count-only path or flush its count-only calls ({@link #offerHot});
     * the main thread of most programs. Why, beside the table: a load
     * from the table (a constant array, its range check dropped) stays pinned where its site is,
     * so in a loop calling count-only methods every call loaded the slot, the state and its
     * fields again and tested them, while a static field's load is hoisted out of the loop with
     * all that depends on it. CallHeavy's "small" (four count-only methods an iteration of a
     * 1.3 ns loop): 4.7–5.0 ns an iteration through the table alone, 2.1 ns with this field
     * tried first, on the hot thread and on others alike (bench/README, "2026-12-04"). Other
     * threads take the table after one more load and compare. Not volatile, on purpose
     * (a volatile load is never hoisted): a stale value is safe, since only the owner's own
     * thread passes the owner test, and the owner is cleared when the slot is freed.
     */
    private static ThreadState hot = VACANT;

    /**
     * s becomes {@link #hot} if that is free and s holds its table slot: from the out-of-line
     * count-only paths of s's own thread (the full path, a flush of its slots), so that a thread
     * that registered while another held it takes it once that one's slot is freed. Never taken
     * from a live holder: the holder's compiled sites would then meet the branch they never took
     * (a deoptimization each), and two busy threads would take it in turns.
     */
    static void offerHot(ThreadState s) {
        if (hot == VACANT && s.owner == Thread.currentThread()) claimHot(s);
    }

    /** Whether s is {@link #hot} (tests). */
    static boolean isHot(ThreadState s) {
        return hot == s;
    }

    private static void claimHot(ThreadState s) {
        synchronized (THREADS) {
            if (hot == VACANT && byTid[slotOf(s.tid)] == s) hot = s;
        }
    }

    private static ThreadState[] vacantTable() {
        ThreadState[] t = new ThreadState[TID_SLOTS];
        java.util.Arrays.fill(t, VACANT);
        return t;
    }

    static ThreadState state() {
        return STATE.get();
    }

    /**
     * {@link #state()} through the table first: for the count-only path only. In the timed paths
     * (their clocks cost ten times the lookup) the table's test and its ThreadLocal fallback,
     * inlined at every probe event, made CallHeavy's {@code coarse} with loop probes 1.4× slower.
     */
    static ThreadState stateByTid() {
        ThreadState s = fromTable(Thread.currentThread());
        return s != null ? s : STATE.get();
    }

    /** Thread t's state from the table by its id, or null: not there, or the slot another thread's. */
    private static ThreadState fromTable(Thread t) {
        ThreadState s = tableSlot(t);
        return s.owner == t ? s : null;
    }

    /** What thread t's slot of the table holds: its state, another thread's, or {@link #VACANT}. */
    private static ThreadState tableSlot(Thread t) {
        return byTid[slotOf(t.getId())];
    }

    private static int slotOf(long tid) {
        return (int) tid & (TID_SLOTS - 1);
    }

    /** Set when probe sites could not be re-linked: the table stays empty ({@link #countFast}). */
    private static boolean tableOff;

    /** Empties the thread table for good (until {@link #reset}): every count-only call takes the full path. */
    private static void noTable() {
        synchronized (THREADS) {
            tableOff = true;
            for (ThreadState s : THREADS) freeSlot(s);
        }
    }

    private static ThreadState register(Thread t) {
        // the calibration's first-call exercise: a state of its own, seen by nothing (dropScratch)
        if (t instanceof Calibrator.FirstCallsThread) return new ThreadState(t, -1);
        synchronized (THREADS) {
            ThreadState s = new ThreadState(t, nextIndex++);
            THREADS.add(s);
            threadArray = THREADS.toArray(new ThreadState[0]);
            int slot = slotOf(s.tid);
            ThreadState held = byTid[slot];
            if (!tableOff && (held == VACANT || held.ended())) {
                if (held != VACANT) held.owner = null;
                s.owner = t;
                byTid[slot] = s;
                if (hot == VACANT) hot = s;
            }
            return s;
        }
    }

    /** Whether s is found by the table rather than the ThreadLocal (tests). */
    static boolean holdsSlot(ThreadState s) {
        return byTid[slotOf(s.tid)] == s;
    }

    /** Frees the slot of a state that is dropped (under THREADS). */
    private static void freeSlot(ThreadState s) {
        int slot = slotOf(s.tid);
        if (byTid[slot] == s) byTid[slot] = VACANT;
        if (hot == s) hot = VACANT;
        s.owner = null;
    }

    /** Gives back what a state never registered took: its stats pages and tree nodes. */
    static void dropScratch(ThreadState s) {
        statsLeft.addAndGet(s.statsBytes);
        if (s.tree != null) s.tree.release();
    }

    /** Drops a thread's state from snapshots (the calibration thread's). */
    static void unregister(ThreadState s) {
        synchronized (THREADS) {
            if (THREADS.remove(s)) {
                freeSlot(s); // its thread may go on through the ThreadLocal; the table must not keep it
                statsLeft.addAndGet(s.statsBytes);
                if (s.tree != null) s.tree.release();
            }
            threadArray = THREADS.toArray(new ThreadState[0]);
        }
    }

    /** Registered threads that have ended: their figures are final. */
    static ThreadState[] deadThreads() {
        ThreadState[] all = threadArray;
        int n = 0;
        for (ThreadState t : all) if (t.ended()) n++;
        if (n == 0) return new ThreadState[0];
        ThreadState[] dead = new ThreadState[n];
        n = 0;
        for (ThreadState t : all) if (t.ended() && n < dead.length) dead[n++] = t;
        return n == dead.length ? dead : java.util.Arrays.copyOf(dead, n);
    }

    /**
     * Drops the states of ended threads whose final figures the sink has (see
     * {@link Sink#retire}): their pages go back to the stats budget, their drop counts into the
     * process totals.
     */
    static void retire(ThreadState[] dead) {
        synchronized (THREADS) {
            for (ThreadState t : dead) {
                if (!THREADS.remove(t)) continue;
                freeSlot(t);
                statsLeft.addAndGet(t.statsBytes);
                if (t.tree != null) t.tree.release();
                retiredEventDrops += t.log.dropped;
                retiredEventOverwrites += t.log.overwritten;
                retiredDepthDrops += t.depthDrops;
                retiredStatsDrops += t.statsDrops;
            }
            threadArray = THREADS.toArray(new ThreadState[0]);
        }
    }

    // ------------------------------------------------------------------ stats budget

    /** Sets the stats budget (bytes of stats pages over all live threads). */
    static void setStatsBudget(long bytes) {
        synchronized (THREADS) {
            statsLeft.addAndGet(bytes - statsBudget);
            statsBudget = bytes;
        }
    }

    static long statsBudget() {
        return statsBudget;
    }

    /** Bytes of stats pages held by live threads. */
    static long statsBytes() {
        return statsBudget - statsLeft.get();
    }

    /**
     * Takes {@code bytes} from the stats budget; false (nothing taken) when they are not left.
     * Past half the budget the reporter is woken (once per round) to drop ended threads now
     * rather than at its next round: threads that end faster than it runs would otherwise hold
     * the budget.
     */
    static boolean reserveStats(long bytes) {
        for (;;) {
            long left = statsLeft.get();
            if (left < bytes) {
                statsBudgetUsedUp();
                wakeReporter();
                return false;
            }
            if (statsLeft.compareAndSet(left, left - bytes)) {
                if (left - bytes < statsBudget / 2) wakeReporter();
                return true;
            }
        }
    }

    /** The thread that retires ended threads ({@code Hyprof}'s reporter), or null. */
    static volatile Thread reporter;
    private static final java.util.concurrent.atomic.AtomicBoolean wakeRequested =
            new java.util.concurrent.atomic.AtomicBoolean();

    private static void wakeReporter() {
        Thread r = reporter;
        if (r != null && wakeRequested.compareAndSet(false, true)) java.util.concurrent.locks.LockSupport.unpark(r);
    }

    /** The reporter starts a round: the next page taken past half the budget wakes it again. */
    static void reporterAwake() {
        wakeRequested.set(false);
    }

    /** Takes bytes that cannot be refused (a histogram carry: the count is owed). */
    static void takeStats(long bytes) {
        statsLeft.addAndGet(-bytes);
    }

    /** 0: budget not used up yet; 1: used up, not said yet; 2: said. */
    private static volatile int statsBudgetNoted;

    /** Notes that the stats budget is used up; said by the reporter ({@link #statsBudgetNote}), not here on an app thread. */
    private static void statsBudgetUsedUp() {
        if (statsBudgetNoted == 0) statsBudgetNoted = 1;
    }

    /** Once, after the stats budget was first used up: the line for stderr and the session; else null. */
    static String statsBudgetNote() {
        if (statsBudgetNoted != 1) return null;
        statsBudgetNoted = 2;
        return "stats budget of " + statsBudget + " bytes used up (statsBudget): activations that need a new"
                + " stats page are dropped and counted until ended threads give pages back";
    }

    /** All threads that have recorded, in order of their first event. */
    static ThreadState[] threads() {
        return threadArray;
    }

    static Sink sink() {
        return sink;
    }

    static void setSink(Sink s) {
        sink = s;
    }

    // ------------------------------------------------------------------ event budget

    static void setBudget(long bytes) {
        budgetBytes.set(bytes);
    }

    static long budgetRemaining() {
        return budgetBytes.get();
    }

    /** A buffer for a thread's event log, or null when the budget is used up. */
    static byte[] acquireBuffer() {
        long size;
        for (;;) {
            long left = budgetBytes.get();
            if (left < 64) return null;
            size = Math.min(BUFFER_BYTES, left);
            if (budgetBytes.compareAndSet(left, left - size)) break;
        }
        synchronized (FREE_BUFFERS) {
            for (int i = FREE_BUFFERS.size() - 1; i >= 0; i--) {
                if (FREE_BUFFERS.get(i).length == size) return FREE_BUFFERS.remove(i);
            }
        }
        return new byte[(int) size];
    }

    /** A kept buffer the event log no longer needs: its bytes go back to the budget. */
    static void releaseBuffer(byte[] b) {
        budgetBytes.addAndGet(b.length);
        recycleBuffer(b);
    }

    static void recycleBuffer(byte[] b) {
        synchronized (FREE_BUFFERS) {
            if (FREE_BUFFERS.size() < 64) FREE_BUFFERS.add(b);
        }
    }

    /** Events overwritten by newer ones (keep last), over the live threads and those retired. */
    static long totalEventOverwrites() {
        long n;
        synchronized (THREADS) {
            n = retiredEventOverwrites;
        }
        for (ThreadState t : threadArray) n += t.log.overwritten;
        return n;
    }

    static long totalEventDrops() {
        long n;
        synchronized (THREADS) {
            n = retiredEventDrops;
        }
        for (ThreadState t : threadArray) n += t.log.dropped;
        return n;
    }

    static long totalDepthDrops() {
        long n;
        synchronized (THREADS) {
            n = retiredDepthDrops;
        }
        for (ThreadState t : threadArray) n += t.depthDrops;
        return n;
    }

    /** Activations dropped because the stats budget was used up, over all threads ever. */
    static long totalStatsDrops() {
        long n;
        synchronized (THREADS) {
            n = retiredStatsDrops;
        }
        for (ThreadState t : threadArray) n += t.statsDrops;
        return n;
    }

    // ------------------------------------------------------------------ failures

    /**
     * Called from a probe's catch block. A stack overflow or out-of-memory inside a probe belongs
     * to the app's situation: the event is dropped and counted. Anything else is a runtime bug:
     * recording is switched off for good and the reason is reported, but the app goes on.
     */
    static void internalFailure(Throwable t) {
        try {
            if (t instanceof StackOverflowError || t instanceof OutOfMemoryError) {
                internalDrops.incrementAndGet();
                return;
            }
            if (failure != null) return;
            publish(Config.empty());
            StackTraceElement[] st = t.getStackTrace();
            String where = st.length > 0 ? " at " + st[0] : "";
            failure = "recording disabled after internal error: " + t + where;
            report(failure);
            sink.error(failure);
        } catch (Throwable ignored) {
            // never into the app
        }
    }

    static long internalDrops() {
        return internalDrops.get();
    }

    static String failure() {
        return failure;
    }

    /** One line on stderr: the only way the runtime talks to the user besides the session. */
    static void report(String message) {
        try {
            System.err.println("hyprof: " + message);
        } catch (Throwable ignored) {
            // stderr closed: nothing else to do
        }
    }

    /** Forget all recorded state (tests and restarts). */
    static void reset() {
        synchronized (THREADS) {
            publish(Config.empty());
            calibration = Calibration.NONE;
            countOnlyAllowed = true;
            cpuMode = CpuClock.OFF;
            cpuClock = null;
            cpuStaleNanos = Long.MAX_VALUE;
            for (ThreadState t : THREADS) if (t.tree != null) t.tree.release();
            THREADS.clear();
            STATE = newThreadLocal();
            java.util.Arrays.fill(byTid, VACANT);
            hot = VACANT;
            tableOff = false;
            threadArray = new ThreadState[0];
            nextIndex = 0;
            retiredEventDrops = retiredEventOverwrites = retiredDepthDrops = retiredStatsDrops = 0;
            statsBudget = DEFAULT_STATS_BUDGET;
            statsLeft.set(DEFAULT_STATS_BUDGET);
            statsBudgetNoted = 0;
            reporter = null;
            failure = null;
            internalDrops.set(0);
            budgetBytes.set(0);
            keepLast = false;
            maxAgeNanos = 0;
            dumpEpoch = 0;
            sink = new DiscardSink();
        }
    }

    /** Recording to nowhere: used before start and after stop. */
    static final class DiscardSink implements Sink {
        @Override public void events(ThreadState t, int seq, long base, byte[] buf, int len) { recycleBuffer(buf); }
        @Override public void drain() {}
        @Override public void manifest(String tsv) {}
        @Override public void calibration(Calibration c) {}
        @Override public void snapshot(boolean changedOnly) {}
        @Override public void retire(ThreadState[] ended) {}
        @Override public void custom(int type, byte[] payload) {}
        @Override public void error(String message) {}
        @Override public void close() {}
    }
}
