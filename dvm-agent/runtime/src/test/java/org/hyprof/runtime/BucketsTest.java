package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class BucketsTest {
    /** Every value's bucket holds it, and the bucket's midpoint is within 1 % (0.78 %) of it. */
    private static void check(long v) {
        int s = Buckets.SUB_BITS, b = Buckets.index(v, s);
        assertTrue(b >= 0 && b < Buckets.count(s), "bucket of " + v);
        long lo = Buckets.lowNanos(b, s), hi = Buckets.highNanos(b, s);
        assertTrue(lo <= v && v < hi, v + " in [" + lo + ", " + hi + ")");
        long mid = Buckets.midpointNanos(b, s);
        assertTrue(Math.abs(mid - v) <= v / 128.0, "midpoint " + mid + " of " + v);
    }

    @Test
    void everySmallValueAndSampledLargeOnesAreWithinOnePercent() {
        for (long v = 0; v < 1 << 20; v++) check(v);
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 1_000_000; i++) check(r.nextLong(Buckets.MAX_TRACKED_NANOS));
        for (int e = 1; e < 47; e++) {
            long p = 1L << e;
            check(p - 1);
            check(p);
            check(p + 1);
        }
    }

    @Test
    void bucketsTileTheRangeWithoutGaps() {
        for (int s = 0; s <= Buckets.SUB_BITS; s++) {
            assertEquals(0, Buckets.lowNanos(0, s));
            for (int b = 0; b < Buckets.count(s) - 1; b++) {
                long lo = Buckets.lowNanos(b, s), hi = Buckets.highNanos(b, s);
                assertTrue(hi > lo, "bucket " + b + " of scheme " + s);
                assertEquals(b, Buckets.index(lo, s));
                assertEquals(b, Buckets.index(hi - 1, s));
                assertEquals(b + 1, Buckets.index(hi, s));
            }
        }
        assertEquals(2688, Buckets.count(Buckets.SUB_BITS));
        assertEquals(48, Buckets.count(0));
    }

    @Test
    void schemeZeroIsTheLog2Histogram() {
        for (long v : new long[] {0, 1, 2, 3, 4, 7, 8, 1000, 65_535, 65_536, 1L << 40, 1L << 46, (1L << 47) - 1, 1L << 47, Long.MAX_VALUE})
            assertEquals(Stats.bucket(v), Buckets.index(v, 0), "log2 bucket of " + v);
    }

    @Test
    void overflowAndNegativeDurations() {
        int last = Buckets.count(Buckets.SUB_BITS) - 1;
        assertEquals(last, Buckets.index(Buckets.MAX_TRACKED_NANOS, Buckets.SUB_BITS));
        assertEquals(last, Buckets.index(Long.MAX_VALUE, Buckets.SUB_BITS));
        assertEquals(last, Buckets.index(Buckets.MAX_TRACKED_NANOS - 1, Buckets.SUB_BITS));
        assertEquals(Long.MAX_VALUE, Buckets.highNanos(last, Buckets.SUB_BITS));
        assertEquals(0, Buckets.index(-5, Buckets.SUB_BITS));
    }

    @Test
    void coarseningMergesWithoutMovingBoundaries() {
        for (int s = 1; s <= Buckets.SUB_BITS; s++)
            for (int b = 0; b < Buckets.count(s); b++) {
                int c = Buckets.coarsen(b, s, s - 1);
                long lo = Buckets.lowNanos(b, s), hi = Buckets.highNanos(b, s);
                assertTrue(Buckets.lowNanos(c, s - 1) <= lo && (hi == Long.MAX_VALUE || hi <= Buckets.highNanos(c, s - 1)));
            }
    }

    @Test
    void histogramRecordsGrowsCoarsensAndMerges() {
        DurationHistogram h = new DurationHistogram(64);
        assertEquals(DurationHistogram.MIN_SLOTS, h.slots());
        assertTrue(h.record(100));
        assertTrue(h.record(100));
        assertTrue(h.record(5000));
        assertTrue(h.record(7000));
        assertFalse(h.record(9000), "a fourth bucket does not fit 4 slots at load 3/4");
        h.grow();
        assertTrue(h.record(9000));
        assertEquals(5, h.total());
        for (long v = 1000; v < 1_000_000; v += 997) h.recordAnyway(v); // more buckets than 64 slots hold
        assertTrue(h.subBits() < Buckets.SUB_BITS, "coarsened at its bound");
        assertEquals(64, h.slots());
        assertEquals(5 + (1_000_000 - 1000 + 996) / 997, h.total());
        long[] dense = h.dense();
        long sum = 0;
        for (long c : dense) sum += c;
        assertEquals(h.total(), sum);

        DurationHistogram a = new DurationHistogram(DurationHistogram.HOST_MAX_SLOTS);
        for (int i = 0; i < 3; i++) a.recordAnyway(123_456);
        a.merge(h);
        assertEquals(h.subBits(), a.subBits(), "a merge takes the coarser resolution");
        assertEquals(h.total() + 3, a.total());
        DurationHistogram c = a.copy();
        assertEquals(a.total(), c.total());
        assertEquals(a.nonEmpty(), c.nonEmpty());
    }

    @Test
    void hostileBucketsAreRefusedNotAllocatedFor() {
        DurationHistogram h = new DurationHistogram(DurationHistogram.HOST_MAX_SLOTS);
        assertThrows(IllegalArgumentException.class, () -> h.add(Buckets.count(Buckets.SUB_BITS), 1));
        assertThrows(IllegalArgumentException.class, () -> h.add(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> h.add(0, -1));
        assertThrows(IllegalArgumentException.class, () -> new DurationHistogram(100));
        assertEquals(DurationHistogram.MIN_SLOTS, h.slots());
    }
}
