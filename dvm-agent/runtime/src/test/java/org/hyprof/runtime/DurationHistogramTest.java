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

    /** A budget of so many bytes, counting what it granted. */
    private static final class Bytes implements DurationHistogram.Budget {
        long left, granted;

        Bytes(long left) {
            this.left = left;
        }

        @Override
        public boolean take(long bytes) {
            if (bytes > left) return false;
            left -= bytes;
            granted += bytes;
            return true;
        }
    }

    /**
     * recordWithin grows the table while the budget has the bytes, then coarsens, then counts in
     * the nearest bucket: every call counted, the bytes it reports are the ones the budget granted,
     * and with no budget at all it still ends (a spent budget once hung a thread in the callers'
     * own copies of this loop).
     */
    @Test
    void recordingWithinABudgetCountsEveryCallAndReportsTheBytesItTook() {
        for (long budget : new long[] {0, 100, 1_000, 100_000}) {
            DurationHistogram h = new DurationHistogram(64);
            Bytes b = new Bytes(budget);
            long taken = 0, calls = 0;
            for (int shift = 0; shift < 40; shift++)
                for (int k = 0; k < 8; k++) { // eight sub-buckets of each power of two: far more than 64 slots hold
                    taken += h.recordWithin((1L << shift) + ((long) k << Math.max(0, shift - 3)), b);
                    calls++;
                }
            assertEquals(calls, h.total(), "budget " + budget + ": every call counted");
            assertEquals(b.granted, taken, "budget " + budget + ": the bytes reported are the bytes granted");
            assertEquals(DurationHistogram.tableBytes(h.slots()) - DurationHistogram.tableBytes(DurationHistogram.MIN_SLOTS), taken,
                    "budget " + budget + ": the growth of the table");
            if (budget >= 100_000) assertEquals(64, h.slots(), "grown to its bound");
            if (budget == 0) assertEquals(0, h.subBits(), "no bytes: coarsened down to log₂");
        }
    }
}
