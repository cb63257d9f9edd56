package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.Deterministic;

/**
 * The calling-context tree's views on a real session: an events-mode run (its tree recorded, or
 * rebuilt from the log where the runtime kept none) through {@code report --by tree}, {@code --callers}, {@code export --format folded --weight calls}
 * and speedscope, each consistent with the method table; and an aggregate run.
 */
class CallTreeViewsIT {
    @TempDir static Path dir;
    static Path db;
    static Map<String, Map<String, String>> methods;
    static final String FIB = "workload.Deterministic.fib(int)";

    @BeforeAll
    static void record() {
        db = dir.resolve("ev.db");
        Cli p = Cli.run("profile", "--mode", "events", "-o", db.toString(), "--", Cli.java(), "-cp",
                Cli.classpathOf(Deterministic.class), "workload.Deterministic");
        assertEquals(0, p.exit, p.err);
        methods = Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out);
    }

    /** Σ of a column per method over the tree's paths. */
    private static Map<String, Long> perMethod(List<List<String>> rows, List<String> head, String column) {
        Map<String, Long> sums = new HashMap<>();
        int m = head.indexOf("method"), c = head.indexOf(column);
        for (List<String> r : rows) sums.merge(r.get(m), Long.parseLong(r.get(c)), Long::sum);
        return sums;
    }

    @Test
    void treeCallsPerMethodAreTheMethodTablesCalls() {
        Cli csv = Cli.run("report", db.toString(), "--by", "tree", "--format", "csv");
        assertEquals(0, csv.exit, csv.err);
        List<String> lines = Cli.lines(csv.out);
        List<String> head = Cli.fields(lines.get(0));
        assertEquals(List.of("thread", "path", "depth", "method"), head.subList(0, 4));
        List<List<String>> rows = lines.subList(1, lines.size()).stream().map(Cli::fields).toList();
        assertFalse(rows.isEmpty());
        Map<String, Long> calls = perMethod(rows, head, "calls");
        int checked = 0;
        for (Map.Entry<String, Map<String, String>> e : methods.entrySet()) {
            assertEquals(Long.parseLong(e.getValue().get("calls")), calls.getOrDefault(e.getKey(), 0L), e.getKey());
            checked++;
        }
        assertTrue(checked >= 5, "the workload's methods: " + methods.keySet());
        for (List<String> r : rows) {
            String path = r.get(head.indexOf("path"));
            assertTrue(path.endsWith(r.get(head.indexOf("method"))), path);
            assertEquals(path.split(";").length, Integer.parseInt(r.get(head.indexOf("depth"))), path);
        }
        Cli table = Cli.run("report", db.toString(), "--by", "tree");
        assertEquals(0, table.exit, table.err);
        // rebuilt from the log by a runtime that records no tree; recorded (in events mode too) by one that does
        assertTrue(table.out.startsWith("tree: rebuilt from the event log") || table.out.startsWith("tree: recorded"), table.out);
        assertTrue(table.out.contains("  " + FIB), table.out);
    }

    @Test
    void callersOfAMethodAddUpToItsCalls() {
        Cli c = Cli.run("report", db.toString(), "--callers", "Deterministic.fib", "--format", "csv");
        assertEquals(0, c.exit, c.err);
        long sum = 0;
        for (String l : Cli.lines(c.out).subList(1, Cli.lines(c.out).size())) sum += Long.parseLong(Cli.fields(l).get(3));
        assertEquals(Long.parseLong(methods.get(FIB).get("calls")), sum);
        Cli ambiguous = Cli.run("report", db.toString(), "--callees", "Deterministic");
        assertEquals(1, ambiguous.exit);
        assertTrue(ambiguous.err.contains("ambiguous") && ambiguous.err.contains(FIB), ambiguous.err);
    }

    @Test
    void foldedCallsWeightsAreTheCallsOfEachLeaf() throws Exception {
        Path out = dir.resolve("calls.folded");
        Cli c = Cli.run("export", db.toString(), "--format", "folded", "--weight", "calls", "-o", out.toString());
        assertEquals(0, c.exit, c.err);
        Map<String, Long> leaves = new HashMap<>();
        for (String line : Files.readAllLines(out)) {
            assertTrue(line.matches("[^ ]+ \\d+"), line);
            String stack = line.substring(0, line.lastIndexOf(' '));
            leaves.merge(stack.substring(stack.lastIndexOf(';') + 1), Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)), Long::sum);
        }
        // folded frames have no spaces: "fib(int)" keeps its name, a name with ", " gets "_"
        assertEquals(Long.parseLong(methods.get(FIB).get("calls")), leaves.get(FIB));
    }

    @Test
    void treeSpeedscopeValidatesAgainstItsSchema() throws Exception {
        Path out = dir.resolve("tree.speedscope.json");
        Cli c = Cli.run("export", db.toString(), "--format", "speedscope", "--weight", "time", "-o", out.toString());
        assertEquals(0, c.exit, c.err);
        JsonSchema schema;
        try (InputStream in = getClass().getResourceAsStream("/speedscope/file-format-schema.json")) {
            schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(in);
        }
        JsonNode doc = new ObjectMapper().readTree(out.toFile());
        Set<ValidationMessage> errors = schema.validate(doc);
        assertTrue(errors.isEmpty(), errors.toString());
        assertEquals("sampled", doc.get("profiles").get(0).get("type").asText());
    }

    @Test
    void badOptionsAreOneLineUsageErrors() {
        String s = db.toString(), o = dir.resolve("x").toString();
        String[][] bad = {
            {"report", s, "--by", "tree", "--depth", "-1"},
            {"report", s, "--by", "tree", "--min-share", "101"},
            {"report", s, "--depth", "2"},
            {"report", s, "--by", "tree", "--callers", "fib"},
            {"report", s, "--callers", "fib", "--callees", "leaf"},
            {"export", s, "--format", "folded", "--weight", "joules", "-o", o},
            {"export", s, "--format", "chrome", "--weight", "calls", "-o", o},
        };
        for (String[] args : bad) {
            Cli c = Cli.run(args);
            assertEquals(2, c.exit, String.join(" ", args) + ": " + c.err);
            assertEquals(1, Cli.lines(c.err).size(), String.join(" ", args) + ": " + c.err);
        }
        Cli none = Cli.run("report", s, "--callers", "no.such.Method");
        assertEquals(1, none.exit);
        assertTrue(none.err.contains("'no.such.Method' names no frame of the calling-context tree"), none.err);
    }

    @Test
    void aggregateSessionShowsItsTreeOrSaysItHasNone() throws Exception {
        Path agg = dir.resolve("agg.db");
        Cli p = Cli.run("profile", "-o", agg.toString(), "--", Cli.java(), "-cp", Cli.classpathOf(Deterministic.class),
                "workload.Deterministic");
        assertEquals(0, p.exit, p.err);
        Cli t = Cli.run("report", agg.toString(), "--by", "tree");
        assertEquals(0, t.exit, t.err);
        Path out = dir.resolve("agg.folded");
        Cli e = Cli.run("export", agg.toString(), "--format", "folded", "--weight", "calls", "-o", out.toString());
        if (t.out.startsWith("tree: none")) { // a runtime that records no tree yet
            assertTrue(t.out.contains("has no calling-context tree"), t.out);
            assertEquals(1, e.exit);
            assertTrue(e.err.contains("has no calling-context tree"), e.err);
            return;
        }
        assertTrue(t.out.startsWith("tree: recorded"), t.out);
        assertEquals(0, e.exit, e.err);
        Map<String, Map<String, String>> table = Cli.csv(Cli.run("report", agg.toString(), "--format", "csv").out);
        long leafCalls = 0;
        for (String line : Files.readAllLines(out))
            if (line.substring(0, line.lastIndexOf(' ')).endsWith(";" + FIB)) leafCalls += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
        assertEquals(Long.parseLong(table.get(FIB).get("calls")), leafCalls);
    }
}
