package org.hyprof.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class HistogramCodecTest {
    @Test
    void histogramsRoundTrip() {
        long[] h = {0, 1, 2, 3, Long.MAX_VALUE};
        assertArrayEquals(h, HistogramCodec.decode(HistogramCodec.encode(h)));
    }

    /** The column's bytes: little-endian int64 per bucket (what sessions already on disk hold). */
    @Test
    void bytesAreLittleEndianInt64PerBucket() {
        assertArrayEquals(new byte[] {1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0},
                HistogramCodec.encode(new long[] {1, 256}));
        assertArrayEquals(new long[0], HistogramCodec.decode(null));
    }

    /** A fine histogram follows the log₂ buckets behind a marker; a column without one (stored before format 4) has none. */
    @Test
    void fineHistogramsRoundTripAndOldColumnsHaveNone() {
        org.hyprof.runtime.DurationHistogram f = new org.hyprof.runtime.DurationHistogram(org.hyprof.runtime.DurationHistogram.HOST_MAX_SLOTS);
        for (long v = 1; v < 10_000_000; v = v * 3 + 1) f.recordAnyway(v);
        long[] h = {0, 4, 9};
        byte[] col = HistogramCodec.encode(h, f);
        assertArrayEquals(h, HistogramCodec.decode(col));
        org.hyprof.runtime.DurationHistogram back = HistogramCodec.decodeFine(col);
        org.junit.jupiter.api.Assertions.assertArrayEquals(f.dense(), back.dense());
        org.junit.jupiter.api.Assertions.assertNull(HistogramCodec.decodeFine(HistogramCodec.encode(h)));
        org.junit.jupiter.api.Assertions.assertNull(HistogramCodec.decodeFine(null));
    }

    /** A damaged column: a count of pairs beyond its bytes, or a resolution outside the scheme, is read as no fine histogram; a bucket outside it is skipped. */
    @Test
    void hostileFineColumnsAllocateNothingForTheirCounts() {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8 * 7).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putLong(5).putLong(HistogramCodec.FINE_MARKER).putLong(6).putLong(Long.MAX_VALUE / 16).putLong(1).putLong(1).putLong(0);
        org.junit.jupiter.api.Assertions.assertNull(HistogramCodec.decodeFine(b.array()), "more pairs than bytes");
        b.putLong(8, HistogramCodec.FINE_MARKER).putLong(16, 99).putLong(24, 1);
        org.junit.jupiter.api.Assertions.assertNull(HistogramCodec.decodeFine(b.array()), "resolution 99");
        b.putLong(16, 6).putLong(24, 2).putLong(32, 1_000_000).putLong(40, 3).putLong(48, 0);
        java.nio.ByteBuffer c = java.nio.ByteBuffer.allocate(8 * 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).put(b.array());
        c.putLong(56, 1);
        org.hyprof.runtime.DurationHistogram f = HistogramCodec.decodeFine(c.array());
        org.junit.jupiter.api.Assertions.assertEquals(1, f.total(), "bucket 1,000,000 skipped, bucket 0 kept");
        assertArrayEquals(new long[] {5}, HistogramCodec.decode(c.array()));
    }
}
