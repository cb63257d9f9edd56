package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18 acceptance: the {@code .trace} export's thread-CPU clock. {@link workload.Waits} (a method that
 * spins, {@code spinFor}, 4 calls on 4 threads; one that sleeps, {@code sleepy}) is recorded in
 * events mode through the real agent, exported as {@code .trace}, and Debian's {@code dmtracedump}
 * (whose profile sums each method's calls on the thread-CPU column of a dual-clock file) must give
 * each method the thread CPU time our {@code report --format csv} gives it, with either clock.
 *
 * <p>What "within rounding" allows. The events and the report's row come from the same per-probe
 * CPU values (the probe's {@code cpuAt} at each event). The report deducts the probes' own cost
 * from CPU time as from wall time, so the records' raw CPU time of a method is its
 * {@code cpu_incl_ns} plus {@code incl_raw_ns - incl_ns} (and {@code cpu_excl_ns} plus
 * {@code excl_raw_ns - excl_ns}). The file keeps whole µs of each event's clock, and dmtracedump
 * subtracts an entry's from its exit's per call: each call's figure is within 1 µs of the exact
 * difference, so a method of n calls is within n µs. One more case: a call that used less CPU time
 * than its probe cost (the sleeping method, when the sampler saw it use none) shows 0 in the
 * report, where the records show what it used (less than that probe cost): that much more is
 * allowed for a method whose report says 0. Nothing else: the runtime never hands a frame more
 * CPU time than wall time, so the report's cap at the wall time takes nothing off.
 */
class TraceCpuClockIT {
    @TempDir Path dir;

    static final String W = "workload.Waits.";

    static String dmtracedump(String... args) throws Exception {
        Process p = new ProcessBuilder(args).start();
        String out = new String(p.getInputStream().readAllBytes());
        String err = new String(p.getErrorStream().readAllBytes());
        assertEquals(0, p.waitFor(), err);
        assertEquals("", err, "dmtracedump complained"); // it exits 0 on most broken files
        return out;
    }

    /**
     * dmtracedump on a file: method ("class.method descriptor") → {calls (from its call dump,
     * {@code -o}), inclusive µs, exclusive µs (from its profile, which leaves out methods of 0 µs)}.
     */
    static Map<String, long[]> dmtracedumpProfile(Path trace) throws Exception {
        Map<String, long[]> m = new HashMap<>();
        // call dump: " 1 ent        10 ....app.Main.spin ()V	Main.java"
        Matcher ent = Pattern.compile("(?m)^\\s*\\d+ ent\\s+\\d+ \\.*(\\S+) (\\S+)").matcher(dmtracedump("dmtracedump", "-o", trace.toString()));
        while (ent.find()) m.computeIfAbsent(ent.group(1) + " " + ent.group(2), k -> new long[3])[0]++;
        String out = dmtracedump("dmtracedump", trace.toString());
        // inclusive section: "[2]     92.6%                     1+0            500 app.Main.spin ()V	Main.java"
        Matcher incl = Pattern.compile("(?m)^\\[\\d+\\]\\s+[\\d.]+%\\s+\\d+\\+\\d+\\s+(\\d+) (\\S+) (\\S+)").matcher(out);
        while (incl.find()) m.computeIfAbsent(incl.group(2) + " " + incl.group(3), k -> new long[3])[1] = Long.parseLong(incl.group(1));
        // exclusive section: "      500   92.59  92.59  [2] app.Main.spin ()V	Main.java"
        Matcher excl = Pattern.compile("(?m)^\\s*(\\d+)\\s+[\\d.]+\\s+[\\d.]+\\s+\\[\\d+\\] (\\S+) (\\S+)").matcher(out);
        while (excl.find()) m.computeIfAbsent(excl.group(2) + " " + excl.group(3), k -> new long[3])[2] = Long.parseLong(excl.group(1));
        assertTrue(out.contains("Inclusive elapsed times"), "a profile in:\n" + out);
        return m;
    }

    /**
     * The trace's µs of a method against the report's ns: {@code cpuNanos} (deducted) plus
     * {@code deductedNanos} (the probe cost taken off), within n µs for n calls, and the probe cost
     * more when the report says 0 (see the class comment).
     */
    static void agrees(String what, long traceMicros, long cpuNanos, long deductedNanos, long calls) {
        long raw = cpuNanos + deductedNanos, slack = calls * 1_000 + (cpuNanos == 0 ? deductedNanos : 0);
        assertTrue(Math.abs(traceMicros * 1_000 - raw) < slack, what + ": dmtracedump " + traceMicros + " µs of thread CPU, the report "
                + cpuNanos + " ns + " + deductedNanos + " ns probe cost = " + raw + " ns (" + calls + " calls)");
    }

    void traceCpuMatchesTheReport(String name, String clock) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/dmtracedump")), "dmtracedump is installed by .ci/run");
        Path db = CpuTimeIT.profileWaits(dir, name, "--mode", "events", "--clock", clock);
        Cli r = Cli.run("report", db.toString(), "--format", "csv");
        assertEquals(0, r.exit, r.err);
        Map<String, Map<String, String>> rows = CpuTimeIT.rows(r.out, "method");
        Path trace = dir.resolve(name + ".trace");
        Cli x = Cli.run("export", db.toString(), "--format", "trace", "-o", trace.toString());
        assertEquals(0, x.exit, x.err);
        assertTrue(new String(Files.readAllBytes(trace), java.nio.charset.StandardCharsets.ISO_8859_1).contains("\nclock=dual\n"));
        Map<String, long[]> prof = dmtracedumpProfile(trace);

        String[][] methods = {{"spinFor(long)", "workload.Waits.spinFor (J)J"}, {"sleepy()", "workload.Waits.sleepy ()V"}};
        for (String[] m : methods) {
            Map<String, String> row = rows.get(W + m[0]);
            assertNotNull(row, m[0] + " in\n" + r.out);
            long[] t = prof.get(m[1]);
            assertNotNull(t, m[1] + " in dmtracedump's call dump: " + prof.keySet());
            long calls = CpuTimeIT.num(row, "calls");
            assertEquals(calls, t[0], m[0] + ": calls");
            agrees(m[0] + " inclusive", t[1], CpuTimeIT.num(row, "cpu_incl_ns"),
                    CpuTimeIT.num(row, "incl_raw_ns") - CpuTimeIT.num(row, "incl_ns"), calls);
            agrees(m[0] + " exclusive", t[2], CpuTimeIT.num(row, "cpu_excl_ns"),
                    CpuTimeIT.num(row, "excl_raw_ns") - CpuTimeIT.num(row, "excl_ns"), calls);
        }
        // the clock is the thread's CPU, not the wall: sleeping is not on a CPU, spinning is
        Map<String, String> sleepy = rows.get(W + "sleepy()");
        long sleepWall = CpuTimeIT.num(sleepy, "incl_ns");
        assertTrue(sleepWall >= 150_000_000L, "slept 200 ms: " + sleepy);
        assertTrue(prof.get(methods[1][1])[1] * 1_000 <= 0.05 * sleepWall,
                "sleepy: " + prof.get(methods[1][1])[1] + " µs of thread CPU in " + sleepWall + " ns of wall time");
        // what the JVM's own thread clock saw the spins use (Waits writes it; a loaded machine gives less than the wall time)
        long trueCpu = 0;
        for (String l : Files.readAllLines(dir.resolve(name + ".spins"))) trueCpu += Long.parseLong(l.split(" ")[1]);
        long spinCpu = prof.get(methods[0][1])[1] * 1_000;
        assertTrue(spinCpu >= 0.90 * trueCpu && spinCpu <= 1.10 * trueCpu + 5_000_000L,
                "spinFor: " + spinCpu + " ns of thread CPU in the trace, the JVM's thread clock saw " + trueCpu + " ns");
    }

    @Test
    void sampledClock() throws Exception {
        traceCpuMatchesTheReport("sampled", "sampled");
    }

    @Test
    void dualClock() throws Exception {
        traceCpuMatchesTheReport("dual", "dual");
    }
}
