package org.hyprof.correlate;

import java.util.List;
import java.util.function.ToLongFunction;
import org.hyprof.store.CalibrationRecord;

/**
 * The probe costs a session's times were deducted with, in one sentence for the table report and
 * the HTML page: the event, inner and outer costs of the calibration in effect at the end
 * ({@link CalibrationRecord#inEffect}), the count-only call and
 * the loop hand-over (when the runtime measured them), how noisy the event cost's measurement was,
 * and how each cost moved over the run's calibrations.
 */
public final class CalibrationSummary {
    private CalibrationSummary() {}

    /**
     * {@code "probe event 12.3 ns (rounds within 0.4 ns; min-max 10.9-14.2 ns over the run), inner 9.0 ns,
     * outer 15.6 ns, count-only call 2.9 ns, loop hand-over 6.1 ns (3 measurements)"}; parts that are
     * unknown (0 in sessions recorded before they were stored) or that did not move are left out.
     * {@code cals} oldest first, not empty.
     */
    public static String of(List<CalibrationRecord> cals) {
        CalibrationRecord c = CalibrationRecord.inEffect(cals);
        StringBuilder b = new StringBuilder("probe event ").append(Units.nanosOfPicos(c.perEventPicos())).append(" ns");
        String noise = c.perEventSpreadPicos() > 0 ? "rounds within " + Units.nanosOfPicos(c.perEventSpreadPicos()) + " ns" : "";
        String moved = overTheRun(cals, CalibrationRecord::perEventPicos);
        if (!noise.isEmpty() || !moved.isEmpty())
            b.append(" (").append(noise).append(!noise.isEmpty() && !moved.isEmpty() ? "; " : "").append(moved).append(')');
        b.append(", inner ").append(Units.nanosOfPicos(c.innerPicos())).append(" ns, outer ")
                .append(Units.nanosOfPicos(c.outerPicos())).append(" ns");
        cost(b, "count-only call", c, cals, CalibrationRecord::countPicos);
        cost(b, "loop hand-over", c, cals, CalibrationRecord::loopFlushPicos);
        int n = CalibrationRecord.measurements(cals).size();
        return b.append(" (").append(n).append(n == 1 ? " measurement)" : " measurements)").toString();
    }

    private static void cost(StringBuilder b, String name, CalibrationRecord inEffect, List<CalibrationRecord> cals,
                             ToLongFunction<CalibrationRecord> f) {
        long v = f.applyAsLong(inEffect);
        if (v <= 0) return;
        String moved = overTheRun(cals, f);
        b.append(", ").append(name).append(' ').append(Units.nanosOfPicos(v)).append(" ns");
        if (!moved.isEmpty()) b.append(" (").append(moved).append(')');
    }

    /**
     * {@code "min-max 10.9-14.2 ns over the run"}: the JIT changes costs, and times deducted with a
     * cost that moved are less sure. Empty with one calibration, or when all known values agree.
     */
    private static String overTheRun(List<CalibrationRecord> cals, ToLongFunction<CalibrationRecord> f) {
        long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
        int known = 0;
        for (CalibrationRecord c : cals) {
            long v = f.applyAsLong(c);
            if (v <= 0) continue;
            known++;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        if (known < 2 || min == max) return "";
        return "min-max " + Units.nanosOfPicos(min) + "-" + Units.nanosOfPicos(max) + " ns over the run";
    }
}
