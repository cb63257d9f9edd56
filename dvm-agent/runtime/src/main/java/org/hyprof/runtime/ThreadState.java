package org.hyprof.runtime;

/**
 * One thread's recording state: a shadow stack of open activations and the thread's aggregate
 * pages. Only its own thread writes it; the writer thread reads it for snapshots (racy reads of
 * counters are acceptable for periodic snapshots; the final snapshot is taken at shutdown).
 *
 * <p>Hot-path rule: after the first event of a thread (and the first use of a stats page) nothing
 * here allocates. Arrays only grow when a deeper stack or a higher probe id shows up.
 */
final class ThreadState {
    /** Frames deeper than this are not recorded (counted in {@link #depthDrops}). */
    static final int MAX_STACK = 1 << 16;

    final long tid;
    final String name;
    final int index;

    // ---- shadow stack (parallel arrays: no frame objects) ----
    private int[] sId = new int[256];
    private byte[] sKind = new byte[256];
    private long[] sStart = new long[256];
    private long[] sEvents = new long[256];
    private long[] sIters = new long[256];
    private long[] sChildIncl = new long[256];
    private int[] sChildren = new int[256];
    private long[] sLoopEvents = new long[256];
    private long[] sDirectIters = new long[256];
    private long[] sIterCount = new long[256];
    private int depth;
    private int methodDepth;
    private int rootDepth;

    /** Timed probe events (enter/exit/loop enter/loop exit) recorded on this thread so far. */
    private long events;
    /** Loop-iteration events recorded on this thread so far. */
    private long iters;

    /** active[id]: open activations of method id (outermost-activation rule for recursion). */
    private int[] active = new int[0];
    /** Aggregate pages, see {@link Stats}. */
    volatile long[][] pages = new long[0][];

    /** Frames not recorded because the shadow stack was full. */
    long depthDrops;

    final EventLog log;

    ThreadState(Thread t, int index) {
        this.tid = t.getId();
        this.name = t.getName();
        this.index = index;
        this.log = new EventLog(this);
    }

    // ------------------------------------------------------------------ methods

    void enter(Config c, int id) {
        if (c.rootsActive && rootDepth == 0 && !c.root[id]) return;
        if (c.maxDepth > 0 && methodDepth >= c.maxDepth) return;
        if (depth == sId.length && !growStack()) { depthDrops++; return; }
        if (id >= active.length) growActive(id);
        int d = depth++;
        sId[d] = id;
        sKind[d] = Config.KIND_METHOD;
        sChildIncl[d] = 0;
        sChildren[d] = 0;
        sLoopEvents[d] = 0;
        sDirectIters[d] = 0;
        active[id]++;
        methodDepth++;
        if (c.root[id]) rootDepth++;
        long ev = ++events;
        sEvents[d] = ev;
        sIters[d] = iters;
        long now = System.nanoTime();
        sStart[d] = now;
        if (c.events) log.record(id, EventLog.ENTER, now, 0);
    }

    void exit(Config c, int id, boolean thrown) {
        long now = System.nanoTime();
        int d = depth;
        if (d == 0) return;
        int i = d - 1;
        // Common case: the top frame. Otherwise look down for it: frames above it were left open
        // (a probe switched off in between, an exception through code without probes).
        if (sId[i] != id || sKind[i] != Config.KIND_METHOD) {
            while (i >= 0 && (sId[i] != id || sKind[i] != Config.KIND_METHOD)) i--;
            if (i < 0) return; // entered while off or filtered: nothing to close
            for (int j = d - 1; j > i; j--) {
                if (sKind[j] == Config.KIND_LOOP) closeLoop(c, j, now);
                else discard(c, j, now);
            }
        }
        finishMethod(c, i, now, thrown);
        depth = i;
    }

    private void finishMethod(Config c, int i, long now, boolean thrown) {
        int id = sId[i];
        long e = events - sEvents[i];
        long it = iters - sIters[i];
        events++;
        long raw = now - sStart[i];
        Calibration cal = Recorder.calibration;
        long incl = (raw * 1000 - cal.innerPicos - e * cal.perEventPicos - it * cal.perIterPicos) / 1000;
        if (incl < 0) incl = 0;
        long exclRaw = raw - sChildIncl[i];
        long excl = (exclRaw * 1000 - cal.innerPicos - sChildren[i] * cal.outerPicos()
                - sLoopEvents[i] * cal.perEventPicos - sDirectIters[i] * cal.perIterPicos) / 1000;
        if (excl < 0) excl = 0;
        // charge this activation to the enclosing frames up to the nearest method
        for (int k = i - 1; k >= 0; k--) {
            sChildIncl[k] += raw;
            if (sKind[k] == Config.KIND_METHOD) { sChildren[k]++; break; }
        }
        int outer = --active[id];
        methodDepth--;
        if (c.root[id]) rootDepth--;
        if (c.events) log.record(id, thrown ? EventLog.THROW : EventLog.EXIT, now, 0);

        long[] p = page(id);
        int b = (id & (Stats.PAGE_PROBES - 1)) * Stats.STRIDE;
        if (c.minCalls > 0 && ++p[b + Stats.SEEN] <= c.minCalls) return;
        if (c.minCalls == 0) p[b + Stats.SEEN]++;
        if (incl < c.minDurationNanos) return;
        p[b + Stats.CALLS]++;
        p[b + Stats.EXCL_RAW] += exclRaw;
        p[b + Stats.EXCL] += excl;
        p[b + Stats.CHILD_CALLS] += sChildren[i];
        p[b + Stats.DIRECT_LOOP_EVENTS] += sLoopEvents[i];
        p[b + Stats.DIRECT_ITERS] += sDirectIters[i];
        if (thrown) p[b + Stats.THROWS]++;
        if (incl < p[b + Stats.MIN]) p[b + Stats.MIN] = incl;
        if (incl > p[b + Stats.MAX]) p[b + Stats.MAX] = incl;
        p[b + Stats.HIST + Stats.bucket(incl)]++;
        if (outer == 0) {
            p[b + Stats.OUTER_CALLS]++;
            p[b + Stats.INCL_RAW] += raw;
            p[b + Stats.INCL] += incl;
            p[b + Stats.EVENTS_INSIDE] += e;
            p[b + Stats.ITERS_INSIDE] += it;
        }
    }

    /** A method frame left open above the one being closed: drop it without recording. */
    private void discard(Config c, int j, long now) {
        int id = sId[j];
        active[id]--;
        methodDepth--;
        if (c.root[id]) rootDepth--;
        if (c.events) log.record(id, EventLog.THROW, now, 0);
    }

    // ------------------------------------------------------------------ loops

    void loopEnter(Config c, int id) {
        if (c.rootsActive && rootDepth == 0) return;
        if (depth == sId.length && !growStack()) { depthDrops++; return; }
        int d = depth++;
        sId[d] = id;
        sKind[d] = Config.KIND_LOOP;
        sChildIncl[d] = 0;
        sChildren[d] = 0;
        sLoopEvents[d] = 0;
        sDirectIters[d] = 0;
        sIterCount[d] = 0;
        countLoopEvent(d - 1);
        long ev = ++events;
        sEvents[d] = ev;
        sIters[d] = iters;
        long now = System.nanoTime();
        sStart[d] = now;
        if (c.events) log.record(id, EventLog.LOOP_ENTER, now, 0);
    }

    void loopIter(int id) {
        int i = depth - 1;
        if (i < 0) return;
        if (sId[i] != id || sKind[i] != Config.KIND_LOOP) {
            // an inner loop left by an exception edge may still be open above it
            while (i >= 0 && sKind[i] == Config.KIND_LOOP && sId[i] != id) i--;
            if (i < 0 || sKind[i] != Config.KIND_LOOP) return;
        }
        iters++;
        sIterCount[i]++;
        for (int k = i; k >= 0; k--) {
            sDirectIters[k]++;
            if (sKind[k] == Config.KIND_METHOD) break;
        }
    }

    void loopExit(Config c, int id) {
        long now = System.nanoTime();
        int d = depth;
        int i = d - 1;
        while (i >= 0 && sKind[i] == Config.KIND_LOOP && sId[i] != id) i--;
        if (i < 0 || sKind[i] != Config.KIND_LOOP) return;
        for (int j = d - 1; j > i; j--) closeLoop(c, j, now);
        closeLoop(c, i, now);
        depth = i;
        countLoopEvent(i - 1);
    }

    private void countLoopEvent(int from) {
        for (int k = from; k >= 0; k--) {
            sLoopEvents[k]++;
            if (sKind[k] == Config.KIND_METHOD) break;
        }
    }

    private void closeLoop(Config c, int i, long now) {
        int id = sId[i];
        long e = events - sEvents[i];
        long it = iters - sIters[i];
        events++;
        long raw = now - sStart[i];
        Calibration cal = Recorder.calibration;
        long incl = (raw * 1000 - cal.innerPicos - e * cal.perEventPicos - it * cal.perIterPicos) / 1000;
        if (incl < 0) incl = 0;
        long exclRaw = raw - sChildIncl[i];
        long excl = (exclRaw * 1000 - cal.innerPicos - sChildren[i] * cal.outerPicos()
                - sLoopEvents[i] * cal.perEventPicos - sDirectIters[i] * cal.perIterPicos) / 1000;
        if (excl < 0) excl = 0;
        if (c.events) log.record(id, EventLog.LOOP_EXIT, now, sIterCount[i]);
        long[] p = page(id);
        int b = (id & (Stats.PAGE_PROBES - 1)) * Stats.STRIDE;
        p[b + Stats.SEEN]++;
        if (incl < c.minDurationNanos) return;
        p[b + Stats.CALLS]++;
        p[b + Stats.ITERATIONS] += sIterCount[i];
        p[b + Stats.OUTER_CALLS]++;
        p[b + Stats.INCL_RAW] += raw;
        p[b + Stats.INCL] += incl;
        p[b + Stats.EXCL_RAW] += exclRaw;
        p[b + Stats.EXCL] += excl;
        p[b + Stats.EVENTS_INSIDE] += e;
        p[b + Stats.ITERS_INSIDE] += it;
        p[b + Stats.CHILD_CALLS] += sChildren[i];
        p[b + Stats.DIRECT_LOOP_EVENTS] += sLoopEvents[i];
        p[b + Stats.DIRECT_ITERS] += sDirectIters[i];
        if (incl < p[b + Stats.MIN]) p[b + Stats.MIN] = incl;
        if (incl > p[b + Stats.MAX]) p[b + Stats.MAX] = incl;
        p[b + Stats.HIST + Stats.bucket(incl)]++;
    }

    // ------------------------------------------------------------------ storage

    /** Current stack depth (for tests and diagnostics). */
    int depth() {
        return depth;
    }

    private long[] page(int id) {
        long[][] ps = pages;
        int pi = id >>> Stats.PAGE_SHIFT;
        if (pi >= ps.length || ps[pi] == null) return newPage(pi);
        return ps[pi];
    }

    private long[] newPage(int pi) {
        long[][] ps = pages;
        if (pi >= ps.length) {
            long[][] n = new long[Math.max(pi + 1, ps.length * 2)][];
            System.arraycopy(ps, 0, n, 0, ps.length);
            ps = n;
        }
        long[] p = Stats.newPage();
        ps[pi] = p;
        pages = ps; // volatile write: the snapshot thread sees the page array and its contents
        return p;
    }

    private void growActive(int id) {
        int[] n = new int[Math.max(id + 1, active.length * 2)];
        System.arraycopy(active, 0, n, 0, active.length);
        active = n;
    }

    private boolean growStack() {
        int n = sId.length * 2;
        if (n > MAX_STACK) return false;
        sId = java.util.Arrays.copyOf(sId, n);
        sKind = java.util.Arrays.copyOf(sKind, n);
        sStart = java.util.Arrays.copyOf(sStart, n);
        sEvents = java.util.Arrays.copyOf(sEvents, n);
        sIters = java.util.Arrays.copyOf(sIters, n);
        sChildIncl = java.util.Arrays.copyOf(sChildIncl, n);
        sChildren = java.util.Arrays.copyOf(sChildren, n);
        sLoopEvents = java.util.Arrays.copyOf(sLoopEvents, n);
        sDirectIters = java.util.Arrays.copyOf(sDirectIters, n);
        sIterCount = java.util.Arrays.copyOf(sIterCount, n);
        return true;
    }
}
