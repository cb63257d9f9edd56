package org.hyprof.correlate;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.hyprof.analysis.CallTree;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.export.ExportGoldenTest;
import org.hyprof.export.TreeExport;
import org.hyprof.store.NativeCost;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;
import org.hyprof.store.TreeRow;
import org.hyprof.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code report --by tree}, the butterfly and the tree's exports, from a small recorded tree built here. */
public class TreeWriterTest {
    @TempDir Path dir;

    /** main → {fib ×10, work ×5 → {fib ×3, (other paths) ×7}} on thread main; run → fib ×2 on thread worker. */
    public static Path recordedSession(Path dir) {
        Path db = dir.resolve("tree.db");
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 4242, "app.Main", "test-vm", "aggregate", 1 << 20, 1_700_000_000_000L,
                    1_000_000, 1_700_000_000_010L, "ended", 0, "golden"));
            s.addProbes(p, List.of(
                    new ProbeInfo(1, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"),
                    new ProbeInfo(2, false, Resolution.METHOD, "app.Main", "fib", "(I)I", -1, -1, 9, "Main.java"),
                    new ProbeInfo(3, false, Resolution.METHOD, "app.Main", "work", "()V", -1, -1, 15, "Main.java"),
                    new ProbeInfo(4, false, Resolution.THREAD, "app.Worker", "run", "()V", -1, -1, 20, "Worker.java")));
            s.putThread(p, new ThreadInfo(1, "main", 0, 0));
            s.putThread(p, new ThreadInfo(12, "worker", 0, 0));
            s.putTree(p, List.of(
                    row(1, 1, 0, 1, TreeRow.METHOD, 1, 1_000_000, 100_000),
                    row(1, 2, 1, 2, TreeRow.METHOD, 10, 600_000, 600_000),
                    row(1, 3, 1, 3, TreeRow.METHOD, 5, 300_000, 200_000),
                    row(1, 4, 3, 2, TreeRow.METHOD, 3, 100_000, 100_000),
                    row(1, 5, 3, -1, TreeRow.OTHER_PATHS, 7, 0, 0),
                    row(12, 1, 0, 4, TreeRow.METHOD, 1, 500_000, 200_000),
                    row(12, 2, 1, 2, TreeRow.METHOD, 2, 300_000, 300_000)));
            s.putTreeInfo(p, 64, 7);
            new EnergyModel(500, "500 mW (test)").save(s);
        }
        return db;
    }

    private static TreeRow row(long tid, int node, int parent, int probe, int kind, long calls, long incl, long excl) {
        return new TreeRow(tid, node, parent, probe, kind, calls, 0, incl + 10 * calls, excl + 10 * calls, incl, excl,
                calls == 0 ? 0 : incl / calls, calls == 0 ? 0 : incl / calls, 0, 0, NativeCost.NONE, null, null);
    }

    private static CallTree load(Path db) {
        try (Store s = Store.openReadOnly(db)) {
            return CallTree.load(s);
        }
    }

    private static String out(Consumer<PrintWriter> w) {
        StringWriter sw = new StringWriter();
        w.accept(new PrintWriter(sw));
        return sw.toString();
    }

    @Test
    void treeFiguresPathsAndButterflyAddUp() {
        CallTree t = load(recordedSession(dir));
        assertEquals(CallTree.Source.RECORDED, t.source());
        assertEquals(64, t.nodeBudget());
        assertEquals(7, t.overflowCalls());
        List<CallTree.Node> shown = new TreeWriter(t, null, TreeWriter.Limits.NONE, false, false, 0).shown();
        assertEquals(9, shown.size(), "2 threads + 7 paths");
        assertEquals("app.Main.main(java.lang.String[]);app.Main.work();app.Main.fib(int)", t.path(shown.get(4).index()));
        long fibCalls = 0;
        for (CallTree.Node n : t.nodes()) if (n.name().equals("app.Main.fib(int)")) fibCalls += n.calls();
        assertEquals(15, fibCalls);
        String fib = TreeWriter.resolve(t, "fib");
        assertEquals("app.Main.fib(int)", fib);
        List<CallTree.Edge> callers = t.callers(fib);
        assertEquals(15, callers.stream().mapToLong(CallTree.Edge::calls).sum(), "callers' calls = the method's");
        assertEquals(TreeWriter.totals(t, fib).inclNanos(), callers.stream().mapToLong(CallTree.Edge::inclNanos).sum());
        assertEquals(List.of("app.Main.main(java.lang.String[])", "app.Worker.run()", "app.Main.work()"),
                callers.stream().map(CallTree.Edge::name).toList());
        List<CallTree.Edge> callees = t.callees("app.Main.work()");
        assertEquals(List.of(CallTree.OTHER_PATHS, "app.Main.fib(int)").size(), callees.size());
        assertEquals(10, callees.stream().mapToLong(CallTree.Edge::calls).sum());
        // limits: depth 1 keeps the top-level frames; 50 % of the thread keeps main and run only
        assertEquals(4, new TreeWriter(t, null, new TreeWriter.Limits(1, 0, 0), false, false, 0).shown().size());
        TreeWriter half = new TreeWriter(t, null, new TreeWriter.Limits(0, 0.5, 0), false, false, 0);
        assertEquals(List.of("main", "app.Main.main(java.lang.String[])", "app.Main.fib(int)", "worker", "app.Worker.run()",
                "app.Main.fib(int)"), half.shown().stream().map(CallTree.Node::name).toList());
        assertEquals(3, half.hidden());
    }

    @Test
    void ambiguousOrUnknownNamesListTheCandidates() {
        CallTree t = load(recordedSession(dir));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TreeWriter.resolve(t, "app.Main"));
        assertTrue(e.getMessage().contains("3 frames match: app.Main.fib(int), app.Main.main(java.lang.String[]), app.Main.work()"),
                e.getMessage());
        assertEquals("app.Worker.run()", TreeWriter.resolve(t, "*Worker.r?n*"));
        assertThrows(IllegalArgumentException.class, () -> TreeWriter.resolve(t, "nothing"));
    }

    @Test
    void goldenTreeOutputs() throws Exception {
        CallTree t = load(recordedSession(dir));
        TreeWriter w = new TreeWriter(t, null, TreeWriter.Limits.NONE, false, false, 0);
        Golden.check("report-tree.txt", out(o -> w.write(ReportWriter.Format.TABLE, o)));
        Golden.check("report-tree.csv", out(o -> w.write(ReportWriter.Format.CSV, o)));
        String json = out(o -> w.write(ReportWriter.Format.JSON, o));
        Golden.check("report-tree.json", json);
        JsonNode j = new ObjectMapper().readTree(json);
        assertEquals(7, j.get("rows").size());
        assertEquals(7, j.get("other_paths_calls").asLong());
        Golden.check("report-callers.txt", out(o -> TreeWriter.butterfly(t, "app.Main.fib(int)", true, true, ReportWriter.Format.TABLE, o)));
        Golden.check("report-callers.csv", out(o -> TreeWriter.butterfly(t, "app.Main.fib(int)", true, true, ReportWriter.Format.CSV, o)));
        Golden.check("report-callees.json", out(o -> TreeWriter.butterfly(t, "app.Main.work()", false, true, ReportWriter.Format.JSON, o)));
        for (TreeExport.Weight wt : TreeExport.Weight.values()) {
            String folded = out(o -> TreeExport.folded(t, wt, n -> true, o));
            Golden.check("export-tree-" + wt.name().toLowerCase() + ".folded", folded);
        }
        ByteArrayOutputStream ss = new ByteArrayOutputStream();
        TreeExport.speedscope(t, TreeExport.Weight.TIME, n -> true, "golden", ss);
        String speedscope = ss.toString(StandardCharsets.UTF_8);
        Golden.check("export-tree.speedscope.json", speedscope);
        JsonNode s = new ObjectMapper().readTree(speedscope);
        assertEquals(2, s.get("profiles").size());
        assertEquals("sampled", s.get("profiles").get(0).get("type").asText());
        long sum = 0;
        for (JsonNode v : s.get("profiles").get(0).get("weights")) sum += v.asLong();
        assertEquals(1_000_000, sum, "a thread's exclusive weights add up to its inclusive time");
    }

    @Test
    void foldedCallsAddUpToEachPathsCalls() {
        CallTree t = load(recordedSession(dir));
        String folded = out(o -> TreeExport.folded(t, TreeExport.Weight.CALLS, n -> n.name().equals("worker"), o));
        assertEquals("worker;app.Worker.run() 1\nworker;app.Worker.run();app.Main.fib(int) 2\n", folded);
    }

    @Test
    void sessionWithoutTreeSaysSo() {
        Path db = dir.resolve("old.db");
        try (Store s = Store.create(db)) {
            s.addProcess(new ProcessInfo(0, 1, "app.Main", "test-vm", "aggregate", 1 << 20, 1L, 1, 2L, "ended", 0, "old"));
        }
        CallTree t = load(db);
        assertEquals(CallTree.Source.NONE, t.source());
        String table = out(o -> new TreeWriter(t, null, TreeWriter.Limits.NONE, false, false, 0).write(ReportWriter.Format.TABLE, o));
        assertEquals("tree: none: " + TreeWriter.NO_TREE + "\n", table);
    }

    @Test
    void eventLogTreeIsRebuiltWithRawTimes() {
        ExportGoldenTest.timeline(dir);
        CallTree t = load(dir.resolve("e.db"));
        assertEquals(CallTree.Source.EVENTS, t.source());
        String folded = out(o -> TreeExport.folded(t, TreeExport.Weight.CALLS, n -> true, o));
        Golden.check("export-events-tree-calls.folded", folded);
        assertTrue(folded.contains("main;app.Main.main(java.lang.String[]);app.Main.main(java.lang.String[])#loop@5;app.Main.fib(int) 1\n"), folded);
        Golden.check("report-events-tree.txt", out(o -> new TreeWriter(t, null, TreeWriter.Limits.NONE, false, false, 0)
                .write(ReportWriter.Format.TABLE, o)));
    }
}
