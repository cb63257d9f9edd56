package org.hyprof.runtime;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread's calling-context tree: a node per distinct call path (methods and loops as they
 * nested), with the figures of the method table summed over the activations on that path. Only
 * its thread writes it; the sink's thread reads it for snapshots (racy reads of counters, as for
 * the stats pages; {@link #size} is published last, so a reader sees whole nodes).
 *
 * <p>Node 0 is the thread itself. A child is found by the last child its parent was asked for,
 * else by a hash of (parent, probe key), open addressing in two arrays: one multiply, usually one
 * probe. A recorded call's times go to its node only when the node has a histogram for them
 * ({@link #histogram}); the method table gets them back at snapshots ({@link HeldCalls}). Nodes come from the process's node
 * budget ({@link #reserveNodes}), taken in blocks so threads rarely touch the shared counter; past
 * it, a new path's frame is counted in the {@code (other paths)} node of its deepest kept node
 * (one per kept node at most, so the tree stays under twice the budget), and everything called
 * under that node stays in it. The budget goes back when the thread's state is dropped.
 */
final class PathTree {
    // node record, NREC longs
    static final int CALLS = 0;       // timed activations
    static final int COUNT_ONLY = 1;  // calls counted without timing (count-only probes, count-only loops)
    static final int INCL_RAW = 2;    // Σ raw inclusive time, outermost activations at the node (see OTHER)
    static final int EXCL_RAW = 3;
    static final int INCL = 4;        // deducted
    static final int EXCL = 5;
    static final int MIN = 6;
    static final int MAX = 7;
    static final int ITERATIONS = 8;
    static final int THROWS = 9;
    static final int CPU_INCL = 10;
    static final int CPU_EXCL = 11;
    static final int NATIVE_INSTR = 12; // own native work (hybrid runs)
    static final int NATIVE_CYCLES = 13;
    static final int NATIVE_EST_NS = 14;
    static final int NATIVE_ENERGY_PJ = 15;
    static final int NREC = 16;

    /** Key kinds: the low two bits of a node's key (probe id above them). */
    static final int METHOD = 0, LOOP = 1, OTHER = 2;
    /** The key of an {@code (other paths)} node. */
    static final int OTHER_KEY = OTHER;

    /** Nodes a thread takes from the process budget at a time. */
    private static final int BLOCK = 64;
    /** Bytes a node costs (record, parent, key, histogram reference, last child, two hash slots), for sizing the default budget. */
    static final int NODE_BYTES = 8 * NREC + 4 + 4 + 4 + 8 + 2 * (8 + 4);

    /**
     * A node's per-call histogram (p50/p99 within 1 % while it has room), as a method's: at most
     * this many slots (8 KiB, about 12 powers of two at full resolution); past it, it halves its
     * resolution rather than grow. Most nodes see a narrow spread and keep a table of a few slots.
     */
    static final int HIST_SLOTS = DurationHistogram.RUNTIME_MAX_SLOTS;
    /** Bytes the nodes' histograms may take over all threads; past it a node gets none (min and max only). */
    static final long HIST_BUDGET_BYTES = 8L << 20;
    static final AtomicLong histBytesLeft = new AtomicLong(HIST_BUDGET_BYTES); // package-private: tests spend it

    /** {@link #histBytesLeft} as the nodes' histograms grow from it. */
    private static final DurationHistogram.Budget HIST_BUDGET = new DurationHistogram.Budget() {
        @Override
        public boolean take(long bytes) {
            return PathTree.take(histBytesLeft, bytes);
        }
    };

    /** Takes {@code n} from a budget; false (nothing taken) when that much is not left. */
    private static boolean take(AtomicLong budget, long n) {
        for (;;) {
            long left = budget.get();
            if (left < n) return false;
            if (budget.compareAndSet(left, left - n)) return true;
        }
    }

    /** Nodes left in the process's budget (all threads). */
    private static final AtomicLong nodesLeft = new AtomicLong();
    private static volatile long nodeBudget;

    /** Sets the process's node budget (0: no tree is kept). */
    static void setBudget(long nodes) {
        synchronized (nodesLeft) {
            nodesLeft.addAndGet(nodes - nodeBudget);
            nodeBudget = nodes;
        }
    }

    static long budget() {
        return nodeBudget;
    }

    /** Nodes held by live threads' trees (overflow nodes included). */
    static long nodesHeld() {
        return nodeBudget - nodesLeft.get();
    }

    private static boolean reserveNodes(int n) {
        return take(nodesLeft, n);
    }

    volatile int[] parent = new int[16];
    volatile int[] key = new int[16];
    /** Per node: (key &lt;&lt; 32 | node) of the child last asked for ({@link #child}); 0: none. Its thread's only. */
    private long[] last = new long[16];
    volatile long[] rec = new long[16 * NREC];
    /** Per-call histograms of deducted inclusive time, made at a node's first timed call; null: none. */
    volatile DurationHistogram[] hists = new DurationHistogram[16];
    /** Histogram bytes this tree took ({@link #HIST_BUDGET_BYTES}). */
    private long histBytes;
    /** Nodes made so far (node 0 included); written after a node is complete. */
    volatile int size = 1;
    private long[] hashKeys = new long[32];
    private int[] hashNodes = new int[32]; // 0: empty (node 0 is never a child)
    private int used; // hash entries
    /** Nodes reserved from the budget and not made yet; nodes taken over all. */
    private int reserved;
    long taken;

    PathTree() {
        rec[MIN] = Long.MAX_VALUE;
    }

    /**
     * The node of probe {@code k} (id &lt;&lt; 2 | kind) called from node {@code p}: found, made, or
     * past the budget the {@code (other paths)} node under p (p itself when p is one).
     *
     * <p>Each node remembers the child it was last asked for: code calls the same method from the
     * same place over and over (a loop's body), and one compare is cheaper than the hash.
     */
    int child(int p, int k) {
        long v = last[p];
        if ((int) (v >>> 32) == k && v != 0) return (int) v;
        int n = find(p, k);
        // a path, once a node, stays one; an overflow node may give way to a real one when budget is freed
        if (n == p || (key[n] & 3) != OTHER) last[p] = ((long) k << 32) | n;
        return n;
    }

    private int find(int p, int k) {
        long hk = ((long) p << 32) | (k & 0xffffffffL);
        int h = slot(hk);
        int n = hashNodes[h];
        if (n != 0) return n;
        if ((key[p] & 3) == OTHER) return p;
        if (reserved == 0) {
            if (!reserveNodes(BLOCK)) return overflow(p);
            reserved = BLOCK;
            taken += BLOCK;
        }
        reserved--;
        return make(p, k, hk, h);
    }

    /** The hash slot of key {@code hk}: its node's, or the empty one where it would go. */
    private int slot(long hk) {
        long[] hks = hashKeys;
        int[] hns = hashNodes;
        int mask = hns.length - 1;
        int h = (int) ((hk * 0x9E3779B97F4A7C15L) >>> 32) & mask;
        while (hns[h] != 0 && hks[h] != hk) h = (h + 1) & mask;
        return h;
    }

    /** The overflow node under p: made without the budget (at most one per kept node). */
    private int overflow(int p) {
        long hk = ((long) p << 32) | OTHER_KEY;
        int h = slot(hk);
        int n = hashNodes[h];
        return n != 0 ? n : make(p, OTHER_KEY, hk, h);
    }

    private int make(int p, int k, long hk, int h) {
        int n = size;
        if (n == parent.length) grow();
        parent[n] = p;
        key[n] = k;
        rec[n * NREC + MIN] = Long.MAX_VALUE;
        hashKeys[h] = hk;
        hashNodes[h] = n;
        if (++used * 2 > hashNodes.length) rehash();
        size = n + 1; // volatile write: the node is complete
        return n;
    }

    private void grow() {
        int cap = parent.length * 2;
        int[] np = java.util.Arrays.copyOf(parent, cap), nk = java.util.Arrays.copyOf(key, cap);
        long[] nr = java.util.Arrays.copyOf(rec, cap * NREC);
        hists = java.util.Arrays.copyOf(hists, cap);
        last = java.util.Arrays.copyOf(last, cap);
        rec = nr;
        key = nk;
        parent = np;
    }

    private void rehash() {
        long[] oks = hashKeys;
        int[] ons = hashNodes;
        long[] ks = new long[oks.length * 2];
        int[] ns = new int[ons.length * 2];
        int mask = ns.length - 1;
        for (int i = 0; i < ons.length; i++) {
            if (ons[i] == 0) continue;
            int h = (int) ((oks[i] * 0x9E3779B97F4A7C15L) >>> 32) & mask;
            while (ns[h] != 0) h = (h + 1) & mask;
            ks[h] = oks[i];
            ns[h] = ons[i];
        }
        hashKeys = ks;
        hashNodes = ns;
    }

    /** The budget this tree holds goes back (its thread's state is dropped). */
    void release() {
        nodesLeft.addAndGet(taken);
        taken = 0;
        reserved = 0;
        histBytesLeft.addAndGet(histBytes);
        histBytes = 0;
    }

    /**
     * A timed call of node n lasting {@code nanos} (its {@code calls}-th) into the node's per-call
     * histogram. The histogram is made at the node's first call; a node whose histogram the budget
     * refused then has none (a table made later would miss calls). Returns whether the node
     * <em>holds</em> the call: it has a histogram and is no {@code (other paths)} node (which mixes
     * probes), so the method's own record need not keep the call's time figures (see
     * {@link HeldCalls}).
     */
    boolean histogram(int n, long calls, long nanos) {
        DurationHistogram h = hists[n];
        if (h == null || !h.record(nanos)) return histogramSlow(n, h, calls, nanos);
        return (key[n] & 3) != OTHER;
    }

    private boolean histogramSlow(int n, DurationHistogram h, long calls, long nanos) {
        if (h == null) {
            if (calls != 1) return false;
            long bytes = DurationHistogram.tableBytes(DurationHistogram.MIN_SLOTS) + 24;
            if (!take(histBytesLeft, bytes)) return false;
            histBytes += bytes;
            h = new DurationHistogram(HIST_SLOTS);
            hists[n] = h;
        }
        histBytes += h.recordWithin(nanos, HIST_BUDGET);
        return (key[n] & 3) != OTHER;
    }

    /**
     * Adds the per-call durations probe {@code id}'s nodes hold to log₂ bucket counts
     * ({@code counts[b]}, as {@link Stats#bucket}); the owning thread's, or a racy read.
     */
    void addLog2(int id, long[] counts) {
        int n = size;
        int[] k = key;
        DurationHistogram[] hs = hists;
        for (int i = 1; i < n && i < k.length && i < hs.length; i++)
            if (k[i] >>> 2 == id && (k[i] & 3) != OTHER && hs[i] != null) hs[i].addLog2(counts, 0, counts.length);
    }

    /** Whether node n is an {@code (other paths)} node. */
    boolean isOther(int n) {
        return (key[n] & 3) == OTHER;
    }
}
