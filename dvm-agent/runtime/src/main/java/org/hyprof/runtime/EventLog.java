package org.hyprof.runtime;

import org.hyprof.runtime.chunk.EventRecords;

/**
 * Events mode: one thread's log of compact records in a preallocated buffer.
 *
 * <p>Records are in {@link EventRecords}' format (it owns their encoding and decoding). A full
 * buffer goes to the {@link Sink} as one chunk and is recycled. When the
 * user's log budget is used up, records are dropped <em>and counted</em>; the count is in every
 * snapshot and report.
 */
final class EventLog {
    static final int ENTER = EventRecords.ENTER;
    static final int EXIT = EventRecords.EXIT;
    /** Exit by exception (or a frame closed because an outer frame exited): an unwind. */
    static final int THROW = EventRecords.THROW;
    static final int LOOP_ENTER = EventRecords.LOOP_ENTER;
    static final int LOOP_EXIT = EventRecords.LOOP_EXIT;

    private static final int MAX_RECORD = EventRecords.MAX_RECORD;

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
        pos = EventRecords.put(b, pos, id, kind, now - lastNanos, extra);
        lastNanos = now;
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
