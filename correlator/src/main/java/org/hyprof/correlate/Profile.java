package org.hyprof.correlate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.ProbeInfo;
import org.hyprof.runtime.Stats;
import org.hyprof.store.CalibrationRecord;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;

/**
 * A session's aggregates joined with its manifest: rows per method/loop, per thread and per
 * process. Built from the store's aggregates only (no raw events), so it is fast for any run
 * length.
 */
public final class Profile {
    /** Per-thread totals: time covered by probes is Σ exclusive time of its methods. */
    public record ThreadRow(String process, long pid, long tid, String name, long methods, long calls,
                            long timeNanos, long timeRawNanos, long eventDrops, long depthDrops) {}

    /** Per-process totals. */
    public record ProcessRow(long id, String name, long pid, String status, long threads, long calls,
                             long timeNanos, long timeRawNanos, long eventDrops) {}

    private final List<MethodRow> methods;
    private final List<ThreadRow> threads;
    private final List<ProcessRow> processes;
    private final List<CalibrationRecord> calibrations;
    private final long eventDrops;
    private final List<String> notes;

    private Profile(List<MethodRow> methods, List<ThreadRow> threads, List<ProcessRow> processes,
                    List<CalibrationRecord> calibrations, long eventDrops, List<String> notes) {
        this.methods = methods;
        this.threads = threads;
        this.processes = processes;
        this.calibrations = calibrations;
        this.eventDrops = eventDrops;
        this.notes = notes;
    }

    public static Profile load(Store store) {
        Map<String, long[]> acc = new LinkedHashMap<>();   // display name -> summed fields
        Map<String, long[]> hists = new HashMap<>();
        Map<String, ProbeInfo> infos = new HashMap<>();
        List<ThreadRow> threadRows = new ArrayList<>();
        List<ProcessRow> processRows = new ArrayList<>();
        List<CalibrationRecord> cals = new ArrayList<>();
        long drops = 0;
        for (ProcessInfo proc : store.processes()) {
            Map<Integer, ProbeInfo> byId = new HashMap<>();
            for (ProbeInfo p : store.probes(proc.id())) byId.put(p.id(), p);
            Map<Long, long[]> perThread = new LinkedHashMap<>(); // tid -> methods, calls, time, raw
            long pCalls = 0, pTime = 0, pRaw = 0;
            for (ProbeStats s : store.stats(proc.id())) {
                ProbeInfo info = byId.get(s.probeId());
                String name = info != null ? info.displayName() : "probe#" + s.probeId();
                if (info != null) infos.putIfAbsent(name, info);
                long[] a = acc.computeIfAbsent(name, k -> new long[] {0, 0, 0, 0, 0, Long.MAX_VALUE, 0, 0, 0});
                a[0] += s.calls();
                a[1] += s.inclNanos();
                a[2] += s.exclNanos();
                a[3] += s.inclRawNanos();
                a[4] += s.exclRawNanos();
                if (s.calls() > 0) a[5] = Math.min(a[5], s.minNanos());
                a[6] = Math.max(a[6], s.maxNanos());
                a[7] += s.iterations();
                a[8] += s.throwsCount();
                hists.computeIfAbsent(name, k -> new long[Stats.HIST_BUCKETS]);
                Histogram.add(hists.get(name), s.hist());
                boolean isLoop = info != null && info.loop();
                if (!isLoop) {
                    long[] t = perThread.computeIfAbsent(s.tid(), k -> new long[4]);
                    if (s.calls() > 0) t[0]++;
                    t[1] += s.calls();
                    t[2] += s.exclNanos();
                    t[3] += s.exclRawNanos();
                    pCalls += s.calls();
                    pTime += s.exclNanos();
                    pRaw += s.exclRawNanos();
                }
            }
            Map<Long, ThreadInfo> tinfo = new HashMap<>();
            for (ThreadInfo t : store.threads(proc.id())) tinfo.put(t.tid(), t);
            for (Map.Entry<Long, long[]> e : perThread.entrySet()) {
                ThreadInfo ti = tinfo.get(e.getKey());
                long[] t = e.getValue();
                threadRows.add(new ThreadRow(proc.name(), proc.pid(), e.getKey(), ti != null ? ti.name() : "?", t[0], t[1],
                        Math.max(0, t[2]), t[3], ti != null ? ti.eventDrops() : 0, ti != null ? ti.depthDrops() : 0));
            }
            processRows.add(new ProcessRow(proc.id(), proc.name(), proc.pid(), proc.status(), perThread.size(), pCalls,
                    Math.max(0, pTime), pRaw, proc.eventDrops()));
            cals.addAll(store.calibrations(proc.id()));
            drops += proc.eventDrops();
        }
        List<MethodRow> rows = new ArrayList<>();
        for (Map.Entry<String, long[]> e : acc.entrySet()) {
            long[] a = e.getValue();
            ProbeInfo info = infos.get(e.getKey());
            long min = a[5] == Long.MAX_VALUE ? 0 : a[5];
            long[] h = hists.get(e.getKey());
            // deducted sums are kept unclamped by the runtime (unbiased); a negative total means
            // "indistinguishable from zero"
            rows.add(new MethodRow(e.getKey(), info != null ? info.kindLabel() : "method",
                    info != null ? info.resolution().label() : "method", a[0], Math.max(0, a[1]), Math.max(0, a[2]),
                    a[3], a[4], min, a[6],
                    Histogram.percentile(h, 0.50, min, a[6]), Histogram.percentile(h, 0.99, min, a[6]), a[7], a[8], h));
        }
        return new Profile(rows, threadRows, processRows, cals, drops, store.notes());
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
        CALLS(Comparator.comparingLong(MethodRow::calls));

        final Comparator<MethodRow> order;

        Sort(Comparator<MethodRow> order) {
            this.order = order.reversed().thenComparing(MethodRow::method);
        }

        public Comparator<MethodRow> comparator() {
            return order;
        }
    }
}
