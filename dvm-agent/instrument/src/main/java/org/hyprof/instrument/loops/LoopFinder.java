package org.hyprof.instrument.loops;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Natural loops of a control-flow graph, from dominator-based back edges. Works on any graph
 * with nodes {@code 0..n-1} and entry node 0; callers (class-file and DEX rewriters) build the
 * graph with exception edges included, so a handler that jumps back is not mistaken for a loop
 * and a loop whose body throws is still seen whole.
 *
 * <p>Dominators use the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
 * Dominance Algorithm"), over reverse post-order. Loops with the same header are merged.
 */
public final class LoopFinder {
    private LoopFinder() {}

    /** One natural loop. */
    public static final class Loop {
        /** The node every entry into the loop passes through. */
        public final int header;
        /** Nodes of the loop, header included. */
        public final BitSet body;
        /** Sources of back edges ({@code source -> header}). */
        public final List<Integer> latches = new ArrayList<>();

        Loop(int header, BitSet body) {
            this.header = header;
            this.body = body;
        }

        /** True when {@code other} lies inside this loop (and is not this loop). */
        public boolean contains(Loop other) {
            if (other == this || !body.get(other.header)) return false;
            BitSet b = (BitSet) other.body.clone();
            b.andNot(body);
            return b.isEmpty();
        }

        @Override
        public String toString() {
            return "Loop(header=" + header + ", body=" + body + ")";
        }
    }

    /** Loops of a graph without exception edges. */
    public static List<Loop> find(int[][] succ) {
        return find(succ, new int[succ.length][0]);
    }

    /**
     * @param normal     normal[i] = successors of node i by fall-through, jump or switch
     * @param exceptional exceptional[i] = handlers reachable from node i
     * @return loops ordered by header node (code order when nodes are numbered in code order).
     *     Only normal edges can be back edges: a handler whose range covers itself (as javac's
     *     {@code synchronized} cleanup does) is a cycle, but not a loop anyone wrote.
     */
    public static List<Loop> find(int[][] normal, int[][] exceptional) {
        int n = normal.length;
        int[][] succ = new int[n][];
        for (int i = 0; i < n; i++) {
            int[] a = normal[i], b = exceptional[i];
            int[] all = java.util.Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, all, a.length, b.length);
            succ[i] = all;
        }
        if (n == 0) return List.of();
        int[][] pred = predecessors(succ);
        int[] order = reversePostOrder(succ); // reachable nodes only
        int[] rpoIndex = new int[n];
        Arrays.fill(rpoIndex, -1);
        for (int i = 0; i < order.length; i++) rpoIndex[order[i]] = i;
        int[] idom = dominators(order, rpoIndex, pred);

        List<Loop> loops = new ArrayList<>();
        Loop[] byHeader = new Loop[n];
        for (int u : order) {
            for (int h : normal[u]) {
                if (rpoIndex[h] < 0 || !dominates(idom, rpoIndex, h, u)) continue;
                Loop l = byHeader[h];
                if (l == null) {
                    l = new Loop(h, new BitSet(n));
                    l.body.set(h);
                    byHeader[h] = l;
                    loops.add(l);
                }
                l.latches.add(u);
                // body: everything that reaches u without passing through h
                int[] stack = new int[n];
                int sp = 0;
                if (!l.body.get(u)) { l.body.set(u); stack[sp++] = u; }
                while (sp > 0) {
                    int x = stack[--sp];
                    for (int p : pred[x]) {
                        if (rpoIndex[p] >= 0 && !l.body.get(p)) { l.body.set(p); stack[sp++] = p; }
                    }
                }
            }
        }
        loops.sort((a, b) -> Integer.compare(a.header, b.header));
        return loops;
    }

    static int[][] predecessors(int[][] succ) {
        int n = succ.length;
        int[] count = new int[n];
        for (int[] s : succ) for (int v : s) count[v]++;
        int[][] pred = new int[n][];
        for (int i = 0; i < n; i++) pred[i] = new int[count[i]];
        int[] fill = new int[n];
        for (int u = 0; u < n; u++) for (int v : succ[u]) pred[v][fill[v]++] = u;
        return pred;
    }

    static int[] reversePostOrder(int[][] succ) {
        int n = succ.length;
        int[] post = new int[n];
        int pc = 0;
        boolean[] seen = new boolean[n];
        int[] stack = new int[n];
        int[] edge = new int[n];
        int sp = 0;
        stack[sp++] = 0;
        seen[0] = true;
        while (sp > 0) {
            int x = stack[sp - 1];
            if (edge[x] < succ[x].length) {
                int y = succ[x][edge[x]++];
                if (!seen[y]) { seen[y] = true; stack[sp++] = y; }
            } else {
                post[pc++] = x;
                sp--;
            }
        }
        int[] rpo = new int[pc];
        for (int i = 0; i < pc; i++) rpo[i] = post[pc - 1 - i];
        return rpo;
    }

    private static int[] dominators(int[] order, int[] rpoIndex, int[][] pred) {
        int n = rpoIndex.length;
        int[] idom = new int[n];
        Arrays.fill(idom, -1);
        idom[order[0]] = order[0];
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 1; i < order.length; i++) {
                int b = order[i];
                int newIdom = -1;
                for (int p : pred[b]) {
                    if (rpoIndex[p] < 0 || idom[p] < 0) continue;
                    newIdom = newIdom < 0 ? p : intersect(idom, rpoIndex, p, newIdom);
                }
                if (newIdom >= 0 && idom[b] != newIdom) { idom[b] = newIdom; changed = true; }
            }
        }
        return idom;
    }

    private static int intersect(int[] idom, int[] rpoIndex, int a, int b) {
        while (a != b) {
            while (rpoIndex[a] > rpoIndex[b]) a = idom[a];
            while (rpoIndex[b] > rpoIndex[a]) b = idom[b];
        }
        return a;
    }

    /** True when a dominates b. */
    private static boolean dominates(int[] idom, int[] rpoIndex, int a, int b) {
        int x = b;
        while (true) {
            if (x == a) return true;
            int d = idom[x];
            if (d == x || d < 0) return false;
            x = d;
        }
    }
}
