package org.hyprof.correlate;


import org.hyprof.runtime.Buckets;
import org.hyprof.runtime.DurationHistogram;

/**
 * Percentiles of per-call durations. From a fine histogram ({@link Buckets}): the midpoint of the
 * bucket holding the percentile's rank, clamped to the observed min/max, so within
 * {@link #errorBound} (0.78 %) of the exact order statistic of the same calls. From the runtime's
 * log₂ histograms (sessions before format 4; bucket b holds durations 2^(b-1) ≤ d &lt; 2^b ns):
 * interpolated linearly within the bucket and clamped to min/max, so exact only to within its
 * bucket (a factor of 2). The rank of quantile q of n calls is ⌈q·n⌉ (at least 1), the
 * nearest-rank definition.
 */
public final class Histogram {
    private Histogram() {}

    /** Error bound of log₂ percentiles: the value may be off by up to a factor of 2 (100 %). */
    public static final double LOG2_ERROR_BOUND = 1.0;

    /** Largest relative error of a percentile from a fine histogram of {@code subBits} resolution: 2^-(s+1). */
    public static double errorBound(int subBits) {
        return 1.0 / (2L << subBits);
    }

    /** The q-quantile (0 &lt; q ≤ 1) in nanoseconds of a fine histogram, or 0 when it is empty. */
    public static long percentile(DurationHistogram fine, double q, long minNanos, long maxNanos) {
        long[] dense = fine.dense();
        int bits = fine.subBits();
        long total = 0;
        for (long c : dense) total += c;
        if (total == 0) return 0;
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long cum = 0;
        for (int b = 0; b < dense.length; b++) {
            cum += dense[b];
            if (cum >= rank) return Math.max(minNanos, Math.min(maxNanos, Buckets.midpointNanos(b, bits)));
        }
        return maxNanos;
    }

    /** Adds b into a (same length or longer). */
    public static void add(long[] a, long[] b) {
        for (int i = 0; i < Math.min(a.length, b.length); i++) a[i] += b[i];
    }

    /** The q-quantile (0 &lt; q ≤ 1) in nanoseconds, or 0 when empty. */
    public static long percentile(long[] hist, double q, long minNanos, long maxNanos) {
        long total = 0;
        for (long c : hist) total += c;
        if (total == 0) return 0;
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long cum = 0;
        for (int b = 0; b < hist.length; b++) {
            long c = hist[b];
            if (c == 0) continue;
            if (cum + c >= rank) {
                double lo = b == 0 ? 0 : Math.pow(2, b - 1);
                double hi = b == 0 ? 0 : Math.pow(2, b);
                if (b == hist.length - 1) hi = Math.max(hi, maxNanos);
                double v = lo + (hi - lo) * (rank - cum) / (double) c;
                long r = Math.round(v);
                return Math.max(minNanos, Math.min(maxNanos, r));
            }
            cum += c;
        }
        return maxNanos;
    }
}
