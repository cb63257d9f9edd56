package org.hyprof.correlate;

/**
 * Percentiles from the runtime's log₂ histograms (bucket b holds durations 2^(b-1) ≤ d &lt; 2^b
 * ns). Within a bucket the value is interpolated linearly and clamped to the observed min/max,
 * so a percentile is exact to within its bucket (a factor of 2) and usually much closer.
 */
public final class Histogram {
    private Histogram() {}

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
