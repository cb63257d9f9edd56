package org.hyprof.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.hyprof.runtime.Buckets;
import org.hyprof.runtime.DurationHistogram;

/**
 * How a {@link ProbeStats#hist()} and {@link ProbeStats#fine()} are kept in the
 * {@code probe_stats.hist} column: each log2 bucket as a little-endian int64, in bucket order (all
 * a column held before session format 4, as the schema's comment in {@code V1.sql} says); then,
 * when there is a fine histogram, {@link #FINE_MARKER} (negative: no count is, so an old column
 * never has it), its resolution ({@link Buckets} sub-bucket bits), its pair count and the
 * (bucket, count) pairs, all int64. A marker inside the column rather than a new column: old
 * databases stay readable with no schema migration. Apart from the table code so the byte layout
 * has one home and its own test.
 */
final class HistogramCodec {
    private HistogramCodec() {}

    /** Starts the fine part of a column ("HYFINE" in its low bytes, sign bit set). */
    static final long FINE_MARKER = 0x8000_454E_4946_5948L;

    static byte[] encode(long[] hist) {
        return encode(hist, null);
    }

    static byte[] encode(long[] hist, DurationHistogram fine) {
        DurationHistogram c = fine == null ? null : fine.copy(); // counted and written from one copy
        int pairs = c == null ? 0 : c.nonEmpty();
        ByteBuffer b = ByteBuffer.allocate(hist.length * 8 + (fine == null ? 0 : 24 + 16 * pairs)).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : hist) b.putLong(v);
        if (c != null) {
            b.putLong(FINE_MARKER).putLong(c.subBits()).putLong(pairs);
            c.forEach((index, count) -> b.putLong(index).putLong(count));
        }
        return b.array();
    }

    /** The log₂ buckets of a stored column; a NULL column is no buckets. */
    static long[] decode(byte[] data) {
        if (data == null) return new long[0];
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int n = 0;
        while (n < data.length / 8 && b.getLong(n * 8) != FINE_MARKER) n++;
        long[] h = new long[n];
        for (int i = 0; i < n; i++) h[i] = b.getLong();
        return h;
    }

    /**
     * The fine histogram of a stored column, or null when it has none (stored before format 4).
     * A column that does not add up (a resolution outside the scheme, more pairs than bytes) is
     * read as having none; buckets outside the scheme and negative counts are skipped. Nothing is
     * allocated for a count read before it is checked against the bytes there are.
     */
    static DurationHistogram decodeFine(byte[] data) {
        if (data == null) return null;
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int at = 0;
        while (at + 8 <= data.length && b.getLong(at) != FINE_MARKER) at += 8;
        if (at + 24 > data.length) return null;
        long bits = b.getLong(at + 8), pairs = b.getLong(at + 16);
        if (bits < 0 || bits > Buckets.SUB_BITS || pairs < 0 || pairs > (data.length - at - 24) / 16) return null;
        DurationHistogram h = new DurationHistogram(DurationHistogram.HOST_MAX_SLOTS);
        while (h.subBits() > bits) h.coarsen();
        int limit = Buckets.count((int) bits);
        for (int i = 0; i < pairs; i++) {
            long index = b.getLong(at + 24 + 16 * i), count = b.getLong(at + 32 + 16 * i);
            if (index < 0 || index >= limit || count <= 0 || count >= 1L << 40) continue;
            h.addAnyway((int) index, count);
        }
        return h;
    }
}
