package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.hyprof.export.PerfettoTraceTest;
import workload.Deterministic;

/** Exports of a real events-mode session, read back by the real readers. */
class ExportIT {
    @TempDir static Path dir;
    static Path db;
    static Map<String, Map<String, String>> report;

    @BeforeAll
    static void record() {
        db = dir.resolve("ev.db");
        Cli p = Cli.run("profile", "--mode", "events", "-o", db.toString(), "--", Cli.java(), "-cp",
                Cli.classpathOf(Deterministic.class), "workload.Deterministic");
        assertEquals(0, p.exit, p.err);
        report = Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out);
    }

    static Path export(String format) {
        Path out = dir.resolve("ev." + format);
        Cli c = Cli.run("export", db.toString(), "--format", format, "-o", out.toString());
        assertEquals(0, c.exit, c.err);
        return out;
    }

    @Test
    void dmtracedumpReadsTheTraceWithTheSameCallCounts() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/dmtracedump")), "dmtracedump is installed by .ci/run");
        Path trace = export("trace");
        Process p = new ProcessBuilder("dmtracedump", "-o", trace.toString()).start();
        String out = new String(p.getInputStream().readAllBytes());
        String err = new String(p.getErrorStream().readAllBytes());
        p.waitFor();
        assertEquals("", err, "dmtracedump complained");
        Map<String, Integer> enters = new HashMap<>();
        for (String line : out.split("\n")) {
            // e.g. "  1 ent        1234 workload.Deterministic.leaf (I)I"
            String[] f = line.trim().split("\\s+");
            if (f.length >= 5 && f[1].equals("ent")) enters.merge(f[3].replaceFirst("^\\.+", "") + f[4], 1, Integer::sum);
        }
        for (String m : new String[] {"leaf(I)I", "fib(I)I", "middle()V", "thrower(I)V", "catcher()I"}) {
            String name = "workload.Deterministic." + m; // .trace keeps JVM descriptors (its format); the report, Java names
            String javaName = org.hyprof.config.MethodNames.method("workload.Deterministic", m.substring(0, m.indexOf('(')),
                    m.substring(m.indexOf('(')), org.hyprof.config.MethodNames.Style.JAVA);
            assertEquals(Integer.parseInt(report.get(javaName).get("calls")), enters.getOrDefault(name, 0), name + " in:\n" + out.substring(0, Math.min(2000, out.length())));
        }
        assertTrue(out.contains("unr"), "exceptions appear as unwinds");
    }

    @Test
    void chromeJsonNestsPerThreadAndHasCounters() throws Exception {
        JsonNode root = new ObjectMapper().readTree(export("chrome").toFile());
        Map<String, Deque<String>> stacks = new HashMap<>();
        int slices = 0, counters = 0, names = 0;
        double lastTs = -1;
        for (JsonNode e : root.get("traceEvents")) {
            String ph = e.get("ph").asText();
            String key = e.path("pid").asText() + "/" + e.path("tid").asText();
            switch (ph) {
                case "B" -> { stacks.computeIfAbsent(key, k -> new ArrayDeque<>()).push(e.get("name").asText()); slices++; }
                case "E" -> assertNotNull(stacks.get(key).poll(), "E without B on " + key);
                case "C" -> counters++;
                case "M" -> names++;
                default -> fail("unexpected ph " + ph);
            }
        }
        for (Deque<String> s : stacks.values()) assertTrue(s.isEmpty(), "unclosed: " + s);
        assertTrue(slices > 1000, "slices: " + slices);
        assertTrue(counters > 0, "counter tracks");
        assertTrue(names >= 3, "process and thread names");
        // cumulative counter tracks per thread: 0 where the thread starts, rising to its total where it ends
        Map<String, double[]> span = new HashMap<>(); // thread name -> first B ts, last E ts
        Map<String, String> threadOf = new HashMap<>(); // pid/tid -> thread name
        Map<String, List<double[]>> tracks = new HashMap<>(); // track name -> samples (ts, value)
        for (JsonNode e : root.get("traceEvents")) {
            String key = e.path("pid").asText() + "/" + e.path("tid").asText();
            switch (e.get("ph").asText()) {
                case "M" -> { if (e.get("name").asText().equals("thread_name")) threadOf.put(key, e.get("args").get("name").asText()); }
                case "B" -> span.computeIfAbsent(threadOf.get(key), k -> new double[] {e.get("ts").asDouble(), 0});
                case "E" -> span.get(threadOf.get(key))[1] = Math.max(span.get(threadOf.get(key))[1], e.get("ts").asDouble());
                case "C" -> tracks.computeIfAbsent(e.get("name").asText(), k -> new java.util.ArrayList<>())
                        .add(new double[] {e.get("ts").asDouble(), e.get("args").elements().next().asDouble()});
                default -> { }
            }
        }
        assertEquals(Set.of("main", "worker"), span.keySet(), "the workload's threads");
        for (String thread : span.keySet()) {
            for (String kind : new String[] {"energy ", "java time "}) {
                List<double[]> samples = tracks.get(kind + thread);
                assertNotNull(samples, kind + thread + " in " + tracks.keySet());
                samples.sort((x, y) -> Double.compare(x[0], y[0]));
                assertTrue(samples.size() >= 2, kind + thread + ": a start and an end sample");
                assertEquals(span.get(thread)[0], samples.get(0)[0], 1e-9, kind + thread + " starts with the thread");
                assertEquals(0, samples.get(0)[1], kind + thread + " starts at 0");
                for (int i = 1; i < samples.size(); i++) assertTrue(samples.get(i)[1] >= samples.get(i - 1)[1], kind + thread + " is cumulative");
                assertTrue(samples.get(samples.size() - 1)[1] > 0, kind + thread + " ends above 0");
            }
            List<double[]> energy = tracks.get("energy " + thread);
            assertEquals(span.get(thread)[1], energy.get(energy.size() - 1)[0], 1e-9, "energy " + thread + " ends with the thread's last call");
        }
    }

    @Test
    void perfettoSlicesNestAndMatchChromesAndProtocReadsTheTrace() throws Exception {
        Path pf = export("perfetto");
        Map<Long, List<String>> slices = PerfettoTraceTest.slices(Files.readAllBytes(pf)); // nesting checked per sequence
        long perfettoSlices = slices.values().stream().mapToLong(List::size).sum();
        long chromeBegins = 0;
        for (JsonNode e : new ObjectMapper().readTree(export("chrome").toFile()).get("traceEvents"))
            if (e.get("ph").asText().equals("B")) chromeBegins++;
        assertTrue(perfettoSlices > 0);
        assertEquals(chromeBegins, perfettoSlices, "a slice per call (and loop), as in the Chrome export");
        assumeTrue(PerfettoTraceTest.onPath("protoc"), "protoc not installed (Debian protobuf-compiler, in .ci/run's PACKAGES): decoding skipped");
        String text = PerfettoTraceTest.decode(pf, dir);
        assertTrue(text.contains("TYPE_SLICE_BEGIN") && text.contains("clock_snapshot") && text.contains("thread_name: \"main\""), text.substring(0, 2000));
        // threads under the kernel's ids (issue 19): what a system trace of the same run shows
        try (org.hyprof.store.Store s = org.hyprof.store.Store.openReadOnly(db)) {
            org.hyprof.store.ProcessInfo proc = s.processes().get(0);
            Map<Long, Long> osTids = s.osTids(proc.id());
            for (org.hyprof.store.ThreadInfo t : s.threads(proc.id())) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("tid: (\\d+)\\s+thread_name: \"" + t.name() + "\"").matcher(text);
                if (!m.find()) continue; // a thread without events has no track
                long tid = Long.parseLong(m.group(1));
                assertEquals(osTids.get(t.tid()), tid, "thread " + t.name() + " under the OS id its runtime read");
            }
            assertTrue(osTids.size() >= 2, "main and worker: " + osTids);
        }
    }

    @Test
    void chromeIsCompactUnlessPretty() throws Exception {
        String compact = Files.readString(export("chrome"));
        Path pretty = dir.resolve("pretty.json");
        Cli c = Cli.run("export", db.toString(), "--format", "chrome", "--pretty", "-o", pretty.toString());
        assertEquals(0, c.exit, c.err);
        String indented = Files.readString(pretty);
        assertFalse(compact.contains("\n"));
        assertTrue(indented.lines().count() > 100);
        assertEquals(new ObjectMapper().readTree(indented), new ObjectMapper().readTree(compact), "the same content");
    }

    @Test
    void speedscopeValidatesAgainstItsSchema() throws Exception {
        Path file = export("speedscope");
        JsonSchema schema;
        try (InputStream in = getClass().getResourceAsStream("/speedscope/file-format-schema.json")) {
            schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(in);
        }
        JsonNode doc = new ObjectMapper().readTree(file.toFile());
        Set<ValidationMessage> errors = schema.validate(doc);
        assertTrue(errors.isEmpty(), errors.toString());
        assertTrue(doc.get("profiles").size() >= 2, "one evented profile per thread");
    }

    @Test
    void foldedStacksHaveIntegerWeights() throws Exception {
        for (String line : Files.readAllLines(export("folded"))) assertTrue(line.matches("[^ ]+ \\d+"), line);
        Path x = dir.resolve("x");
        Cli energy = Cli.run("export", db.toString(), "--format", "folded", "--weight", "energy", "-o", x.toString());
        assertEquals(0, energy.exit, energy.err);
        List<String> lines = Files.readAllLines(x);
        assertFalse(lines.isEmpty(), "energy weights (µJ) of a Java-only session: time x the sample power profile");
        for (String line : lines) assertTrue(line.matches("[^ ]+ \\d+"), line);
    }

    @Test
    void aggregateCorruptAndEmptySessionsAreOneLineErrors() throws Exception {
        Path agg = dir.resolve("agg.db");
        assertEquals(0, Cli.run("profile", "-o", agg.toString(), "--", Cli.java(), "-cp", Cli.classpathOf(Deterministic.class),
                "workload.Deterministic").exit);
        Cli c = Cli.run("export", agg.toString(), "--format", "trace", "-o", dir.resolve("a.trace").toString());
        assertEquals(1, c.exit);
        assertEquals(1, Cli.lines(c.err).size(), c.err);
        assertTrue(c.err.contains("needs the calls themselves (profile again with --mode events)"), c.err);
        assertFalse(Files.exists(dir.resolve("a.trace")));
        Path bad = dir.resolve("bad.db");
        Files.write(bad, new byte[2048]);
        Cli b = Cli.run("export", bad.toString(), "--format", "chrome", "-o", dir.resolve("b.json").toString());
        assertEquals(1, b.exit);
        assertEquals(1, Cli.lines(b.err).size(), b.err);
        Path empty = dir.resolve("empty.db");
        try (var s = org.hyprof.store.Store.create(empty)) { /* no process */ }
        Cli e = Cli.run("export", empty.toString(), "--format", "speedscope", "-o", dir.resolve("e.json").toString());
        assertEquals(1, e.exit);
        assertTrue(e.err.contains("empty session"), e.err);
    }

    @Test
    void theInputIsNeverOverwritten() throws Exception {
        Path copy = dir.resolve("copy.db");
        Files.copy(db, copy);
        byte[] before = Files.readAllBytes(copy);
        Path link = Files.createSymbolicLink(dir.resolve("copy-link.db"), copy);
        for (Path out : List.of(copy, dir.resolve(".").resolve("copy.db"), link)) {
            Cli c = Cli.run("export", copy.toString(), "--format", "folded", "-o", out.toString());
            assertEquals(2, c.exit, c.err);
            assertEquals(List.of("hyprof: " + out + ": is the input " + copy
                    + "; writing there would destroy it (choose another output file)"), Cli.lines(c.err));
        }
        assertArrayEquals(before, Files.readAllBytes(copy), "the session is untouched");
        assertEquals(0, Cli.run("report", copy.toString()).exit, "and still a session");
    }

    @Test
    void unwritableOutputsAreOneLineErrors() throws Exception {
        Path missing = Path.of("/nonexist/dir/x.trace");
        Cli c = Cli.run("export", db.toString(), "--format", "trace", "-o", missing.toString());
        assertEquals(1, c.exit, c.err);
        assertEquals(List.of("hyprof: /nonexist/dir/x.trace: directory /nonexist/dir does not exist"), Cli.lines(c.err));
        Cli d = Cli.run("export", db.toString(), "--format", "chrome", "-o", dir.toString());
        assertEquals(1, d.exit, d.err);
        assertEquals(List.of("hyprof: " + dir + ": is a directory"), Cli.lines(d.err));
        assertTrue(Files.isDirectory(dir));
    }

    @Test
    void unknownProcessNamesTheSessionsProcesses() {
        Path out = dir.resolve("p99.trace");
        Cli c = Cli.run("export", db.toString(), "--format", "trace", "--process", "99", "-o", out.toString());
        assertEquals(1, c.exit, c.err);
        assertEquals(1, Cli.lines(c.err).size(), c.err);
        assertTrue(c.err.startsWith("hyprof: " + db + ": no process 99; its process: 1 workload.Deterministic (pid "), c.err);
        assertTrue(c.err.contains("events mode)"), c.err);
        assertFalse(Files.exists(out));
        assertEquals(0, Cli.run("export", db.toString(), "--format", "trace", "--process", "1", "-o", out.toString()).exit);
    }

    @Test
    void weightIsOnlyForFoldedAndSpeedscope() {
        // (speedscope takes --weight since the calling-context tree: sampled profiles, see CallTreeViewsIT)
        for (String f : new String[] {"trace", "chrome", "perfetto"}) {
            Path out = dir.resolve("w." + f);
            Cli c = Cli.run("export", db.toString(), "--format", f, "--weight", "energy", "-o", out.toString());
            assertEquals(2, c.exit, c.err);
            assertEquals(1, Cli.lines(c.err).size(), c.err);
            assertTrue(c.err.startsWith("hyprof: --weight: only with --format folded or speedscope (" + f + " is a timeline"), c.err);
            assertFalse(Files.exists(out));
        }
    }

    @Test
    void compareTwoSessions() {
        Path agg = dir.resolve("cmp.db");
        assertEquals(0, Cli.run("profile", "-o", agg.toString(), "--", Cli.java(), "-cp", Cli.classpathOf(Deterministic.class),
                "workload.Deterministic").exit);
        Cli c = Cli.run("compare", db.toString(), agg.toString(), "--format", "csv");
        assertEquals(0, c.exit, c.err);
        Map<String, Map<String, String>> rows = Cli.csv(c.out);
        Map<String, String> leaf = rows.get("workload.Deterministic.leaf(int)");
        assertEquals("1050", leaf.get("calls_a"));
        assertEquals("1050", leaf.get("calls_b"));
        assertEquals("1.000", leaf.get("calls_ratio"));
        Cli t = Cli.run("compare", db.toString(), agg.toString());
        assertEquals(0, t.exit, t.err);
        List<String> lines = Cli.lines(t.out);
        for (String title : new String[] {"calls", "incl time", "excl time", "native instr", "native cycles", "energy"})
            assertTrue(lines.get(0).contains(title), lines.get(0));
        String leafRow = lines.stream().filter(l -> l.endsWith(" workload.Deterministic.leaf(int)")).findFirst().orElseThrow();
        assertTrue(leafRow.startsWith("  1050   1050 1.000 "), leafRow);
        Path empty = dir.resolve("cmp-empty.db");
        try (var s = org.hyprof.store.Store.create(empty)) { /* no process */ }
        Cli e = Cli.run("compare", db.toString(), empty.toString());
        assertEquals(1, e.exit);
        assertEquals(List.of("hyprof: " + empty + ": empty session (no process recorded)"), Cli.lines(e.err));
    }
}
