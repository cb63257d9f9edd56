package org.hyprof.tui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hyprof.analysis.CallGraph;
import org.hyprof.config.ProbeInfo;
import org.hyprof.correlate.Units;
import org.hyprof.runtime.chunk.NativeBlocksChunk;
import org.hyprof.store.NativeBlock;
import org.hyprof.store.NativeCost;
import org.hyprof.store.ThreadInfo;

/**
 * The detail view of one method or loop, as lines of text: its figures and per-call histogram,
 * callers and callees (events mode, replayed off the UI thread by {@link CallGraphs}), its loops,
 * threads, energy and, in a hybrid run, its native cost and hottest native blocks.
 */
final class DetailView {
    private DetailView() {}

    /** Max callers (and callees) listed in method detail; the rest are counted. */
    private static final int MAX_EDGES = 8;

    /** The lines of the detail of the probe selected in {@code s}; call graphs come from {@code graphs}. */
    static List<String> lines(UiState s, CallGraphs graphs) {
        List<String> out = new ArrayList<>();
        SessionView.Proc p = s.proc(s.detailProcess);
        ProbeInfo i = p == null ? null : p.probe(s.detailProbe);
        if (i == null) { out.add("(gone)"); return out; }
        SessionView.Agg a = p.agg(i.id());
        out.add(p.name(i) + "   [" + i.kindLabel() + ", " + i.resolution().label() + (i.line() > 0 ? ", " + i.source() + ":" + i.line() : "") + "]");
        out.add(String.format(Locale.ROOT, "calls %d   incl %s ms   excl %s ms   min %s us   p50 %s us   p99 %s us   max %s us%s",
                a.calls(), Units.millis(a.inclNanos()), Units.millis(a.exclNanos()), Units.micros(a.minNanos()),
                Units.micros(a.p50()), Units.micros(a.p99()), Units.micros(a.maxNanos()),
                i.loop() ? "   iterations " + a.iterations() : "   exceptions " + a.throwsCount()));
        out.add(a.cpuExclNanos() == null ? "cpu: not recorded in this session (wall time only)"
                : String.format(Locale.ROOT, "cpu %s ms incl   %s ms excl   wait (not on a CPU) %s ms incl   %s ms excl",
                Units.millis(a.cpuInclNanos()), Units.millis(a.cpuExclNanos()), Units.millis(Math.max(0, a.inclNanos() - a.cpuInclNanos())),
                Units.millis(Math.max(0, a.exclNanos() - a.cpuExclNanos()))));
        out.add(String.format(Locale.ROOT, "probe cost %s %% of raw inclusive time, %d calls clamped%s%s",
                Units.percent(a.probeShare()), a.clamped(), a.mark().contains("!") ? " (! dominated by probe cost)" : "",
                a.countOnlyCalls() > 0 ? String.format(Locale.ROOT, "; count-only: %,d of %,d calls counted without timing"
                        + " (too short to time; their time is in the caller's excl)", a.countOnlyCalls(), a.calls()) : ""));
        if (i.loop()) out.add("(a loop's excl is its time less the methods called inside it: its inner loops are part of it)");
        else callLines(out, graphs, p, i);
        out.add("per-call time (deducted inclusive), log2 buckets:");
        long max = 0;
        for (long c : a.hist()) max = Math.max(max, c);
        for (int b = 0; b < a.hist().length; b++) {
            if (a.hist()[b] == 0) continue;
            int bar = max == 0 ? 0 : (int) Math.max(1, 40 * a.hist()[b] / max);
            out.add(String.format(Locale.ROOT, "  %10s .. %-10s %8d %s", Units.duration(b == 0 ? 0 : 1L << (b - 1)), Units.duration(1L << b),
                    a.hist()[b], "#".repeat(bar)));
        }
        if (!i.loop()) {
            out.add("loops:");
            boolean any = false;
            for (ProbeInfo l : p.probes()) {
                if (!l.loop() || l.ownerId() != i.id()) continue;
                SessionView.Agg la = p.agg(l.id());
                out.add(String.format(Locale.ROOT, "  #loop%d (line %d): entered %d, iterations %d, %s ms", l.loopIndex(), l.line(),
                        la.calls(), la.iterations(), Units.millis(la.inclNanos())));
                any = true;
            }
            if (!any) out.add("  (none)");
        }
        out.add("threads:");
        Map<Long, String> names = new HashMap<>();
        for (ThreadInfo t : p.threads()) names.put(t.tid(), t.name());
        a.callsByThread().forEach((tid, n) -> out.add("  " + names.getOrDefault(tid, "tid " + tid) + ": " + n + " calls"));
        out.add(String.format(Locale.ROOT, "energy: %s uJ exclusive, %s uJ inclusive", Units.microjoules(a.energyMicrojoules()),
                Units.microjoules(a.energyInclMicrojoules())));
        NativeCost n = a.nativeCost();
        if (n.instructionsIncl() != 0 || n.instructions() != 0) {
            out.add(String.format(Locale.ROOT, "native (exclusive): %,d instructions, %,d cycles, %s ms device time, %s uJ",
                    n.instructions(), n.cycles(), Units.millis(n.estNanos()), Units.microjoules(n.energyPicojoules() / 1e6)));
            out.add(String.format(Locale.ROOT, "native (inclusive): %,d instructions, %,d cycles, %s ms device time, %s uJ",
                    n.instructionsIncl(), n.cyclesIncl(), Units.millis(n.estNanosIncl()), Units.microjoules(n.energyPicojoulesIncl() / 1e6)));
            List<NativeBlock> mine = new ArrayList<>();
            for (NativeBlock b : p.nativeBlocks()) if (b.executionsByProbe().containsKey(i.id())) mine.add(b);
            mine.sort(Comparator.comparingLong((NativeBlock b) -> b.executionsByProbe().get(i.id()) * b.instructions()).reversed());
            out.add("hottest native blocks (executions by this method's calls):");
            for (NativeBlock b : mine.subList(0, Math.min(5, mine.size()))) {
                out.add(String.format(Locale.ROOT, "  %s in %s: %,d executions, %d instructions [%s]", NativeBlocksChunk.blockId(b.library(), b.address()),
                        b.function() == null ? "?" : b.function(), b.executionsByProbe().get(i.id()), b.instructions(), b.categories()));
                for (String d : b.disassembly().split("\n")) if (!d.isBlank()) out.add("      " + d);
            }
            if (mine.isEmpty()) out.add("  (block list not recorded yet: it is written when the program ends)");
        }
        out.add("");
        out.add("Backspace or Esc: back");
        return out;
    }

    /**
     * Callers and callees of a method, from the process's event log (events mode): calls and
     * raw inclusive time per edge. Aggregate-mode sessions have no log, and the lines say so and
     * how to record one.
     */
    private static void callLines(List<String> out, CallGraphs graphs, SessionView.Proc p, ProbeInfo i) {
        CallGraphs.State st;
        try {
            st = graphs.get(p.info().id());
        } catch (RuntimeException e) {
            out.add("callers/callees: cannot read the event log: " + Text.oneLine(e));
            return;
        }
        if (st.noEventLog()) {
            boolean events = "events".equals(p.info().mode()) || (p.state() != null && p.state().events());
            if (events) {
                out.add("callers/callees: no calls in the event log yet");
            } else {
                out.add("callers/callees: not recorded: aggregate mode (the default) keeps totals per method, not who called whom.");
                out.add("  Record with --mode events to see them: hyprof profile --mode events -o S.db -- java ...");
            }
            return;
        }
        CallGraph g = st.graph();
        if (g == null) {
            out.add(st.error() != null ? "callers/callees: cannot read the event log: " + st.error()
                    : "callers/callees: replaying the event log...");
            return;
        }
        long drops = p.eventDrops();
        out.add(String.format(Locale.ROOT, "callers and callees: %,d calls in the event log%s; raw times (probe cost not deducted)%s",
                g.calls(), drops > 0 ? String.format(Locale.ROOT, " (the first part of the run: %,d events dropped)", drops) : "",
                st.busy() ? "; updating" : ""));
        edgeLines(out, "callers", g.callers(i.id()), p, true);
        edgeLines(out, "callees", g.callees(i.id()), p, false);
    }

    private static void edgeLines(List<String> out, String title, List<CallGraph.Edge> edges, SessionView.Proc p, boolean callers) {
        out.add(String.format(Locale.ROOT, "  %-8s %12s %12s", title, "calls", "incl ms"));
        if (edges.isEmpty()) out.add("    (none)");
        for (CallGraph.Edge e : edges.subList(0, Math.min(MAX_EDGES, edges.size()))) {
            int other = callers ? e.callerId() : e.calleeId();
            ProbeInfo o = other == CallGraph.ROOT ? null : p.probe(other);
            String name = other == CallGraph.ROOT ? "(none recorded: the thread's first method)" : o == null ? "probe#" + other : p.name(o);
            out.add(String.format(Locale.ROOT, "  %-8s %,12d %12s  %s%s", "", e.calls(), Units.millis(e.inclRawNanos()), name,
                    e.recursiveCalls() > 0 ? String.format(Locale.ROOT, " (%,d recursive: no time of their own)", e.recursiveCalls()) : ""));
        }
        if (edges.size() > MAX_EDGES) out.add("    ... and " + (edges.size() - MAX_EDGES) + " more");
    }
}
