package org.hyprof.export;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/**
 * Text of JSON values the exports write millions of times, made without Jackson's general paths
 * (its string escaping and {@code Double.toString} were most of an export's time).
 */
final class JsonText {
    private JsonText() {}

    /** Up to here {@link #thousandths} has been checked against {@code Double.toString} (a test goes over it). */
    static final long CHECKED = 1L << 44;

    /**
     * {@code Double.toString(n / 1000.0)} for whole {@code n} (µs from ns, values rounded to
     * thousandths), without the double: the decimal itself with its trailing zeros cut (at least
     * one digit after the point), in {@code d.dddE7} form from 10⁷ up, as {@code Double.toString}
     * writes it. Outside {@code [0, 2^44)} it is {@code Double.toString}.
     */
    static String thousandths(long n) {
        if (n < 0 || n >= CHECKED) return Double.toString(n / 1000.0);
        if (n == 0) return "0.0";
        long whole = n / 1000;
        int frac = (int) (n % 1000);
        if (whole < 10_000_000L) {
            StringBuilder b = new StringBuilder(24).append(whole).append('.');
            if (frac == 0) return b.append('0').toString();
            int digits = 3;
            while (frac % 10 == 0) {
                frac /= 10;
                digits--;
            }
            if (digits >= 2 && frac < 10) b.append('0');
            if (digits == 3 && frac < 100) b.append('0');
            return b.append(frac).toString();
        }
        String all = Long.toString(n); // the point sits three digits from the end
        int end = all.length();
        while (end > 1 && all.charAt(end - 1) == '0') end--;
        StringBuilder b = new StringBuilder(24).append(all.charAt(0)).append('.');
        if (end == 1) b.append('0');
        else b.append(all, 1, end);
        return b.append('E').append(all.length() - 4).toString();
    }

    /** A string as a JSON value: quoted and escaped as Jackson writes it. */
    static String quoted(String s) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
    }
}
