package org.hyprof.runtime.chunk;

import java.io.ByteArrayOutputStream;

/**
 * The records of an {@link EventsChunk} — one thread's enters and exits in order:
 *
 * <pre>
 * records := [CPU] record*
 * CPU     := varint(7)                       (format 5: the records that follow carry thread CPU time)
 * record  := varint(id &lt;&lt; 3 | kind) zigzag-varint(nanos since the previous record; the first since the chunk's base;
 *            negative for OPEN records, which come first and carry their frames' entry times)
 *            [zigzag-varint(thread CPU ns since the previous record's; the first's since 0) after a CPU mark]
 *            [varint(iterations) when kind = LOOP_EXIT]
 * </pre>
 *
 * The thread CPU time of a record is the value the probe used for the aggregates at that event
 * (the runtime's {@code ThreadState.cpuAt}: read at every event with {@code cpuClock=dual},
 * extrapolated from the sampler's last reading with {@code sampled}), so that a call's CPU time
 * from its records is what its row was charged before the probe cost was deducted. A chunk
 * recorded with {@code cpuClock=off} (or before format 5) has no mark and no CPU deltas: its
 * {@link Cursor#cpuNanos} is -1. The mark is per chunk, so each chunk reads alone (a store keeps
 * the record bytes as they came, from a file or a live agent).
 *
 * <p>The runtime encodes records on the probes' hot path with {@link #put} into a preallocated
 * buffer; hosts decode them with a {@link Cursor}. A record cut by the end of a chunk (a thread
 * mid-write at shutdown) ends that chunk.
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
    /**
     * Not a record: the first byte of a chunk whose records carry thread CPU time (format 5; the
     * tag of id 0 and kind 7). {@link #Cursor} reads it; {@link #count} does not count it.
     */
    public static final int CPU_MARK = 7;

    /** Longest record: 5 (tag) + 10 (delta) + 10 (CPU delta) + 10 (iterations). */
    public static final int MAX_RECORD = 35;

    /**
     * Writes one record without thread CPU time at {@code b[p]} and returns the position after it
     * (a chunk without a {@link #CPU_MARK}); the caller ensures {@link #MAX_RECORD} bytes of room.
     */
    public static int put(byte[] b, int p, int id, int kind, long deltaNanos, long iterations) {
        return put(b, p, id, kind, deltaNanos, false, 0, iterations);
    }

    /**
     * Writes one record at {@code b[p]} and returns the position after it; {@code cpu}: the chunk
     * began with a {@link #CPU_MARK} and the record carries {@code cpuDeltaNanos}. The caller
     * ensures {@link #MAX_RECORD} bytes of room. Allocation-free (the probes' hot path).
     */
    public static int put(byte[] b, int p, int id, int kind, long deltaNanos, boolean cpu, long cpuDeltaNanos, long iterations) {
        p = Varint.put(b, p, ((long) id << 3) | kind);
        p = Varint.put(b, p, (deltaNanos << 1) ^ (deltaNanos >> 63));
        if (cpu) p = Varint.put(b, p, (cpuDeltaNanos << 1) ^ (cpuDeltaNanos >> 63));
        if (kind == LOOP_EXIT) p = Varint.put(b, p, iterations);
        return p;
    }

    /** Walks the records of one chunk. */
    public static final class Cursor {
        private final PayloadReader r;
        private final boolean cpu;
        private long nanos, cpuNanos;
        private int id, kind;
        private long iterations;

        public Cursor(byte[] records, long baseNanos) {
            this.cpu = records.length > 0 && records[0] == CPU_MARK;
            this.r = cpu ? new PayloadReader(records, 1, records.length - 1) : new PayloadReader(records);
            this.nanos = baseNanos;
            this.cpuNanos = cpu ? 0 : -1;
        }

        /**
         * Moves to the next complete record; false at the end of the chunk or at a cut record (or
         * a {@link #CPU_MARK} anywhere but first: a damaged chunk ends there).
         */
        public boolean next() {
            if (r.atEnd()) return false;
            try {
                long tag = r.varint();
                if ((tag & 7) == CPU_MARK) return false;
                long z = r.varint();
                long zc = cpu ? r.varint() : 0;
                long it = (tag & 7) == LOOP_EXIT ? r.varint() : 0;
                kind = (int) (tag & 7);
                id = (int) (tag >>> 3);
                iterations = it;
                nanos += (z >>> 1) ^ -(z & 1);
                if (cpu) cpuNanos += (zc >>> 1) ^ -(zc & 1);
                return true;
            } catch (MalformedPayloadException cut) {
                return false;
            }
        }

        /** Whether the chunk's records carry thread CPU time ({@link #CPU_MARK}). */
        public boolean hasCpu() {
            return cpu;
        }

        /**
         * The thread's CPU time at the record (ns of its thread CPU clock, cumulative), or -1
         * when the chunk carries none.
         */
        public long cpuNanos() {
            return cpuNanos;
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
        private final boolean cpu;
        private long last, lastCpu;

        /** Records without CPU time, timed relative to {@code baseNanos}, the chunk's base time. */
        public Writer(long baseNanos) {
            this(baseNanos, false);
        }

        /**
         * Records timed relative to {@code baseNanos}; {@code cpu}: they carry thread CPU time
         * (a {@link #CPU_MARK} first; add them with the methods taking {@code cpuNanos}).
         */
        public Writer(long baseNanos, boolean cpu) {
            this.last = baseNanos;
            this.cpu = cpu;
            if (cpu) out.write(CPU_MARK);
        }

        public Writer add(int id, int kind, long atNanos) {
            return add(id, kind, atNanos, 0, 0);
        }

        public Writer loopExit(int id, long atNanos, long iterations) {
            return add(id, LOOP_EXIT, atNanos, 0, iterations);
        }

        /** A record at {@code atNanos} when the thread's CPU clock read {@code cpuNanos}. */
        public Writer add(int id, int kind, long atNanos, long cpuNanos) {
            return add(id, kind, atNanos, cpuNanos, 0);
        }

        public Writer loopExit(int id, long atNanos, long cpuNanos, long iterations) {
            return add(id, LOOP_EXIT, atNanos, cpuNanos, iterations);
        }

        private Writer add(int id, int kind, long atNanos, long cpuNanos, long iterations) {
            int n = put(one, 0, id, kind, atNanos - last, cpu, cpuNanos - lastCpu, iterations);
            out.write(one, 0, n);
            last = atNanos;
            lastCpu = cpuNanos;
            return this;
        }

        public byte[] toByteArray() {
            return out.toByteArray();
        }
    }
}
