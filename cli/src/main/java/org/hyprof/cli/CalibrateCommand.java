package org.hyprof.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;
import org.hyprof.runtime.Calibration;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code hyprof calibrate}: measures the runtime's probe costs on this machine several times, as a
 * profiled program's runtime measures them at its start, and says how much they moved. Deducted
 * times are as good as the costs deducted: on a machine whose probe costs move between
 * measurements (a shared or virtual machine), a run's costs were measured at one moment and paid
 * at others, and each row's deducted time is uncertain by about that movement times its probe
 * share (the report's {@code probe%} column).
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = {"Measure hyprof's probe costs on this machine several times and say how much they move.",
            "Each measurement is the one a profiled program's runtime makes at its start (its calibration line in",
            "'hyprof report'). A run is deducted with costs measured at its start (and every 30 s): where they move,",
            "deducted times are uncertain by about that much of the probe cost taken from them (the report's probe%% column).",
            "Columns: ns per probe event, its measurement's spread (rounds within), the inner and outer parts of a timed pair,",
            "a count-only call, a loop hand-over and one clock read; 'at s' is when each measurement ended, in seconds",
            "since the first began. Run it pinned to one CPU (taskset -c N) to see one CPU's costs."})
public final class CalibrateCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    /** The most measurements one run makes (each takes about half a second). */
    static final int MAX_COUNT = 1000;
    /** The longest pause between measurements: an hour. */
    static final long MAX_INTERVAL_MILLIS = 3_600_000;
    /** Below this movement of the probe event's cost the machine counts as steady (issue targets are 3-5 %). */
    static final double STEADY_PERCENT = 5.0;

    @Option(names = "--count", paramLabel = "N", defaultValue = "10",
            description = "Measurements to make, 1-" + MAX_COUNT + " (default: ${DEFAULT-VALUE}; about half a second each).")
    int count;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "0",
            description = "Pause between measurements in milliseconds, 0-" + MAX_INTERVAL_MILLIS + " (default: ${DEFAULT-VALUE}).")
    long intervalMillis;

    @Option(names = "--quick", description = "The shorter measurement the runtime repeats during a run (every 30 s by default).")
    boolean quick;

    @Option(names = "--format", paramLabel = "F", defaultValue = "table",
            description = "table (default), csv or json.")
    String format;

    enum Format { TABLE, CSV, JSON }

    /** One measurement and when it was made (ms since the first began). */
    record Measurement(long atMillis, Calibration cal) {}

    /** A figure of the measurements: its column name, its label and how to read it (picoseconds). */
    record Figure(String column, String label, ToLongFunction<Calibration> picos) {}

    static final List<Figure> FIGURES = List.of(
            new Figure("event", "probe event", c -> c.perEventPicos),
            new Figure("event_spread", "its rounds within", c -> c.perEventSpreadPicos),
            new Figure("inner", "inner", c -> c.innerPicos),
            new Figure("outer", "outer", Calibration::outerPicos),
            new Figure("count_only", "count-only call", c -> c.countPicos),
            new Figure("loop_hand_over", "loop hand-over", c -> c.loopFlushPicos),
            new Figure("clock", "clock read", c -> c.clockPicos));

    @Override
    public Integer call() throws Exception {
        Format f = ReportCommand.parse(Format.class, format, "--format");
        if (count < 1 || count > MAX_COUNT) throw new UserError("--count: " + count + " is not within 1-" + MAX_COUNT, 2);
        if (intervalMillis < 0 || intervalMillis > MAX_INTERVAL_MILLIS)
            throw new UserError("--interval-ms: " + intervalMillis + " is not within 0-" + MAX_INTERVAL_MILLIS, 2);
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        if (Hyprof.isStarted()) throw new UserError("calibrate: hyprof's runtime is already recording in this JVM", 1);
        Options o = new Options();
        o.calibrate = false; // every measurement is made below, the first one included
        o.recalibrateMillis = 0;
        o.out = null; // nothing recorded, nothing written: the runtime only needs to be running
        if (!Hyprof.start(o)) throw new UserError("calibrate: hyprof's runtime did not start: " + Hyprof.failure(), 1);
        List<Measurement> ms = new ArrayList<>();
        try {
            if (f == Format.TABLE) {
                out.printf(Locale.ROOT, "%d measurement%s of hyprof's probe costs (%s), %s %s, %d CPUs; ns%n", count,
                        count == 1 ? "" : "s", quick ? "quick, as repeated during a run" : "as at a profiled program's start",
                        System.getProperty("java.vm.name"), System.getProperty("java.vm.version"),
                        Runtime.getRuntime().availableProcessors());
                out.println(tableHeader());
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < count; i++) {
                if (i > 0 && intervalMillis > 0) Thread.sleep(intervalMillis);
                if (f != Format.TABLE) err.printf("hyprof: measurement %d of %d%n", i + 1, count);
                err.flush();
                Calibration c = Hyprof.measureCalibration(quick);
                Measurement m = new Measurement((System.nanoTime() - t0) / 1_000_000, c);
                ms.add(m);
                if (f == Format.TABLE) out.println(tableRow(Integer.toString(i + 1), m.atMillis / 1000.0, c));
                out.flush();
            }
        } finally {
            Hyprof.reset(); // stopped, and nothing of it left in this JVM (the tests run commands in one)
        }
        if (f == Format.TABLE) {
            out.println(summaryRow("median", ms, Stats::median));
            out.println(summaryRow("min", ms, Stats::min));
            out.println(summaryRow("max", ms, Stats::max));
            out.println(verdict(ms));
        } else if (f == Format.CSV) {
            out.print(csv(ms));
        } else {
            out.println(json(ms));
        }
        out.flush();
        return 0;
    }

    static String tableHeader() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-7s %7s", "#", "at s"));
        for (Figure fig : FIGURES) b.append(String.format(Locale.ROOT, " %" + width(fig) + "s", fig.label));
        return b.toString();
    }

    private static int width(Figure fig) {
        return Math.max(8, fig.label.length());
    }

    private static String tableRow(String name, double atSeconds, Calibration c) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-7s %7.2f", name, atSeconds));
        for (Figure fig : FIGURES) b.append(String.format(Locale.ROOT, " %" + width(fig) + ".1f", fig.picos.applyAsLong(c) / 1000.0));
        return b.toString();
    }

    private static String summaryRow(String name, List<Measurement> ms, ToLongFunction<long[]> stat) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-7s %7s", name, ""));
        for (Figure fig : FIGURES) b.append(String.format(Locale.ROOT, " %" + width(fig) + ".1f", stat.applyAsLong(values(ms, fig)) / 1000.0));
        return b.toString();
    }

    static long[] values(List<Measurement> ms, Figure fig) {
        long[] v = new long[ms.size()];
        for (int i = 0; i < v.length; i++) v[i] = fig.picos.applyAsLong(ms.get(i).cal);
        return v;
    }

    /** (max - min) / median of a figure, in percent (0 for one measurement or a median of 0). */
    static double movedPercent(long[] v) {
        long med = Stats.median(v);
        return med <= 0 ? 0 : 100.0 * (Stats.max(v) - Stats.min(v)) / med;
    }

    /** How many values are within {@code percent} of their median: whether a movement was one excursion or the rule. */
    static int withinOfMedian(long[] v, double percent) {
        long med = Stats.median(v);
        int n = 0;
        for (long x : v) if (Math.abs(x - med) <= med * percent / 100) n++;
        return n;
    }

    /**
     * The sentence under the table: how far the probe event's cost (the figure every timed call is
     * deducted by) moved, and what that means for deducted times.
     */
    static String verdict(List<Measurement> ms) {
        if (ms.size() < 2) return "one measurement: run with --count 2 or more to see how much the costs move";
        long[] ev = values(ms, FIGURES.get(0));
        double moved = movedPercent(ev);
        double overSeconds = ms.get(ms.size() - 1).atMillis / 1000.0;
        String range = String.format(Locale.ROOT, "%.1f-%.1f ns, %d of %d within %.0f %% of the median", Stats.min(ev) / 1000.0,
                Stats.max(ev) / 1000.0, withinOfMedian(ev, STEADY_PERCENT), ev.length, STEADY_PERCENT);
        if (moved < STEADY_PERCENT)
            return String.format(Locale.ROOT, "steady: the probe event's cost moved %.1f %% over %.1f s (%s), under %.0f %%:"
                    + " deducted times here are as good as one measurement", moved, overSeconds, range, STEADY_PERCENT);
        return String.format(Locale.ROOT, "moving: the probe event's cost moved %.1f %% over %.1f s (%s): a run is deducted"
                + " with costs measured at a few moments, so a row's deducted time may be off by up to about %.0f %% of the"
                + " probe cost taken from it (its probe%% of its raw time in the report)", moved, overSeconds, range, moved);
    }

    static String csv(List<Measurement> ms) {
        StringBuilder b = new StringBuilder("measurement,at_ms");
        for (Figure fig : FIGURES) b.append(',').append(fig.column).append("_ps");
        b.append('\n');
        for (int i = 0; i < ms.size(); i++) {
            b.append(i + 1).append(',').append(ms.get(i).atMillis);
            for (Figure fig : FIGURES) b.append(',').append(fig.picos.applyAsLong(ms.get(i).cal));
            b.append('\n');
        }
        return b.toString();
    }

    static String json(List<Measurement> ms) throws Exception {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        ArrayNode rows = root.putArray("measurements");
        for (int i = 0; i < ms.size(); i++) {
            ObjectNode r = rows.addObject();
            r.put("measurement", i + 1);
            r.put("at_ms", ms.get(i).atMillis);
            for (Figure fig : FIGURES) r.put(fig.column + "_ps", fig.picos.applyAsLong(ms.get(i).cal));
        }
        ObjectNode sum = root.putObject("summary");
        for (Figure fig : FIGURES) {
            long[] v = values(ms, fig);
            ObjectNode s = sum.putObject(fig.column);
            s.put("median_ps", Stats.median(v));
            s.put("min_ps", Stats.min(v));
            s.put("max_ps", Stats.max(v));
            s.put("moved_percent", Math.round(movedPercent(v) * 10) / 10.0);
        }
        root.put("verdict", verdict(ms));
        return mapper.writeValueAsString(root);
    }

    /** Order statistics of a figure's values (not empty). */
    static final class Stats {
        private Stats() {}

        /** The middle value; the lower middle of an even count (a value that was measured). */
        static long median(long[] v) {
            long[] s = v.clone();
            Arrays.sort(s);
            return s[(s.length - 1) / 2];
        }

        static long min(long[] v) {
            return Arrays.stream(v).min().getAsLong();
        }

        static long max(long[] v) {
            return Arrays.stream(v).max().getAsLong();
        }
    }
}
