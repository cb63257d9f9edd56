package org.hyprof.correlate;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hyprof.store.NativeRunRecord;

/**
 * Two sessions' stored native runs side by side ({@code hyprof compare A.db B.db} on sessions made
 * by {@code hyprof native -o}): runs of the same call (library file name, symbol, arguments) are
 * paired in order, and their instructions, estimated cycles, device time and energy compared, B/A.
 * This is the AndroProf thesis' comparison of CPU organizations (e.g. Cortex-A8 vs Cortex-A9
 * profiles) or of architectures (armeabi-v7a vs arm64-v8a builds).
 */
public final class NativeRunComparison {
    public static final String COLUMNS = "call,cpu_a,cpu_b,abi_a,abi_b,instructions_a,instructions_b,instructions_ratio,"
            + "cycles_a,cycles_b,cycles_ratio,time_ns_a,time_ns_b,time_ratio,energy_uj_a,energy_uj_b,energy_ratio";

    /** One call in both sessions (null side: absent there). */
    public record Row(String call, NativeRunRecord a, NativeRunRecord b) {}

    private final List<Row> rows = new ArrayList<>();

    public NativeRunComparison(List<NativeRunRecord> a, List<NativeRunRecord> b) {
        Map<String, List<NativeRunRecord>> inB = new LinkedHashMap<>();
        for (NativeRunRecord r : b) inB.computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r);
        for (NativeRunRecord r : a) {
            List<NativeRunRecord> same = inB.get(r.label());
            rows.add(new Row(r.label(), r, same == null || same.isEmpty() ? null : same.remove(0)));
        }
        inB.forEach((k, rest) -> rest.forEach(r -> rows.add(new Row(k, null, r))));
    }

    public List<Row> rows() {
        return rows;
    }

    /** Instructions, cycles, device time (ns), energy (µJ). */
    private static double field(NativeRunRecord r, int f) {
        return switch (f) {
            case 0 -> r.instructions();
            case 1 -> r.cycles();
            case 2 -> r.estNanos();
            default -> r.energyPicojoules() / 1e6;
        };
    }

    private static String ratio(Row r, int f, String format) {
        if (r.a() == null || r.b() == null || field(r.a(), f) == 0) return "";
        return String.format(Locale.ROOT, format, field(r.b(), f) / field(r.a(), f));
    }

    public void csv(PrintWriter out) {
        out.println(COLUMNS);
        for (Row r : rows) {
            List<String> c = new ArrayList<>(List.of(ReportWriter.csvField(r.call()), side(r.a(), NativeRunRecord::cpuProfile),
                    side(r.b(), NativeRunRecord::cpuProfile), side(r.a(), NativeRunRecord::abi), side(r.b(), NativeRunRecord::abi)));
            for (int f = 0; f < 4; f++) {
                c.add(value(r.a(), f));
                c.add(value(r.b(), f));
                c.add(ratio(r, f, "%.4f"));
            }
            out.println(String.join(",", c));
        }
        out.flush();
    }

    private static String side(NativeRunRecord r, java.util.function.Function<NativeRunRecord, String> f) {
        return r == null ? "" : ReportWriter.csvField(f.apply(r));
    }

    private static String value(NativeRunRecord r, int f) {
        if (r == null) return "";
        return f == 3 ? String.format(Locale.ROOT, "%.6f", field(r, f)) : Long.toString((long) field(r, f));
    }

    public void table(PrintWriter out) {
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"cpu A", "cpu B", "instr A", "instr B", "B/A", "cycles A", "cycles B", "B/A",
            "time A us", "time B us", "B/A", "energy A uJ", "energy B uJ", "B/A", "call"});
        for (Row r : rows) {
            List<String> c = new ArrayList<>(List.of(r.a() == null ? "-" : r.a().cpuProfile(), r.b() == null ? "-" : r.b().cpuProfile()));
            for (int f = 0; f < 4; f++) {
                for (NativeRunRecord x : new NativeRunRecord[] {r.a(), r.b()}) {
                    if (x == null) c.add("-");
                    else if (f < 2) c.add(String.format(Locale.ROOT, "%,d", (long) field(x, f)));
                    else c.add(String.format(Locale.ROOT, "%,.3f", f == 2 ? field(x, f) / 1e3 : field(x, f)));
                }
                c.add(ratio(r, f, "%.3f"));
            }
            c.add(r.call());
            cells.add(c.toArray(new String[0]));
        }
        ReportWriter.aligned(out, cells);
        out.println("(native runs stored by 'hyprof native -o': estimated cycles, device time and energy under each run's CPU"
                + " profile; runs of the same call are paired in order; exact figures: --format csv)");
        out.flush();
    }
}
