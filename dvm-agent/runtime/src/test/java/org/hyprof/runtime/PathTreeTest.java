package org.hyprof.runtime;

import static org.hyprof.runtime.ProbeTest.mine;
import static org.hyprof.runtime.ProbeTest.spin;
import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The calling-context tree a thread keeps: one node per distinct path, exact calls, bounded by the node budget. */
class PathTreeTest {
    static final int A = 1, B = 2, C = 3, L = 4;

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    private static void start(long treeNodes, int probes) {
        start(treeNodes, probes, null);
    }

    private static void start(long treeNodes, int probes, java.io.File out) {
        Hyprof.reset();
        Options o = new Options();
        if (out != null) o.out = out.getPath();
        o.calibrate = false;
        o.snapshotMillis = 60_000;
        o.treeNodes = treeNodes;
        Hyprof.start(o);
        byte[] kinds = new byte[probes];
        boolean[] on = new boolean[probes];
        for (int i = 0; i < probes; i++) {
            kinds[i] = i + 1 == L ? Hyprof.LOOP : Hyprof.METHOD;
            on[i] = true;
        }
        Hyprof.defineProbes(1, kinds, on, null);
    }

    /** Nodes of this thread's tree whose key is probe id's (kind METHOD unless loop). */
    private static List<Integer> nodesOf(PathTree t, int id, boolean loop) {
        List<Integer> r = new ArrayList<>();
        int key = id << 2 | (loop ? PathTree.LOOP : PathTree.METHOD);
        for (int n = 1; n < t.size; n++) if (t.key[n] == key) r.add(n);
        return r;
    }

    private static long f(PathTree t, int node, int field) {
        return t.rec[node * PathTree.NREC + field];
    }

    private static void call(int id, long spinNanos, Runnable inside) {
        int tok = Probe.begin(id);
        spin(spinNanos);
        inside.run();
        Probe.end(id, tok);
    }

    @Test
    void aMethodReachedAlongTwoPathsHasTwoNodesWithExactCallsAndTimesThatNest() {
        start(Options.DEFAULT_TREE_NODES, 4);
        call(A, 0, () -> {
            for (int i = 0; i < 3; i++) call(B, 50_000, () -> {});
            for (int i = 0; i < 2; i++) call(C, 0, () -> call(B, 10_000, () -> {}));
        });
        PathTree t = Recorder.state().tree;
        List<Integer> bs = nodesOf(t, B, false);
        assertEquals(2, bs.size(), "B under A and under A;C");
        int a = nodesOf(t, A, false).get(0), c = nodesOf(t, C, false).get(0);
        assertEquals(0, t.parent[a]);
        assertEquals(c, t.parent[bs.get(1)]);
        assertEquals(a, t.parent[bs.get(0)]);
        assertEquals(3, f(t, bs.get(0), PathTree.CALLS));
        assertEquals(2, f(t, bs.get(1), PathTree.CALLS));
        assertEquals(mine().get(B, Stats.CALLS), f(t, bs.get(0), PathTree.CALLS) + f(t, bs.get(1), PathTree.CALLS),
                "the method table's calls = Σ over its nodes");
        assertTrue(f(t, bs.get(0), PathTree.INCL_RAW) >= 150_000);
        assertEquals(3, t.hists[bs.get(0)].total(), "the node's histogram holds every timed call, the first one too");
        assertEquals(2, t.hists[bs.get(1)].total());
        assertEquals(1, t.hists[a].total(), "one call: in the node's histogram from the first");
        for (int n = 1; n < t.size; n++) {
            assertTrue(f(t, n, PathTree.EXCL) <= f(t, n, PathTree.INCL), "exclusive ≤ inclusive at node " + n);
            assertTrue(f(t, n, PathTree.EXCL) >= 0);
        }
        // the books: a node's inclusive = its exclusive + its children's inclusive (deducted, as the runtime keeps them)
        long children = 0;
        for (int n = 1; n < t.size; n++) if (t.parent[n] == a) children += f(t, n, PathTree.INCL);
        assertEquals(f(t, a, PathTree.INCL), f(t, a, PathTree.EXCL) + children);
    }

    @Test
    void recursionNestsAsItHappened() {
        start(Options.DEFAULT_TREE_NODES, 4);
        recurse(3);
        recurse(3);
        PathTree t = Recorder.state().tree;
        List<Integer> as = nodesOf(t, A, false);
        assertEquals(4, as.size(), "A, A;A, A;A;A, A;A;A;A");
        for (int i = 0; i < as.size(); i++) {
            assertEquals(i == 0 ? 0 : as.get(i - 1), t.parent[as.get(i)]);
            assertEquals(2, f(t, as.get(i), PathTree.CALLS));
        }
    }

    private static void recurse(int depth) {
        int tok = Probe.begin(A);
        if (depth > 0) recurse(depth - 1);
        Probe.end(A, tok);
    }

    @Test
    void loopsAreNodesUnderTheirMethodWithTheirIterations() {
        start(Options.DEFAULT_TREE_NODES, 4);
        call(A, 0, () -> {
            for (int k = 0; k < 2; k++) {
                int lt = Probe.loopBegin(L);
                int i = 0;
                for (; i < 5; i++) call(B, 0, () -> {});
                Probe.loopEnd(L, lt, i);
            }
        });
        PathTree t = Recorder.state().tree;
        int loop = nodesOf(t, L, true).get(0);
        assertEquals(nodesOf(t, A, false).get(0), t.parent[loop]);
        assertEquals(2, f(t, loop, PathTree.CALLS));
        assertEquals(10, f(t, loop, PathTree.ITERATIONS));
        int b = nodesOf(t, B, false).get(0);
        assertEquals(loop, t.parent[b], "B called in the loop");
        assertEquals(10, f(t, b, PathTree.CALLS));
    }

    @Test
    void pastTheBudgetNewPathsGoToTheOtherPathsNodeAndNoCallIsLost() {
        int probes = 400;
        start(64, probes); // one block of nodes
        int calls = 0;
        int tok = Probe.begin(A);
        for (int id = 10; id < probes; id++) {
            call(id, 0, () -> {});
            calls++;
            call(id, 0, () -> call(B, 0, () -> {}));
            calls += 2;
        }
        Probe.end(A, tok);
        calls++;
        PathTree t = Recorder.state().tree;
        assertTrue(t.size <= 64 + 1 + 64, "kept nodes within the budget, overflow nodes one per kept node at most: " + t.size);
        long total = 0, other = 0;
        for (int n = 1; n < t.size; n++) {
            total += f(t, n, PathTree.CALLS);
            if (t.isOther(n)) other += f(t, n, PathTree.CALLS);
        }
        assertEquals(calls, total, "every call is on some node");
        assertTrue(other > 0, "some calls went to (other paths)");
        int a = nodesOf(t, A, false).get(0);
        List<Integer> others = new ArrayList<>();
        for (int n = 1; n < t.size; n++) if (t.isOther(n)) others.add(n);
        for (int n : others) assertFalse(t.isOther(t.parent[n]), "an overflow node hangs under a kept node");
        int o = -1;
        for (int n : others) if (t.parent[n] == a) o = n;
        assertTrue(o > 0, "new paths under A (the deepest kept node there) went to A's (other paths)");
        // calls below the overflow node stay in it: its inclusive time is its outermost calls', its exclusive every call's
        assertEquals(f(t, o, PathTree.INCL), f(t, o, PathTree.EXCL));
        assertEquals(PathTree.budget(), 64);
        Hyprof.reset();
        assertEquals(0, PathTree.nodesHeld(), "a dropped state gives its nodes back");
    }

    @Test
    void countOnlyCallsAreCountedOnTheirPathEvenWhenTheirNodeGrowsTheTree() {
        int probes = 100;
        start(Options.DEFAULT_TREE_NODES, probes);
        for (int id = 10; id < probes; id++) Hyprof.countOnly(id);
        int tok = Probe.begin(A);
        for (int id = 10; id < probes; id++) {
            assertEquals(0, Probe.begin(id), "count-only: no frame");
            assertEquals(0, Probe.begin(id));
        }
        Probe.end(A, tok);
        PathTree t = Recorder.state().tree;
        long counted = 0;
        for (int id = 10; id < probes; id++) {
            List<Integer> ns = nodesOf(t, id, false);
            assertEquals(1, ns.size());
            assertEquals(nodesOf(t, A, false).get(0), t.parent[ns.get(0)]);
            counted += f(t, ns.get(0), PathTree.COUNT_ONLY);
            assertEquals(mine().get(id, Stats.COUNT_ONLY_CALLS), f(t, ns.get(0), PathTree.COUNT_ONLY));
        }
        assertEquals(2L * (probes - 10), counted, "the tree grew several times on the way: no count lost");
    }

    /**
     * With a tree, a call whose node has a histogram keeps its times there only (the probe's record
     * keeps its count); snapshots add them back. The session's rows are whole either way: calls in
     * kept nodes, calls in (other paths), the fine and power-of-two histograms, the books.
     */
    @Test
    void aProbeRowIsWholeWhetherItsNodesOrItsRecordHoldItsCalls(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        int probes = 200;
        java.io.File out = dir.resolve("s.hyprof").toFile();
        start(64, probes, out); // one block of nodes: later paths go to (other paths)
        int tok = Probe.begin(A);
        for (int id = 10; id < probes; id++) {
            long nanos = 1_000L * (id % 7);
            call(id, nanos, () -> {});
            call(id, nanos, () -> call(B, 2_000, () -> {}));
        }
        Probe.end(A, tok);
        PathTree t = Recorder.state().tree;
        int held = 0, own = 0;
        for (int n = 1; n < t.size; n++) {
            if (t.isOther(n)) own += f(t, n, PathTree.CALLS);
            else if (t.hists[n] != null) held += f(t, n, PathTree.CALLS);
        }
        assertTrue(held > 0 && own > 0, "calls held by nodes (" + held + ") and by records (" + own + ")");
        long[] page = Recorder.state().pages[0];
        assertEquals(0, page[A * Stats.REC + Stats.EXCL_RAW], "A's node holds its time, not A's record");
        assertEquals(1, page[A * Stats.REC + Stats.CALLS], "… which keeps its count");
        Snapshot.ThreadData d = mine();
        long excl = 0;
        for (int id = 1; id < probes; id++) excl += d.get(id, Stats.EXCL_RAW);
        assertEquals(d.get(A, Stats.INCL_RAW), excl, "Σ raw exclusive = root's raw inclusive, with held calls added back");
        Hyprof.stop();

        ThreadMemoryTest.Session s = ThreadMemoryTest.Session.read(out);
        long tid = Thread.currentThread().getId();
        for (int id = 10; id < probes; id++) {
            long[] r = s.row(tid, id);
            assertEquals(2, r[Stats.CALLS], "probe " + id);
            assertEquals(2, s.histogramTotal(tid, id), "probe " + id + ": power-of-two histogram");
            assertEquals(2, s.fines.get(tid).get(id).total(), "probe " + id + ": fine histogram");
            assertTrue(r[Stats.MIN] <= r[Stats.MAX] && r[Stats.MIN] > 0);
        }
        long bCalls = probes - 10;
        assertEquals(bCalls, s.row(tid, B)[Stats.CALLS]);
        assertEquals(bCalls, s.fines.get(tid).get(B).total(), "B's calls in kept nodes and in (other paths), merged");
        assertEquals(bCalls, s.histogramTotal(tid, B));
        assertTrue(s.row(tid, B)[Stats.MIN] >= 2_000, "B's minimum from its nodes and its record");
        long sessionExcl = 0;
        for (int id = 1; id < probes; id++) if (s.row(tid, id) != null) sessionExcl += s.row(tid, id)[Stats.EXCL_RAW];
        assertEquals(s.row(tid, A)[Stats.INCL_RAW], sessionExcl, "the session's books");
    }

    /**
     * Count-only calls are added up on their path and flushed to the node and the probe's record
     * when the path changes or its frame ends; meanwhile snapshots still count every one of them.
     */
    @Test
    void countOnlyCallsNotFlushedYetAreInTheSnapshotAndReachTheirNodeWhenTheFrameEnds() throws Throwable {
        countOnlyCallsAreAddedUpAndFlushed(new Site() {
            @Override
            public int begin(int id) {
                return Probe.begin(id);
            }
        }, false);
    }

    /**
     * The same through invokedynamic sites, whose count-only target is a guard: {@link Recorder#countFast}
     * (no call out), else {@link Recorder#count}.
     */
    @Test
    void countOnlyCallsThroughInvokedynamicSitesAreAddedUpAndFlushedAlike() throws Throwable {
        countOnlyCallsAreAddedUpAndFlushed(new Site() {
            final java.util.Map<Integer, java.lang.invoke.MethodHandle> sites = new java.util.HashMap<>();

            @Override
            public int begin(int id) throws Throwable {
                java.lang.invoke.MethodHandle h = sites.get(id);
                if (h == null) {
                    h = ProbeSites.bootstrap(java.lang.invoke.MethodHandles.lookup(), "begin",
                            java.lang.invoke.MethodType.methodType(int.class), id).dynamicInvoker();
                    sites.put(id, h);
                }
                return (int) h.invokeExact();
            }
        }, true);
    }

    /** A probe's begin, as a site of one form calls it. */
    interface Site {
        int begin(int id) throws Throwable;
    }

    /**
     * {@code flushedByNextEntry}: a path at FLUSH_COUNTED calls is flushed by the thread's next
     * timed entry (invokedynamic sites, {@link ThreadState#countFast}), not by the call itself.
     */
    private void countOnlyCallsAreAddedUpAndFlushed(Site site, boolean flushedByNextEntry) throws Throwable {
        start(Options.DEFAULT_TREE_NODES, 20);
        Hyprof.countOnly(10);
        Hyprof.countOnly(11);
        int tok = Probe.begin(A);
        for (int i = 0; i < 1000; i++) Probe.end(10, site.begin(10));
        PathTree t = Recorder.state().tree;
        assertEquals(1000, mine().get(10, Stats.COUNT_ONLY_CALLS), "added up, not flushed: still in the probe's row");
        assertTrue(nodesOf(t, 10, false).isEmpty(), "the node comes with the flush");
        for (int i = 0; i < 3; i++) {
            Probe.end(10, site.begin(10));
            Probe.end(11, site.begin(11)); // two paths are added up at once
        }
        assertEquals(1003, mine().get(10, Stats.COUNT_ONLY_CALLS));
        assertEquals(3, mine().get(11, Stats.COUNT_ONLY_CALLS));
        assertTrue(nodesOf(t, 11, false).isEmpty());
        for (int i = 0; i < ThreadState.FLUSH_COUNTED + 5; i++) Probe.end(11, site.begin(11));
        if (!flushedByNextEntry) {
            assertEquals(ThreadState.FLUSH_COUNTED, f(t, nodesOf(t, 11, false).get(0), PathTree.COUNT_ONLY),
                    "flushed when FLUSH_COUNTED calls were added up: the tree lags by fewer");
        } else {
            assertTrue(nodesOf(t, 11, false).isEmpty(), "the site's fast path calls nothing: it only asks for the flush");
            Probe.end(B, Probe.begin(B));
            assertEquals(ThreadState.FLUSH_COUNTED + 8, f(t, nodesOf(t, 11, false).get(0), PathTree.COUNT_ONLY),
                    "flushed by the thread's next timed entry");
        }
        Probe.end(A, tok);
        int a = nodesOf(t, A, false).get(0);
        for (int id : new int[] {10, 11}) {
            int n = nodesOf(t, id, false).get(0);
            assertEquals(a, t.parent[n]);
            assertEquals(mine().get(id, Stats.COUNT_ONLY_CALLS), f(t, n, PathTree.COUNT_ONLY), "probe " + id + ": the frame's end flushed");
        }
        assertEquals(ThreadState.FLUSH_COUNTED + 8, mine().get(11, Stats.COUNT_ONLY_CALLS));
        assertEquals(mine().get(11, Stats.SEEN), mine().get(11, Stats.COUNT_ONLY_CALLS));
    }

    /**
     * Tiny methods calling each other (a → b → d, a → c → d: all count-only, so all counted under
     * the same timed frame) each keep a slot of their own: nothing is flushed until the frame ends
     * (with two slots, each call took another's and every call was flushed on the slow path).
     * Probes in the same slot take it from each other, and every call still reaches its node.
     */
    @Test
    void tinyMethodsCallingEachOtherStayAddedUpAndProbesSharingASlotLoseNothing() {
        start(Options.DEFAULT_TREE_NODES, 30);
        int[] tiny = {10, 11, 12, 13, 10 + ThreadState.C_SLOTS};
        for (int id : tiny) Hyprof.countOnly(id);
        int tok = Probe.begin(A);
        PathTree t = Recorder.state().tree;
        for (int i = 0; i < 10_000; i++) {
            int a = Probe.begin(10);
            int b = Probe.begin(11);
            Probe.end(13, Probe.begin(13));
            Probe.end(11, b);
            int c = Probe.begin(12);
            Probe.end(13, Probe.begin(13));
            Probe.end(12, c);
            Probe.end(10, a);
        }
        for (int id : new int[] {10, 11, 12, 13}) assertTrue(nodesOf(t, id, false).isEmpty(), "probe " + id + " flushed before its frame ended");
        for (int i = 0; i < 1_000; i++) { // 10 and 18 share a slot
            Probe.end(10, Probe.begin(10));
            Probe.end(tiny[4], Probe.begin(tiny[4]));
        }
        Probe.end(A, tok);
        long[] expected = {11_000, 10_000, 10_000, 20_000, 1_000};
        for (int i = 0; i < tiny.length; i++) {
            assertEquals(expected[i], mine().get(tiny[i], Stats.COUNT_ONLY_CALLS), "probe " + tiny[i]);
            long inNodes = 0;
            for (int n : nodesOf(t, tiny[i], false)) inNodes += f(t, n, PathTree.COUNT_ONLY);
            assertEquals(expected[i], inNodes, "probe " + tiny[i] + "'s calls in its node");
        }
    }

    @Test
    void noTreeWhenTheBudgetIsZero() {
        start(0, 4);
        call(A, 0, () -> call(B, 0, () -> {}));
        assertNull(Recorder.state().tree);
        assertEquals(1, mine().get(B, Stats.CALLS));
    }
}
