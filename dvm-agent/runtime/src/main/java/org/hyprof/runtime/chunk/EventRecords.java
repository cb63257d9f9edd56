package org.hyprof.runtime.chunk;

import java.io.ByteArrayOutputStream;

/**
 * The records of an {@link EventsChunk} — one thread's enters and exits in order:
 *
 * <pre>
 * record := varint(id &lt;&lt; 3 | kind) zigzag-varint(nanos since the previous record; the first since the chunk's base;
 *           negative for OPEN records, which come first and carry their frames' entry times)
 *           [varint(iterations) when kind = LOOP_EXIT]
 * </pre>
 *
 * The runtime encodes them on the probes' hot path with {@link #put} into a preallocated buffer;
 * hosts decode them with a {@link Cursor}. A record cut by the end of a chunk (a thread mid-write
 * at shutdown) ends that chunk.
 */
public final class EventRecords {
    private EventRecords() {}

    public static final int ENTER = 0;
    public static final int EXIT = 1;
    /** Exit by exception (or a frame closed because an outer frame exited): an unwind. */
    public static final int THROW = 2;
    public static final int LOOP_ENTER = 3;
    public static final int LOOP_EXIT = 4;
    /**
     * A method activation already open when the chunk starts (flight-recorder mode,
     * {@code keep=last}): the chunk's first records repeat the thread's open frames at their entry
     * times, outermost first, so that the chunk nests well when the chunks before it were
     * overwritten. A host that has replayed those frames already (the previous chunk was kept)
     * skips them.
     */
    public static final int OPEN = 5;
    /** A loop activation already open when the chunk starts (see {@link #OPEN}). */
    public static final int OPEN_LOOP = 6;

    /** Longest record: 5 (tag) + 10 (delta) + 10 (iterations). */
    public static final int MAX_RECORD = 25;

    /**
     * Writes one record at {@code b[p]} and returns the position after it; the caller ensures
     * {@link #MAX_RECORD} bytes of room. Allocation-free (the probes' hot path).
     */
    public static int put(byte[] b, int p, int id, int kind, long deltaNanos, long iterations) {
        p = Varint.put(b, p, ((long) id << 3) | kind);
        p = Varint.put(b, p, (deltaNanos << 1) ^ (deltaNanos >> 63));
        if (kind == LOOP_EXIT) p = Varint.put(b, p, iterations);
        return p;
    }

    /** Walks the records of one chunk. */
    public static final class Cursor {
        private final PayloadReader r;
        private long nanos;
        private int id, kind;
        private long iterations;

        public Cursor(byte[] records, long baseNanos) {
            this.r = new PayloadReader(records);
            this.nanos = baseNanos;
        }

        /** Moves to the next complete record; false at the end of the chunk or at a cut record. */
        public boolean next() {
            if (r.atEnd()) return false;
            try {
                long tag = r.varint();
                long z = r.varint();
                long it = (tag & 7) == LOOP_EXIT ? r.varint() : 0;
                kind = (int) (tag & 7);
                id = (int) (tag >>> 3);
                iterations = it;
                nanos += (z >>> 1) ^ -(z & 1);
                return true;
            } catch (MalformedPayloadException cut) {
                return false;
            }
        }

        public int id() {
            return id;
        }

        /**
         * {@link #ENTER}, {@link #EXIT}, {@link #THROW}, {@link #LOOP_ENTER}, {@link #LOOP_EXIT},
         * {@link #OPEN} or {@link #OPEN_LOOP}.
         */
        public int kind() {
            return kind;
        }

        /** The record's time (nanoTime of the recording process). */
        public long nanos() {
            return nanos;
        }

        /** Back edges taken, for {@link #LOOP_EXIT}; 0 otherwise. */
        public long iterations() {
            return iterations;
        }
    }

    /** Complete records in one chunk. */
    public static long count(byte[] records) {
        Cursor c = new Cursor(records, 0);
        long n = 0;
        while (c.next()) n++;
        return n;
    }

    /** Builds records in memory (tools and tests; the runtime uses {@link #put}). */
    public static final class Writer {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final byte[] one = new byte[MAX_RECORD];
        private long last;

        /** Records are timed relative to {@code baseNanos}, the chunk's base time. */
        public Writer(long baseNanos) {
            this.last = baseNanos;
        }

        public Writer add(int id, int kind, long atNanos) {
            return add(id, kind, atNanos, 0);
        }

        public Writer loopExit(int id, long atNanos, long iterations) {
            return add(id, LOOP_EXIT, atNanos, iterations);
        }

        private Writer add(int id, int kind, long atNanos, long iterations) {
            int n = put(one, 0, id, kind, atNanos - last, iterations);
            out.write(one, 0, n);
            last = atNanos;
            return this;
        }

        public byte[] toByteArray() {
            return out.toByteArray();
        }
    }
}
