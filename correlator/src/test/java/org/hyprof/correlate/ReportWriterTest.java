package org.hyprof.correlate;

import static org.junit.jupiter.api.Assertions.*;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.hyprof.config.MethodNames;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.runtime.Stats;
import org.hyprof.store.CalibrationRecord;
import org.hyprof.store.CpuTime;
import org.hyprof.testing.Golden;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;
import org.hyprof.store.TimingCounts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Report formats against golden files, from a deterministic session built through the store. */
class ReportWriterTest {
    @TempDir Path dir;

    static long[] hist(long... pairs) {
        long[] h = new long[Stats.HIST_BUCKETS];
        for (int i = 0; i < pairs.length; i += 2) h[(int) pairs[i]] = pairs[i + 1];
        return h;
    }

    Profile deterministic() {
        return deterministic(null);
    }

    /** The deterministic session, its Java energy from {@code model} when not null (stored as {@code hyprof profile} does). */
    Profile deterministic(EnergyModel model) {
        return deterministic(model, false, MethodNames.Style.JAVA);
    }

    /** The deterministic session, rows named in {@code style}. */
    Profile deterministic(EnergyModel model, MethodNames.Style style) {
        return deterministic(model, false, style);
    }

    Profile deterministic(EnergyModel model, boolean cpu) {
        return deterministic(model, cpu, MethodNames.Style.JAVA);
    }

    /**
     * The deterministic session, rows named in {@code style}; with {@code cpu}, thread CPU time
     * (sampled) beside the wall times (issue 18): main spends 90 of its 190 µs own time waiting,
     * the worker's run() 200 of its 240 µs; thread CPU totals as the runtime keeps them (Σ CPU of
     * top-level activations: main 600 µs, worker 90 µs).
     */
    Profile deterministic(EnergyModel model, boolean cpu, MethodNames.Style style) {
        Path db = dir.resolve((cpu ? "cpu" : "d") + "-" + style + "-" + (model != null) + ".db");
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 4242, "app.Main", "test-vm", "aggregate", 0, 1_700_000_000_000L,
                    1000, 1_700_000_001_000L, "ended", 0, "golden"));
            s.addProbes(p, List.of(
                    new ProbeInfo(1, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"),
                    new ProbeInfo(2, false, Resolution.METHOD, "app.Main", "fib", "(I)I", -1, -1, 9, "Main.java"),
                    new ProbeInfo(3, true, Resolution.LOOP, "app.Main", "main", "([Ljava/lang/String;)V", 1, 0, 5, "Main.java"),
                    new ProbeInfo(4, false, Resolution.THREAD, "app.Worker", "run", "()V", -1, -1, 20, "Worker.java")));
            // thread totals as the runtime keeps them: Σ deducted inclusive of top-level activations
            s.putThread(p, new ThreadInfo(1, "main", 0, 0, 990_000, 0, 0, cpu ? 600_000L : null));
            s.putThread(p, new ThreadInfo(12, "worker", 0, 0, 290_000, 0, 0, cpu ? 90_000L : null));
            s.addCalibration(p, new CalibrationRecord(5, 24_000, 33_000, 4_000, 25_000, 800, 2_900, 6_100));
            // per-call histograms as a format-4 session has them: log₂ and fine ({@code Buckets})
            List<ProbeStats> stats = List.of(
                    withFine(new ProbeStats(1, 1, 1, 1_500_000, 200_000, 1_400_000, 190_000, 1_400_000, 1_400_000, 1, 400, 30, 3, 2, 30, 0, 0, 1, hist(21, 1)),
                            1_400_000, 1),
                    withFine(new ProbeStats(1, 2, 177, 900_000, 900_000, 800_000, 800_000, 200, 90_000, 1, 352, 0, 176, 0, 0, 0, 0, 177, hist(8, 100, 9, 60, 17, 17)),
                            200, 40, 230, 60, 300, 60, 70_000, 10, 90_000, 7),
                    withFine(new ProbeStats(1, 3, 1, 1_000_000, 100_000, 950_000, 95_000, 950_000, 950_000, 1, 354, 30, 1, 0, 30, 30, 0, 1, hist(20, 1)),
                            950_000, 1),
                    withFine(new ProbeStats(12, 4, 1, 300_000, 250_000, 290_000, 240_000, 290_000, 290_000, 1, 2, 0, 1, 0, 0, 0, 0, 1, hist(19, 1)),
                            290_000, 1),
                    withFine(new ProbeStats(12, 2, 1, 60_000, 60_000, 50_000, 50_000, 50_000, 50_000, 1, 0, 0, 0, 0, 0, 0, 1, 1, hist(16, 1)),
                            50_000, 1));
            if (cpu) {
                long[][] cpuInclExcl = {{600_000, 100_000}, {500_000, 500_000}, {450_000, 45_000}, {90_000, 40_000}, {50_000, 50_000}};
                List<ProbeStats> with = new java.util.ArrayList<>();
                for (int i = 0; i < stats.size(); i++) with.add(withCpu(stats.get(i), cpuInclExcl[i][0], cpuInclExcl[i][1]));
                stats = with;
            }
            s.putStats(p, stats);
            if (model != null) model.save(s);
            return Profile.load(s, style);
        }
    }

    String render(Profile p, ReportWriter.By by, ReportWriter.Format f) {
        StringWriter w = new StringWriter();
        new ReportWriter(p, by, Profile.Sort.INCL, 0, false).write(f, new PrintWriter(w));
        return w.toString();
    }

    @Test
    void goldenFormats() throws Exception {
        Profile p = deterministic();
        Golden.check("report-method.csv", render(p, ReportWriter.By.METHOD, ReportWriter.Format.CSV));
        Golden.check("report-method.json", render(p, ReportWriter.By.METHOD, ReportWriter.Format.JSON));
        Golden.check("report-method.txt", render(p, ReportWriter.By.METHOD, ReportWriter.Format.TABLE));
        Golden.check("report-thread.csv", render(p, ReportWriter.By.THREAD, ReportWriter.Format.CSV));
        Golden.check("report-process.csv", render(p, ReportWriter.By.PROCESS, ReportWriter.Format.CSV));
        Golden.check("report-loop.csv", render(p, ReportWriter.By.LOOP, ReportWriter.Format.CSV));
    }

    /** {@code --descriptors}: the same rows, named by JVM descriptor; loops still by source line. */
    @Test
    void goldenWithDescriptors() throws Exception {
        Profile p = deterministic(null, MethodNames.Style.DESCRIPTOR);
        String csv = render(p, ReportWriter.By.METHOD, ReportWriter.Format.CSV);
        Golden.check("report-method-descriptors.csv", csv);
        assertTrue(csv.contains("\napp.Main.fib(I)I,"), csv);
        assertTrue(render(p, ReportWriter.By.LOOP, ReportWriter.Format.CSV).contains("\napp.Main.main([Ljava/lang/String;)V#loop@5,"));
        // only the names differ (none of these has a comma)
        assertEquals(render(deterministic(), ReportWriter.By.METHOD, ReportWriter.Format.CSV).lines().map(l -> l.substring(l.indexOf(','))).toList(),
                csv.lines().map(l -> l.substring(l.indexOf(','))).toList());
    }

    /** The shipped real device's profile (Pixel 4a, big cluster at its fastest step) in the report. */
    @Test
    void goldenWithTheShippedRealProfile() throws Exception {
        Profile p = deterministic(EnergyModel.of(PowerProfile.load("pixel-4a").cpu(1, null, PowerProfile.DEFAULT_VOLTAGE)));
        Golden.check("report-method-pixel-4a.txt", render(p, ReportWriter.By.METHOD, ReportWriter.Format.TABLE));
        Golden.check("report-method-pixel-4a.csv", render(p, ReportWriter.By.METHOD, ReportWriter.Format.CSV));
        Golden.check("report-thread-pixel-4a.csv", render(p, ReportWriter.By.THREAD, ReportWriter.Format.CSV));
    }

    /** {@link #deterministic}'s stats with thread CPU time (sampled) beside the wall times. */
    static ProbeStats withCpu(ProbeStats s, long cpuIncl, long cpuExcl) {
        return new ProbeStats(s.tid(), s.probeId(), s.calls(), s.inclRawNanos(), s.exclRawNanos(), s.inclNanos(), s.exclNanos(),
                s.minNanos(), s.maxNanos(), s.outerCalls(), s.eventsInside(), s.itersInside(), s.childCalls(),
                s.directLoopEvents(), s.directIters(), s.iterations(), s.throwsCount(), s.seen(), s.hist(), s.nativeCost(),
                s.timing(), new CpuTime(cpuIncl, cpuExcl, CpuTime.SAMPLED), s.fine());
    }

    /** {@code s} with a fine histogram of (duration ns, calls) pairs. */
    static ProbeStats withFine(ProbeStats s, long... durationAndCalls) {
        org.hyprof.runtime.DurationHistogram h = new org.hyprof.runtime.DurationHistogram(org.hyprof.runtime.DurationHistogram.HOST_MAX_SLOTS);
        for (int i = 0; i < durationAndCalls.length; i += 2)
            h.addAnyway(org.hyprof.runtime.Buckets.index(durationAndCalls[i], org.hyprof.runtime.Buckets.SUB_BITS), durationAndCalls[i + 1]);
        return new ProbeStats(s.tid(), s.probeId(), s.calls(), s.inclRawNanos(), s.exclRawNanos(), s.inclNanos(), s.exclNanos(),
                s.minNanos(), s.maxNanos(), s.outerCalls(), s.eventsInside(), s.itersInside(), s.childCalls(),
                s.directLoopEvents(), s.directIters(), s.iterations(), s.throwsCount(), s.seen(), s.hist(), s.nativeCost(),
                s.timing(), s.cpu(), h);
    }

    @Test
    void cpuTimeBesideWallTimeAndJavaEnergyFromIt() throws Exception {
        Profile p = deterministic(null, true);
        Golden.check("report-cpu.txt", render(p, ReportWriter.By.METHOD, ReportWriter.Format.TABLE));
        Golden.check("report-cpu.csv", render(p, ReportWriter.By.METHOD, ReportWriter.Format.CSV));
        Golden.check("report-thread-cpu.txt", render(p, ReportWriter.By.THREAD, ReportWriter.Format.TABLE));
        Golden.check("report-thread-cpu.csv", render(p, ReportWriter.By.THREAD, ReportWriter.Format.CSV));
        Golden.check("report-process-cpu.csv", render(p, ReportWriter.By.PROCESS, ReportWriter.Format.CSV));
        assertEquals(CpuTime.SAMPLED, p.cpuClock());
        MethodRow run = p.methods().stream().filter(r -> r.method().equals("app.Worker.run()")).findFirst().orElseThrow();
        assertEquals(90_000, run.cpu().inclNanos());
        assertEquals(200_000, run.waitExclNanos(), "240 µs own wall time, 40 µs of it on a CPU");
        double mw = p.energy().javaPowerMilliwatts();
        assertEquals(40_000 * mw / 1e6, run.energyMicrojoules(), 1e-9, "Java energy: exclusive CPU time × power");
        MethodRow fib = p.methods().stream().filter(r -> r.method().equals("app.Main.fib(int)")).findFirst().orElseThrow();
        assertEquals(550_000, fib.cpu().exclNanos(), "merged over both threads");
        Profile.ThreadRow worker = p.threads().stream().filter(t -> t.tid() == 12).findFirst().orElseThrow();
        assertEquals(90_000, worker.cpuNanos());
        assertEquals(200_000, worker.waitNanos());
        assertEquals(0, p.totals().energyRelativeDifference(), 1e-12, "Σ exclusive energy = the threads' CPU totals' energy");
        assertEquals(690_000 * mw / 1e6, p.totals().totalEnergyMicrojoules(), 1e-9);
    }

    @Test
    void aSessionWithoutCpuTimeShowsItEmptyNotZero() {
        Profile p = deterministic();
        assertEquals(0, p.cpuClock());
        String csv = render(p, ReportWriter.By.METHOD, ReportWriter.Format.CSV);
        assertTrue(csv.lines().skip(1).allMatch(l -> l.endsWith(",,,,,")), csv);
        assertTrue(render(p, ReportWriter.By.METHOD, ReportWriter.Format.TABLE).contains("exclusive wall time (no CPU time recorded)"));
        for (MethodRow r : p.methods()) assertNull(r.cpu());
    }

    @Test
    void mergesThreadsAndKeepsTheCsvContract() {
        Profile p = deterministic();
        String csv = render(p, ReportWriter.By.METHOD, ReportWriter.Format.CSV);
        assertTrue(csv.startsWith("method,kind,resolution,calls,incl_ns,excl_ns,incl_raw_ns,excl_raw_ns,min_ns,max_ns,p50_ns,p99_ns"));
        MethodRow fib = p.methods().stream().filter(r -> r.method().equals("app.Main.fib(int)")).findFirst().orElseThrow();
        assertEquals(178, fib.calls());
        assertEquals(850_000, fib.inclNanos());
        assertEquals(200, fib.minNanos());
        assertEquals(90_000, fib.maxNanos());
        assertTrue(fib.p50Nanos() >= 128 && fib.p50Nanos() <= 256, "p50 in bucket 8: " + fib.p50Nanos());
        assertTrue(fib.p99Nanos() >= 65_536 && fib.p99Nanos() <= 90_000, "p99 in bucket 17, ≤ max: " + fib.p99Nanos());
        assertEquals(1, fib.throwsCount());
    }

    @Test
    void percentilesInterpolateWithinBuckets() {
        long[] h = hist(10, 100);
        assertEquals(768, Histogram.percentile(h, 0.5, 0, 10_000));
        assertEquals(600, Histogram.percentile(h, 0.5, 600, 600), "clamped to min/max");
        assertEquals(0, Histogram.percentile(new long[Stats.HIST_BUCKETS], 0.5, 0, 0));
    }

    /**
     * Issue 15 items 4 and 5: a session whose rows need a word of caution, as reports show them. A
     * method that went count-only (1,000 of its 4,096 calls timed) on one of two threads; a method
     * whose probes cost most of its raw time; one with many clamped calls; one recorded before the
     * runtime clamped each call, whose deducted sum is below 0; three calibrations that disagree.
     */
    Profile cautious() {
        Path db = dir.resolve("c.db");
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 4242, "app.Main", "test-vm", "aggregate", 0, 1_700_000_000_000L,
                    1000, 1_700_000_001_000L, "ended", 0, "golden"));
            s.addProbes(p, List.of(
                    new ProbeInfo(1, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"),
                    new ProbeInfo(2, false, Resolution.METHOD, "app.Main", "get", "()I", -1, -1, 9, "Main.java"),
                    new ProbeInfo(3, false, Resolution.METHOD, "app.Main", "small", "()V", -1, -1, 12, "Main.java"),
                    new ProbeInfo(4, false, Resolution.METHOD, "app.Main", "jumpy", "()V", -1, -1, 15, "Main.java"),
                    new ProbeInfo(5, false, Resolution.METHOD, "app.Old", "legacy", "()V", -1, -1, 20, "Old.java")));
            s.putThread(p, new ThreadInfo(1, "main", 0, 0, 2_000_000, 0, 0));
            s.putThread(p, new ThreadInfo(2, "worker", 0, 0, 0, 0, 0));
            s.addCalibration(p, new CalibrationRecord(5, 24_000, 33_000, 4_000, 25_000, 900, 2_900, 6_000));
            s.addCalibration(p, new CalibrationRecord(6, 20_000, 29_500, 4_000, 25_000, 700, 3_100, 6_000));
            s.addCalibration(p, new CalibrationRecord(7, 22_000, 31_000, 4_000, 25_000, 600, 3_000, 6_000));
            s.putStats(p, List.of(
                    new ProbeStats(1, 1, 1, 2_100_000, 600_000, 2_000_000, 500_000, 2_000_000, 2_000_000, 1, 4000, 0, 1600, 0, 0, 0, 0, 1,
                            hist(21, 1)),
                    // count-only after 1,000 timed calls on thread 1 (median 48 ns < 93 ns), 96 more counted on thread 2
                    new ProbeStats(1, 2, 1000, 120_000, 120_000, 50_000, 50_000, 20, 400, 1000, 0, 0, 0, 0, 0, 0, 0, 4000,
                            hist(6, 700, 9, 300), org.hyprof.store.NativeCost.NONE, new TimingCounts(3000, 0, 700, 48)),
                    new ProbeStats(2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 96,
                            hist(), org.hyprof.store.NativeCost.NONE, new TimingCounts(96, 0, 0, 0)),
                    new ProbeStats(1, 3, 500, 100_000, 100_000, 30_000, 30_000, 40, 100, 500, 0, 0, 0, 0, 0, 0, 0, 500,
                            hist(6, 400, 7, 100), org.hyprof.store.NativeCost.NONE, new TimingCounts(0, 0, 400, 0)),
                    new ProbeStats(1, 4, 100, 300_000, 300_000, 250_000, 250_000, 0, 9_000, 100, 0, 0, 0, 0, 0, 0, 0, 100,
                            hist(0, 20, 13, 80), org.hyprof.store.NativeCost.NONE, new TimingCounts(0, 20, 20, 0)),
                    new ProbeStats(1, 5, 10, 400, 400, -300, -300, 0, 80, 10, 0, 0, 0, 0, 0, 0, 0, 10, hist(0, 9, 7, 1))));
            return Profile.load(s);
        }
    }

    @Test
    void rowsThatNeedCautionAreMarkedWithTheirReasons() throws Exception {
        Profile p = cautious();
        String table = render(p, ReportWriter.By.METHOD, ReportWriter.Format.TABLE);
        Golden.check("report-confidence.txt", table);
        // issue 15 item 7: every cost the times were deducted with, its measurement's noise, how it moved
        assertTrue(table.contains("calibration: probe event 31.0 ns (rounds within 0.6 ns; min-max 29.5-33.0 ns over the run),"
                + " inner 22.0 ns, outer 40.0 ns, count-only call 3.0 ns (min-max 2.9-3.1 ns over the run),"
                + " loop hand-over 6.0 ns (3 measurements); calls under 93 ns are tiny"), table);
        Golden.check("report-confidence.csv", render(p, ReportWriter.By.METHOD, ReportWriter.Format.CSV));
        java.util.Map<String, MethodRow> rows = new java.util.HashMap<>();
        for (MethodRow r : p.methods()) rows.put(r.method(), r);
        MethodRow get = rows.get("app.Main.get()");
        assertEquals(4096, get.calls(), "timed and count-only, over both threads");
        assertEquals(3096, get.countOnlyCalls());
        assertEquals("count-only: median 48 ns < 93 ns = 3 × probe cost 31.0 ns", get.countOnlyReason(),
                "the threshold of the process's latest calibration");
        assertEquals("c!", get.mark(), "half its raw time was probe cost too");
        MethodRow small = rows.get("app.Main.small()");
        assertEquals(0.7, small.probeShare(), 1e-9);
        assertEquals("probe cost 70.0 % of raw time", small.probeWarning());
        MethodRow jumpy = rows.get("app.Main.jumpy()");
        assertEquals(20, jumpy.clamped());
        assertEquals("clamped 20 of 100 timed calls", jumpy.probeWarning());
        MethodRow legacy = rows.get("app.Old.legacy()");
        assertEquals(0, legacy.inclNanos(), "never negative");
        assertEquals(0, legacy.exclNanos());
        assertEquals("!", legacy.mark(), "and never silently 0");
        assertTrue(legacy.probeWarning().startsWith("deducted time below 0 (-300 ns), shown as 0"), legacy.probeWarning());
        assertEquals("", rows.get("app.Main.main(java.lang.String[])").mark());
        for (MethodRow r : p.methods()) assertTrue(r.probeShare() >= 0 && r.probeShare() <= 1, r.method());
        // the runtime notes the median as its histogram bucket's middle, which may be above the threshold
        CalibrationRecord cal = new CalibrationRecord(5, 24_000, 57_600, 4_000, 25_000);
        assertEquals("count-only: 99.7 % of timed calls < 172 ns = 3 × probe cost 57.6 ns (median ~192 ns, the middle of"
                + " its histogram bucket)", Profile.countOnlyReason(new TimingCounts(10, 0, 2_429_629, 192), 2_438_000, cal, false));
        assertEquals("count-only: median 96 ns < 172 ns = 3 × probe cost 57.6 ns",
                Profile.countOnlyReason(new TimingCounts(10, 0, 900, 96), 1000, cal, false));
        assertEquals("", Profile.countOnlyReason(new TimingCounts(0, 0, 900, 0), 1000, cal, false));
        // a loop's activations are held to the loop threshold (16 probe events)
        assertEquals("count-only: median 768 ns < 921 ns = 16 × probe cost 57.6 ns",
                Profile.countOnlyReason(new TimingCounts(10, 0, 900, 768), 1000, cal, true));
        assertEquals(4000 + 96 + 1 + 500 + 100 + 10, p.processes().get(0).calls());
        assertTrue(p.notes().stream().anyMatch(n -> n.contains("1 deducted time sum(s) below 0")), p.notes().toString());
    }
}
