package org.hyprof.correlate;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.hyprof.runtime.DurationHistogram;
import org.junit.jupiter.api.Test;

/** Percentiles from fine histograms against the exact order statistics of the same durations. */
class HistogramTest {
    @Test
    void finePercentilesAreWithinOnePercentOfTheExactOrderStatistic() {
        SplittableRandom r = new SplittableRandom(42);
        for (int run = 0; run < 200; run++) {
            int n = 1 + r.nextInt(5000);
            long[] v = new long[n];
            DurationHistogram h = new DurationHistogram(DurationHistogram.HOST_MAX_SLOTS);
            for (int i = 0; i < n; i++) {
                v[i] = (long) Math.pow(10, 1 + 8 * r.nextDouble()); // 10 ns … 1 s, log-uniform
                h.recordAnyway(v[i]);
            }
            Arrays.sort(v);
            for (double q : new double[] {0.01, 0.5, 0.9, 0.99, 1.0}) {
                long exact = v[(int) Math.max(1, Math.ceil(q * n)) - 1];
                long got = Histogram.percentile(h, q, v[0], v[n - 1]);
                assertTrue(Math.abs(got - exact) <= exact * Histogram.errorBound(h.subBits()),
                        "q " + q + " of " + n + ": " + got + " vs exact " + exact);
            }
        }
        assertEquals(0.0078125, Histogram.errorBound(6));
    }

    /** Microsecond calls never report 0: the percentile is clamped to the observed min. */
    @Test
    void microsecondCallsAreNeverReportedAsZero() {
        DurationHistogram h = new DurationHistogram(DurationHistogram.HOST_MAX_SLOTS);
        for (int i = 0; i < 100; i++) h.recordAnyway(3_000 + i);
        assertTrue(Histogram.percentile(h, 0.5, 3_000, 3_099) >= 3_000);
        assertEquals(0, Histogram.percentile(new DurationHistogram(DurationHistogram.HOST_MAX_SLOTS), 0.5, 0, 0));
    }
}
