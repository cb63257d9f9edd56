package org.hyprof.correlate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.MethodNames;
import org.hyprof.config.ProbeInfo;
import org.hyprof.runtime.Stats;
import org.hyprof.store.CalibrationRecord;
import org.hyprof.store.CpuTime;
import org.hyprof.store.NativeCost;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;
import org.hyprof.store.TimingCounts;

/**
 * A session's aggregates joined with its manifest: rows per method/loop, per thread and per
 * process. Built from the store's aggregates only (no raw events), so it is fast for any run
 * length.
 */
public final class Profile {
    /**
     * Per-thread totals: time covered by probes is Σ exclusive time of its methods, {@code cpuNanos}
     * Σ their exclusive thread CPU time (null when the session recorded none); energy splits into
     * Java (CPU time, or wall time without it, less native time, × CPU power) and native (CPU profile).
     */
    public record ThreadRow(String process, long pid, long tid, String name, long methods, long calls,
                            long timeNanos, long timeRawNanos, long eventDrops, long depthDrops,
                            long nativeEstNanos, double javaEnergyMicrojoules, double nativeEnergyMicrojoules,
                            Long cpuNanos) {
        /** Wall time not on a CPU; null without CPU time. */
        public Long waitNanos() {
            return cpuNanos == null ? null : Math.max(0, timeNanos - cpuNanos);
        }
    }

    /** Per-process totals ({@code cpuNanos} as for threads). */
    public record ProcessRow(long id, String name, long pid, String status, long threads, long calls,
                             long timeNanos, long timeRawNanos, long eventDrops, long nativeEstNanos,
                             double javaEnergyMicrojoules, double nativeEnergyMicrojoules, Long cpuNanos) {
        /** Wall time not on a CPU; null without CPU time. */
        public Long waitNanos() {
            return cpuNanos == null ? null : Math.max(0, timeNanos - cpuNanos);
        }
    }

    /**
     * The check that per-method figures add up: Σ exclusive over methods against the totals the
     * runtime kept for each thread's top-level activations (measured apart). They agree up to the
     * deduction's rounding (a fraction of a nanosecond per call) unless rules (minimum calls or
     * duration) left calls out of the method rows.
     */
    public record Totals(long exclNanos, long topInclNanos, long nativeExclPicojoules, long nativeTopPicojoules,
                         double exclEnergyMicrojoules, double totalEnergyMicrojoules) {
        /** Whether the session has the runtime's thread totals (sessions of hyprof 0.1's format 1 do not). */
        public boolean available() {
            return topInclNanos != 0 || nativeTopPicojoules != 0;
        }

        /** Relative difference of Σ exclusive energy from the session total (0 when both are 0). */
        public double energyRelativeDifference() {
            double d = Math.abs(exclEnergyMicrojoules - totalEnergyMicrojoules);
            return d == 0 ? 0 : d / Math.max(Math.abs(totalEnergyMicrojoules), Math.abs(exclEnergyMicrojoules));
        }
    }

    private final List<MethodRow> methods;
    private final List<ThreadRow> threads;
    private final List<ProcessRow> processes;
    private final List<CalibrationRecord> calibrations;
    private final long eventDrops;
    private final List<String> notes;

    private final EnergyModel energy;
    private final Totals totals;
    private final boolean hybrid;
    private final int cpuClock;

    private Profile(List<MethodRow> methods, List<ThreadRow> threads, List<ProcessRow> processes,
                    List<CalibrationRecord> calibrations, long eventDrops, List<String> notes, EnergyModel energy,
                    Totals totals, boolean hybrid, int cpuClock) {
        this.cpuClock = cpuClock;
        this.energy = energy;
        this.totals = totals;
        this.hybrid = hybrid;
        this.methods = methods;
        this.threads = threads;
        this.processes = processes;
        this.calibrations = calibrations;
        this.eventDrops = eventDrops;
        this.notes = notes;
    }

    /** A session's profile, with the energy setting stored in it (or the built-in default). */
    public static Profile load(Store store) {
        return load(store, EnergyModel.load(store));
    }

    /** A session's profile, with the energy setting stored in it, rows named in {@code style}. */
    public static Profile load(Store store, MethodNames.Style style) {
        return load(store, EnergyModel.load(store), null, style);
    }

    /** A session's profile, with Java energy from {@code energy}. */
    public static Profile load(Store store, EnergyModel energy) {
        return load(store, energy, null, MethodNames.Style.JAVA);
    }

    /**
     * A session's profile, with Java energy from {@code energy} and rows named in {@code style}
     * (Java signatures, or JVM descriptors for {@code --descriptors}; see {@link MethodNames}).
     */
    public static Profile load(Store store, EnergyModel energy, MethodNames.Style style) {
        return load(store, energy, null, style);
    }

    /**
     * One process of a session (its rows, totals, calibrations and notes only), with the energy
     * setting stored in the session.
     */
    public static Profile load(Store store, long processId) {
        return load(store, EnergyModel.load(store), processId, MethodNames.Style.JAVA);
    }

    private static Profile load(Store store, EnergyModel energy, Long onlyProcessId, MethodNames.Style style) {
        Map<String, long[]> acc = new LinkedHashMap<>();   // display name -> summed fields
        Map<String, NativeCost> nat = new HashMap<>();     // display name -> summed native costs
        Map<String, CallDistribution> hists = new HashMap<>();
        Map<String, ProbeInfo> infos = new HashMap<>();
        Map<String, TimingCounts> timing = new HashMap<>();
        Map<String, CpuTime> cpus = new HashMap<>();
        // time Java energy is charged on: CPU time where the row has it, else wall time (exclusive, inclusive)
        Map<String, long[]> energyTime = new HashMap<>();
        int cpuClock = 0; // 0: no row has CPU time; else the coarsest mode seen
        long sumEnergyExcl = 0, sumEnergyTop = 0;
        Map<String, CalibrationRecord> countOnlyCal = new HashMap<>(); // calibration where the median was recorded
        int[] negativeSums = new int[1];
        List<ThreadRow> threadRows = new ArrayList<>();
        List<ProcessRow> processRows = new ArrayList<>();
        List<CalibrationRecord> cals = new ArrayList<>();
        long drops = 0;
        long sumExcl = 0, sumTopIncl = 0, sumNativeExclPj = 0, sumNativeTopPj = 0, sumTopNativeEst = 0, sumNativeExclEst = 0;
        boolean hybrid = false;
        for (ProcessInfo proc : store.processes()) {
            if (onlyProcessId != null && proc.id() != onlyProcessId) continue;
            Map<Integer, ProbeInfo> byId = new HashMap<>();
            List<ProbeInfo> procProbes = store.probes(proc.id());
            for (ProbeInfo p : procProbes) byId.put(p.id(), p);
            Map<Integer, String> names = MethodNames.names(procProbes, style);
            Map<Long, long[]> perThread = new LinkedHashMap<>(); // tid -> methods, calls, time, raw, native ns, native pJ
            List<CalibrationRecord> procCals = store.calibrations(proc.id());
            // the calibration in force when a probe went count-only is not recorded: the one in
            // effect at the end is the best guess (the runtime decides with the calibration of the moment)
            CalibrationRecord procCal = CalibrationRecord.inEffect(procCals);
            long pCalls = 0, pTime = 0, pRaw = 0, pNatNs = 0, pNatPj = 0, pEnergyTime = 0, pCpu = 0;
            boolean procCpu = false;
            for (ProbeStats s : store.stats(proc.id())) {
                ProbeInfo info = byId.get(s.probeId());
                String name = info != null ? names.get(info.id()) : "probe#" + s.probeId();
                CpuTime cpu = s.cpu();
                if (cpu != null) {
                    procCpu = true;
                    cpuClock = cpuClock == 0 ? cpu.clock() : Math.min(cpuClock, cpu.clock());
                    cpus.merge(name, cpu, CpuTime::plus);
                }
                long eExcl = cpu != null ? cpu.exclNanos() : s.exclNanos(), eIncl = cpu != null ? cpu.inclNanos() : s.inclNanos();
                long[] et = energyTime.computeIfAbsent(name, k -> new long[2]);
                et[0] += eExcl;
                et[1] += eIncl;
                if (info != null) infos.putIfAbsent(name, info);
                long[] a = acc.computeIfAbsent(name, k -> new long[] {0, 0, 0, 0, 0, Long.MAX_VALUE, 0, 0, 0});
                a[0] += s.allCalls();
                a[1] += s.inclNanos();
                a[2] += s.exclNanos();
                a[3] += s.inclRawNanos();
                a[4] += s.exclRawNanos();
                if (s.calls() > 0) a[5] = Math.min(a[5], s.minNanos());
                a[6] = Math.max(a[6], s.maxNanos());
                a[7] += s.iterations();
                a[8] += s.throwsCount();
                TimingCounts q = timing.getOrDefault(name, TimingCounts.NONE);
                if (s.timing().countOnlyMedianNanos() > q.countOnlyMedianNanos() && procCal != null)
                    countOnlyCal.put(name, procCal);
                timing.put(name, q.plus(s.timing()));
                hists.computeIfAbsent(name, k -> new CallDistribution()).add(s);
                NativeCost c = s.nativeCost();
                nat.merge(name, c, NativeCost::plus);
                if (c.any()) hybrid = true;
                boolean isLoop = info != null && info.loop();
                if (!isLoop) {
                    long[] t = perThread.computeIfAbsent(s.tid(), k -> new long[9]);
                    t[6] += eExcl;
                    if (cpu != null) { t[7] += cpu.exclNanos(); t[8] = 1; }
                    pEnergyTime += eExcl;
                    if (cpu != null) pCpu += cpu.exclNanos();
                    if (s.allCalls() > 0) t[0]++;
                    t[1] += s.allCalls();
                    t[2] += s.exclNanos();
                    t[3] += s.exclRawNanos();
                    t[4] += c.estNanos();
                    t[5] += c.energyPicojoules();
                    pCalls += s.allCalls();
                    pTime += s.exclNanos();
                    pRaw += s.exclRawNanos();
                    pNatNs += c.estNanos();
                    pNatPj += c.energyPicojoules();
                }
            }
            Map<Long, ThreadInfo> tinfo = new HashMap<>();
            for (ThreadInfo t : store.threads(proc.id())) tinfo.put(t.tid(), t);
            for (Map.Entry<Long, long[]> e : perThread.entrySet()) {
                ThreadInfo ti = tinfo.get(e.getKey());
                long[] t = e.getValue();
                threadRows.add(new ThreadRow(proc.name(), proc.pid(), e.getKey(), ti != null ? ti.name() : "?", t[0], t[1],
                        clamp(t[2], negativeSums), t[3], ti != null ? ti.eventDrops() : 0, ti != null ? ti.depthDrops() : 0,
                        t[4], Math.max(0, energy.microjoules(t[6], t[4], 0)), t[5] / 1e6, t[8] != 0 ? (Long) t[7] : null));
            }
            for (ThreadInfo ti : tinfo.values()) {
                // threads without method rows (hyprof's calibration thread, seen by a live
                // snapshot while it ran) are not part of the program's total
                if (!perThread.containsKey(ti.tid())) continue;
                sumTopIncl += ti.topInclNanos();
                // the energy total is measured apart too: the thread's CPU total where it has one
                sumEnergyTop += procCpu && ti.topCpuNanos() != null ? ti.topCpuNanos() : ti.topInclNanos();
                sumTopNativeEst += ti.topNativeEstNanos();
                sumNativeTopPj += ti.topNativeEnergyPicojoules();
            }
            sumExcl += pTime;
            sumEnergyExcl += pEnergyTime;
            sumNativeExclPj += pNatPj;
            sumNativeExclEst += pNatNs;
            processRows.add(new ProcessRow(proc.id(), proc.name(), proc.pid(), proc.status(), perThread.size(), pCalls,
                    clamp(pTime, negativeSums), pRaw, proc.eventDrops(), pNatNs, Math.max(0, energy.microjoules(pEnergyTime, pNatNs, 0)),
                    pNatPj / 1e6, procCpu ? (Long) pCpu : null));
            cals.addAll(procCals);
            drops += proc.eventDrops();
        }
        List<MethodRow> rows = new ArrayList<>();
        int log2Rows = 0;
        for (Map.Entry<String, long[]> e : acc.entrySet()) {
            long[] a = e.getValue();
            ProbeInfo info = infos.get(e.getKey());
            long min = a[5] == Long.MAX_VALUE ? 0 : a[5];
            CallDistribution h = hists.get(e.getKey());
            if (h.fine() == null && a[0] - timing.getOrDefault(e.getKey(), TimingCounts.NONE).countOnlyCalls() > 0) log2Rows++;
            NativeCost c = nat.get(e.getKey());
            // the runtime clamps each activation at 0; sessions recorded before it did keep unclamped
            // sums, whose negative total means "indistinguishable from zero": shown as 0, flagged
            TimingCounts q = timing.getOrDefault(e.getKey(), TimingCounts.NONE);
            long timedCalls = a[0] - q.countOnlyCalls();
            double share = a[3] > 0 ? Math.min(1, Math.max(0, (a[3] - Math.max(0, a[1])) / (double) a[3])) : 0;
            List<String> warn = new ArrayList<>();
            if (a[1] < 0 || a[2] < 0) {
                negativeSums[0]++;
                warn.add("deducted time below 0 (" + Math.min(a[1], a[2]) + " ns), shown as 0");
            }
            if (share > MethodRow.PROBE_SHARE_LIMIT)
                warn.add("probe cost " + Units.percent(share) + " % of raw time");
            if (timedCalls > 0 && q.clamped() > MethodRow.CLAMPED_LIMIT * timedCalls)
                warn.add("clamped " + q.clamped() + " of " + timedCalls + " timed calls");
            long[] et = energyTime.get(e.getKey());
            double eExcl = energy.microjoules(et[0], c.estNanos(), c.energyPicojoules());
            double eIncl = energy.microjoules(et[1], c.estNanosIncl(), c.energyPicojoulesIncl());
            rows.add(new MethodRow(e.getKey(), info != null ? info.kindLabel() : "method",
                    info != null ? info.resolution().label() : "method", a[0], Math.max(0, a[1]), Math.max(0, a[2]),
                    a[3], a[4], min, a[6],
                    h.percentile(0.50, min, a[6]), h.percentile(0.99, min, a[6]), a[7], a[8], h.log2(), c,
                    Math.max(0, eExcl), Math.max(0, eIncl), q.countOnlyCalls(),
                    countOnlyReason(q, timedCalls, countOnlyCal.get(e.getKey()), info != null && info.loop()), q.clamped(), share, String.join("; ", warn),
                    cpus.get(e.getKey()), h.errorBound()));
        }
        Totals totals = new Totals(sumExcl, sumTopIncl, sumNativeExclPj, sumNativeTopPj,
                energy.microjoules(sumEnergyExcl, sumNativeExclEst, sumNativeExclPj),
                energy.microjoules(sumEnergyTop, sumTopNativeEst, sumNativeTopPj));
        List<String> notes = onlyProcessId == null ? store.notes() : store.notes(onlyProcessId);
        if (log2Rows > 0) {
            notes = new ArrayList<>(notes);
            notes.add("info: p50/p99 of " + log2Rows + " row(s) come from log₂ histograms (sessions before format 4,"
                    + " or fine ones the stats budget refused): exact only within a factor of 2");
        }
        if (negativeSums[0] > 0) {
            notes = new ArrayList<>(notes);
            notes.add("warning: " + negativeSums[0] + " deducted time sum(s) below 0, recorded before the runtime clamped"
                    + " each call, shown as 0; method rows among them are marked !");
        }
        return new Profile(rows, threadRows, processRows, cals, drops, notes, energy, totals, hybrid, cpuClock);
    }

    /** A deducted sum as shown: never below 0, and counted when it was. */
    private static long clamp(long nanos, int[] negatives) {
        if (nanos >= 0) return nanos;
        negatives[0]++;
        return 0;
    }

    /**
     * Why a probe went count-only, from the median the deciding thread saw and the tiny-call
     * threshold of the calibration then in force: {@code count-only: median 4 ns < 37 ns = 3 ×
     * probe cost 12.3 ns}. The runtime decides on the share of tiny calls and notes the median as
     * the middle of its histogram bucket, which may lie above the threshold: then the reason gives
     * the share, and the median as approximate. Empty when no call was count-only.
     */
    static String countOnlyReason(TimingCounts q, long timedCalls, CalibrationRecord cal, boolean loop) {
        if (q.countOnlyCalls() == 0) return "";
        if (q.countOnlyMedianNanos() == 0) return "count-only: calls too short to time (median not recorded)";
        String median = Units.duration(q.countOnlyMedianNanos());
        if (cal == null) return "count-only: median " + median + " below the tiny-call threshold";
        long tiny = loop ? cal.tinyLoopNanos() : cal.tinyNanos();
        String threshold = Units.duration(tiny) + " = " + (loop ? CalibrationRecord.TINY_LOOP_EVENTS : CalibrationRecord.TINY_EVENTS)
                + " × probe cost " + (cal.perEventPicos() < 1_000_000 ? Units.nanosOfPicos(cal.perEventPicos()) + " ns"
                : Units.duration(cal.perEventPicos() / 1000));
        if (q.countOnlyMedianNanos() < tiny) return "count-only: median " + median + " < " + threshold;
        return "count-only: " + (timedCalls > 0 ? Units.percent(Math.min(1, q.tinyCalls() / (double) timedCalls)) + " %"
                : "most") + " of timed calls < " + threshold + " (median ~" + median + ", the middle of its histogram bucket)";
    }

    /** How Java energy was estimated. */
    public EnergyModel energy() {
        return energy;
    }

    /** Σ exclusive against the session's totals (see {@link Totals}). */
    public Totals totals() {
        return totals;
    }

    /**
     * How the session's thread CPU time was measured: 0 none recorded (Java energy is then wall
     * time × power), {@link CpuTime#SAMPLED} or {@link CpuTime#DUAL} (sampled if processes differ).
     */
    public int cpuClock() {
        return cpuClock;
    }

    /** Whether native code ran in the emulator (a hybrid run). */
    public boolean hybrid() {
        return hybrid;
    }

    /** Method and loop rows, in first-seen order. */
    public List<MethodRow> methods() {
        return methods;
    }

    public List<ThreadRow> threads() {
        return threads;
    }

    public List<ProcessRow> processes() {
        return processes;
    }

    public List<CalibrationRecord> calibrations() {
        return calibrations;
    }

    /** Events lost to the budget, over all processes (never silent: every report shows it). */
    public long eventDrops() {
        return eventDrops;
    }

    public List<String> notes() {
        return notes;
    }

    /** Sort keys for method rows. */
    public enum Sort {
        INCL(Comparator.comparingLong(MethodRow::inclNanos)),
        EXCL(Comparator.comparingLong(MethodRow::exclNanos)),
        CALLS(Comparator.comparingLong(MethodRow::calls)),
        ENERGY(Comparator.comparingDouble(MethodRow::energyMicrojoules));

        final Comparator<MethodRow> order;

        Sort(Comparator<MethodRow> order) {
            this.order = order.reversed().thenComparing(MethodRow::method);
        }

        public Comparator<MethodRow> comparator() {
            return order;
        }
    }
}
