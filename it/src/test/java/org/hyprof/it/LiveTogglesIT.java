package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hyprof.correlate.ReportWriter;
import org.hyprof.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import workload.Toggles;

/**
 * Issue 15's acceptance: live toggling keeps the books. A real {@code hyprof serve}, a real agent
 * in a child JVM running {@link Toggles} (SciMark's shape, a deep recursion, long loops), and
 * {@code hyprof ctl} switching probes while it runs: each change is confirmed in {@code ctl probes}
 * and followed by rounds of every thread and a fresh snapshot. After the program ended and serve
 * stopped, {@code hyprof report} must hold together: for every method and loop row inclusive ≥
 * exclusive ≥ 0 (deducted and raw), every thread's time within the program's wall time, and the
 * energy check (Σ exclusive against the threads' totals) within 0.1 %. The same workloads left
 * alone ({@link #booksKeptWithoutToggles}) tell what toggling broke from what a run without any
 * toggle gets wrong.
 */
class LiveTogglesIT {
    /** The energy check's bound: Σ exclusive energy against the session total. */
    static final double ENERGY_CHECK_BOUND = 0.001;
    /** The threads that run rounds. */
    static final List<String> THREADS = List.of("main", "W1", "W2");

    @TempDir Path dir;
    final List<Process> children = new ArrayList<>();
    Path db;
    Process serve;
    Path serveLog;
    String address;
    Process app;
    Path appLog;

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : children) p.destroyForcibly().waitFor();
    }

    /** Agent arguments that switch every probe on from the start, loops included. */
    static final String EVERY_PROBE = ",resolutions=process:thread:method:loop";

    /**
     * Every step of the live workflow on a SciMark-shaped run, every probe on from the start;
     * second, at the agent's default (loops off, their code placed when switched on), so the zoom
     * step to loops has the agent place sor's loop code while it runs.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void sciMarkShapedRunThroughZoomOffRuleScopeAndBack(boolean agentDefault) throws Exception {
        start("scimark", agentDefault ? "scimark-agent-default" : "scimark", agentDefault ? "" : EVERY_PROBE);
        awaitRounds("the probes of the start on");
        String proc = only(ctlCsv("processes")).get("id");

        String thread = ctl("zoom-in", proc);
        assertTrue(thread.contains("thread level"), thread);
        awaitProbes("thread level: thread entries on, kernels off", Map.of(
                "workload.Toggles$Worker.run()", "on", "workload.Toggles.sor(double[][], int)", "off"));
        awaitRounds("thread level");

        // a minimum duration leaves the shorter calls out of the method rows but not out of the
        // threads' totals, which the energy check compares them with (Profile.Totals): applied here,
        // where every activation recorded (main, the threads' run) lasts the whole run, it leaves
        // nothing out while switching the rules under open frames
        String rule = ctl("rule", "min-duration=1ms");
        assertTrue(rule.contains("min-duration=1000000ns"), rule);
        awaitRounds("rule min-duration=1ms");
        rule = ctl("rule", "none");
        assertTrue(rule.contains("min-duration=0ns min-calls=0 max-depth=0"), rule);
        awaitRounds("rule none");

        String run = probes("workload.Toggles$Worker.run()").get("workload.Toggles$Worker.run()").get("id");
        String method = ctl("zoom-in", run);
        assertTrue(method.contains("method level") && method.contains("root " + run), method);
        awaitProbes("method level: methods on", Map.of("workload.Toggles.sor(double[][], int)", "on", "workload.Toggles$Rng.next()", "on",
                "workload.Toggles.quicksort(int[], int, int)", "on"));
        awaitRounds("method level, root W's run");

        ctl("off", "workload.Toggles$Rng.*"); // the 'ctl off jnt.scimark2.Random.*'
        awaitProbes("Rng off", Map.of("workload.Toggles$Rng.next()", "off"));
        awaitRounds("Rng off");

        // deeper calls (quicksort's recursion) are not opened: their time stays their caller's
        rule = ctl("rule", "max-depth=4");
        assertTrue(rule.contains("max-depth=4"), rule);
        awaitRounds("rule max-depth=4");
        rule = ctl("rule", "none");
        assertTrue(rule.contains("min-duration=0ns min-calls=0 max-depth=0"), rule);
        awaitRounds("rule none, again");

        String sor = probes("workload.Toggles.sor(double[][], int)").get("workload.Toggles.sor(double[][], int)").get("id");
        String loop = ctl("zoom-in", sor);
        assertTrue(loop.contains("loop level") && loop.contains("root " + sor), loop);
        awaitProbes("loop level: sor's loops on, others off", Map.of("workload.Toggles.sor(double[][], int)#loop0", "on",
                "workload.Toggles.quicksort(int[], int, int)#loop0", "off"));
        awaitRounds("loop level, root sor");
        String sorName = "workload.Toggles.sor(double[][], int)";
        Await.until("sor's loops to record", () -> {
            awaitRounds("sor's loops on");
            return loopCalls(sorName) > 0;
        });

        String scope = ctl("scope");
        assertTrue(scope.contains("loop level, root " + sor), scope);

        for (String level : List.of("method", "thread", "process")) {
            String out = ctl("zoom-out");
            assertTrue(out.contains(level + " level"), out);
            awaitRounds("zoomed out to " + level + " level");
        }
        assertBooksKept(finish());
    }

    @Test
    void recursionToggledWhileDeep() throws Exception {
        start("recursion");
        awaitRounds("every probe on at start");
        // each thread spends its rounds inside descend(200): a toggle lands with many frames open
        String m = "workload.Toggles.descend(int)";
        for (int i = 0; i < 3; i++) {
            ctl("off", m + "*");
            awaitProbes("descend and its loops off (" + i + ")", Map.of(m, "off", m + "#loop0", "off", m + "#loop1", "off"));
            awaitRounds("descend off (" + i + ")");
            ctl("on", i % 2 == 0 ? m : m + "#loop*"); // the method alone, or its loops (which switch the method on)
            awaitProbes("descend on (" + i + ")", Map.of(m, "on"));
            awaitRounds("descend on (" + i + ")");
            ctl("off", m + "#loop*");
            awaitProbes("descend's loops off, descend on (" + i + ")", Map.of(m, "on", m + "#loop0", "off"));
            awaitRounds("descend's loops off (" + i + ")");
            ctl("on", m + "*");
            awaitProbes("descend's loops on (" + i + ")", Map.of(m + "#loop0", "on", m + "#loop1", "on"));
            awaitRounds("descend's loops on (" + i + ")");
        }
        assertBooksKept(finish());
    }

    @Test
    void loopsToggledMidIteration() throws Exception {
        start("loops");
        awaitRounds("every probe on at start");
        // every thread's own loop (Worker.loop) runs from start to end: always mid-iteration;
        // sweep's loop runs for a whole round
        String sweep = "workload.Toggles.sweep(int)", own = "workload.Toggles$Worker.loop()#loop0";
        String[][] steps = {
            {"off", "*#loop*", sweep + "#loop0", "off"},
            {"on", sweep + "#loop*", sweep + "#loop1", "on"},
            {"on", "*#loop*", own, "on"},
            {"off", sweep, sweep + "#loop0", "off"},          // the method off takes its loops with it
            {"on", sweep + "#loop0", sweep, "on"},            // a loop on switches its method on
            {"off", own, own, "off"},
            {"on", own, own, "on"},
            {"off", sweep + "#loop1", sweep + "#loop1", "off"},
            {"on", "*", sweep + "#loop1", "on"},
        };
        for (String[] s : steps) {
            ctl(s[0], s[1]);
            awaitProbes(s[0] + " " + s[1], Map.of(s[2], s[3]));
            awaitRounds(s[0] + " " + s[1]);
        }
        assertBooksKept(finish());
    }

    /**
     * Loops off from the start ({@code resolutions} without {@code loop}, or none given): the agent rewrites each
     * class without its loops' code, and places it (retransforming the class with the same ids)
     * when a loop probe is switched on. The loops are known and listed from the start; switched
     * on, they record; a loop never switched on records nothing; the books hold.
     */
    @Test
    void loopsOffFromTheStartArePlacedWhenSwitchedOn() throws Exception {
        start("loops", "loops-placed", ",resolutions=process:thread:method");
        String sweep = "workload.Toggles.sweep(int)", own = "workload.Toggles$Worker.loop()#loop0";
        awaitProbes("loops listed, off", Map.of(sweep, "on", sweep + "#loop0", "off", sweep + "#loop1", "off", own, "off"));
        assertEquals(0, loopCalls(sweep), "no loop recorded before one is switched on");
        ctl("on", sweep + "#loop*");
        awaitProbes("sweep's loops on", Map.of(sweep + "#loop0", "on", sweep + "#loop1", "on"));
        // the class is rewritten on the agent's own thread: sweep's next calls run the new code
        Await.until("sweep's loops to record", () -> {
            awaitRounds("sweep's loops on");
            return loopCalls(sweep) > 0;
        });
        long before = loopCalls(sweep);
        awaitRounds("more rounds with the loops placed");
        assertTrue(loopCalls(sweep) > before, "every round's sweep calls run the loops' code");
        assertBooksKept(finish());
        Cli loops = Cli.run("report", db.toString(), "--by", "loop", "--format", "csv");
        assertEquals(0, loops.exit, loops.err);
        List<Map<String, String>> rows = csvRows(loops.out);
        assertTrue(rows.stream().anyMatch(r -> r.get("method").startsWith(sweep + "#loop") && Long.parseLong(r.get("iterations")) > 0),
                "sweep's loops counted their iterations: " + loops.out);
        assertTrue(rows.stream().noneMatch(r -> r.get("method").startsWith("workload.Toggles$Worker.loop()#loop")),
                "the loop never switched on has no row: " + loops.out);
    }

    /** Calls of the method's loops in a fresh live snapshot. */
    long loopCalls(String method) {
        return ctlCsv("stats", "--by", "loop", "--format", "csv").stream()
                .filter(r -> r.get("method").startsWith(method + "#loop"))
                .mapToLong(r -> Long.parseLong(r.get("calls"))).sum();
    }

    /**
     * The same books for the same workloads left alone (every probe on throughout, the same rounds
     * of snapshots): what the three scenarios find beyond this is what toggling broke.
     */
    @ParameterizedTest
    @ValueSource(strings = {"scimark", "recursion", "loops"})
    void booksKeptWithoutToggles(String kind) throws Exception {
        start(kind, kind + "-untoggled");
        for (int i = 0; i < 4; i++) awaitRounds("rounds " + i + " without toggles");
        assertBooksKept(finish());
    }

    // ---------------------------------------------------------------- the run

    void start(String kind) throws Exception {
        start(kind, kind);
    }

    /**
     * Starts 'hyprof serve' on {@code session}.db and the workload with an agent streaming to it,
     * every probe on ({@link #EVERY_PROBE}), until every probe is known.
     */
    void start(String kind, String session) throws Exception {
        start(kind, session, EVERY_PROBE);
    }

    /** {@link #start(String, String)} with more agent arguments ({@code ,key=value...}). */
    void start(String kind, String session, String moreAgentArgs) throws Exception {
        db = dir.resolve(session + ".db");
        serveLog = dir.resolve("serve.log");
        serve = new ProcessBuilder(Cli.java(), "-jar", Cli.hyprofJar().toString(), "serve", "--listen", "127.0.0.1:0", "-o",
                db.toString()).redirectErrorStream(true).redirectOutput(serveLog.toFile()).start();
        children.add(serve);
        Pattern listening = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
        String started = Await.until("hyprof serve to start (or die)", () -> Files.readString(serveLog),
                l -> listening.matcher(l).find() || !serve.isAlive());
        Matcher m = listening.matcher(started);
        assertTrue(m.find(), "hyprof serve did not start: " + started);
        address = "127.0.0.1:" + m.group(1);

        appLog = dir.resolve("app.log");
        String agentArgs = "connect=" + address + ",tokenFile=" + db + ".token,snapshotMillis=200" + moreAgentArgs;
        app = new ProcessBuilder(Cli.java(), "-javaagent:" + Cli.agentJar() + "=" + agentArgs, "-cp",
                Cli.classpathOf(Toggles.class), "workload.Toggles", kind)
                .redirectErrorStream(true).redirectOutput(appLog.toFile()).start();
        children.add(app);
        Await.until("the workload to connect", () -> ctlCsv("processes"),
                rows -> rows.size() == 1 && rows.get(0).get("connected").equals("true"));
        // every class has been loaded (and its probes announced) once each thread finished a round
        awaitRounds("the first rounds");
    }

    /**
     * Closes the workload's input, waits for it to end and for its session to be complete, stops
     * serve with SIGTERM and returns the workload's wall time in ns.
     */
    long finish() throws Exception {
        app.getOutputStream().close();
        assertTrue(app.waitFor(Await.DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "the workload ends when its input is closed");
        assertEquals(0, app.exitValue(), Files.readString(appLog));
        Matcher m = Pattern.compile("toggles done wall_ms=(\\d+) rounds=(\\d+)").matcher(Files.readString(appLog));
        assertTrue(m.find(), "the workload printed its wall time: " + Files.readString(appLog));
        Await.until("the session to be complete (status ended)", () -> ctlCsv("processes"),
                rows -> rows.size() == 1 && rows.get(0).get("status").equals("ended"));
        serve.destroy(); // SIGTERM: serve stops cleanly
        assertTrue(serve.waitFor(Await.DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "serve stops on SIGTERM");
        return Long.parseLong(m.group(1)) * 1_000_000;
    }

    /**
     * The report's books: every method and loop row has inclusive ≥ exclusive ≥ 0 (deducted and
     * raw), every thread's time is within the program's wall time, and the energy check is within
     * 0.1 %. Every failing figure is named (assertAll), so one run shows all that is off.
     */
    void assertBooksKept(long wallNanos) throws Exception {
        List<Executable> checks = new ArrayList<>();
        List<Map<String, String>> rows = new ArrayList<>();
        for (String by : List.of("method", "loop")) {
            Cli r = Cli.run("report", db.toString(), "--by", by, "--format", "csv");
            assertEquals(0, r.exit, r.err);
            assertEquals(ReportWriter.METHOD_COLUMNS, Cli.lines(r.out).get(0));
            rows.addAll(csvRows(r.out));
        }
        assertTrue(rows.stream().anyMatch(r -> r.get("kind").equals("loop")), "loop rows in the report");
        for (Map<String, String> r : rows) {
            String name = r.get("method");
            long incl = Long.parseLong(r.get("incl_ns")), excl = Long.parseLong(r.get("excl_ns"));
            long inclRaw = Long.parseLong(r.get("incl_raw_ns")), exclRaw = Long.parseLong(r.get("excl_raw_ns"));
            checks.add(() -> assertTrue(incl >= excl && excl >= 0, name + ": inclusive " + incl + " ns >= exclusive " + excl + " ns >= 0"));
            checks.add(() -> assertTrue(inclRaw >= exclRaw && exclRaw >= 0,
                    name + ": raw inclusive " + inclRaw + " ns >= raw exclusive " + exclRaw + " ns >= 0"));
        }

        Cli byThread = Cli.run("report", db.toString(), "--by", "thread", "--format", "csv");
        assertEquals(0, byThread.exit, byThread.err);
        assertEquals(ReportWriter.THREAD_COLUMNS, Cli.lines(byThread.out).get(0));
        List<Map<String, String>> threads = csvRows(byThread.out);
        assertTrue(threads.stream().map(t -> t.get("thread")).toList().containsAll(THREADS), byThread.out);
        for (Map<String, String> t : threads) {
            String name = t.get("thread") + " (tid " + t.get("tid") + ")";
            long time = Long.parseLong(t.get("time_ns")), raw = Long.parseLong(t.get("time_raw_ns"));
            checks.add(() -> assertTrue(time >= 0 && time <= wallNanos, name + ": time " + time + " ns within the wall time " + wallNanos + " ns"));
            checks.add(() -> assertTrue(raw >= 0 && raw <= wallNanos, name + ": raw time " + raw + " ns within the wall time " + wallNanos + " ns"));
        }

        Cli table = Cli.run("report", db.toString());
        assertEquals(0, table.exit, table.err);
        assertTrue(table.out.contains("(pid " + app.pid() + "): ended, "), "the run ended cleanly, so the check applies: " + table.out);
        Matcher m = Pattern.compile("check: sum of exclusive energy (\\S+) uJ, session total (\\S+) uJ \\(difference ([0-9.]+)%\\)")
                .matcher(table.out);
        assertTrue(m.find(), "the report prints its energy check: " + table.out);
        double percent = Double.parseDouble(m.group(3));
        String line = m.group();
        checks.add(() -> assertTrue(percent <= 100 * ENERGY_CHECK_BOUND, "energy check within 0.1 %: " + line));
        Cli json = Cli.run("report", db.toString(), "--format", "json");
        assertEquals(0, json.exit, json.err);
        JsonNode energy = new ObjectMapper().readTree(json.out).get("energy");
        double rel = energy.get("relative_difference").asDouble();
        checks.add(() -> assertTrue(rel <= ENERGY_CHECK_BOUND, "JSON energy.relative_difference " + rel + " <= " + ENERGY_CHECK_BOUND
                + " (sum_excl_ns " + energy.get("sum_excl_ns") + ", top_incl_ns " + energy.get("top_incl_ns") + ")"));
        // the figures, for whoever reads the test's output when a check fails
        System.out.println("LiveTogglesIT " + db.getFileName() + ": wall " + wallNanos / 1_000_000 + " ms\n" + table.out + byThread.out);
        assertAll("the books of " + db.getFileName() + " (wall " + wallNanos / 1_000_000 + " ms)", checks);
    }

    // ---------------------------------------------------------------- waiting for the program and the agent

    /** Rounds each thread finished so far, from the workload's "round NAME K" lines. */
    Map<String, Long> rounds() throws java.io.IOException {
        Map<String, Long> r = new HashMap<>();
        Matcher m = Pattern.compile("(?m)^round (\\S+) (\\d+)$").matcher(Files.readString(appLog));
        while (m.find()) r.merge(m.group(1), Long.parseLong(m.group(2)), Math::max);
        return r;
    }

    /**
     * Waits until every thread finished two more rounds (so calls begun under the previous
     * settings have ended and new ones ran under the new ones), then has the agent take a fresh
     * snapshot ({@code ctl stats}). A live snapshot's rows are not checked: a recursive method's
     * inclusive time counts its outermost activations only, so while one is open its finished
     * inner activations' exclusive time is in and its inclusive time is not yet.
     */
    void awaitRounds(String what) throws Exception {
        Map<String, Long> before = rounds();
        Await.until("two more rounds of " + THREADS + " after: " + what + " (workload: " + appLog + ")", () -> {
            Map<String, Long> now = rounds();
            return THREADS.stream().allMatch(t -> now.getOrDefault(t, 0L) >= before.getOrDefault(t, 0L) + 2);
        });
        assertTrue(ctl("stats", "--format", "csv").startsWith(ReportWriter.METHOD_COLUMNS), "a fresh snapshot after: " + what);
    }

    /** Waits until 'ctl probes' shows each named probe in the given state ("on"/"off"). */
    void awaitProbes(String what, Map<String, String> states) throws InterruptedException {
        Await.until(what + ": " + states, () -> probes("workload.*"), rows -> {
            for (Map.Entry<String, String> e : states.entrySet()) {
                Map<String, String> r = rows.get(e.getKey());
                if (r == null || !r.get("state").equals(e.getValue())) return false;
            }
            return true;
        });
    }

    /** 'ctl probes PATTERN' as rows keyed by the probe's report name. */
    Map<String, Map<String, String>> probes(String pattern) {
        Map<String, Map<String, String>> r = new LinkedHashMap<>();
        Map<String, Integer> loopsSeen = new HashMap<>();
        for (Map<String, String> row : ctlCsv("probes", pattern)) {
            r.put(row.get("probe"), row);
            if (!row.get("kind").equals("loop") || row.get("probe").lastIndexOf("#loop") < 0) continue;
            // also under METHOD#loopK: loops are named by source line; ids (and so rows) go in code order, as K does
            String name = row.get("probe"), method = name.substring(0, name.lastIndexOf("#loop"));
            int k = loopsSeen.merge(row.get("process") + " " + method, 1, Integer::sum) - 1;
            r.putIfAbsent(method + "#loop" + k, row);
        }
        return r;
    }

    List<Map<String, String>> ctlCsv(String... command) {
        return csvRows(ctl(command));
    }

    /** Runs 'hyprof ctl' on the session (its token from S.db.token); it must succeed. */
    String ctl(String... command) {
        List<String> args = new ArrayList<>(List.of("ctl", "--connect", address, "--session", db.toString(), "--timeout-ms",
                String.valueOf(Await.DEADLINE.toMillis())));
        args.addAll(List.of(command));
        Cli c = Cli.run(args.toArray(new String[0]));
        assertEquals(0, c.exit, "ctl " + String.join(" ", command) + ": " + c.err);
        return c.out;
    }

    static Map<String, String> only(List<Map<String, String>> rows) {
        assertEquals(1, rows.size(), rows.toString());
        return rows.get(0);
    }

    /** CSV with a header row (no quoted fields: JVM names and the workload's thread names have no commas). */
    static List<Map<String, String>> csvRows(String text) {
        List<String> lines = Cli.lines(text);
        List<String> head = Cli.fields(lines.get(0));
        List<Map<String, String>> rows = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            List<String> f = Cli.fields(l); // names with ", " are quoted
            Map<String, String> row = new HashMap<>();
            for (int k = 0; k < head.size() && k < f.size(); k++) row.put(head.get(k), f.get(k));
            rows.add(row);
        }
        return rows;
    }
}
