package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hyprof.analysis.CallTree;
import org.hyprof.correlate.MethodRow;
import org.hyprof.correlate.Profile;
import org.hyprof.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.PathStorm;
import workload.Paths;

/**
 * Issue 22 acceptance, the calling-context tree in the default (aggregate) mode: {@link Paths}
 * reaches one method along several paths of different per-call cost, through a recursion and from
 * a lambda-started thread, and times its own calls. The tree's calls per path are exact and each
 * path's raw inclusive time is within 5 % of what the callers' own clocks saw in the same run.
 */
class CallTreeIT {
    @TempDir Path dir;

    /** A frame's method name without its class and parameters: {@code workload.Paths.rec(int, String)} → {@code rec}. */
    static String simple(String frame) {
        int paren = frame.indexOf('(');
        String head = paren < 0 ? frame : frame.substring(0, paren);
        return head.substring(head.lastIndexOf('.') + 1);
    }

    /** The node's path without loop frames, in simple names. */
    static String simplePath(CallTree tree, int node) {
        List<String> out = new ArrayList<>();
        for (String f : tree.path(node).split(";")) if (!f.contains("#")) out.add(simple(f));
        return String.join(";", out);
    }

    @Test
    void callsPerPathAreExactAndEachPathsTimeIsWhatItsCallersMeasured() throws Exception {
        Path db = dir.resolve("paths.db"), truth = dir.resolve("paths.truth");
        Cli p = Cli.run("profile", "--time-all", "--resolution", "process,thread,method,loop", "-o", db.toString(), "--", Cli.java(), "-cp", Cli.classpathOf(Paths.class),
                "workload.Paths", truth.toString());
        assertEquals(0, p.exit, p.err);
        List<String> lines = Files.readAllLines(truth);
        assertEquals(4, lines.size(), lines.toString());
        try (Store s = Store.openReadOnly(db)) {
            CallTree tree = CallTree.load(s);
            assertEquals(CallTree.Source.RECORDED, tree.source());
            assertEquals(0, tree.overflowCalls(), "a small program stays within the default budget");
            for (String l : lines) {
                String[] f = l.split(" ");
                String path = f[0];
                long calls = Long.parseLong(f[1]), nanos = Long.parseLong(f[2]);
                boolean lambda = path.startsWith("lambda;");
                String want = lambda ? path.substring("lambda;".length()) : path;
                long treeCalls = 0, treeNanos = 0;
                for (CallTree.Node n : tree.nodes()) {
                    if (n.kind() != CallTree.Kind.METHOD || !n.name().contains(".work(")) continue;
                    String sp = simplePath(tree, n.index());
                    boolean onLambdaThread = n.thread().equals("lambda-worker");
                    if (onLambdaThread != lambda) continue;
                    if (lambda ? sp.equals(simple(tree.path(n.index()).split(";")[0]) + ";" + want) && sp.startsWith("lambda$")
                            : sp.equals("main;" + want)) {
                        treeCalls += n.calls();
                        treeNanos += n.inclRawNanos();
                    }
                }
                assertEquals(calls, treeCalls, path + ": calls on that path");
                double rel = Math.abs(treeNanos - nanos) / (double) nanos;
                System.out.printf("CallTreeIT %-18s calls %4d = %4d   tree raw incl %,13d ns   callers %,13d ns   %+.2f %%%n",
                        path, treeCalls, calls, treeNanos, nanos, (treeNanos - nanos) * 100.0 / nanos);
                assertTrue(rel <= 0.05, path + ": the tree's raw inclusive " + treeNanos + " ns, the callers measured " + nanos
                        + " ns (" + String.format("%.2f", rel * 100) + " % apart)");
            }
            // the tree and the method table count the same calls
            long workCalls = 0;
            for (CallTree.Node n : tree.nodes()) if (n.kind() == CallTree.Kind.METHOD && n.name().contains(".work(")) workCalls += n.calls();
            MethodRow work = null;
            for (MethodRow r : Profile.load(s).methods()) if (r.method().contains(".work(")) work = r;
            assertNotNull(work);
            assertEquals(work.calls(), workCalls);
            assertEquals(12 + 120 + 20 + 40 + 4, workCalls, "the four paths and the four priming calls");
        }
    }

    /**
     * Paths that explode ({@link PathStorm}: random walks through mutually recursive methods, far
     * more distinct paths than the budget): the tree keeps at most its budget (and one overflow node
     * per kept node), the calls on paths past it are in {@code (other paths)} frames, and the tree
     * and the method table count every call.
     */
    @Test
    void pastTheNodeBudgetCallsGoToOtherPathsAndNoneIsLost() throws Exception {
        Path db = dir.resolve("storm.db"), truth = dir.resolve("storm.truth");
        Cli p = Cli.run("profile", "--time-all", "--resolution", "process,thread,method,loop", "--tree-nodes", "20000", "-o", db.toString(), "--", Cli.java(), "-cp",
                Cli.classpathOf(PathStorm.class), "workload.PathStorm", truth.toString(), "60");
        assertEquals(0, p.exit, p.err);
        try (Store s = Store.openReadOnly(db)) {
            long[] info = s.treeInfo(1);
            assertNotNull(info);
            assertEquals(20000, info[0]);
            CallTree tree = CallTree.load(s);
            long kept = 0, other = 0, otherNodes = 0, treeCalls = 0;
            for (CallTree.Node n : tree.nodes()) {
                if (n.kind() == CallTree.Kind.THREAD) continue;
                treeCalls += n.calls();
                if (n.kind() == CallTree.Kind.OTHER_PATHS) {
                    otherNodes++;
                    other += n.calls();
                    assertEquals(CallTree.OTHER_PATHS, n.name());
                    assertNotEquals(CallTree.Kind.OTHER_PATHS, tree.nodes().get(n.parent()).kind(), "under a kept node");
                } else kept++;
            }
            // blocks of 64 nodes per thread: the budget is kept to within one block per thread
            assertTrue(kept <= 20000 + 64 * tree.threads().size(), "kept nodes " + kept);
            assertTrue(otherNodes <= kept, "at most one overflow node per kept node");
            assertTrue(other > 0, "calls went past the budget");
            assertEquals(other, tree.overflowCalls());
            long tableCalls = 0, stormCalls = 0;
            for (MethodRow r : Profile.load(s).methods()) tableCalls += r.calls();
            for (String l : Files.readAllLines(truth)) stormCalls += Long.parseLong(l.split(" ")[1]);
            // loops called past the budget are calls of the overflow frames too, so methods and loops together
            assertEquals(tableCalls, treeCalls, "every call is on a path of the tree");
            long abcd = 0;
            for (MethodRow r : Profile.load(s).methods())
                if (r.method().matches("workload\\.PathStorm\\.[abcd]\\(int\\)")) abcd += r.calls();
            assertEquals(stormCalls, abcd, "the method table's calls are exact");
            System.out.printf("CallTreeIT storm: %,d calls, %,d kept nodes, %,d overflow nodes holding %,d calls%n",
                    tableCalls, kept, otherNodes, other);
        }
        Path html = dir.resolve("storm.html");
        Cli h = Cli.run("report", db.toString(), "--format", "html", "-o", html.toString());
        assertEquals(0, h.exit, h.err);
        String page = Files.readString(html);
        assertTrue(Files.size(html) <= 20L << 20, "the page stays within 20 MB: " + Files.size(html));
        assertTrue(page.contains(CallTree.OTHER_PATHS), "the overflow frame is on the page");
    }

    /**
     * The hybrid demo (Android's libc and libm run beside it by default): native frames under each
     * native method — the demo library's functions and the system libraries' it called (malloc,
     * sin...) — and the tree's native totals are the method table's.
     */
    @Test
    void theDemosNativeCodeAppearsUnderItsJavaMethods() {
        Path db = dir.resolve("demo.db");
        Cli p = Cli.run("demo", "-o", db.toString());
        assertEquals(0, p.exit, p.err);
        try (Store s = Store.openReadOnly(db)) {
            CallTree tree = CallTree.load(s);
            long treeNative = 0, tableNative = 0;
            java.util.Set<String> withNative = new java.util.TreeSet<>(), libraries = new java.util.TreeSet<>();
            for (CallTree.Node n : tree.nodes()) {
                if (n.kind() != CallTree.Kind.NATIVE) continue;
                assertTrue(n.name().matches("(libhyprofdemo|libc|libm)\\.so![^!]+"), n.name());
                libraries.add(n.name().substring(0, n.name().indexOf('!')));
                CallTree.Node parent = tree.nodes().get(n.parent());
                withNative.add(parent.name());
                treeNative += n.nativeEstNanos();
            }
            for (MethodRow r : Profile.load(s).methods()) {
                tableNative += r.nativeCost().estNanos();
                if (r.method().startsWith("demo.NativeKernels.") && r.nativeCost().estNanos() > 0)
                    assertTrue(withNative.contains(r.method()), r.method() + " has native frames");
            }
            assertTrue(treeNative > 0);
            assertEquals(java.util.Set.of("libhyprofdemo.so", "libc.so", "libm.so"), libraries, "the demo's own frames and libc's and libm's");
            assertEquals(tableNative, treeNative, "the tree's native time is the method table's");
        }
    }
}
