package org.hyprof.export;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hyprof.config.MethodNames;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.correlate.Profile;
import org.hyprof.store.NativeCost;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.TreeRow;
import org.hyprof.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTML report's page and embedded data, against a golden file and for bounded size. */
class HtmlReportTest {
    @TempDir Path dir;

    static String page(Store s) throws Exception {
        return page(s, HtmlReport.DEFAULT_PRUNE_PERCENT);
    }

    static String page(Store s, double prunePercent) throws Exception {
        StringWriter w = new StringWriter();
        HtmlReport.writeSession(s, Profile.load(s), MethodNames.Style.JAVA, prunePercent, w);
        return w.toString();
    }

    /** The JSON inside the page's data element. */
    static JsonNode data(String page) throws Exception {
        String open = "<script type=\"application/json\" id=\"hyprof-data\">";
        int a = page.indexOf(open) + open.length(), b = page.indexOf("</script>", a);
        return new ObjectMapper().readTree(page.substring(a, b));
    }

    @Test
    void eventsSessionDataMatchesGolden() throws Exception {
        ExportGoldenTest.timeline(dir);
        try (Store s = Store.openReadOnly(dir.resolve("e.db"))) {
            String page = page(s);
            JsonNode d = data(page);
            assertEquals("session", d.get("mode").asText());
            assertEquals("events", d.get("header").get("treeSource").asText());
            assertTrue(d.get("frames").get("count").asInt() > 2, "thread roots and frames");
            assertEquals(2, d.get("timeline").get("lanes").size(), "a lane per thread");
            Golden.check("html/events-data.json",
                    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(d) + "\n");
        }
    }

    /** A session holding a recorded tree of {@code nodes} nodes on thread "main". */
    static Path recorded(Path db, int nodes) {
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 7, "app.Tree", "test-vm", "aggregate", 0, 1_700_000_000_000L, 1,
                    1_700_000_000_010L, "ended", 0, "golden"));
            List<ProbeInfo> probes = new ArrayList<>();
            for (int m = 1; m <= 6; m++) probes.add(new ProbeInfo(m, m == 5, m == 5 ? Resolution.LOOP : Resolution.METHOD, "app.Tree",
                    "m" + m, "()V", m == 5 ? 1 : -1, m == 5 ? 0 : -1, m, "Tree.java"));
            s.addProbes(p, probes);
            s.putThread(p, new org.hyprof.store.ThreadInfo(1, "main", 0, 0));
            s.putTree(p, SyntheticTree.rows(1, nodes));
            s.putTreeInfo(p, 100, nodes);
        }
        return db;
    }

    @Test
    void comparisonDataMatchesGolden() throws Exception {
        // B: the same program with more paths (and so more time in the frames above them)
        try (Store sa = Store.openReadOnly(recorded(dir.resolve("a.db"), 9));
             Store sb = Store.openReadOnly(recorded(dir.resolve("b.db"), 14))) {
            StringWriter w = new StringWriter();
            HtmlReport.writeComparison(sa, Profile.load(sa), sb, Profile.load(sb), MethodNames.Style.JAVA,
                    HtmlReport.DEFAULT_PRUNE_PERCENT, w);
            JsonNode d = data(w.toString());
            assertEquals("compare", d.get("mode").asText());
            JsonNode f = d.get("frames");
            assertEquals(2, f.get("sides").asInt());
            assertEquals(15, f.get("count").asInt(), "B's 14 nodes (A's 9 among them) and the thread");
            for (String side : new String[] {"a", "b"}) ((com.fasterxml.jackson.databind.node.ObjectNode) d.get("header").get(side)).remove("file");
            Golden.check("html/compare-data.json",
                    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(d) + "\n");
        }
    }

    @Test
    void pageIsSelfContained() throws Exception {
        ExportGoldenTest.timeline(dir);
        try (Store s = Store.openReadOnly(dir.resolve("e.db"))) {
            String page = page(s);
            assertTrue(page.startsWith("<!DOCTYPE html>"));
            assertFalse(page.matches("(?s).*\\s(src|href)\\s*=.*"), "no script, style or link fetched from anywhere");
            assertFalse(page.contains("HYPROF_"), "every placeholder filled");
            assertEquals(2, count(page, "<script"), "the data and the renderer, both inline");
        }
    }

    @Test
    void namesCannotEndTheScriptElement() throws Exception {
        Path db = dir.resolve("x.db");
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 1, "x</script><script>alert(1)</script>", "vm", "aggregate", 0, 1, 1, 2L, "ended", 0, "t"));
            s.addProbes(p, List.of(new ProbeInfo(1, false, Resolution.METHOD, "a.B</script>", "m", "()V", -1, -1, 1, "B.java")));
            s.putTree(p, List.of(row(1, 1, 0, 1, 100)));
            s.putTreeInfo(p, 10, 1);
            String page = page(s);
            assertEquals(2, count(page, "</script>"), page);
            assertTrue(data(page).get("frames").get("names").toString().contains("</script>"), "the name itself is kept");
        }
    }

    @Test
    void manyFramesArePrunedToTheLimitAndTheRestIsStated() throws Exception {
        Path db = dir.resolve("big.db");
        int n = HtmlReport.MAX_FRAMES + 20_000;
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 1, "big", "vm", "aggregate", 0, 1, 1, 2L, "ended", 0, "t"));
            List<ProbeInfo> probes = new ArrayList<>();
            for (int m = 1; m <= 100; m++) probes.add(new ProbeInfo(m, false, Resolution.METHOD, "a.C", "m" + m, "()V", -1, -1, m, "C.java"));
            s.addProbes(p, probes);
            s.putTree(p, SyntheticTree.rows(1, n));
            s.putTreeInfo(p, n, n);
            JsonNode f = data(page(s, 0)).get("frames"); // nothing pruned by share: the frame limit decides
            assertTrue(f.get("count").asInt() <= HtmlReport.MAX_FRAMES, f.get("count").toString());
            assertTrue(f.get("thresholdRaised").asBoolean());
            assertEquals(n + 1, f.get("total").asInt(), "every node and the thread root");
            assertEquals(f.get("total").asLong() - f.get("count").asLong(), f.get("prunedFrames").asLong(), "every left-out frame counted");
            assertEquals(f.get("count").asInt(), f.get("up").size());
        }
    }

    @Test
    void categoriesParseAndSkipWhatIsMalformed() {
        assertEquals(Map.of("alu", 3L, "load", 2L), HtmlReport.categories("alu=1,load=2,alu=2,bad,x=y,=4"));
        assertTrue(HtmlReport.categories(null).isEmpty());
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
        return n;
    }

    static TreeRow row(long tid, int node, int parent, int probe, long inclNanos) {
        return new TreeRow(tid, node, parent, probe, TreeRow.METHOD, 1, 0, inclNanos, inclNanos / 2, inclNanos, inclNanos / 2,
                inclNanos, inclNanos, 0, 0, NativeCost.NONE, null, null);
    }

}
