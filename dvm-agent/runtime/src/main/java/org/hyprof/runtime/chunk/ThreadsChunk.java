package org.hyprof.runtime.chunk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * THREADS: the operating system's id of each recording thread, sent once per thread before its
 * first snapshot row, so that exports can put a thread on the same track as a system trace
 * (Perfetto, {@code atrace}, simpleperf) of the same run.
 *
 * <pre>
 * threads := count (tid osTid)*
 * </pre>
 * {@code tid} is the Java thread id the other chunks use; {@code osTid} the kernel's (Linux
 * {@code gettid}), 0 when the runtime could not read it.
 */
public final class ThreadsChunk {
    /** One thread: its Java id and its OS id (0 = unknown). */
    public static final class Row {
        public final long tid;
        public final long osTid;

        public Row(long tid, long osTid) {
            this.tid = tid;
            this.osTid = osTid;
        }
    }

    public final List<Row> rows;

    public ThreadsChunk(List<Row> rows) {
        this.rows = Collections.unmodifiableList(rows);
    }

    public static void begin(PayloadWriter w, int count) {
        w.varint(count);
    }

    public static void row(PayloadWriter w, long tid, long osTid) {
        w.varint(tid).varint(Math.max(0, osTid));
    }

    public static ThreadsChunk decode(PayloadReader r) {
        int n = r.count(2); // a row takes at least 2 bytes
        List<Row> rows = new ArrayList<Row>(n);
        for (int i = 0; i < n; i++) rows.add(new Row(r.varint(), r.varint()));
        return new ThreadsChunk(rows);
    }
}
