package org.hyprof.correlate;

import static org.junit.jupiter.api.Assertions.*;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.runtime.Stats;
import org.hyprof.testing.Golden;
import org.hyprof.store.NativeCost;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hyprof compare}'s table and CSV against golden files, from two deterministic sessions. */
class ComparisonTest {
    @TempDir Path dir;

    static final List<ProbeInfo> PROBES = List.of(
            new ProbeInfo(1, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"),
            new ProbeInfo(2, false, Resolution.METHOD, "app.Main", "fib", "(I)I", -1, -1, 9, "Main.java"),
            new ProbeInfo(3, false, Resolution.METHOD, "app.Main", "sum", "([I)J", -1, -1, 14, "Main.java"),
            new ProbeInfo(4, false, Resolution.METHOD, "app.Main", "javaOnly", "()V", -1, -1, 20, "Main.java"),
            new ProbeInfo(5, false, Resolution.METHOD, "app.Main", "jniOnly", "()V", -1, -1, 25, "Main.java"));

    /**
     * One method's stats on thread 1: calls, inclusive and exclusive ns, native instructions and
     * cycles (at 2 GHz, 0.15 nJ a cycle: part of its exclusive time).
     */
    static ProbeStats stats(int probe, long calls, long incl, long excl, long instr, long cycles) {
        NativeCost n = instr == 0 ? NativeCost.NONE
                : new NativeCost(instr, cycles, cycles / 2, cycles * 150, instr, cycles, cycles / 2, cycles * 150);
        return new ProbeStats(1, probe, calls, incl, excl, incl, excl, 1, incl, 1, 0, 0, 0, 0, 0, 0, 0, calls,
                new long[Stats.HIST_BUCKETS], n);
    }

    Profile session(String name, List<ProbeStats> stats) {
        try (Store s = Store.create(dir.resolve(name))) {
            long p = s.addProcess(new ProcessInfo(0, 4242, "app.Main", "test-vm", "aggregate", 0, 1_700_000_000_000L,
                    1000, 1_700_000_001_000L, "ended", 0, "golden"));
            s.addProbes(p, PROBES);
            s.putThread(p, new ThreadInfo(1, "main", 0, 0));
            s.putStats(p, stats);
            return Profile.load(s);
        }
    }

    /** A: the Java build on one CPU profile; B: the JNI build on another (slower native code, more calls). */
    Comparison comparison() {
        Profile a = session("a.db", List.of(
                stats(1, 1, 2_400_000_000L, 12_000_000, 0, 0),
                stats(2, 1_234_567, 2_300_000_000L, 1_900_000_000L, 0, 0),
                stats(3, 40, 388_000_000, 388_000_000, 0, 0),
                stats(4, 3, 812, 812, 0, 0)));
        Profile b = session("b.db", List.of(
                stats(1, 1, 1_100_000_000L, 9_000_000, 0, 0),
                stats(2, 1_234_567, 950_000_000, 700_000_000, 456_000_000, 987_000_000),
                stats(3, 40_000, 131_000_000, 131_000_000, 70_000_000, 99_999_999),
                stats(5, 7, 36_500, 36_500, 9_999, 12_345)));
        return new Comparison(a, b);
    }

    @Test
    void goldenTableAndCsv() throws Exception {
        Comparison c = comparison();
        StringWriter table = new StringWriter(), csv = new StringWriter();
        c.table(new PrintWriter(table), 0);
        c.csv(new PrintWriter(csv), 0);
        Golden.check("compare-method.txt", table.toString());
        Golden.check("compare-method.csv", csv.toString());
    }

    /** Issue 18: exclusive CPU and wait time side by side; empty on the side that recorded none. */
    @Test
    void cpuAndWaitSideBySide() {
        ProbeStats slow = stats(2, 10, 500_000_000, 400_000_000, 0, 0);
        ProbeStats withCpu = ReportWriterTest.withCpu(slow, 120_000_000, 100_000_000);
        Comparison c = new Comparison(session("a.db", List.of(slow)), session("b.db", List.of(withCpu)));
        StringWriter csv = new StringWriter(), table = new StringWriter();
        c.csv(new PrintWriter(csv), 0);
        c.table(new PrintWriter(table), 0);
        String row = csv.toString().lines().filter(l -> l.startsWith("app.Main.fib")).findFirst().orElseThrow();
        assertTrue(row.contains(",,100000000,,,300000000,,"), row); // the per-call columns follow
        assertTrue(table.toString().contains("excl cpu"), table.toString());
        assertTrue(table.toString().contains("100ms"), table.toString());
    }

    @Test
    void theTableHasWhatTheCsvHasWithinItsWidth() {
        StringWriter w = new StringWriter();
        comparison().table(new PrintWriter(w), 0);
        String[] lines = w.toString().split("\n");
        for (String title : new String[] {"calls", "incl time", "excl time", "native instr", "native cycles", "energy", "incl/call"})
            assertTrue(lines[0].contains(title), title + " in " + lines[0]);
        int methodAt = lines[1].indexOf("method");
        assertTrue(methodAt <= 151, "numbers within 151 columns: " + methodAt);
        for (String l : lines) {
            if (!l.contains("app.Main.")) continue;
            assertEquals(methodAt, l.indexOf("app.Main."), "every row aligned:\n" + l);
        }
        assertEquals(2 + 5 + 3, lines.length, "two header lines, one row per method, three footnote lines");
    }

    /** Per call is inclusive time over calls: sum's B makes 1000 times the calls, each ~3000 times cheaper. */
    @Test
    void perCallTimeAndItsRatioAreTheLastCsvColumns() {
        StringWriter w = new StringWriter();
        comparison().csv(new PrintWriter(w), 0);
        String[] lines = w.toString().split("\n");
        assertTrue(lines[0].endsWith(",wait_excl_ratio,incl_per_call_ns_a,incl_per_call_ns_b,incl_per_call_ratio"), lines[0]);
        String sum = java.util.Arrays.stream(lines).filter(l -> l.startsWith("app.Main.sum(int[]),")).findFirst().orElseThrow();
        assertTrue(sum.endsWith(",9700000,3275,0.000338"), sum);
        String javaOnly = java.util.Arrays.stream(lines).filter(l -> l.startsWith("app.Main.javaOnly(),")).findFirst().orElseThrow();
        assertTrue(javaOnly.endsWith(",271,,"), javaOnly); // 812 ns / 3 calls, absent in B: no ratio
    }

    @Test
    void scalesToThreeSignificantDigits() {
        String[] time = {"ns", "us", "ms", "s"};
        assertEquals("812ns", Comparison.scale(812, time));
        assertEquals("36.5us", Comparison.scale(36_500, time));
        assertEquals("1.00us", Comparison.scale(999.6, time));
        assertEquals("2.40s", Comparison.scale(2_400_000_000L, time));
        assertEquals("4000s", Comparison.scale(4e12, time));
        assertEquals("1.23M", Comparison.scale(1_234_567, new String[] {"", "k", "M"}));
        assertEquals("0", Comparison.scale(0, time));
    }
}
