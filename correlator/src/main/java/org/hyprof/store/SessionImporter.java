package org.hyprof.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.hyprof.config.ConfigException;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.chunk.PayloadReader;
import org.hyprof.runtime.chunk.TextChunk;

/**
 * Loads a runtime session file into a {@link Store} as one process. A damaged or truncated file
 * (the process was killed mid-write) gives its valid prefix; the damage and a missing clean end
 * are recorded as import notes and returned.
 *
 * <p>A file of a run the session holds already (the same pid, start wall-clock time and start
 * {@code nanoTime} in its header as a process row: an agent's spill file, written at exit with
 * what its collector had not acknowledged, or the session file it wrote beside the stream) goes
 * into that row, as a reconnecting agent's chunks do ({@link SessionIngest#resume}): event chunks
 * already stored are not stored again and the cumulative snapshot replaces the stored counts, so
 * nothing is counted twice, however often the file is imported.
 */
public final class SessionImporter {
    private SessionImporter() {}

    /** What was imported. */
    /** {@code resumed}: the file went into a process row the session had (the same run). */
    public record Result(long processId, String processName, int probes, int threads, long eventChunks,
                         long eventDrops, boolean cleanEnd, List<String> notes, boolean resumed) {}

    public static Result importFile(Path sessionFile, Store store) throws IOException {
        try (SessionReader r = new SessionReader(sessionFile)) {
            SessionReader.Chunk first = r.next();
            if (first == null || first.type() != SessionFormat.HEADER)
                throw new IOException(sessionFile + ": no session header (empty or damaged at the start)");
            Properties h = new Properties();
            try {
                h.load(new java.io.StringReader(TextChunk.decode(new PayloadReader(first.payload()))));
            } catch (IllegalArgumentException e) {
                throw new IOException(sessionFile + ": unreadable session header (" + e.getMessage() + ")");
            }
            List<String> notes = new ArrayList<>();
            SessionIngest[] in = new SessionIngest[1];
            IOException[] failure = new IOException[1];
            Long same = sameRun(store, h);
            store.inTransaction(() -> {
                long pid = same != null ? same : store.addProcess(new ProcessInfo(0, longOf(h, "pid"), h.getProperty("process", "?"),
                        h.getProperty("vm", ""), h.getProperty("mode", "aggregate"), longOf(h, "budgetBytes"),
                        longOf(h, "startWallMillis"), longOf(h, "startNanos"), null, "crashed", 0,
                        sessionFile.toAbsolutePath().toString()));
                in[0] = same != null ? SessionIngest.resume(store, pid) : new SessionIngest(store, pid);
                try {
                    for (SessionReader.Chunk c; (c = r.next()) != null; ) {
                        if (c.type() == SessionFormat.HEADER) continue;
                        try {
                            in[0].accept(c.type(), c.payload());
                        } catch (IllegalArgumentException | IllegalStateException | ConfigException e) {
                            notes.add("warning: " + sessionFile + ": chunk at byte " + c.offset() + " unreadable ("
                                    + e.getMessage() + "), skipped");
                        }
                    }
                } catch (IOException e) {
                    failure[0] = e;
                    return;
                }
                if (r.damage() != null) {
                    notes.add("warning: " + r.damage());
                    store.updateProcessStatus(pid, "damaged");
                }
                if (!in[0].ended())
                    notes.add("warning: " + sessionFile + ": no clean end (process killed or still running?): data up to the last snapshot");
                // keep=last: overwriting is the point; the runtime's own note says how many
                if (in[0].drops() > 0 && !"last".equals(h.getProperty("keep")))
                    notes.add("warning: " + in[0].drops() + " events dropped: the event-log budget was used up (raise --budget,"
                            + " or --keep last to keep the last events instead of the first)");
                for (String n : notes) {
                    int colon = n.indexOf(": ");
                    store.addNote(pid, n.substring(0, colon), n.substring(colon + 2));
                }
            });
            if (failure[0] != null) throw failure[0];
            SessionIngest s = in[0];
            return new Result(s.processId(), h.getProperty("process", "?"), s.probeCount(), s.threadCount(),
                    s.eventChunks(), s.drops(), s.ended(), notes, same != null);
        }
    }

    /**
     * The process row of the run this header names (pid and both start times), or null. Asked of
     * the store for that row only: listing every process made each import allocate in proportion
     * to the session's size (a 172-byte file, 8.6 MB into a session of thousands of processes).
     */
    private static Long sameRun(Store store, Properties h) {
        long pid = longOf(h, "pid"), wall = longOf(h, "startWallMillis"), nanos = longOf(h, "startNanos");
        if (wall == 0 && nanos == 0) return null; // no identity to match
        return store.processOfRun(pid, wall, nanos);
    }

    static long longOf(Properties h, String key) {
        try {
            return Long.parseLong(h.getProperty(key, "0").trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
