package org.hyprof.correlate;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Two sessions side by side, per method: calls, inclusive and exclusive time, native
 * instructions and cycles (hybrid runs), energy, inclusive time per call, and exclusive thread CPU
 * and wait time (empty where a session recorded no CPU time), each with the ratio B/A. Per call is
 * over the timed calls (count-only calls have no time of their own), so a method called more often
 * in B but as fast per call shows a time ratio above 1 and a per-call ratio of 1. The thesis'
 * comparisons — CPU profiles, architectures, Java vs JNI builds — are two sessions of the same
 * program.
 */
public final class Comparison {
    public static final String COLUMNS = "method,calls_a,calls_b,calls_ratio,incl_ns_a,incl_ns_b,incl_ratio,"
            + "excl_ns_a,excl_ns_b,excl_ratio,native_instr_a,native_instr_b,native_instr_ratio,"
            + "native_cycles_a,native_cycles_b,native_cycles_ratio,energy_uj_a,energy_uj_b,energy_ratio,"
            + "cpu_excl_ns_a,cpu_excl_ns_b,cpu_excl_ratio,wait_excl_ns_a,wait_excl_ns_b,wait_excl_ratio,"
            + "incl_per_call_ns_a,incl_per_call_ns_b,incl_per_call_ratio";

    /** One method in both sessions (null side: absent there). */
    public record Row(String method, MethodRow a, MethodRow b) {}

    private final List<Row> rows = new ArrayList<>();
    /** Whether either session has thread CPU time: the table shows its group only then (it is wide enough). */
    private final boolean cpu;

    public Comparison(Profile a, Profile b) {
        cpu = a.cpuClock() != 0 || b.cpuClock() != 0;
        Map<String, MethodRow[]> m = new LinkedHashMap<>();
        for (MethodRow r : a.methods()) if (!r.kind().equals("loop")) m.computeIfAbsent(r.method(), k -> new MethodRow[2])[0] = r;
        for (MethodRow r : b.methods()) if (!r.kind().equals("loop")) m.computeIfAbsent(r.method(), k -> new MethodRow[2])[1] = r;
        m.forEach((k, v) -> rows.add(new Row(k, v[0], v[1])));
        rows.sort((x, y) -> Long.compare(excl(y), excl(x)));
    }

    private static long excl(Row r) {
        return Math.max(r.a() == null ? 0 : r.a().exclNanos(), r.b() == null ? 0 : r.b().exclNanos());
    }

    public List<Row> rows() {
        return rows;
    }

    public void csv(PrintWriter out, int top) {
        out.println(COLUMNS);
        int n = 0;
        for (Row r : rows) {
            if (top > 0 && n++ >= top) break;
            out.println(String.join(",", ReportWriter.csvField(r.method()),
                    v(r.a(), 0), v(r.b(), 0), ratio(r, 0), v(r.a(), 1), v(r.b(), 1), ratio(r, 1), v(r.a(), 2), v(r.b(), 2),
                    ratio(r, 2), v(r.a(), 3), v(r.b(), 3), ratio(r, 3), v(r.a(), 4), v(r.b(), 4), ratio(r, 4),
                    v(r.a(), 5), v(r.b(), 5), ratio(r, 5), v(r.a(), 6), v(r.b(), 6), ratio(r, 6),
                    v(r.a(), 7), v(r.b(), 7), ratio(r, 7), v(r.a(), 8), v(r.b(), 8), ratio(r, 8)));
        }
        out.flush();
    }

    /** What the table shows, in order: title, field (see {@link #field}), unit of its cells. */
    private static final String[][] GROUPS = {
        {"calls", "0", "count"}, {"incl time", "1", "ns"}, {"excl time", "2", "ns"},
        {"native instr", "3", "count"}, {"native cycles", "4", "count"}, {"energy", "5", "uJ"},
        {"incl/call", "8", "ns"}, {"excl cpu", "6", "ns"}};

    /** Width of a cell (A, B) and of a ratio; the numbers are scaled to fit (3 significant digits). */
    private static final int CELL = 6, RATIO = 5;

    /**
     * The table: for each of calls, inclusive and exclusive time, native instructions and cycles,
     * energy and inclusive time per call (and exclusive CPU time, when a session has it), A, B and
     * B/A, then the method (about 147 columns before it, 168 with CPU time). Numbers are scaled
     * to three significant digits with their unit (k/M/G, ns/us/ms/s, nJ/uJ/mJ/J); the CSV has
     * them exact.
     */
    public void table(PrintWriter out, int top) {
        int group = CELL + 1 + CELL + 1 + RATIO;
        StringBuilder titles = new StringBuilder(), heads = new StringBuilder();
        List<String[]> groups = new ArrayList<>(List.of(GROUPS));
        if (!cpu) groups.removeIf(g -> g[1].equals("6"));
        for (String[] g : groups) {
            if (titles.length() > 0) { titles.append("  "); heads.append("  "); }
            int pad = Math.max(0, group - g[0].length());
            titles.append(" ".repeat(pad - pad / 2)).append(g[0]).append(" ".repeat(pad / 2));
            heads.append(String.format(Locale.ROOT, "%" + CELL + "s %" + CELL + "s %" + RATIO + "s", "A", "B", "B/A"));
        }
        out.println(titles.toString().stripTrailing());
        out.println(heads + "  method");
        int n = 0;
        for (Row r : rows) {
            if (top > 0 && n++ >= top) break;
            StringBuilder line = new StringBuilder();
            for (String[] g : groups) {
                int f = Integer.parseInt(g[1]);
                if (line.length() > 0) line.append("  ");
                line.append(String.format(Locale.ROOT, "%" + CELL + "s %" + CELL + "s %" + RATIO + "s",
                        scaled(r.a(), f, g[2]), scaled(r.b(), f, g[2]), shortRatio(r, f)));
            }
            out.println(line + "  " + r.method());
        }
        out.println("(time: wall, probe cost deducted; excl cpu: thread CPU time, blank where not recorded; native: instructions and estimated cycles in the emulator (hybrid runs),");
        out.println(" exclusive; energy: exclusive, Java + native; incl/call: inclusive time per timed call;");
        out.println(" B/A blank where a side is absent (-) or 0; exact: --format csv)");
        out.flush();
    }

    private static String scaled(MethodRow m, int f, String unit) {
        if (m == null) return "-";
        double v = field(m, f);
        if (Double.isNaN(v)) return ""; // no CPU time recorded
        return switch (unit) {
            case "ns" -> scale(v, new String[] {"ns", "us", "ms", "s"});
            case "uJ" -> v != 0 && Math.abs(v) < 1 ? scale(v * 1000, new String[] {"nJ"}) : scale(v, new String[] {"uJ", "mJ", "J", "kJ"});
            default -> Math.abs(v) < 10_000 ? Long.toString((long) v) : scale(v, new String[] {"", "k", "M", "G", "T", "P"});
        };
    }

    /** Three significant digits in the largest unit (each 1000 times the one before) that keeps it ≥ 1. */
    static String scale(double v, String[] units) {
        if (v == 0) return "0";
        int u = 0;
        while (u + 1 < units.length && Math.abs(v) >= 999.5) { v /= 1000; u++; }
        String digits = Math.abs(v) >= 99.95 ? String.format(Locale.ROOT, "%.0f", v)
                : Math.abs(v) >= 9.995 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
        return digits + units[u];
    }

    /** B/A in at most 5 characters: 3 decimals below 10, fewer above; blank when a side is absent or A is 0. */
    private static String shortRatio(Row r, int f) {
        if (r.a() == null || r.b() == null || field(r.a(), f) == 0 || Double.isNaN(field(r.a(), f)) || Double.isNaN(field(r.b(), f))) return "";
        double x = field(r.b(), f) / field(r.a(), f);
        if (x >= 99_999.5) return ">1e5";
        if (x > 0 && x < 0.0005) return String.format(Locale.ROOT, "%.0e", x); // 3e-04, not 0.000
        return String.format(Locale.ROOT, x >= 999.95 ? "%.0f" : x >= 99.995 ? "%.1f" : x >= 9.9995 ? "%.2f" : "%.3f", x);
    }

    /**
     * A method's figure: calls, incl ns, excl ns, native instructions, native cycles, energy (µJ),
     * exclusive CPU ns, exclusive wait ns (NaN for these two when no CPU time was recorded), incl ns
     * per timed call.
     */
    private static double field(MethodRow m, int f) {
        return switch (f) {
            case 6 -> m.cpu() == null ? Double.NaN : m.cpu().exclNanos();
            case 7 -> m.waitExclNanos() == null ? Double.NaN : m.waitExclNanos();
            case 8 -> inclPerCallNanos(m);
            case 0 -> m.calls();
            case 1 -> m.inclNanos();
            case 2 -> m.exclNanos();
            case 3 -> m.nativeCost().instructions();
            case 4 -> m.nativeCost().cycles();
            default -> m.energyMicrojoules();
        };
    }

    /** Inclusive time per timed call (count-only calls carry no time); 0 without timed calls. */
    static double inclPerCallNanos(MethodRow m) {
        long timed = m.calls() - m.countOnlyCalls();
        return timed > 0 ? (double) m.inclNanos() / timed : 0;
    }

    private static String v(MethodRow m, int f) {
        if (m == null || Double.isNaN(field(m, f))) return "";
        if (f == 8) return Long.toString(Math.round(inclPerCallNanos(m)));
        return f == 5 ? String.format(Locale.ROOT, "%.3f", m.energyMicrojoules()) : Long.toString((long) field(m, f));
    }

    private static String ratio(Row r, int f) {
        if (r.a() == null || r.b() == null || field(r.a(), f) == 0 || Double.isNaN(field(r.a(), f)) || Double.isNaN(field(r.b(), f))) return "";
        // per call: 6 decimals, as a per-call ratio far below 1 (many more, cheaper calls) is common
        return String.format(Locale.ROOT, f == 8 ? "%.6f" : "%.3f", field(r.b(), f) / field(r.a(), f));
    }
}
