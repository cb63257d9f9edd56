package org.hyprof.runtime;

/**
 * Events mode: one thread's log of compact records in a preallocated buffer.
 *
 * <p>Record: varint({@code id << 3 | kind}), zigzag varint(nanos since the previous record of the
 * chunk, the first one relative to the chunk's base time), and for {@link #LOOP_EXIT} a varint
 * iteration count. A full buffer goes to the {@link Sink} as one chunk and is recycled. When the
 * user's log budget is used up, records are dropped <em>and counted</em>; the count is in every
 * snapshot and report.
 */
final class EventLog {
    static final int ENTER = 0;
    static final int EXIT = 1;
    /** Exit by exception (or a frame closed because an outer frame exited): an unwind. */
    static final int THROW = 2;
    static final int LOOP_ENTER = 3;
    static final int LOOP_EXIT = 4;

    /** Longest record: 5 (tag) + 10 (delta) + 10 (iterations). */
    private static final int MAX_RECORD = 25;

    private final ThreadState owner;
    private byte[] buf;
    private int pos;
    private long baseNanos;
    private long lastNanos;
    private int seq;
    private boolean exhausted;
    /** Records dropped because the log budget was used up. */
    long dropped;

    EventLog(ThreadState owner) {
        this.owner = owner;
    }

    void record(int id, int kind, long now, long extra) {
        byte[] b = buf;
        if (b == null || pos + MAX_RECORD > b.length) {
            if (exhausted || !next(now)) { dropped++; return; }
            b = buf;
        }
        int p = pos;
        p = Varint.put(b, p, ((long) id << 3) | kind);
        long delta = now - lastNanos;
        p = Varint.put(b, p, (delta << 1) ^ (delta >> 63));
        if (kind == LOOP_EXIT) p = Varint.put(b, p, extra);
        lastNanos = now;
        pos = p;
    }

    /** Hands the full buffer to the sink and takes a fresh one within the budget. */
    private boolean next(long now) {
        flush();
        byte[] n = Recorder.acquireBuffer();
        if (n == null) { exhausted = true; return false; }
        buf = n;
        pos = 0;
        baseNanos = now;
        lastNanos = now;
        return true;
    }

    /** Sends what is buffered. Called by the owner, or by the writer at shutdown. */
    void flush() {
        byte[] b = buf;
        int len = pos;
        if (b != null && len > 0) {
            buf = null;
            pos = 0;
            Recorder.sink().events(owner, seq++, baseNanos, b, len);
        }
    }
}
