package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.CallHeavy;

/**
 * Overhead deduction on call-heavy workloads, measured two ways, written to
 * target/overhead-accuracy.txt and target/overhead-accuracy-one-jvm.txt.
 *
 * <p><b>Separate JVMs</b> ({@link #deductionAccuracyIsReportedAndDeductionOnlyTakesTimeAway}, under
 * {@code hyprof profile}, as a user runs it): the deducted and the raw inclusive time of the root,
 * {@code root()} (of the profiled run whose deducted time is the median of three: some workloads'
 * JIT outcome is bimodal, e.g. {@code coarse} at 2.4 or 3.3 ms a call plain and profiled alike,
 * and one run said more of that than of the probes), against the uninstrumented time (the median
 * of five runs), written to
 * target/overhead-accuracy.txt with their errors (the target is ≤ 3 %, and deducted closer than
 * raw). Neither is asserted: one profiled run against other runs' median is timing, and on a
 * shared, loaded machine its noise is larger than the probes' cost. What is asserted holds on
 * any machine: every run counts each {@code root()} call, and deduction only takes time away
 * ({@code 0 ≤ deducted ≤ raw}).
 *
 * <p><b>One JVM</b> ({@link #deductionAgainstPlainCallsInTheSameJvm}): the plain and the
 * offline-instrumented copy of the workload in one JVM, taking turns call by call
 * ({@code harness.DeductionAB}), so that machine noise, which moves the plain time of separate JVMs
 * by 20–40 % here, hits both alike; the error is the instrumented copy's deducted time against
 * the plain calls of the same JVM.
 */
class OverheadIT {
    @TempDir Path dir;

    static final String[][] CASES = {
        // kind, resolutions (the coarse workload's probes cost about 1 % of its time)
        {"coarse", "process,thread,method"},
        {"coarse", "process,thread,method,loop"},
        {"kernels", "process,thread,method"},
        {"mixed", "process,thread,method"},
        {"recursion", "process,thread,method"},
        {"small", "process,thread,method"},
        {"loops", "process,thread,method,loop"},
        {"kernels", "process,thread,method,loop"},
    };

    /**
     * Warm-up before the measured calls, plain and profiled alike: at 40 calls of work() (under a
     * millisecond for some workloads) the measured calls ran while the JIT still compiled — and,
     * profiled, recompiled what switching tiny methods to count-only changed — so both sides were
     * figures of the JIT's progress more than of the code.
     */
    static final String WARMUP_MILLIS = "1000";

    /** Profiled runs per case; the one with the median deducted time is reported. */
    static final int PROFILED_RUNS = 3;

    /** Measured root() calls per JVM in the one-JVM comparison (each copy). */
    static final int AB_ROUNDS = 200;

    @Test
    void deductionAgainstPlainCallsInTheSameJvm() throws Exception {
        Path samples = Cli.home().resolve("lib/hyprof-samples-java.jar");
        Path offline = dir.resolve("callheavy-hyprof.jar");
        Cli ins = Cli.run("instrument", samples.toString(), "--include", "workload.CallHeavy", "-o", offline.toString(), "--quiet");
        assertEquals(0, ins.exit, ins.err);
        List<String> lines = new ArrayList<>();
        lines.add("one JVM, plain and offline-instrumented copies taking turns (" + AB_ROUNDS + " root() calls each; "
                + "the JVM with the median deducted error of " + PROFILED_RUNS + ")");
        lines.add(String.format(Locale.ROOT, "%-10s %-27s %12s %12s %12s %12s %9s %9s %9s", "workload", "probes on",
                "plain ns", "own ns", "deducted ns", "raw ns", "own err", "ded err", "raw err"));
        for (String[] c : CASES) {
            double[][] runs = new double[PROFILED_RUNS][]; // {ded err, plain, own, ded, raw}
            for (int i = 0; i < runs.length; i++) {
                Path session = dir.resolve("ab-" + c[0] + c[1].length() + "-" + i + ".hyprof");
                Process p = new ProcessBuilder(Cli.java(), "-Dhyprof.options=out=" + session + ",resolutions=" + c[1].replace(',', ':'),
                        "-cp", samples.toString(), "harness.DeductionAB", c[0], "200", WARMUP_MILLIS, String.valueOf(AB_ROUNDS),
                        samples.toString(), offline.toString()).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes());
                assertEquals(0, p.waitFor(), out);
                Map<String, Long> own = new HashMap<>();
                for (String kv : out.lines().filter(l -> l.startsWith("plain_mean_ns=")).findFirst()
                        .orElseThrow(() -> new AssertionError("no figures in: " + out)).split(" ")) {
                    own.put(kv.split("=")[0], Long.parseLong(kv.split("=")[1]));
                }
                Path db = dir.resolve("ab-" + c[0] + c[1].length() + "-" + i + ".db");
                Cli imp = Cli.run("import", session.toString(), "-o", db.toString());
                assertEquals(0, imp.exit, imp.err);
                Map<String, String> root = Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out).get("workload.CallHeavy.root()");
                assertNotNull(root, "root() in the report of " + c[0] + " " + c[1]);
                long calls = Long.parseLong(root.get("calls"));
                assertEquals(AB_ROUNDS, calls, "every measured root() call counted, and only those: " + root);
                long ded = Long.parseLong(root.get("incl_ns")), raw = Long.parseLong(root.get("incl_raw_ns"));
                assertTrue(0 <= ded && ded <= raw, "deduction only takes time away: " + root);
                double plain = own.get("plain_mean_ns");
                runs[i] = new double[] {(ded / (double) calls - plain) / plain, plain, own.get("profiled_mean_ns"),
                        ded / (double) calls, raw / (double) calls};
            }
            Arrays.sort(runs, (a, b) -> Double.compare(a[0], b[0]));
            double[] m = runs[runs.length / 2];
            lines.add(String.format(Locale.ROOT, "%-10s %-27s %12.0f %12.0f %12.0f %12.0f %+8.1f%% %+8.1f%% %+8.1f%%", c[0], c[1],
                    m[1], m[2], m[3], m[4], 100 * (m[2] - m[1]) / m[1], 100 * m[0], 100 * (m[4] - m[1]) / m[1]));
        }
        String table = String.join("\n", lines) + "\n";
        System.out.print(table);
        Files.writeString(Path.of("target/overhead-accuracy-one-jvm.txt"), table);
    }

    static long uninstrumented(String kind) throws IOException, InterruptedException {
        long[] runs = new long[5];
        for (int i = 0; i < runs.length; i++) {
            Process p = new ProcessBuilder(Cli.java(), "-cp", Cli.classpathOf(CallHeavy.class), "workload.CallHeavy", kind, "40", "200", WARMUP_MILLIS)
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor(), out);
            runs[i] = meanOf(out);
        }
        Arrays.sort(runs);
        return runs[runs.length / 2];
    }

    static long meanOf(String out) {
        for (String l : out.split("\n")) if (l.startsWith("root_mean_ns=")) return Long.parseLong(l.split("[= ]")[1]);
        throw new AssertionError("no root_mean_ns in: " + out);
    }

    @Test
    void deductionAccuracyIsReportedAndDeductionOnlyTakesTimeAway() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%-10s %-27s %12s %12s %12s %9s %9s", "workload", "probes on",
                "plain ns", "deducted ns", "raw ns", "ded err", "raw err"));
        for (String[] c : CASES) {
            long base = uninstrumented(c[0]);
            long[][] runs = new long[PROFILED_RUNS][]; // {deducted, raw} per root() call
            for (int i = 0; i < runs.length; i++) {
                Path db = dir.resolve(c[0] + c[1].length() + "-" + i + ".db");
                Cli p = Cli.run("profile", "--resolution", c[1], "-o", db.toString(), "--",
                        Cli.java(), "-cp", Cli.classpathOf(CallHeavy.class), "workload.CallHeavy", c[0], "40", "200", WARMUP_MILLIS);
                assertEquals(0, p.exit, p.err);
                Map<String, String> work = Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out)
                        .get("workload.CallHeavy.root()");
                long calls = Long.parseLong(work.get("calls"));
                assertEquals(40, calls, "every root() call counted: " + work);
                long dedTotal = Long.parseLong(work.get("incl_ns")), rawTotal = Long.parseLong(work.get("incl_raw_ns"));
                assertTrue(0 <= dedTotal && dedTotal <= rawTotal, "deduction only takes time away: " + work);
                runs[i] = new long[] {dedTotal / calls, rawTotal / calls};
            }
            Arrays.sort(runs, (a, b) -> Long.compare(a[0], b[0]));
            long ded = runs[runs.length / 2][0];
            long raw = runs[runs.length / 2][1];
            double dedErr = 100.0 * (ded - base) / base, rawErr = 100.0 * (raw - base) / base;
            lines.add(String.format(Locale.ROOT, "%-10s %-27s %12d %12d %12d %+8.1f%% %+8.1f%%", c[0], c[1], base, ded,
                    raw, dedErr, rawErr));
        }
        String table = String.join("\n", lines) + "\n";
        System.out.print(table);
        Files.writeString(Path.of("target/overhead-accuracy.txt"), table);
    }
}
