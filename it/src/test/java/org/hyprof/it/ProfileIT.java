package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.Deterministic;
import workload.LambdaThreads;

/** 'hyprof profile' on real programs, through the real agent in a child JVM. */
class ProfileIT {
    @TempDir Path dir;

    static final String D = "workload.Deterministic.";

    Map<String, Map<String, String>> profileDeterministic(String mode, String by) {
        Path db = dir.resolve(mode + "-" + by + ".db");
        Cli p = Cli.run("profile", "--mode", mode, "--resolution", "process,thread,method,loop", "-o", db.toString(), "--",
                Cli.java(), "-cp", Cli.classpathOf(Deterministic.class), "workload.Deterministic");
        assertEquals(0, p.exit, p.err);
        Cli r = Cli.run("report", db.toString(), "--format", "csv", "--by", by);
        assertEquals(0, r.exit, r.err);
        return Cli.withLoopIndexes(db, Cli.csv(r.out));
    }

    @Test
    void exactCallCountsOnADeterministicWorkload() {
        for (String mode : new String[] {"aggregate", "events"}) {
            Map<String, Map<String, String>> m = profileDeterministic(mode, "method");
            assertEquals("1", m.get(D + "main(java.lang.String[])").get("calls"), mode);
            assertEquals("process", m.get(D + "main(java.lang.String[])").get("resolution"));
            assertEquals("10", m.get(D + "middle()").get("calls"));
            assertEquals("1050", m.get(D + "leaf(int)").get("calls"));
            assertEquals("465", m.get(D + "fib(int)").get("calls"));
            assertEquals("4", m.get(D + "thrower(int)").get("calls"));
            assertEquals("4", m.get(D + "thrower(int)").get("throws"), "exception through 4 frames: every enter matched");
            assertEquals("1", m.get(D + "catcher()").get("calls"));
            assertEquals("0", m.get(D + "catcher()").get("throws"));
            assertEquals("thread", m.get("workload.Deterministic$Worker.run()").get("resolution"));
            assertEquals("1", m.get("workload.Deterministic$Worker.run()").get("calls"));

            Map<String, Map<String, String>> loops = profileDeterministic(mode, "loop");
            assertEquals("20", loops.get(D + "loops()#loop0").get("iterations"));
            assertEquals("1", loops.get(D + "loops()#loop0").get("calls"));
            assertEquals("20", loops.get(D + "loops()#loop1").get("calls"));
            assertEquals("140", loops.get(D + "loops()#loop1").get("iterations"));
            assertEquals("1000", loops.get(D + "middle()#loop0").get("iterations"));
        }
    }

    /** Thread-level zoom finds threads started with lambdas, a method reference and executor.submit (workload.LambdaThreads). */
    @Test
    void threadLevelZoomFindsLambdaThreads() {
        Path db = dir.resolve("lambdas.db");
        Cli p = Cli.run("profile", "--resolution", "process,thread", "-o", db.toString(), "--", Cli.java(), "-cp",
                Cli.classpathOf(LambdaThreads.class), "workload.LambdaThreads");
        assertEquals(0, p.exit, p.err);
        Cli t = Cli.run("report", db.toString(), "--by", "thread", "--format", "csv");
        assertEquals(0, t.exit, t.err);
        for (String worker : new String[] {"lambda-1", "lambda-2", "method-ref", "pool-1", "pool-2"}) {
            String row = t.out.lines().filter(l -> l.contains("," + worker + ",")).findFirst().orElse(null);
            assertNotNull(row, worker + " not listed:\n" + t.out);
            assertNotEquals("0", row.split(",")[5], worker + " recorded calls: " + row);
        }
        Map<String, Map<String, String>> m = Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out);
        assertEquals("thread", m.get("workload.LambdaThreads.work()").get("resolution"), m.keySet().toString());
        assertEquals("1", m.get("workload.LambdaThreads.work()").get("calls"));
        long lambdaBodies = m.entrySet().stream().filter(e -> e.getKey().startsWith("workload.LambdaThreads.lambda$run$"))
                .filter(e -> e.getValue().get("resolution").equals("thread")).count();
        assertEquals(4, lambdaBodies, m.keySet().toString());
    }

    @Test
    void threadsAndProcessesAreListed() {
        Path db = dir.resolve("t.db");
        assertEquals(0, Cli.run("profile", "-o", db.toString(), "--", Cli.java(), "-cp",
                Cli.classpathOf(Deterministic.class), "workload.Deterministic").exit);
        Cli t = Cli.run("report", db.toString(), "--by", "thread", "--format", "csv");
        assertTrue(t.out.contains(",main,"), t.out);
        assertTrue(t.out.contains(",worker,"), t.out);
        Cli p = Cli.run("report", db.toString(), "--by", "process", "--format", "csv");
        assertTrue(p.out.contains("workload.Deterministic,"), p.out);
        assertTrue(p.out.contains(",ended,"), p.out);
        Cli json = Cli.run("report", db.toString(), "--format", "json", "--top", "3");
        assertTrue(json.out.contains("\"calibrations\""), json.out);
        assertTrue(json.out.contains("\"event_drops\" : 0"), json.out);
    }

    @Test
    void eventBudgetDropsAreCountedAndReported() {
        Path db = dir.resolve("drops.db");
        Cli p = Cli.run("profile", "--mode", "events", "--budget", "4k", "-o", db.toString(), "--",
                Cli.java(), "-cp", Cli.classpathOf(Deterministic.class), "workload.CallHeavy", "recursion", "2");
        assertEquals(0, p.exit, p.err);
        assertTrue(p.err.contains("events dropped"), p.err);
        Cli r = Cli.run("report", db.toString());
        assertTrue(r.out.matches("(?s).*dropped events: [1-9][0-9]*.*"), r.out);
        // aggregates are complete whatever the budget
        Map<String, Map<String, String>> m = Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out);
        assertEquals("4", m.get("workload.CallHeavy.work()").get("calls"), "2 warm-up + 2 measured");
        assertEquals(String.valueOf(4 * 200 * 1219), m.get("workload.CallHeavy.fib(int)").get("calls"));
    }

    @Test
    void offlineInstrumentedJarRecordsWithoutTheAgent() throws Exception {
        Path jar = dir.resolve("w.jar");
        Path classes = Path.of(Cli.classpathOf(Deterministic.class));
        if (Files.isRegularFile(classes)) jar = classes; // the samples jar from the reactor
        else try (var jo = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            try (var s = Files.walk(classes)) {
                for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                    jo.putNextEntry(new java.util.jar.JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                    jo.write(Files.readAllBytes(f));
                    jo.closeEntry();
                }
            }
        }
        Path out = dir.resolve("w-hyprof.jar");
        Cli i = Cli.run("instrument", jar.toString(), "-o", out.toString());
        assertEquals(0, i.exit, i.err);
        Path manifest = dir.resolve("w-hyprof.jar.manifest.tsv");
        assertTrue(Files.exists(manifest));
        // the only methods left without probes are the hybrid demo's native ones (no bytecode)
        for (String line : Files.readAllLines(manifest))
            if (line.startsWith("skip")) assertTrue(line.contains("\tdemo.") && line.contains("native method"), line);
        Path session = dir.resolve("offline.hyprof");
        Process p = new ProcessBuilder(Cli.java(), "-Dhyprof.options=out=" + session, "-cp", out.toString(),
                "workload.Deterministic").redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), output);
        assertTrue(output.contains("deterministic "), output);
        Path db = dir.resolve("offline.db");
        assertEquals(0, Cli.run("import", session.toString(), "-o", db.toString()).exit);
        Map<String, Map<String, String>> m = Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out);
        assertEquals("1050", m.get(D + "leaf(int)").get("calls"));
        assertEquals("465", m.get(D + "fib(int)").get("calls"));
    }

    /**
     * Issue 23 item 2: a jar and a second jar it runs with (here: Deterministic's Worker split off
     * into a jar of its own, calling back into the first), instrumented one by one, each numbering
     * its probes from 1. On one class path each keeps its own ids and names.
     */
    @Test
    void jarsInstrumentedOneByOneKeepTheirNamesAndCounts() throws Exception {
        Path classes = Path.of(Cli.classpathOf(Deterministic.class));
        Path main = dir.resolve("main.jar"), worker = dir.resolve("worker.jar");
        try (var m = new java.util.jar.JarOutputStream(Files.newOutputStream(main));
             var w = new java.util.jar.JarOutputStream(Files.newOutputStream(worker))) {
            for (Map.Entry<String, byte[]> e : samplesEntries(classes).entrySet()) {
                if (!e.getKey().startsWith("workload/Deterministic")) continue;
                var jo = e.getKey().equals("workload/Deterministic$Worker.class") ? w : m;
                jo.putNextEntry(new java.util.jar.JarEntry(e.getKey()));
                jo.write(e.getValue());
                jo.closeEntry();
            }
        }
        Path mainOut = dir.resolve("main-hyprof.jar"), workerOut = dir.resolve("worker-hyprof.jar");
        for (Path[] io : new Path[][] {{main, mainOut}, {worker, workerOut}}) {
            Cli i = Cli.run("instrument", io[0].toString(), "-o", io[1].toString());
            assertEquals(0, i.exit, i.err);
            assertTrue(i.err.contains("(piece "), i.err);
        }
        String mainKey = pieceKey(mainOut), workerKey = pieceKey(workerOut);
        assertNotEquals(mainKey, workerKey);
        Path session = dir.resolve("pieces.hyprof");
        Process p = new ProcessBuilder(Cli.java(), "-Dhyprof.options=out=" + session, "-cp",
                workerOut + java.io.File.pathSeparator + mainOut, "workload.Deterministic").redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), output);
        Path db = dir.resolve("pieces.db");
        Cli imp = Cli.run("import", session.toString(), "-o", db.toString());
        assertEquals(0, imp.exit, imp.err);
        try (var store = org.hyprof.store.Store.openReadOnly(db)) {
            String notes = store.notes().toString();
            assertTrue(notes.contains("instrumented piece " + mainKey), notes);
            assertTrue(notes.contains("instrumented piece " + workerKey), notes);
        }
        Map<String, Map<String, String>> m = Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out);
        assertEquals("1050", m.get(D + "leaf(int)").get("calls"), "1000 from main's piece, 50 from the worker's");
        assertEquals("465", m.get(D + "fib(int)").get("calls"));
        assertEquals("1", m.get(D + "main(java.lang.String[])").get("calls"));
        assertEquals("1", m.get("workload.Deterministic$Worker.run()").get("calls"), m.keySet().toString());
    }

    /** The classes of the samples (a jar, or a classes directory in the reactor): entry name → bytes. */
    private static Map<String, byte[]> samplesEntries(Path classes) throws java.io.IOException {
        Map<String, byte[]> m = new java.util.TreeMap<>();
        if (Files.isRegularFile(classes)) {
            try (var z = new java.util.zip.ZipFile(classes.toFile())) {
                for (var e : java.util.Collections.list(z.entries()))
                    if (!e.isDirectory()) m.put(e.getName(), z.getInputStream(e).readAllBytes());
            }
        } else {
            try (var s = Files.walk(classes)) {
                for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator)
                    m.put(classes.relativize(f).toString().replace('\\', '/'), Files.readAllBytes(f));
            }
        }
        return m;
    }

    /** The key of an instrumented jar: the name of its holder class org/hyprof/pieces/P_KEY. */
    private static String pieceKey(Path jar) throws java.io.IOException {
        try (var z = new java.util.zip.ZipFile(jar.toFile())) {
            return z.stream().map(java.util.zip.ZipEntry::getName)
                    .filter(n -> n.startsWith("org/hyprof/pieces/P_") && n.endsWith(".class"))
                    .map(n -> n.substring("org/hyprof/pieces/P_".length(), n.length() - ".class".length()))
                    .findFirst().orElseThrow(() -> new AssertionError("no holder class in " + jar));
        }
    }

    @Test
    void sciMarkKernelsAreListed() {
        Path db = dir.resolve("scimark.db");
        String jar = Cli.classpathOf(jnt.scimark2.commandline.class);
        // loops on from the start (the agent's default places them only when switched on)
        Cli p = Cli.run("profile", "--resolution", "process,thread,method,loop", "-o", db.toString(), "--", Cli.java(), "-cp", jar,
                "jnt.scimark2.commandline");
        assertEquals(0, p.exit, p.err);
        // presence and counts, never ranks: which kernel is hottest depends on timing and deduction
        Cli r = Cli.run("report", db.toString(), "--format", "csv");
        assertEquals(0, r.exit, r.err);
        Map<String, Map<String, String>> rows = Cli.csv(r.out);
        for (String kernel : new String[] {"FFT", "SOR", "SparseCompRow", "LU", "MonteCarlo"}) {
            long calls = rows.entrySet().stream().filter(e -> e.getKey().startsWith("jnt.scimark2." + kernel + "."))
                    .mapToLong(e -> Long.parseLong(e.getValue().get("calls"))).sum();
            assertTrue(calls > 0, kernel + " has no calls in the report:\n" + r.out);
        }
        // issue 15: a method of tens of microseconds with loops inside (their probes on) was
        // reported with p50 0 when the per-iteration cost was deducted; its median is never 0 now
        Map<String, String> bitreverse = rows.get("jnt.scimark2.FFT.bitreverse(double[])");
        assertNotNull(bitreverse, "FFT.bitreverse is in the report:\n" + r.out);
        assertTrue(Long.parseLong(bitreverse.get("p50_ns")) > 0, "FFT.bitreverse p50 " + bitreverse);
    }

    /**
     * Issue 19 item 1: the flight recorder. SciMark's events (~12 MB with loops on) in a
     * 4 MB log kept last: the log ends with the last kernel (LU), the first (FFT) was overwritten
     * and counted, and every kept call sits under main, reconstructed at the cut.
     */
    @Test
    void sciMarkKeepLastEndsWithTheLastKernel() throws Exception {
        Path db = dir.resolve("keep-last.db");
        String jar = Cli.classpathOf(jnt.scimark2.commandline.class);
        Cli p = Cli.run("profile", "--mode", "events", "--keep", "last", "--budget", "4m", "--resolution", "process,thread,method,loop",
                "-o", db.toString(), "--",
                Cli.java(), "-cp", jar, "jnt.scimark2.commandline");
        assertEquals(0, p.exit, p.err);
        Cli r = Cli.run("report", db.toString(), "--top", "1");
        assertEquals(0, r.exit, r.err);
        long dropped = Long.parseLong(Cli.lines(r.out).stream().filter(l -> l.startsWith("dropped events: "))
                .findFirst().orElseThrow(() -> new AssertionError(r.out)).substring("dropped events: ".length()));
        assertTrue(dropped > 0, r.out);
        assertTrue(r.out.contains("info: keep last: " + dropped + " of the dropped events were overwritten"), r.out);
        Path folded = dir.resolve("keep-last.folded");
        Cli e = Cli.run("export", db.toString(), "--format", "folded", "-o", folded.toString());
        assertEquals(0, e.exit, e.err);
        List<String> stacks = Files.readAllLines(folded);
        assertFalse(stacks.isEmpty());
        for (String line : stacks)
            assertTrue(line.startsWith("main;jnt.scimark2.commandline.main("), "a kept call outside main: " + line);
        assertTrue(stacks.stream().anyMatch(l -> l.contains("jnt.scimark2.LU.factor(")), "LU, the last kernel, is kept");
        assertTrue(stacks.stream().noneMatch(l -> l.contains("jnt.scimark2.FFT.")), "FFT, the first kernel, was overwritten");
    }
}
