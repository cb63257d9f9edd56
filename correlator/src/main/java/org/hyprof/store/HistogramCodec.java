package org.hyprof.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * How a {@link ProbeStats#hist()} is kept in the {@code probe_stats.hist} column: each log2 bucket
 * as a little-endian int64, in bucket order, nothing else (the schema's comment in {@code V1.sql}
 * says the same). Apart from the table code so the byte layout has one home and its own test.
 */
final class HistogramCodec {
    private HistogramCodec() {}

    static byte[] encode(long[] hist) {
        ByteBuffer b = ByteBuffer.allocate(hist.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : hist) b.putLong(v);
        return b.array();
    }

    /** The buckets of a stored column; a NULL column is no buckets. */
    static long[] decode(byte[] data) {
        if (data == null) return new long[0];
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        long[] h = new long[data.length / 8];
        for (int i = 0; i < h.length; i++) h[i] = b.getLong();
        return h;
    }
}
