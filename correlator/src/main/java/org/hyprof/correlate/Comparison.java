package org.hyprof.correlate;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Two sessions side by side, per method: calls, inclusive and exclusive time, native
 * instructions and cycles (hybrid runs) and energy, each with the ratio B/A. The thesis'
 * comparisons — CPU profiles, architectures, Java vs JNI builds — are two sessions of the same
 * program.
 */
public final class Comparison {
    public static final String COLUMNS = "method,calls_a,calls_b,calls_ratio,incl_ns_a,incl_ns_b,incl_ratio,"
            + "excl_ns_a,excl_ns_b,excl_ratio,native_instr_a,native_instr_b,native_instr_ratio,"
            + "native_cycles_a,native_cycles_b,native_cycles_ratio,energy_uj_a,energy_uj_b,energy_ratio";

    /** One method in both sessions (null side: absent there). */
    public record Row(String method, MethodRow a, MethodRow b) {}

    private final List<Row> rows = new ArrayList<>();

    public Comparison(Profile a, Profile b) {
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
                    v(r.a(), 5), v(r.b(), 5), ratio(r, 5)));
        }
        out.flush();
    }

    public void table(PrintWriter out, int top) {
        String f = "%10s %10s %7s %12s %12s %7s %14s %14s %7s %11s %11s %7s  %s%n";
        out.printf(Locale.ROOT, f, "calls A", "calls B", "B/A", "excl ms A", "excl ms B", "B/A", "native cyc A", "native cyc B",
                "B/A", "uJ A", "uJ B", "B/A", "method");
        int n = 0;
        for (Row r : rows) {
            if (top > 0 && n++ >= top) break;
            out.printf(Locale.ROOT, f, v(r.a(), 0), v(r.b(), 0), ratio(r, 0), ms(r.a()), ms(r.b()), ratio(r, 2),
                    v(r.a(), 4), v(r.b(), 4), ratio(r, 4), uj(r.a()), uj(r.b()), ratio(r, 5), r.method());
        }
        out.println("(native: exclusive cycles of native code run in the emulator; energy: exclusive, Java + native)");
        out.flush();
    }

    /** A method's figure: calls, incl ns, excl ns, native instructions, native cycles, energy (µJ). */
    private static double field(MethodRow m, int f) {
        return switch (f) {
            case 0 -> m.calls();
            case 1 -> m.inclNanos();
            case 2 -> m.exclNanos();
            case 3 -> m.nativeCost().instructions();
            case 4 -> m.nativeCost().cycles();
            default -> m.energyMicrojoules();
        };
    }

    private static String v(MethodRow m, int f) {
        if (m == null) return "";
        return f == 5 ? String.format(Locale.ROOT, "%.3f", m.energyMicrojoules()) : Long.toString((long) field(m, f));
    }

    private static String uj(MethodRow m) {
        return m == null ? "" : String.format(Locale.ROOT, "%.1f", m.energyMicrojoules());
    }

    private static String ms(MethodRow m) {
        return m == null ? "" : String.format(Locale.ROOT, "%.3f", m.exclNanos() / 1e6);
    }

    private static String ratio(Row r, int f) {
        if (r.a() == null || r.b() == null || field(r.a(), f) == 0) return "";
        return String.format(Locale.ROOT, "%.3f", field(r.b(), f) / field(r.a(), f));
    }
}
