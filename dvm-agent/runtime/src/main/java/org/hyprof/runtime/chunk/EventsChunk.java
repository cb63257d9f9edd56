package org.hyprof.runtime.chunk;

/**
 * EVENTS: one buffer of a thread's event log — thread id, sequence number (per thread, from 0),
 * base time (nanoTime the first record's delta is taken from), byte length, then the records
 * ({@link EventRecords}).
 */
public final class EventsChunk {
    public final long tid;
    public final long seq;
    public final long baseNanos;
    public final byte[] records;

    public EventsChunk(long tid, long seq, long baseNanos, byte[] records) {
        this.tid = tid;
        this.seq = seq;
        this.baseNanos = baseNanos;
        this.records = records;
    }

    /** Encodes {@code buf[0..len)} as the records, without copying them first. */
    public static void encode(PayloadWriter w, long tid, long seq, long baseNanos, byte[] buf, int len) {
        w.varint(tid).varint(seq).varint(baseNanos).varint(len).bytes(buf, 0, len);
    }

    public void encode(PayloadWriter w) {
        encode(w, tid, seq, baseNanos, records, records.length);
    }

    public static EventsChunk decode(PayloadReader r) {
        long tid = r.varint(), seq = r.varint(), base = r.varint();
        return new EventsChunk(tid, seq, base, r.bytes(r.length()));
    }
}
