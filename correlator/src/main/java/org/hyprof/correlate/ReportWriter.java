package org.hyprof.correlate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hyprof.store.CalibrationRecord;
import org.hyprof.store.CpuTime;
import org.hyprof.store.ProcessInfo;

/**
 * Renders a {@link Profile} as a table (people), CSV or JSON (tools).
 *
 * <p>CSV contract for {@code --by method} (and {@code --by loop}, same columns): a header row,
 * then one row per method (loop) with columns {@value #METHOD_COLUMNS}. Times are nanoseconds,
 * deducted unless the column ends in {@code _raw_ns}; loops are named
 * {@code pkg.Class.name(desc)#loopK} with kind {@code loop}, and a loop's exclusive time is its
 * time less the methods called inside it (its inner loops are part of it, as a method's exclusive
 * time includes its loops). The last four are exclusive: native
 * instructions, cycles and estimated device time of native code the method called directly (a
 * hybrid run; 0 otherwise), and its energy in µJ (Java part + native part); with
 * {@code inclusive} they are the inclusive variants, named with an {@code _incl} suffix.
 * Then how far the times can be trusted: {@code count_only_calls} (of {@code calls}, those counted
 * without timing once the probe went count-only; the times are of the others),
 * {@code count_only_reason} (empty unless count-only), {@code probe_share} (share of the raw
 * inclusive time that was probe cost, 0..1), {@code clamped} (timed calls whose deducted time was
 * clamped at 0) and {@code probe_warning} (why the times are dominated by probe cost; empty if
 * they are not). Then thread CPU time ({@value #CPU_COLUMNS}): CPU time inclusive and exclusive
 * (deducted like the wall times), the wall time not on a CPU (waiting, sleeping, blocked) inclusive
 * and exclusive, and how the CPU time was measured ({@code sampled} or {@code dual}); all empty
 * when the session recorded no CPU time. Thread and process rows end with {@code cpu_ns,wait_ns}
 * (over their methods' exclusive times). Columns may be added at the end; existing ones keep their place.
 */
public final class ReportWriter {
    /** The last method columns: how far the row's times can be trusted. */
    public static final String CONFIDENCE_COLUMNS = "count_only_calls,count_only_reason,probe_share,clamped,probe_warning";
    /** The method columns after {@link #CONFIDENCE_COLUMNS}: thread CPU time (empty when not recorded). */
    public static final String CPU_COLUMNS = "cpu_incl_ns,cpu_excl_ns,wait_incl_ns,wait_excl_ns,cpu_clock";
    public static final String METHOD_COLUMNS =
            "method,kind,resolution,calls,incl_ns,excl_ns,incl_raw_ns,excl_raw_ns,min_ns,max_ns,p50_ns,p99_ns,iterations,throws,"
            + "native_instr,native_cycles,native_est_ns,energy_uj," + CONFIDENCE_COLUMNS + "," + CPU_COLUMNS;
    /** {@link #METHOD_COLUMNS} with the native and energy columns inclusive ({@code --inclusive}). */
    public static final String METHOD_COLUMNS_INCLUSIVE =
            "method,kind,resolution,calls,incl_ns,excl_ns,incl_raw_ns,excl_raw_ns,min_ns,max_ns,p50_ns,p99_ns,iterations,throws,"
            + "native_instr_incl,native_cycles_incl,native_est_ns_incl,energy_uj_incl," + CONFIDENCE_COLUMNS + "," + CPU_COLUMNS;
    public static final String THREAD_COLUMNS =
            "process,pid,tid,thread,methods,calls,time_ns,time_raw_ns,event_drops,depth_drops,native_est_ns,java_energy_uj,native_energy_uj,"
            + "cpu_ns,wait_ns";
    public static final String PROCESS_COLUMNS =
            "process,pid,status,threads,calls,time_ns,time_raw_ns,event_drops,native_est_ns,java_energy_uj,native_energy_uj,"
            + "cpu_ns,wait_ns";

    /** What rows to show. */
    public enum By { METHOD, THREAD, PROCESS, LOOP }

    /** Output format. */
    public enum Format {
        TABLE, CSV, JSON;

        /** Writes with the one of the three writers this format names, then flushes {@code out}. */
        public void write(PrintWriter out, java.util.function.Consumer<PrintWriter> table,
                java.util.function.Consumer<PrintWriter> csv, java.util.function.Consumer<PrintWriter> json) {
            switch (this) {
                case CSV -> csv.accept(out);
                case JSON -> json.accept(out);
                case TABLE -> table.accept(out);
            }
            out.flush();
        }
    }

    private final Profile profile;
    private final By by;
    private final Profile.Sort sort;
    private final int top;
    private final boolean raw;
    private final boolean inclusive;
    private long damagedEventChunks;

    /**
     * @param top  rows to show (0 = all)
     * @param raw  the table shows raw instead of deducted times (CSV and JSON always carry both)
     */
    public ReportWriter(Profile profile, By by, Profile.Sort sort, int top, boolean raw) {
        this(profile, by, sort, top, raw, false);
    }

    /**
     * @param inclusive native and energy figures inclusive of callees (CSV columns with {@code _incl};
     *                  sorting by energy sorts by inclusive energy)
     */
    public ReportWriter(Profile profile, By by, Profile.Sort sort, int top, boolean raw, boolean inclusive) {
        this.profile = profile;
        this.by = by;
        this.sort = sort;
        this.top = top;
        this.raw = raw;
        this.inclusive = inclusive;
    }

    /**
     * Event chunks found damaged (their records do not match their checksum) and left out: the
     * table says so under the dropped events. Returns this writer.
     */
    public ReportWriter damagedEventChunks(long n) {
        damagedEventChunks = n;
        return this;
    }

    /** Method rows ({@code --by method}) or loop rows ({@code --by loop}), sorted and cut to {@code top}. */
    public List<MethodRow> methodRows() {
        List<MethodRow> rows = new ArrayList<>();
        for (MethodRow r : profile.methods()) {
            if ((by == By.LOOP) != r.kind().equals("loop")) continue;
            rows.add(r);
        }
        rows.sort(sort == Profile.Sort.ENERGY && inclusive
                ? java.util.Comparator.comparingDouble(MethodRow::energyInclMicrojoules).reversed().thenComparing(MethodRow::method)
                : sort.comparator());
        return top > 0 && rows.size() > top ? rows.subList(0, top) : rows;
    }

    private long nInstr(MethodRow r) { return inclusive ? r.nativeCost().instructionsIncl() : r.nativeCost().instructions(); }
    private long nCycles(MethodRow r) { return inclusive ? r.nativeCost().cyclesIncl() : r.nativeCost().cycles(); }
    private long nNanos(MethodRow r) { return inclusive ? r.nativeCost().estNanosIncl() : r.nativeCost().estNanos(); }
    private double energy(MethodRow r) { return inclusive ? r.energyInclMicrojoules() : r.energyMicrojoules(); }

    public void write(Format format, PrintWriter out) {
        format.write(out, this::table, this::csv, this::json);
    }

    private void csv(PrintWriter out) {
        switch (by) {
            case METHOD, LOOP -> {
                out.println(inclusive ? METHOD_COLUMNS_INCLUSIVE : METHOD_COLUMNS);
                for (MethodRow r : methodRows()) {
                    out.println(String.join(",", csvField(r.method()), r.kind(), r.resolution(), n(r.calls()),
                            n(r.inclNanos()), n(r.exclNanos()), n(r.inclRawNanos()), n(r.exclRawNanos()),
                            n(r.minNanos()), n(r.maxNanos()), n(r.p50Nanos()), n(r.p99Nanos()), n(r.iterations()),
                            n(r.throwsCount()), n(nInstr(r)), n(nCycles(r)), n(nNanos(r)), Units.microjoulesFine(energy(r)),
                            n(r.countOnlyCalls()), csvField(r.countOnlyReason()), Units.share(r.probeShare()),
                            n(r.clamped()), csvField(r.probeWarning()), n(r.cpu() == null ? null : r.cpu().inclNanos()),
                            n(r.cpu() == null ? null : r.cpu().exclNanos()), n(r.waitInclNanos()), n(r.waitExclNanos()),
                            r.cpu() == null ? "" : CpuTime.clockName(r.cpu().clock())));
                }
            }
            case THREAD -> {
                out.println(THREAD_COLUMNS);
                for (Profile.ThreadRow t : threadRows()) {
                    out.println(String.join(",", csvField(t.process()), n(t.pid()), n(t.tid()), csvField(t.name()),
                            n(t.methods()), n(t.calls()), n(t.timeNanos()), n(t.timeRawNanos()), n(t.eventDrops()),
                            n(t.depthDrops()), n(t.nativeEstNanos()), Units.microjoulesFine(t.javaEnergyMicrojoules()),
                            Units.microjoulesFine(t.nativeEnergyMicrojoules()), n(t.cpuNanos()), n(t.waitNanos())));
                }
            }
            case PROCESS -> {
                out.println(PROCESS_COLUMNS);
                for (Profile.ProcessRow p : profile.processes()) {
                    out.println(String.join(",", csvField(p.name()), n(p.pid()), p.status(), n(p.threads()),
                            n(p.calls()), n(p.timeNanos()), n(p.timeRawNanos()), n(p.eventDrops()),
                            n(p.nativeEstNanos()), Units.microjoulesFine(p.javaEnergyMicrojoules()),
                            Units.microjoulesFine(p.nativeEnergyMicrojoules()), n(p.cpuNanos()), n(p.waitNanos())));
                }
            }
        }
    }

    private List<Profile.ThreadRow> threadRows() {
        List<Profile.ThreadRow> rows = new ArrayList<>(profile.threads());
        rows.sort((a, b) -> Long.compare(b.timeNanos(), a.timeNanos()));
        return top > 0 && rows.size() > top ? rows.subList(0, top) : rows;
    }

    private void json(PrintWriter out) {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = m.createObjectNode();
        root.put("event_drops", profile.eventDrops());
        ArrayNode cals = root.putArray("calibrations");
        CalibrationRecord inEffect = CalibrationRecord.inEffect(profile.calibrations());
        for (CalibrationRecord c : CalibrationRecord.measurements(profile.calibrations())) {
            ObjectNode o = cals.addObject();
            o.put("in_effect", c.sameFigures(inEffect)); // the one the times were deducted with at the end
            o.put("inner_ps", c.innerPicos());
            o.put("per_event_ps", c.perEventPicos());
            o.put("per_iter_ps", c.perIterPicos());
            o.put("outer_ps", c.outerPicos());
            o.put("clock_ps", c.clockPicos());
            o.put("tiny_ns", c.tinyNanos());
            o.put("tiny_loop_ns", c.tinyLoopNanos());
            o.put("per_event_spread_ps", c.perEventSpreadPicos()); // 0: unknown (sessions before schema 10)
            o.put("count_ps", c.countPicos());
            o.put("loop_flush_ps", c.loopFlushPicos());
        }
        ArrayNode notes = root.putArray("notes");
        profile.notes().forEach(notes::add);
        ObjectNode en = root.putObject("energy");
        en.put("java_power_mw", profile.energy().javaPowerMilliwatts()).put("java_power", profile.energy().description())
                .put("java_time", profile.cpuClock() != 0 ? "cpu" : "wall");
        root.put("cpu_clock", profile.cpuClock() != 0 ? CpuTime.clockName(profile.cpuClock()) : null);
        root.put("clocks", clocks());
        Profile.Totals tot = profile.totals();
        en.put("total_uj", tot.totalEnergyMicrojoules()).put("sum_excl_uj", tot.exclEnergyMicrojoules())
                .put("relative_difference", tot.energyRelativeDifference())
                .put("sum_excl_ns", tot.exclNanos()).put("top_incl_ns", tot.topInclNanos())
                .put("native_excl_pj", tot.nativeExclPicojoules()).put("native_top_pj", tot.nativeTopPicojoules());
        ArrayNode rows = root.putArray("rows");
        switch (by) {
            case METHOD, LOOP -> {
                for (MethodRow r : methodRows()) {
                    ObjectNode o = rows.addObject();
                    o.put("method", r.method()).put("kind", r.kind()).put("resolution", r.resolution())
                            .put("calls", r.calls()).put("incl_ns", r.inclNanos()).put("excl_ns", r.exclNanos())
                            .put("incl_raw_ns", r.inclRawNanos()).put("excl_raw_ns", r.exclRawNanos())
                            .put("min_ns", r.minNanos()).put("max_ns", r.maxNanos()).put("p50_ns", r.p50Nanos())
                            .put("p99_ns", r.p99Nanos()).put("percentile_error", r.percentileErrorBound())
                            .put("iterations", r.iterations()).put("throws", r.throwsCount())
                            .put("native_instr", r.nativeCost().instructions()).put("native_cycles", r.nativeCost().cycles())
                            .put("native_est_ns", r.nativeCost().estNanos()).put("energy_uj", r.energyMicrojoules())
                            .put("native_instr_incl", r.nativeCost().instructionsIncl())
                            .put("native_cycles_incl", r.nativeCost().cyclesIncl())
                            .put("native_est_ns_incl", r.nativeCost().estNanosIncl())
                            .put("energy_uj_incl", r.energyInclMicrojoules())
                            .put("count_only_calls", r.countOnlyCalls()).put("count_only_reason", r.countOnlyReason())
                            .put("probe_share", r.probeShare()).put("clamped", r.clamped())
                            .put("probe_warning", r.probeWarning());
                    o.put("cpu_incl_ns", r.cpu() == null ? null : r.cpu().inclNanos())
                            .put("cpu_excl_ns", r.cpu() == null ? null : r.cpu().exclNanos())
                            .put("wait_incl_ns", r.waitInclNanos()).put("wait_excl_ns", r.waitExclNanos())
                            .put("cpu_clock", r.cpu() == null ? null : CpuTime.clockName(r.cpu().clock()));
                }
            }
            case THREAD -> {
                for (Profile.ThreadRow t : threadRows()) {
                    rows.addObject().put("process", t.process()).put("pid", t.pid()).put("tid", t.tid())
                            .put("thread", t.name()).put("methods", t.methods()).put("calls", t.calls())
                            .put("time_ns", t.timeNanos()).put("time_raw_ns", t.timeRawNanos())
                            .put("event_drops", t.eventDrops()).put("depth_drops", t.depthDrops())
                            .put("native_est_ns", t.nativeEstNanos()).put("java_energy_uj", t.javaEnergyMicrojoules())
                            .put("native_energy_uj", t.nativeEnergyMicrojoules())
                            .put("cpu_ns", t.cpuNanos()).put("wait_ns", t.waitNanos());
                }
            }
            case PROCESS -> {
                for (Profile.ProcessRow p : profile.processes()) {
                    rows.addObject().put("process", p.name()).put("pid", p.pid()).put("status", p.status())
                            .put("threads", p.threads()).put("calls", p.calls()).put("time_ns", p.timeNanos())
                            .put("time_raw_ns", p.timeRawNanos()).put("event_drops", p.eventDrops())
                            .put("native_est_ns", p.nativeEstNanos()).put("java_energy_uj", p.javaEnergyMicrojoules())
                            .put("native_energy_uj", p.nativeEnergyMicrojoules())
                            .put("cpu_ns", p.cpuNanos()).put("wait_ns", p.waitNanos());
                }
            }
        }
        try {
            out.println(m.writeValueAsString(root));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private void table(PrintWriter out) {
        for (Profile.ProcessRow p : profile.processes())
            out.printf(Locale.ROOT, "process %s (pid %d): %s, %d threads%s%n", Printable.of(p.name()), p.pid(), p.status(), p.threads(),
                    p.status().equals(ProcessInfo.ENDED) ? "" : " - " + ProcessInfo.meaning(p.status()));
        List<CalibrationRecord> cals = profile.calibrations();
        if (!cals.isEmpty()) {
            CalibrationRecord c = CalibrationRecord.inEffect(cals);
            out.printf(Locale.ROOT, "calibration: %s; calls under %s are tiny (loop activations under %s); times are %s%n",
                    CalibrationSummary.of(cals), Units.duration(c.tinyNanos()), Units.duration(c.tinyLoopNanos()),
                    raw ? "RAW (probe cost included)" : "deducted");
        }
        out.println("dropped events: " + profile.eventDrops());
        if (damagedEventChunks > 0)
            out.println("damaged event chunks: " + damagedEventChunks + " (checksum mismatch: left out of call trees and exports)");
        out.println("clocks: " + clocks());
        out.println("energy: Java code: " + (profile.cpuClock() != 0 ? "exclusive thread CPU time" : "exclusive wall time"
                + " (no CPU time recorded)") + " at " + profile.energy().description()
                + (profile.cpuClock() != 0 ? "; waiting costs nothing" : "")
                + (profile.hybrid() ? "; native code per call from the CPU profile" : ""));
        for (String n : profile.notes()) out.println(n);
        out.println();
        boolean nat = profile.hybrid(), cpu = profile.cpuClock() != 0;
        String e = inclusive ? "energy uJ incl" : "energy uJ";
        switch (by) {
            case METHOD, LOOP -> {
                List<String[]> cells = new ArrayList<>();
                List<String> head = new ArrayList<>(List.of("calls", "incl ms", "excl ms"));
                if (cpu) head.addAll(List.of("cpu ms", "wait ms"));
                if (nat) head.add(inclusive ? "native ms incl" : "native ms");
                head.addAll(List.of(e, "p50 us", "p99 us", "iter", "probe%", "", "method"));
                cells.add(head.toArray(new String[0]));
                List<MethodRow> marked = new ArrayList<>();
                for (MethodRow r : methodRows()) {
                    if (!r.mark().isEmpty()) marked.add(r);
                    List<String> c = new ArrayList<>(List.of(n(r.calls()), Units.millis(raw ? r.inclRawNanos() : r.inclNanos()),
                            Units.millis(raw ? r.exclRawNanos() : r.exclNanos())));
                    // exclusive, as the energy is: a method's own CPU time and its own waiting
                    if (cpu) c.addAll(List.of(r.cpu() == null ? "" : Units.millis(r.cpu().exclNanos()),
                            r.cpu() == null ? "" : Units.millis(r.waitExclNanos())));
                    if (nat) c.add(Units.millis(nNanos(r)));
                    c.addAll(List.of(Units.microjoules(energy(r)), Units.micros(r.p50Nanos()), Units.micros(r.p99Nanos()),
                            r.kind().equals("loop") ? n(r.iterations()) : "", Units.percent(r.probeShare()), r.mark(), r.method()));
                    cells.add(c.toArray(new String[0]));
                }
                aligned(out, cells);
                legend(out, marked);
            }
            case THREAD -> {
                List<String[]> cells = new ArrayList<>();
                cells.add(new String[] {"tid", "methods", "calls", "time ms", "cpu ms", "wait ms", "java uJ", "native uJ", "drops", "thread"});
                for (Profile.ThreadRow t : threadRows())
                    cells.add(new String[] {n(t.tid()), n(t.methods()), n(t.calls()),
                        Units.millis(raw ? t.timeRawNanos() : t.timeNanos()), t.cpuNanos() == null ? "" : Units.millis(t.cpuNanos()),
                        t.waitNanos() == null ? "" : Units.millis(t.waitNanos()), Units.microjoules(t.javaEnergyMicrojoules()),
                        Units.microjoules(t.nativeEnergyMicrojoules()), n(t.eventDrops()), Printable.of(t.name())});
                aligned(out, cells);
            }
            case PROCESS -> {
                List<String[]> cells = new ArrayList<>();
                cells.add(new String[] {"pid", "threads", "calls", "time ms", "cpu ms", "wait ms", "java uJ", "native uJ", "drops", "status", "process"});
                for (Profile.ProcessRow p : profile.processes())
                    cells.add(new String[] {n(p.pid()), n(p.threads()), n(p.calls()),
                        Units.millis(raw ? p.timeRawNanos() : p.timeNanos()), p.cpuNanos() == null ? "" : Units.millis(p.cpuNanos()),
                        p.waitNanos() == null ? "" : Units.millis(p.waitNanos()), Units.microjoules(p.javaEnergyMicrojoules()),
                        Units.microjoules(p.nativeEnergyMicrojoules()), n(p.eventDrops()), p.status(), Printable.of(p.name())});
                aligned(out, cells);
            }
        }
        Profile.Totals t = profile.totals();
        out.println();
        List<String> unfinished = profile.processes().stream().filter(p -> !p.status().equals("ended"))
                .map(p -> p.pid() + " (" + p.status() + ")").toList();
        if (!unfinished.isEmpty())
            // a thread's total counts finished outermost calls only: it cannot match while some never ended
            out.println("check: not applicable, process " + String.join(", ", unfinished)
                    + " did not end cleanly, so its outermost calls never finished");
        else if (t.available()) {
            out.printf(Locale.ROOT, "check: sum of exclusive energy %s uJ, session total %s uJ (difference %.4f%%)%n",
                    Units.microjoules(t.exclEnergyMicrojoules()), Units.microjoules(t.totalEnergyMicrojoules()),
                    100 * t.energyRelativeDifference());
            // each call's deducted time is clamped at 0 where probe cost dominated it, so sums over
            // such calls (a thread's total, a caller's time) no longer match the sum of the parts
            if (t.energyRelativeDifference() > 0.01 && profile.methods().stream().anyMatch(MethodRow::probeDominated))
                out.println("  (rows marked ! are dominated by probe cost: their calls' deducted times were clamped at 0,"
                        + " so the sums need not agree)");
        }
        else out.println("check: no thread totals in this session (nothing to check the sums against)");
    }

    /**
     * Under the table: what the marks mean, and each marked row's reasons (count-only: why it went
     * count-only and how many calls were timed; {@code !}: why its times are dominated by probe cost).
     */
    private static void legend(PrintWriter out, List<MethodRow> marked) {
        out.println();
        out.println("probe% = share of the row's raw inclusive time that was the probes' own cost");
        if (marked.isEmpty()) return;
        out.println("marks: c = count-only (calls too short to time: counted, not timed; their time is in the caller's"
                + " exclusive time); ! = times dominated by probe cost (probe% > " + Units.percent(MethodRow.PROBE_SHARE_LIMIT)
                + ", or clamped calls > " + Units.percent(MethodRow.CLAMPED_LIMIT) + " % of timed calls)");
        for (MethodRow r : marked) {
            List<String> why = new ArrayList<>();
            if (r.countOnly())
                why.add(r.countOnlyReason() + "; " + Units.count(r.calls() - r.countOnlyCalls()) + " of "
                        + Units.count(r.calls()) + " calls timed");
            if (r.probeDominated()) why.add(r.probeWarning());
            out.println("  " + r.mark() + " " + r.method() + ": " + String.join("; ", why));
        }
    }

    /** Right-aligns every column but the last. */
    static void aligned(PrintWriter out, List<String[]> cells) {
        int cols = cells.get(0).length;
        int[] w = new int[cols];
        for (String[] r : cells) for (int i = 0; i < cols; i++) w[i] = Math.max(w[i], r[i].length());
        for (String[] r : cells) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < cols - 1; i++) b.append(" ".repeat(w[i] - r[i].length())).append(r[i]).append("  ");
            b.append(r[cols - 1]);
            out.println(b.toString().stripTrailing());
        }
    }

    private static String n(long v) {
        return Long.toString(v);
    }

    /** An optional figure: empty when absent (never 0: "not recorded" is not "none spent"). */
    private static String n(Long v) {
        return v == null ? "" : Long.toString(v);
    }

    /** Which clock is behind which figures (the header's {@code clocks:} line). */
    String clocks() {
        String java = switch (profile.cpuClock()) {
            case CpuTime.SAMPLED -> "Java rows measured on this host: wall clock per probe, thread CPU clock sampled"
                    + " (cpu ms within about one sample period per call end; cpuClock=sampled)";
            case CpuTime.DUAL -> "Java rows measured on this host: wall clock and thread CPU clock read at every probe (cpuClock=dual)";
            default -> "Java rows measured on this host's wall clock (no thread CPU time recorded)";
        };
        return java + (profile.hybrid() ? "; native rows estimated for the device from the CPU profile" : "");
    }

    /** Quotes a CSV field when it holds a comma, quote or newline (RFC 4180). */
    static String csvField(String raw) {
        String s = Printable.of(raw);
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) return s;
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
