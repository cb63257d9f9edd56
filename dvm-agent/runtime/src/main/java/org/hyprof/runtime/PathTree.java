package org.hyprof.runtime;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread's calling-context tree: a node per distinct call path (methods and loops as they
 * nested), with the figures of the method table summed over the activations on that path. Only
 * its thread writes it; the sink's thread reads it for snapshots (racy reads of counters, as for
 * the stats pages; {@link #size} is published last, so a reader sees whole nodes).
 *
 * <p>Node 0 is the thread itself. A child is found by a hash of (parent, probe key), open
 * addressing in two arrays: one multiply, usually one probe. Nodes come from the process's node
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
    /** Bytes a node costs (record, parent, key, two hash slots), for sizing the default budget. */
    static final int NODE_BYTES = 8 * NREC + 4 + 4 + 2 * (8 + 4);

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
        for (;;) {
            long left = nodesLeft.get();
            if (left < n) return false;
            if (nodesLeft.compareAndSet(left, left - n)) return true;
        }
    }

    volatile int[] parent = new int[16];
    volatile int[] key = new int[16];
    volatile long[] rec = new long[16 * NREC];
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
     */
    int child(int p, int k) {
        long hk = ((long) p << 32) | (k & 0xffffffffL);
        long[] hks = hashKeys;
        int[] hns = hashNodes;
        int mask = hns.length - 1;
        int h = (int) ((hk * 0x9E3779B97F4A7C15L) >>> 32) & mask;
        for (;;) {
            int n = hns[h];
            if (n == 0) break;
            if (hks[h] == hk) return n;
            h = (h + 1) & mask;
        }
        if ((key[p] & 3) == OTHER) return p;
        if (reserved == 0) {
            if (!reserveNodes(BLOCK)) return child(p, OTHER_KEY, true);
            reserved = BLOCK;
            taken += BLOCK;
        }
        reserved--;
        return make(p, k, hk, h);
    }

    /** The overflow node under p: made without the budget (at most one per kept node). */
    private int child(int p, int k, boolean overflow) {
        long hk = ((long) p << 32) | (k & 0xffffffffL);
        int[] hns = hashNodes;
        int mask = hns.length - 1;
        int h = (int) ((hk * 0x9E3779B97F4A7C15L) >>> 32) & mask;
        for (;;) {
            int n = hns[h];
            if (n == 0) break;
            if (hashKeys[h] == hk) return n;
            h = (h + 1) & mask;
        }
        return make(p, k, hk, h);
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
    }

    /** Whether node n is an {@code (other paths)} node. */
    boolean isOther(int n) {
        return (key[n] & 3) == OTHER;
    }
}
