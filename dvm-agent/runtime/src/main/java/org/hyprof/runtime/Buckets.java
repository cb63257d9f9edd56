package org.hyprof.runtime;

/**
 * Log-linear duration buckets of the HdrHistogram kind: the one bucket numbering the runtime
 * records and every host reads, parameterised by {@code subBits} (s). Durations below 2^(s+1) ns
 * get a bucket each; above, each power of two [2^e, 2^(e+1)) is cut into 2^s equal buckets of
 * width 2^(e-s). Any duration in a bucket is within {@code 2^-(s+1)} of the bucket's
 * {@link #midpointNanos midpoint}: 0.78 % at {@link #SUB_BITS} = 6, the scheme recorded. Durations
 * of {@link #MAX_TRACKED_NANOS} and more (39 hours) share the last bucket.
 *
 * <p>{@code s = 0} is exactly the log₂ scheme of {@link Stats#bucket} (bucket b holds
 * 2^(b-1) ≤ d &lt; 2^b, bucket 0 holds 0): an old histogram is the same kind at coarser
 * resolution, and coarsening (s → s-1) merges buckets pairwise without moving any boundary, so
 * histograms of different resolutions merge exactly at the coarser one.
 */
public final class Buckets {
    private Buckets() {}

    /** Sub-bucket bits recorded: 64 buckets per power of two, ≤ 0.78 % from any value to its bucket's midpoint. */
    public static final int SUB_BITS = 6;
    /** Durations at or above this share the last bucket (2^47 ns). */
    public static final long MAX_TRACKED_NANOS = 1L << 47;

    /** Buckets of scheme {@code subBits} (0 … {@link #SUB_BITS}): 2,688 at 6, 48 at 0. */
    public static int count(int subBits) {
        return (48 - subBits) << subBits;
    }

    /** The bucket of a duration (negative ones count as 0; long ones go to the last bucket). */
    public static int index(long nanos, int subBits) {
        if (nanos < (2L << subBits)) return nanos < 0 ? 0 : (int) nanos;
        if (nanos >= MAX_TRACKED_NANOS) nanos = MAX_TRACKED_NANOS - 1;
        int e = 63 - Long.numberOfLeadingZeros(nanos);
        return ((e - subBits + 1) << subBits) + (int) ((nanos >>> (e - subBits)) & ((1 << subBits) - 1));
    }

    /** Lowest duration of bucket {@code index} (0 ≤ index &lt; {@link #count}). */
    public static long lowNanos(int index, int subBits) {
        if (index < (2 << subBits)) return index;
        int e = (index >>> subBits) + subBits - 1;
        long sub = index & ((1 << subBits) - 1);
        return (1L << e) + (sub << (e - subBits));
    }

    /** One past the highest duration of bucket {@code index}; {@code Long.MAX_VALUE} for the last. */
    public static long highNanos(int index, int subBits) {
        if (index >= count(subBits) - 1) return Long.MAX_VALUE;
        return lowNanos(index + 1, subBits);
    }

    /**
     * The value a percentile falling in bucket {@code index} reports: the middle of its integer
     * durations [low, high-1] (rounded down), so no duration in it is further than half a bucket
     * width away. The last bucket reports its low end (its callers clamp to the observed max).
     */
    public static long midpointNanos(int index, int subBits) {
        long lo = lowNanos(index, subBits), hi = highNanos(index, subBits);
        return hi == Long.MAX_VALUE ? lo : lo + (hi - 1 - lo) / 2;
    }

    /** Bucket {@code index} of scheme {@code fromBits} in the coarser scheme {@code toBits} (≤ fromBits). */
    public static int coarsen(int index, int fromBits, int toBits) {
        return fromBits == toBits ? index : index(lowNanos(index, fromBits), toBits);
    }
}
