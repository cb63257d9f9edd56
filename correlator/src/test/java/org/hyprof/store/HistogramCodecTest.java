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
}
