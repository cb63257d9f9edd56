package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DurationHistogramTest {
    /** A smallest table at log₂: three powers of two fill it (load ≤ 3/4 of 4 slots). */
    private static DurationHistogram fullAtLog2() {
        DurationHistogram h = new DurationHistogram(64);
        while (h.coarsen()) { /* down to log₂ */ }
        assertEquals(0, h.subBits());
        assertTrue(h.record(1));
        assertTrue(h.record(1 << 10));
        assertTrue(h.record(1 << 20));
        assertEquals(DurationHistogram.MIN_SLOTS, h.slots());
        return h;
    }

    @Test
    void aFullTableThatMayNeitherGrowNorCoarsenCountsInTheNearestBucket() {
        DurationHistogram h = fullAtLog2();
        assertFalse(h.record(1L << 30), "no room for a fourth power of two");
        assertFalse(h.coarsen(), "already log₂");
        assertTrue(h.recordNearest(1L << 30), "approximated");
        assertTrue(h.recordNearest(1L << 12), "approximated");
        assertEquals(5, h.total(), "every call counted");
        assertEquals(3, h.nonEmpty(), "no new bucket");
        long[] log2 = new long[64];
        h.addLog2(log2, 0, 64);
        assertEquals(1, log2[1], "1 ns");
        assertEquals(2, log2[11], "2^10 ns and 2^12 ns, the nearest to it");
        assertEquals(2, log2[21], "2^20 ns and 2^30 ns, the nearest to it");
    }

    @Test
    void aDurationWhoseBucketIsThereIsCountedExactly() {
        DurationHistogram h = fullAtLog2();
        assertFalse(h.recordNearest((1 << 10) + 5), "its own bucket");
        long[] log2 = new long[64];
        h.addLog2(log2, 0, 64);
        assertEquals(2, log2[11]);
        assertEquals(4, h.total());
    }
}
