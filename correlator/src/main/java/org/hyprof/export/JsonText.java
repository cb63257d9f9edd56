package org.hyprof.export;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Text of JSON values the exports write millions of times, made without Jackson's general paths
 * (its string escaping and {@code Double.toString} were most of an export's time): written as
 * ASCII bytes into a caller's buffer ({@link JsonOut}'s), no object per value.
 */
final class JsonText {
    private JsonText() {}

    /** Up to here {@link #thousandths} has been checked against {@code Double.toString} (a test goes over it). */
    static final long CHECKED = 1L << 44;
    /** Longest text {@link #putThousandths} and {@link #putLong} write (a {@code Double.toString} is at most 24 chars). */
    static final int MAX_NUMBER = 26;

    private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    /**
     * {@code Double.toString(n / 1000.0)} for whole {@code n} (µs from ns, values rounded to
     * thousandths), without the double: the decimal itself with its trailing zeros cut (at least
     * one digit after the point), in {@code d.dddE7} form from 10⁷ up, as {@code Double.toString}
     * writes it. Outside {@code [0, 2^44)} it is {@code Double.toString}.
     */
    static String thousandths(long n) {
        byte[] b = new byte[MAX_NUMBER];
        return new String(b, 0, putThousandths(b, 0, n), StandardCharsets.US_ASCII);
    }

    /** Writes {@link #thousandths}{@code (n)} at {@code b[p]} (room for {@link #MAX_NUMBER} bytes); returns the position after it. */
    static int putThousandths(byte[] b, int p, long n) {
        if (n < 0 || n >= CHECKED) {
            String s = Double.toString(n / 1000.0);
            for (int i = 0; i < s.length(); i++) b[p++] = (byte) s.charAt(i);
            return p;
        }
        long whole = n / 1000;
        int frac = (int) (n - whole * 1000);
        if (whole < 10_000_000L) {
            p = putLong(b, p, whole);
            b[p++] = '.';
            if (frac == 0) {
                b[p++] = '0';
                return p;
            }
            // three digits, trailing zeros cut
            b[p++] = (byte) ('0' + frac / 100);
            if (frac % 100 == 0) return p;
            b[p++] = (byte) ('0' + frac / 10 % 10);
            if (frac % 10 == 0) return p;
            b[p++] = (byte) ('0' + frac % 10);
            return p;
        }
        // d.ddd…E<exponent>: the digits of n with the point after the first, the exponent its place less three
        int start = p;
        int end = putLong(b, p + 1, n); // digits at p+1 …, moved down one below
        int digits = end - (p + 1);
        b[p] = b[p + 1];
        b[p + 1] = '.';
        int last = end; // after the last digit kept (trailing zeros cut, at least one after the point)
        while (last > p + 2 && b[last - 1] == '0') last--;
        if (last == p + 2) b[last++] = '0';
        p = last;
        b[p++] = 'E';
        p = putLong(b, p, digits - 4);
        assert p - start <= MAX_NUMBER;
        return p;
    }

    /** "00" to "99": two digits per division (a long division is the costly part of a number's text). */
    private static final byte[] TENS = new byte[100], ONES = new byte[100];

    static {
        for (int i = 0; i < 100; i++) {
            TENS[i] = (byte) ('0' + i / 10);
            ONES[i] = (byte) ('0' + i % 10);
        }
    }

    /** Writes {@code v} in decimal at {@code b[p]}; returns the position after it. */
    static int putLong(byte[] b, int p, long v) {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                System.arraycopy(MIN_LONG, 0, b, p, MIN_LONG.length);
                return p + MIN_LONG.length;
            }
            b[p++] = '-';
            v = -v;
        }
        int n = 1; // digits: by comparison, not division
        for (long x = 10; n < 19 && v >= x; x *= 10) n++;
        int end = p + n, i = end;
        while (v > Integer.MAX_VALUE) {
            long q = v / 100;
            int r = (int) (v - q * 100);
            b[--i] = ONES[r];
            b[--i] = TENS[r];
            v = q;
        }
        int w = (int) v;
        while (w >= 100) {
            int q = w / 100;
            int r = w - q * 100;
            b[--i] = ONES[r];
            b[--i] = TENS[r];
            w = q;
        }
        b[--i] = ONES[w];
        if (w >= 10) b[--i] = TENS[w];
        return end;
    }

    /** A string as a JSON value: quoted and escaped as Jackson writes it. */
    static String quoted(String s) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
    }

    /** {@link #quoted} as UTF-8 bytes (a lone surrogate, which UTF-8 cannot hold, becomes {@code ?}). */
    static byte[] quotedUtf8(String s) {
        byte[] q;
        try {
            q = JsonStringEncoder.getInstance().quoteAsUTF8(s);
        } catch (IllegalArgumentException loneSurrogate) {
            q = new String(JsonStringEncoder.getInstance().quoteAsString(s)).getBytes(StandardCharsets.UTF_8);
        }
        byte[] b = new byte[q.length + 2];
        b[0] = '"';
        System.arraycopy(q, 0, b, 1, q.length);
        b[b.length - 1] = '"';
        return b;
    }
}
