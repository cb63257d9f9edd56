package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.Waits;

/**
 * Issue 18 acceptance: thread CPU time beside wall time, on {@link Waits} through the real agent
 * in a child JVM. Methods that sleep, wait for a lock or wait in {@code Future.get} get almost no
 * CPU time and almost none of the Java energy; methods that spin get the CPU time the JVM's own
 * thread clock saw them use, within 10 %; thread-level zoom lists every worker with its CPU and
 * wait time. A spinning thread is on a CPU for ≥ 90 % of its wall time only when the machine has
 * a core free for it: on a loaded one (this test's machine runs several builds on two cores) it
 * waits for one, and its CPU time rightly says so. So the ≥ 90 %-of-wall bound is asserted when
 * the workload's own measurement shows the machine gave the spin ≥ 95 % of a core; the agreement
 * with that measurement is asserted always.
 */
class CpuTimeIT {
    @TempDir Path dir;

    static final String W = "workload.Waits.";

    /** Rows of a CSV report keyed by the value of {@code key}. */
    static Map<String, Map<String, String>> rows(String csv, String key) {
        List<String> lines = Cli.lines(csv);
        List<String> head = Cli.fields(lines.get(0));
        Map<String, Map<String, String>> rows = new HashMap<>();
        for (String l : lines.subList(1, lines.size())) {
            List<String> f = Cli.fields(l); // names with several parameters are quoted ("f(int, int)")
            Map<String, String> row = new HashMap<>();
            for (int k = 0; k < head.size() && k < f.size(); k++) row.put(head.get(k), f.get(k));
            rows.put(row.get(key), row);
        }
        return rows;
    }

    static long num(Map<String, String> row, String col) {
        String v = row.get(col);
        assertNotNull(v, col + " in " + row);
        assertFalse(v.isEmpty(), col + " recorded: " + row);
        return Long.parseLong(v);
    }

    /** What the workload's own clocks saw of its spins: name → {cpu ns, wall ns}, summed. */
    Map<String, long[]> truth(String name) {
        Map<String, long[]> m = new HashMap<>();
        try {
            for (String l : java.nio.file.Files.readAllLines(dir.resolve(name + ".spins"))) {
                String[] f = l.split(" ");
                long[] v = m.computeIfAbsent(f[0], k -> new long[2]);
                v[0] += Long.parseLong(f[1]);
                v[1] += Long.parseLong(f[2]);
            }
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertEquals(4, m.size(), m.keySet().toString());
        return m;
    }

    /**
     * Our CPU time of a spin against the JVM's own clock's, and against wall time when the machine
     * gave a core. {@code deducted}: the probe cost taken out of the row (raw − deducted wall time),
     * which comes off its CPU time too; the workload's own clock includes it.
     */
    static void spinAgrees(String what, long ours, long deducted, long wallOurs, long trueCpu, long trueWall) {
        // sampled: within about a sample period of CPU at each end of each call; dual: closer
        long withProbes = ours + deducted;
        assertTrue(withProbes >= 0.90 * trueCpu && withProbes <= 1.10 * trueCpu + 5_000_000L,
                what + ": cpu " + ours + " ns + " + deducted + " ns probe cost, the JVM's thread clock saw " + trueCpu
                        + " ns (wall " + trueWall + " ns)");
        if (trueCpu >= 0.95 * trueWall)
            assertTrue(ours >= 0.90 * wallOurs, what + ": cpu " + ours + " ns of wall " + wallOurs + " ns on a free core");
    }

    Path profile(String name, String... options) {
        return profileWaits(dir, name, options);
    }

    /**
     * Records {@link Waits} with {@code options} into {@code dir/NAME.db}; the workload writes what
     * the JVM's own clocks saw of its spins to {@code dir/NAME.spins}.
     */
    static Path profileWaits(Path dir, String name, String... options) {
        Path db = dir.resolve(name + ".db");
        String[] head = {"profile", "-o", db.toString()};
        String[] tail = {"--", Cli.java(), "-cp", Cli.classpathOf(Waits.class), "workload.Waits",
            dir.resolve(name + ".spins").toString()};
        String[] args = new String[head.length + options.length + tail.length];
        System.arraycopy(head, 0, args, 0, head.length);
        System.arraycopy(options, 0, args, head.length, options.length);
        System.arraycopy(tail, 0, args, head.length + options.length, tail.length);
        Cli p = Cli.run(args);
        assertEquals(0, p.exit, p.err);
        return db;
    }

    void waitingCostsNoCpuAndSpinningIsCpu(Path db, String name, String clock) {
        Cli r = Cli.run("report", db.toString(), "--format", "csv");
        assertEquals(0, r.exit, r.err);
        Map<String, Map<String, String>> m = rows(r.out, "method");
        Cli proc = Cli.run("report", db.toString(), "--by", "process", "--format", "csv");
        assertEquals(0, proc.exit, proc.err);
        double javaEnergy = rows(proc.out, "process").values().stream()
                .mapToDouble(x -> Double.parseDouble(x.get("java_energy_uj"))).sum();
        assertTrue(javaEnergy > 0, proc.out);
        for (String waiting : new String[] {"sleepy()", "blocked()", "awaitResult(java.util.concurrent.ExecutorService)"}) {
            Map<String, String> row = m.get(W + waiting);
            assertNotNull(row, waiting + " in\n" + r.out);
            assertEquals(clock, row.get("cpu_clock"), waiting);
            long wall = num(row, "excl_ns"), cpu = num(row, "cpu_excl_ns");
            assertTrue(wall >= 100_000_000L, waiting + " waited: " + row);
            assertTrue(cpu <= 0.05 * wall, waiting + ": cpu " + cpu + " ns of wall " + wall + " ns");
            assertEquals(wall - cpu, num(row, "wait_excl_ns"), waiting);
            assertTrue(Double.parseDouble(row.get("energy_uj")) <= 0.05 * javaEnergy,
                    waiting + ": " + row.get("energy_uj") + " uJ of the session's " + javaEnergy);
        }
        Map<String, String> spin = m.get(W + "spinFor(long)");
        assertNotNull(spin, "spinFor in\n" + r.out);
        long wall = num(spin, "incl_ns"), cpu = num(spin, "cpu_incl_ns");
        assertEquals(4, num(spin, "calls"), "spun 4 times: " + spin);
        assertTrue(num(spin, "incl_raw_ns") >= 700_000_000L, "for 750 ms of wall time in all: " + spin);
        long trueCpu = truth(name).values().stream().mapToLong(v -> v[0]).sum();
        long trueWall = truth(name).values().stream().mapToLong(v -> v[1]).sum();
        spinAgrees("spinFor", cpu, num(spin, "incl_raw_ns") - wall, wall, trueCpu, trueWall);
        Cli table = Cli.run("report", db.toString());
        assertEquals(0, table.exit, table.err);
        assertTrue(table.out.contains("cpuClock=" + clock), table.out);
        assertTrue(table.out.contains("exclusive thread CPU time"), table.out);
        assertTrue(table.out.contains("waiting costs nothing"), table.out);
        assertTrue(table.out.lines().anyMatch(l -> l.startsWith("check: sum of exclusive energy")), table.out);
    }

    @Test
    void sampledByDefault() {
        waitingCostsNoCpuAndSpinningIsCpu(profile("sampled"), "sampled", "sampled");
    }

    @Test
    void dualClock() {
        waitingCostsNoCpuAndSpinningIsCpu(profile("dual", "--clock", "dual"), "dual", "dual");
    }

    /** --resolution process,thread lists every worker thread, with CPU and wait time. */
    @Test
    void threadLevelZoomListsEveryWorkerWithCpuAndWait() {
        Path db = profile("threads", "--resolution", "process,thread");
        Cli t = Cli.run("report", db.toString(), "--by", "thread", "--format", "csv");
        assertEquals(0, t.exit, t.err);
        Map<String, Map<String, String>> threads = rows(t.out, "thread");
        Map<String, long[]> truth = truth("threads");
        for (String worker : new String[] {"sleeper", "holder", "blocked", "waiter", "pool-1", "spinner-1", "spinner-2"}) {
            Map<String, String> row = threads.get(worker);
            assertNotNull(row, worker + " not listed:\n" + t.out);
            long time = num(row, "time_ns"), cpu = num(row, "cpu_ns");
            assertEquals(time - cpu, num(row, "wait_ns"), worker);
            boolean spins = worker.equals("holder") || worker.equals("pool-1") || worker.startsWith("spinner");
            if (spins) spinAgrees(worker, cpu, num(row, "time_raw_ns") - time, time, truth.get(worker)[0], truth.get(worker)[1]);
            else assertTrue(cpu <= 0.05 * time, worker + ": " + row);
        }
        Cli table = Cli.run("report", db.toString(), "--by", "thread");
        assertTrue(table.out.contains("cpu ms") && table.out.contains("wait ms"), table.out);
    }

    @Test
    void badClockIsOneLine() {
        Cli p = Cli.run("profile", "--clock", "thread", "-o", dir.resolve("x.db").toString(), "--", Cli.java(), "-version");
        assertNotEquals(0, p.exit);
        assertEquals(1, Cli.lines(p.err).size(), p.err);
        assertTrue(p.err.contains("cpuClock must be sampled, dual or off, not 'thread'"), p.err);
    }
}
