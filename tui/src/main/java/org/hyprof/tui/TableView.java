package org.hyprof.tui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.config.Zoom;
import org.hyprof.control.ControlState;
import org.hyprof.correlate.Units;

/**
 * The two table views, as a header and rows of text cells: the zoom tree (the processes, or the
 * probes of one process at its zoom level) and the hotspots (every method of every process),
 * filtered by the search and sorted by the chosen column. {@link Painter} draws them.
 */
final class TableView {
    private TableView() {}

    /**
     * One table row: its cells and what it stands for (a process id, and a probe id or -1); {@code key}
     * names a call-tree node by its thread and path, or a butterfly row by its method (null elsewhere),
     * so a selection survives a reload that reorders the rows.
     */
    record Row(String[] cells, long processId, int probeId, String key) {
        Row(String[] cells, long processId, int probeId) {
            this(cells, processId, probeId, null);
        }
    }

    /** A table to draw: column titles and rows, every row as many cells as the header. */
    record Table(String[] header, List<Row> rows) {}

    private static final String[] PROCESS_HEADER = {"status", "pid", "threads", "calls", "time ms", "drops", "process"};

    /** The zoom tree: the processes, or inside one the probes its zoom level shows. */
    static Table tree(UiState s) {
        if (s.currentProcess == null) return new Table(PROCESS_HEADER, processRows(s));
        SessionView.Proc p = s.proc(s.currentProcess);
        return new Table(probeHeader(s, s.scope(p).level().label() + " level (sorted by " + s.sortLabel() + ")"), levelRows(s, p));
    }

    /** Every method with calls, of every process, sorted. */
    static Table hotspots(UiState s) {
        List<Row> out = new ArrayList<>();
        List<Object[]> all = new ArrayList<>();
        for (SessionView.Proc p : s.data.processes)
            for (ProbeInfo i : p.probes())
                if (!i.loop() && s.matches(p, i) && p.agg(i.id()).calls() > 0) all.add(new Object[] {p, i});
        all.sort((a, b) -> Long.compare(key(s, (SessionView.Proc) b[0], (ProbeInfo) b[1]), key(s, (SessionView.Proc) a[0], (ProbeInfo) a[1])));
        for (Object[] o : all) out.add(probeRow((SessionView.Proc) o[0], (ProbeInfo) o[1], s.data.cpuTime()));
        return new Table(probeHeader(s, "method (sorted by " + s.sortLabel() + ")"), out);
    }

    private static String[] probeHeader(UiState s, String last) {
        // exclusive thread CPU time, only for sessions that recorded it (the method column keeps its width otherwise)
        if (s.data.cpuTime()) return new String[] {"state", "calls", "incl ms", "excl ms", "cpu ms", "uJ", "p50 us", "p99 us", "iter", "probe%", last};
        return new String[] {"state", "calls", "incl ms", "excl ms", "uJ", "p50 us", "p99 us", "iter", "probe%", last};
    }

    private static List<Row> processRows(UiState s) {
        List<Row> out = new ArrayList<>();
        for (SessionView.Proc p : s.data.processes) {
            long calls = 0, time = 0;
            for (Map.Entry<Integer, SessionView.Agg> e : p.agg().entrySet()) {
                ProbeInfo pi = p.probe(e.getKey());
                if (pi != null && pi.loop()) continue;
                calls += e.getValue().calls();
                time += e.getValue().exclNanos();
            }
            out.add(new Row(new String[] {p.info().status(), Long.toString(p.info().pid()), Integer.toString(p.threads().size()),
                Long.toString(calls), Units.millis(time), Long.toString(p.eventDrops()), p.info().name()}, p.info().id(), -1));
        }
        return out;
    }

    /** The probes a zoom level shows: process/thread entries, methods, or one method and its loops (in id order). */
    private static List<Row> levelRows(UiState s, SessionView.Proc p) {
        List<Row> out = new ArrayList<>();
        if (p == null) return out;
        Zoom.Scope z = s.scope(p);
        List<ProbeInfo> shown = new ArrayList<>();
        for (ProbeInfo i : p.probes()) {
            boolean v = switch (z.level()) {
                case PROCESS, THREAD -> !i.loop() && (i.resolution() == Resolution.PROCESS || i.resolution() == Resolution.THREAD);
                case METHOD -> !i.loop();
                case LOOP -> i.id() == z.root() || (i.loop() && i.ownerId() == z.root());
            };
            if (v && s.matches(p, i)) shown.add(i);
        }
        Comparator<ProbeInfo> order = z.level() == Resolution.LOOP ? Comparator.comparingInt(ProbeInfo::id)
                : (a, b) -> Long.compare(key(s, p, b), key(s, p, a));
        shown.sort(order);
        boolean cpu = s.data.cpuTime();
        for (ProbeInfo i : shown) out.add(probeRow(p, i, cpu));
        return out;
    }

    /** The value a probe sorts by. */
    private static long key(UiState s, SessionView.Proc p, ProbeInfo i) {
        SessionView.Agg a = p.agg(i.id());
        return switch (s.sort) {
            case INCL -> a.inclNanos();
            case CALLS -> a.calls();
            case ENERGY -> Math.round(a.energyMicrojoules() * 1000); // nJ
            default -> a.exclNanos();
        };
    }

    /** A probe's row; its state is on/off (live), with * for the caller-filter root. */
    private static Row probeRow(SessionView.Proc p, ProbeInfo i, boolean cpu) {
        SessionView.Agg a = p.agg(i.id());
        String state = p.state() == null ? "" : p.state().isOn(i.id()) ? "on" : "off";
        if (p.state() != null && containsRoot(p.state(), i.id())) state += "*";
        List<String> c = new ArrayList<>(List.of(state, Long.toString(a.calls()), Units.millis(a.inclNanos()), Units.millis(a.exclNanos())));
        if (cpu) c.add(a.cpuExclNanos() == null ? "" : Units.millis(a.cpuExclNanos()));
        c.addAll(List.of(Units.microjoules(a.energyMicrojoules()), Units.micros(a.p50()), Units.micros(a.p99()),
            i.loop() ? Long.toString(a.iterations()) : "", probeCell(a), p.name(i)));
        return new Row(c.toArray(new String[0]), p.info().id(), i.id());
    }

    /** Probe share as a percentage, with the report's marks (c count-only, ! dominated by probe cost). */
    private static String probeCell(SessionView.Agg a) {
        String m = a.mark();
        return Units.percent(a.probeShare()) + (m.isEmpty() ? "" : " " + m);
    }

    private static boolean containsRoot(ControlState s, int id) {
        for (int r : s.roots()) if (r == id) return true;
        return false;
    }
}
