package org.hyprof.export;

import static org.junit.jupiter.api.Assertions.*;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The exports' number text is exactly what {@code Double.toString} (Jackson's) writes. */
public class JsonTextTest {
    private static void same(long n) {
        assertEquals(Double.toString(n / 1000.0), JsonText.thousandths(n), "n = " + n);
    }

    @Test
    void thousandthsAreDoubleToString() {
        for (long n = 0; n < 1_000_000; n++) same(n);
        for (long n = 9_999_990_000L; n < 10_000_010_000L; n++) same(n); // the switch to E notation at 10^7
        SplittableRandom r = new SplittableRandom(19);
        for (int i = 0; i < 1_000_000; i++) same(r.nextLong(JsonText.CHECKED));
        for (long n : new long[] {-1, -1500, JsonText.CHECKED, Long.MAX_VALUE, Long.MIN_VALUE}) same(n);
    }

    @Test
    void quotedEscapes() {
        assertEquals("\"a\\\"b\\\\c\\u0001\"", JsonText.quoted("a\"b\\c\u0001"));
    }
}
