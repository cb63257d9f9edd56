package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.hyprof.config.ProbeInfo;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;
import org.hyprof.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.UntilTold;

/**
 * Issue 20: a collector restarted just before the program exits got none of its calls (the agent
 * gave up at once, its backoff at 5 s). Now the agent keeps trying within {@code exitGraceMillis}
 * and then writes what the collector has not acknowledged to a spill file, which
 * {@code import --append} adds to the same process row. Real {@code hyprof serve} processes, a real
 * agent; the workload exits when told (stdin), and every count is checked against the counts it
 * printed itself. No step depends on timing: each waits for a condition.
 */
class SpillIT {
    static final String EVENTS = ",mode=events,budget=512m,resolutions=process;thread;method";
    @TempDir Path dir;
    final List<Process> children = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : children) p.destroyForcibly().waitFor();
    }

    record Serve(Process process, int port) {}

    Serve serve(Path db, int port) throws Exception {
        Path out = dir.resolve("serve" + children.size() + ".log");
        Process p = new ProcessBuilder(Cli.java(), "-jar", Cli.hyprofJar().toString(), "serve",
                "--listen", "127.0.0.1:" + port, "-o", db.toString()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        children.add(p);
        Pattern listening = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
        int[] found = new int[1];
        await("hyprof serve listens: " + out, () -> {
            Matcher m = listening.matcher(read(out));
            if (m.find()) found[0] = Integer.parseInt(m.group(1));
            return found[0] > 0 || !p.isAlive();
        });
        assertTrue(p.isAlive(), read(out));
        return new Serve(p, found[0]);
    }

    /** SIGTERM, as Ctrl-C: serve closes the session and exits. */
    static void stop(Serve s) throws InterruptedException {
        s.process().destroy();
        assertTrue(s.process().waitFor(60, TimeUnit.SECONDS), "serve stops on SIGTERM");
    }

    Process agent(Path db, int port, String extra, Path log) throws Exception {
        String args = "connect=127.0.0.1:" + port + ",tokenFile=" + db + ".token,snapshotMillis=200,spillDir=" + dir + EVENTS + extra;
        Process p = new ProcessBuilder(Cli.java(), "-javaagent:" + Cli.agentJar() + "=" + args, "-cp",
                Cli.classpathOf(UntilTold.class), "workload.UntilTold")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        children.add(p);
        return p;
    }

    static void tellToExit(Process p) throws Exception {
        try (OutputStream o = p.getOutputStream()) {
            o.write('\n');
        }
    }

    static String read(Path f) {
        try {
            return Files.exists(f) ? Files.readString(f) : "";
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static void await(String what, BooleanSupplier ok) throws InterruptedException {
        Await.until(what, java.time.Duration.ofSeconds(120), ok::getAsBoolean);
    }

    /** Waits until 'ctl processes' shows the agent connected with its threads' data in. */
    static void awaitConnected(Path db, int port) throws InterruptedException {
        await("the agent connected and sent its threads", () -> {
            Cli c = Cli.run("ctl", "--connect", "127.0.0.1:" + port, "--session", db.toString(), "processes");
            if (c.exit != 0) return false;
            Map<String, Map<String, String>> rows = Cli.csv(c.out);
            Map<String, String> r = rows.get("1");
            return r != null && r.get("connected").equals("true") && !r.get("threads").equals("0");
        });
    }

    /** The calls of m1 and m2 per thread the workload counted itself. */
    static Map<String, Long> printedCalls(Path log) {
        Matcher m = Pattern.compile("until-told done Ta=(\\d+) Tb=(\\d+)").matcher(read(log));
        assertTrue(m.find(), "the workload ran to its end: " + read(log));
        return Map.of("Ta", Long.parseLong(m.group(1)), "Tb", Long.parseLong(m.group(2)));
    }

    /** Checks the one process row: ended, m1 and m2 counted as the workload counted, every call's two events once. */
    static void assertEveryCallOnce(Path db, Map<String, Long> expected) {
        try (Store store = Store.openReadOnly(db)) {
            List<ProcessInfo> ps = store.processes();
            assertEquals(1, ps.size(), "one process row: " + ps);
            ProcessInfo p = ps.get(0);
            assertEquals("ended", p.status(), store.notes(p.id()).toString());
            assertEquals(0, p.eventDrops());
            Map<Long, String> names = new HashMap<>();
            for (ThreadInfo t : store.threads(p.id())) names.put(t.tid(), t.name());
            for (String m : List.of("workload.UntilTold.m1()", "workload.UntilTold.m2()")) {
                int id = store.probes(p.id()).stream().filter(i -> i.displayName().equals(m)).mapToInt(ProbeInfo::id)
                        .findFirst().orElseThrow();
                Map<String, Long> calls = new HashMap<>();
                for (ProbeStats st : store.stats(p.id()))
                    if (st.probeId() == id) calls.merge(names.getOrDefault(st.tid(), "?"), st.allCalls(), Long::sum);
                assertEquals(expected, calls, m);
            }
            long calls = store.stats(p.id()).stream().mapToLong(ProbeStats::calls).sum();
            long[] records = new long[1];
            store.eventChunks(p.id(), ch -> records[0] += org.hyprof.analysis.EventReplay.records(ch.data()));
            assertEquals(2 * calls, records[0], "every call's enter and exit stored once");
            assertEquals(List.of(), store.damagedEventChunks(p.id()));
        }
    }

    static List<Path> spillFiles(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().startsWith("hyprof-spill-")).toList();
        }
    }

    @Test
    void aCollectorAwayAtExitGetsTheSpillFileByImportCountedOnce() throws Exception {
        Path db = dir.resolve("away.db");
        Serve first = serve(db, 0);
        Path log = dir.resolve("agent.log");
        Process app = agent(db, first.port(), ",exitGraceMillis=300", log);
        awaitConnected(db, first.port());
        stop(first); // the collector goes away; the program goes on recording, then exits
        tellToExit(app);
        assertTrue(app.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, app.exitValue(), read(log));
        Map<String, Long> expected = printedCalls(log);
        String agentLog = read(log);
        assertTrue(agentLog.contains("hyprof: collector 127.0.0.1:" + first.port()
                + " is away at exit: trying it for up to 300 ms (exitGraceMillis)"), agentLog);
        Matcher m = Pattern.compile("hyprof: the collector at 127\\.0\\.0\\.1:\\d+ did not acknowledge (\\d+) chunks? "
                + "\\(events, final counts, end\\); written to (\\S+\\.hyprof): add it to the session with: "
                + "hyprof import --append SESSION\\.db (\\S+)").matcher(agentLog);
        assertTrue(m.find(), agentLog);
        Path spill = Path.of(m.group(2));
        assertEquals(m.group(2), m.group(3));
        assertEquals(List.of(spill), spillFiles(dir), "in spillDir");
        assertEquals("hyprof-spill-" + app.pid() + ".hyprof", spill.getFileName().toString());

        Cli imp = Cli.run("import", spill.toString(), "-o", db.toString(), "--append");
        assertEquals(0, imp.exit, imp.err);
        assertTrue(imp.err.contains(db + ": added to its run, process 1: process workload.UntilTold"), imp.err);
        assertEveryCallOnce(db, expected);
        // once more: the same run, nothing counted twice
        assertEquals(0, Cli.run("import", spill.toString(), "-o", db.toString(), "--append").exit);
        assertEveryCallOnce(db, expected);
    }

    @Test
    void aCollectorBackWithinTheGracePeriodGetsEverything() throws Exception {
        Path db = dir.resolve("back.db");
        Serve first = serve(db, 0);
        Path log = dir.resolve("agent.log");
        // a grace period longer than this test could take: the collector is back within it
        Process app = agent(db, first.port(), ",exitGraceMillis=600000", log);
        awaitConnected(db, first.port());
        stop(first);
        tellToExit(app);
        await("the agent waits for its collector at exit", () -> read(log).contains("is away at exit: trying it for up to 600000 ms"));
        assertTrue(app.isAlive(), "still in its grace period");
        Serve second = serve(db, first.port());
        assertTrue(app.waitFor(120, TimeUnit.SECONDS), "the agent exits once the collector has everything");
        assertEquals(0, app.exitValue(), read(log));
        stop(second);
        assertFalse(read(log).contains("did not acknowledge"), read(log));
        assertEquals(List.of(), spillFiles(dir), "nothing to spill");
        assertEveryCallOnce(db, printedCalls(log));
    }
}
