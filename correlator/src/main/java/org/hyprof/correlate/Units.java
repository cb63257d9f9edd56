package org.hyprof.correlate;

import java.util.Locale;

/**
 * Times, energies and counts as text, for the people reading reports and the terminal UI: both
 * print through here, so a column called {@code ms} means the same thing everywhere.
 *
 * <p>Every method formats with {@link Locale#ROOT}: a decimal point and {@code ,} as thousands
 * separator whatever the user's locale, so golden files, CSV and screens do not change on a German
 * machine. Values are rounded half up on their shortest decimal form ({@link String#format}); a
 * negative value keeps its sign even when it rounds to zero ({@code millis(-1) → "-0.000"}).
 */
public final class Units {
    private Units() {}

    /** Nanoseconds as milliseconds with 3 decimals (µs resolution): {@code 1234567 → "1.235"}. */
    public static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    /** Nanoseconds as microseconds with 1 decimal: {@code 1250 → "1.3"}. */
    public static String micros(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e3);
    }

    /** Picoseconds (probe costs are measured in ps) as nanoseconds with 1 decimal: {@code 24050 → "24.1"}. */
    public static String nanosOfPicos(long picos) {
        return String.format(Locale.ROOT, "%.1f", picos / 1000.0);
    }

    /**
     * Nanoseconds with the largest unit that keeps the value at least 1, 1 decimal: {@code 999 ns},
     * {@code 1.0 us}, {@code 1.5 ms}, {@code 2.0 s}. The unit is chosen before rounding, so a value
     * just under a boundary rounds up within the smaller unit ({@code 999999 → "1000.0 us"}).
     */
    public static String duration(long nanos) {
        if (nanos < 1000) return nanos + " ns";
        if (nanos < 1_000_000) return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
        if (nanos < 1_000_000_000) return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    /** Microjoules with 1 decimal, for tables read by people: {@code 12.34 → "12.3"}. */
    public static String microjoules(double microjoules) {
        return String.format(Locale.ROOT, "%.1f", microjoules);
    }

    /** Microjoules with 3 decimals (nJ resolution), for CSV read by tools: {@code 12.34 → "12.340"}. */
    public static String microjoulesFine(double microjoules) {
        return String.format(Locale.ROOT, "%.3f", microjoules);
    }

    /** A count with {@code ,} between thousands: {@code 1234567 → "1,234,567"}. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A share (0..1) as a percentage with 1 decimal, for tables: {@code 0.1234 → "12.3"}. */
    public static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f", 100 * share);
    }

    /** A share (0..1) with 4 decimals, for CSV read by tools: {@code 0.12345 → "0.1235"}. */
    public static String share(double share) {
        return String.format(Locale.ROOT, "%.4f", share);
    }
}
