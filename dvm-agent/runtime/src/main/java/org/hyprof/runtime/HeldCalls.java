package org.hyprof.runtime;

/**
 * The calls a thread's calling-context tree holds, for a snapshot of the thread's probe records.
 * With a tree, a recorded call whose node has a histogram (and is no {@code (other paths)} node)
 * keeps its time figures and distribution in the node only; the probe's record keeps its count
 * and what the tree cannot give back ({@code ThreadState.addHeldCall}); count-only calls go to
 * their node only, unless it is an {@code (other paths)} node. A snapshot adds those nodes'
 * figures back to the probe's row here, so readers see the same row as without a tree.
 *
 * <p>Used by the snapshot thread (one instance, reused) and by {@link Snapshot}; reads the tree
 * racily, as snapshots read counters: a node in its first call may be left out until the next.
 */
final class HeldCalls {
    /** (probe id &lt;&lt; 32 | node) of the nodes that hold calls, ascending; {@code count} used. */
    private long[] order = new long[0];
    private int count, pos;
    private long[] rec;
    private DurationHistogram[] hists;
    /** Count-only calls the thread has added up and not flushed yet: probes and calls ({@link #pendingOf}). */
    private final int[] pendingIds = new int[ThreadState.C_SLOTS];
    private final long[] pendingCalls = new long[ThreadState.C_SLOTS];
    private int pendings;

    /**
     * Reads the count-only calls thread {@code t} has added up and not flushed yet (racy, as the
     * counters): {@link #addTo} counts them in their probe's row.
     */
    void pendingOf(ThreadState t) {
        pendings = t.pendingCountOnly(pendingIds, pendingCalls);
    }

    /** Whether probe {@code id} has calls not flushed yet ({@link #pendingOf}): its row must be written. */
    boolean isPending(int id) {
        for (int i = 0; i < pendings; i++) if (pendingIds[i] == id) return true;
        return false;
    }

    /** The probes with calls not flushed yet ({@link #pendingOf}). */
    int[] pendingIds() {
        return java.util.Arrays.copyOf(pendingIds, pendings);
    }

    /**
     * {@link #collect(PathTree)}, tried up to {@code attempts} times while the tree's arrays grow
     * under the reader (they double: the next read usually finds them settled).
     */
    boolean collect(PathTree tree, int attempts) {
        for (int i = 0; i < attempts; i++) {
            if (collect(tree)) return true;
            Thread.yield();
        }
        return false;
    }

    /**
     * Collects the nodes of {@code tree} that hold calls (none when null); ids are then asked
     * ascending. False when the tree's arrays grew while being read: its rows would miss the held
     * calls, so the caller writes them at the next snapshot instead.
     */
    boolean collect(PathTree tree) {
        count = 0;
        pos = 0;
        rec = null;
        hists = null;
        if (tree == null) return true;
        int size = tree.size; // volatile read first: the nodes below it are complete
        int[] key = tree.key;
        long[] r = tree.rec;
        DurationHistogram[] hs = tree.hists;
        if (key.length < size || hs.length < size || r.length < size * PathTree.NREC) return false; // grown under us
        if (order.length < size) order = new long[size];
        for (int i = 1; i < size; i++) {
            int k = key[i];
            if ((k & 3) != PathTree.OTHER && (hs[i] != null || r[i * PathTree.NREC + PathTree.COUNT_ONLY] != 0))
                order[count++] = ((long) (k >>> 2) << 32) | i;
        }
        java.util.Arrays.sort(order, 0, count);
        rec = r;
        hists = hs;
        return true;
    }

    /**
     * Adds the figures of probe {@code id}'s holding nodes to its snapshot row {@code record}
     * ({@link Stats} fields, as {@link Stats#copy} gives them): count-only calls (those not flushed
     * yet too, see {@link #pendingOf}), exclusive times, minimum, maximum, power-of-two histogram. Returns the probe's fine histogram: {@code own} (the calls no node
     * holds) merged with the nodes' (a new histogram), {@code own} when no node holds a call of it,
     * or null when the merge would miss calls (the record has calls of its own and no fine
     * histogram of them: the budget refused it). Ids must be asked in ascending order.
     */
    DurationHistogram addTo(int id, long[] record, DurationHistogram own) {
        for (int i = 0; i < pendings; i++) {
            if (pendingIds[i] != id) continue;
            record[Stats.SEEN] += pendingCalls[i];
            record[Stats.COUNT_ONLY_CALLS] += pendingCalls[i];
        }
        while (pos < count && (int) (order[pos] >>> 32) < id) pos++;
        if (pos >= count || (int) (order[pos] >>> 32) != id) return own;
        boolean complete = own != null || record[Stats.MIN] == Long.MAX_VALUE;
        DurationHistogram fine = own;
        boolean merging = false;
        for (; pos < count && (int) (order[pos] >>> 32) == id; pos++) {
            int n = (int) order[pos];
            int b = n * PathTree.NREC;
            record[Stats.COUNT_ONLY_CALLS] += rec[b + PathTree.COUNT_ONLY];
            if (hists[n] == null) continue; // count-only calls only
            if (!merging) {
                merging = true;
                fine = null;
                if (complete) {
                    fine = new DurationHistogram(DurationHistogram.RUNTIME_MAX_SLOTS);
                    if (own != null) fine.merge(own);
                }
            }
            record[Stats.EXCL_RAW] += rec[b + PathTree.EXCL_RAW];
            record[Stats.EXCL] += rec[b + PathTree.EXCL];
            record[Stats.CPU_EXCL] += rec[b + PathTree.CPU_EXCL];
            long min = rec[b + PathTree.MIN], max = rec[b + PathTree.MAX];
            if (min < record[Stats.MIN]) record[Stats.MIN] = min;
            if (max > record[Stats.MAX]) record[Stats.MAX] = max;
            DurationHistogram h = hists[n].copy(); // one read for both uses: its thread may add meanwhile
            h.addLog2(record, Stats.HIST, Stats.HIST_BUCKETS);
            if (fine != null) fine.merge(h);
        }
        return fine;
    }
}
