package org.hyprof.tui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Zoom;
import org.hyprof.control.ControlState;
import org.hyprof.correlate.Histogram;
import org.hyprof.runtime.Stats;
import org.hyprof.store.CalibrationRecord;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;

/**
 * What the terminal UI draws, read from the store's aggregates in one go (never from raw events,
 * so a stored session of any length opens at once). Immutable.
 */
final class SessionView {
    /** A probe's figures merged over threads; times in ns, deducted unless raw. */
    record Agg(long calls, long inclNanos, long exclNanos, long minNanos, long maxNanos, long iterations,
               long throwsCount, long[] hist, Map<Long, Long> callsByThread) {
        long p50() {
            return Histogram.percentile(hist, 0.5, minNanos, maxNanos);
        }

        long p99() {
            return Histogram.percentile(hist, 0.99, minNanos, maxNanos);
        }
    }

    static final Agg NONE = new Agg(0, 0, 0, 0, 0, 0, 0, new long[Stats.HIST_BUCKETS], Map.of());

    /** One process: its probes, their figures and (live) control state and zoom scope. */
    record Proc(ProcessInfo info, boolean connected, List<ProbeInfo> probes, Map<Integer, Agg> agg,
                List<ThreadInfo> threads, ControlState state, Zoom.Scope scope) {
        Agg agg(int id) {
            return agg.getOrDefault(id, NONE);
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

    private SessionView(List<Proc> processes, CalibrationRecord calibration, List<String> notes) {
        this.processes = processes;
        this.calibration = calibration;
        this.notes = notes;
    }

    /** Live details of a process, when there is a collector. */
    interface LiveInfo {
        boolean connected(long processId);

        ControlState state(long processId);

        Zoom.Scope scope(long processId);
    }

    static SessionView load(Store store, LiveInfo live) {
        List<Proc> ps = new ArrayList<>();
        CalibrationRecord cal = null;
        for (ProcessInfo pi : store.processes()) {
            Map<Integer, long[]> sums = new HashMap<>();
            Map<Integer, long[]> hists = new HashMap<>();
            Map<Integer, Map<Long, Long>> byThread = new HashMap<>();
            for (ProbeStats s : store.stats(pi.id())) {
                long[] a = sums.computeIfAbsent(s.probeId(), k -> new long[] {0, 0, 0, Long.MAX_VALUE, 0, 0, 0});
                a[0] += s.calls();
                a[1] += s.inclNanos();
                a[2] += s.exclNanos();
                if (s.calls() > 0) a[3] = Math.min(a[3], s.minNanos());
                a[4] = Math.max(a[4], s.maxNanos());
                a[5] += s.iterations();
                a[6] += s.throwsCount();
                Histogram.add(hists.computeIfAbsent(s.probeId(), k -> new long[Stats.HIST_BUCKETS]), s.hist());
                byThread.computeIfAbsent(s.probeId(), k -> new HashMap<>()).merge(s.tid(), s.calls(), Long::sum);
            }
            Map<Integer, Agg> agg = new HashMap<>();
            for (Map.Entry<Integer, long[]> e : sums.entrySet()) {
                long[] a = e.getValue();
                agg.put(e.getKey(), new Agg(a[0], Math.max(0, a[1]), Math.max(0, a[2]), a[3] == Long.MAX_VALUE ? 0 : a[3], a[4],
                        a[5], a[6], hists.get(e.getKey()), byThread.get(e.getKey())));
            }
            List<CalibrationRecord> cals = store.calibrations(pi.id());
            if (!cals.isEmpty()) cal = cals.get(cals.size() - 1);
            ps.add(new Proc(pi, live != null && live.connected(pi.id()), store.probes(pi.id()), agg,
                    store.threads(pi.id()), live == null ? null : live.state(pi.id()), live == null ? null : live.scope(pi.id())));
        }
        return new SessionView(ps, cal, store.notes());
    }

    long eventDrops() {
        long n = 0;
        for (Proc p : processes) n += p.eventDrops();
        return n;
    }
}
