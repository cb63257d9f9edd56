package org.hyprof.tui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.MethodNames;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Zoom;
import org.hyprof.control.ControlState;
import org.hyprof.correlate.CallDistribution;
import org.hyprof.correlate.EnergyModel;
import org.hyprof.correlate.Histogram;
import org.hyprof.correlate.MethodRow;
import org.hyprof.runtime.DurationHistogram;
import org.hyprof.runtime.Stats;
import org.hyprof.store.CalibrationRecord;
import org.hyprof.store.NativeBlock;
import org.hyprof.store.NativeCost;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;

/**
 * What the terminal UI draws, read from the store's aggregates in one go (never from raw events,
 * so a stored session of any length opens at once). Immutable.
 */
final class SessionView {
    /**
     * A probe's figures merged over threads; times in ns, deducted unless raw; native costs of a
     * hybrid run ({@link NativeCost#NONE} otherwise) and energy in µJ, exclusive and inclusive.
     * {@code calls} counts every call, {@code countOnlyCalls} those of them counted without timing
     * (the probe went count-only); {@code clamped}: timed calls whose deducted time was clamped at 0.
     * {@code cpuInclNanos}, {@code cpuExclNanos}: thread CPU time, null when the session recorded none.
     */
    record Agg(long calls, long inclNanos, long exclNanos, long minNanos, long maxNanos, long iterations,
               long throwsCount, long[] hist, Map<Long, Long> callsByThread, NativeCost nativeCost,
               double energyMicrojoules, double energyInclMicrojoules, long inclRawNanos, long countOnlyCalls,
               long clamped, Long cpuInclNanos, Long cpuExclNanos, DurationHistogram fine) {
        /** Without a fine histogram: log₂ percentiles. */
        Agg(long calls, long inclNanos, long exclNanos, long minNanos, long maxNanos, long iterations,
            long throwsCount, long[] hist, Map<Long, Long> callsByThread, NativeCost nativeCost,
            double energyMicrojoules, double energyInclMicrojoules, long inclRawNanos, long countOnlyCalls,
            long clamped, Long cpuInclNanos, Long cpuExclNanos) {
            this(calls, inclNanos, exclNanos, minNanos, maxNanos, iterations, throwsCount, hist, callsByThread, nativeCost,
                    energyMicrojoules, energyInclMicrojoules, inclRawNanos, countOnlyCalls, clamped, cpuInclNanos, cpuExclNanos, null);
        }

        /** Share of the raw inclusive time that was probe cost, 0..1 (as reports compute it). */
        double probeShare() {
            return inclRawNanos > 0 ? Math.min(1, Math.max(0, (inclRawNanos - inclNanos) / (double) inclRawNanos)) : 0;
        }

        /**
         * The report's marks: {@code c} count-only, {@code !} times dominated by probe cost (probe
         * share or clamped calls above the report's limits).
         */
        String mark() {
            long timed = calls - countOnlyCalls;
            boolean dominated = probeShare() > MethodRow.PROBE_SHARE_LIMIT || timed > 0 && clamped > MethodRow.CLAMPED_LIMIT * timed;
            return (countOnlyCalls > 0 ? "c" : "") + (dominated ? "!" : "");
        }

        /** Per-call percentile from the fine histogram (≤ 1 % off) when every thread had one, else log₂. */
        long percentile(double q) {
            return fine != null ? Histogram.percentile(fine, q, minNanos, maxNanos) : Histogram.percentile(hist, q, minNanos, maxNanos);
        }

        long p50() {
            return percentile(0.5);
        }

        long p99() {
            return percentile(0.99);
        }
    }

    static final Agg NONE = new Agg(0, 0, 0, 0, 0, 0, 0, new long[Stats.HIST_BUCKETS], Map.of(), NativeCost.NONE, 0, 0, 0, 0, 0,
            null, null);

    /**
     * A thread's totals over its methods: exclusive time, native time (estimated), energy, and
     * exclusive thread CPU time (null when the session recorded none).
     */
    record ThreadSum(long exclNanos, long nativeEstNanos, long nativeCycles, double javaEnergyMicrojoules,
                     double nativeEnergyMicrojoules, Long cpuNanos) {}

    /**
     * One process: its probes, their figures and (live) control state and zoom scope; per-thread
     * totals and the native blocks of a hybrid run.
     */
    record Proc(ProcessInfo info, boolean connected, List<ProbeInfo> probes, Map<Integer, Agg> agg,
                List<ThreadInfo> threads, ControlState state, Zoom.Scope scope, Map<Long, ThreadSum> threadSums,
                List<NativeBlock> nativeBlocks, Map<Integer, String> names) {
        Agg agg(int id) {
            return agg.getOrDefault(id, NONE);
        }

        /** A probe's name as reports and exports name it (the style the UI was started with). */
        String name(ProbeInfo p) {
            String n = names.get(p.id());
            return n != null ? n : p.displayName();
        }

        ProbeInfo probe(int id) {
            for (ProbeInfo p : probes) if (p.id() == id) return p;
            return null;
        }

        long eventDrops() {
            long n = 0;
            for (ThreadInfo t : threads) n += t.eventDrops();
            return Math.max(n, info.eventDrops());
        }
    }

    final List<Proc> processes;
    final CalibrationRecord calibration;
    final List<String> notes;
    /** How Java energy is estimated (the session's setting, or the built-in default). */
    final EnergyModel energy;

    private SessionView(List<Proc> processes, CalibrationRecord calibration, List<String> notes, EnergyModel energy) {
        this.processes = processes;
        this.calibration = calibration;
        this.notes = notes;
        this.energy = energy;
    }

    /** Whether any probe has thread CPU time (Java energy is then CPU time × power). */
    boolean cpuTime() {
        for (Proc p : processes)
            for (Agg a : p.agg().values()) if (a.cpuExclNanos() != null) return true;
        return false;
    }

    /** Whether native code ran in the emulator in any process (a hybrid run). */
    boolean hybrid() {
        for (Proc p : processes)
            for (Agg a : p.agg().values()) if (a.nativeCost().any()) return true;
        return false;
    }

    /** Live details of a process, when there is a collector. */
    interface LiveInfo {
        boolean connected(long processId);

        ControlState state(long processId);

        Zoom.Scope scope(long processId);
    }

    static SessionView load(Store store, LiveInfo live) {
        return load(store, live, MethodNames.Style.JAVA);
    }

    /** The session as stored now, probes named in {@code style} (Java signatures or JVM descriptors). */
    static SessionView load(Store store, LiveInfo live, MethodNames.Style style) {
        List<Proc> ps = new ArrayList<>();
        CalibrationRecord cal = null;
        EnergyModel energy = EnergyModel.load(store);
        for (ProcessInfo pi : store.processes()) {
            Map<Integer, long[]> sums = new HashMap<>();
            Map<Integer, CallDistribution> hists = new HashMap<>();
            Map<Integer, Map<Long, Long>> byThread = new HashMap<>();
            Map<Integer, NativeCost> nat = new HashMap<>();
            Map<Long, long[]> threadSums = new HashMap<>();
            List<ProbeInfo> probes = store.probes(pi.id());
            Map<Integer, ProbeInfo> byId = new HashMap<>();
            for (ProbeInfo i : probes) byId.put(i.id(), i);
            for (ProbeStats s : store.stats(pi.id())) {
                NativeCost c = s.nativeCost();
                nat.merge(s.probeId(), c, NativeCost::plus);
                ProbeInfo info = byId.get(s.probeId());
                org.hyprof.store.CpuTime cpu = s.cpu();
                // Java energy is charged on CPU time where the session has it (waiting costs nothing)
                long eExcl = cpu != null ? cpu.exclNanos() : s.exclNanos(), eIncl = cpu != null ? cpu.inclNanos() : s.inclNanos();
                if (info == null || !info.loop()) {
                    long[] t = threadSums.computeIfAbsent(s.tid(), k -> new long[7]);
                    t[4] += eExcl;
                    if (cpu != null) { t[5] += cpu.exclNanos(); t[6] = 1; }
                    t[0] += s.exclNanos();
                    t[1] += c.estNanos();
                    t[2] += c.cycles();
                    t[3] += c.energyPicojoules();
                }
                long[] a = sums.computeIfAbsent(s.probeId(), k -> new long[] {0, 0, 0, Long.MAX_VALUE, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
                a[10] += eExcl;
                a[11] += eIncl;
                if (cpu != null) { a[12] += cpu.inclNanos(); a[13] += cpu.exclNanos(); a[14] = 1; }
                a[0] += s.allCalls();
                a[1] += s.inclNanos();
                a[2] += s.exclNanos();
                if (s.calls() > 0) a[3] = Math.min(a[3], s.minNanos());
                a[4] = Math.max(a[4], s.maxNanos());
                a[5] += s.iterations();
                a[6] += s.throwsCount();
                a[7] += s.inclRawNanos();
                a[8] += s.timing().countOnlyCalls();
                a[9] += s.timing().clamped();
                hists.computeIfAbsent(s.probeId(), k -> new CallDistribution()).add(s);
                byThread.computeIfAbsent(s.probeId(), k -> new HashMap<>()).merge(s.tid(), s.allCalls(), Long::sum);
            }
            Map<Integer, Agg> agg = new HashMap<>();
            for (Map.Entry<Integer, long[]> e : sums.entrySet()) {
                long[] a = e.getValue();
                NativeCost c = nat.get(e.getKey());
                agg.put(e.getKey(), new Agg(a[0], Math.max(0, a[1]), Math.max(0, a[2]), a[3] == Long.MAX_VALUE ? 0 : a[3], a[4],
                        a[5], a[6], hists.get(e.getKey()).log2(), byThread.get(e.getKey()), c,
                        Math.max(0, energy.microjoules(a[10], c.estNanos(), c.energyPicojoules())),
                        Math.max(0, energy.microjoules(a[11], c.estNanosIncl(), c.energyPicojoulesIncl())), a[7], a[8], a[9],
                        a[14] != 0 ? (Long) a[12] : null, a[14] != 0 ? (Long) a[13] : null, hists.get(e.getKey()).fine()));
            }
            Map<Long, ThreadSum> ts = new HashMap<>();
            threadSums.forEach((tid, t) -> ts.put(tid, new ThreadSum(t[0], t[1], t[2],
                    Math.max(0, energy.microjoules(t[4], t[1], 0)), t[3] / 1e6, t[6] != 0 ? (Long) t[5] : null)));
            List<CalibrationRecord> cals = store.calibrations(pi.id());
            if (!cals.isEmpty()) cal = CalibrationRecord.inEffect(cals); // the one the times were deducted with
            ps.add(new Proc(pi, live != null && live.connected(pi.id()), probes, agg,
                    store.threads(pi.id()), live == null ? null : live.state(pi.id()), live == null ? null : live.scope(pi.id()),
                    ts, store.nativeBlocks(pi.id()), MethodNames.names(probes, style)));
        }
        return new SessionView(ps, cal, store.notes(), energy);
    }

    long eventDrops() {
        long n = 0;
        for (Proc p : processes) n += p.eventDrops();
        return n;
    }
}
