package org.hyprof.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.hyprof.config.ConfigException;
import org.hyprof.config.Manifest;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.Stats;

/**
 * Loads a runtime session file into a {@link Store} as one process. A damaged or truncated file
 * (the process was killed mid-write) gives its valid prefix; the damage and a missing clean end
 * are recorded as import notes and returned.
 */
public final class SessionImporter {
    private SessionImporter() {}

    /** What was imported. */
    public record Result(long processId, String processName, int probes, int threads, long statsRows,
                         long eventChunks, long eventDrops, boolean cleanEnd, List<String> notes) {}

    public static Result importFile(Path sessionFile, Store store) throws IOException {
        try (SessionReader r = new SessionReader(sessionFile)) {
            Properties header = null;
            Manifest manifest = new Manifest();
            List<CalibrationRecord> cals = new ArrayList<>();
            Map<Long, ThreadInfo> threads = new LinkedHashMap<>();
            Map<Long, ProbeStats> stats = new HashMap<>(); // (tid << 32 | probe) -> latest
            List<Object[]> events = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            Long endWall = null;
            long endDrops = -1;
            for (SessionReader.Chunk c; (c = r.next()) != null; ) {
                SessionReader.Payload p = new SessionReader.Payload(c.payload());
                try {
                    switch (c.type()) {
                        case SessionFormat.HEADER -> {
                            header = new Properties();
                            header.load(new java.io.StringReader(p.string()));
                        }
                        case SessionFormat.MANIFEST -> manifest.addAll(Manifest.parse(p.string(), sessionFile + " (manifest)"));
                        case SessionFormat.CALIBRATION -> cals.add(new CalibrationRecord(p.varint(), p.varint(),
                                p.varint(), p.varint(), p.varint()));
                        case SessionFormat.SNAPSHOT -> readSnapshot(p, threads, stats);
                        case SessionFormat.EVENTS -> {
                            long tid = p.varint(), seq = p.varint(), base = p.varint();
                            int len = (int) p.varint();
                            events.add(new Object[] {tid, seq, base, p.bytes(len)});
                        }
                        case SessionFormat.ERROR -> notes.add("error: runtime reported: " + p.string());
                        case SessionFormat.END -> {
                            endWall = p.varint();
                            p.varint();
                            endDrops = p.varint();
                        }
                        default -> { }
                    }
                } catch (IllegalStateException | ConfigException e) {
                    notes.add("warning: " + sessionFile + ": chunk at byte " + c.offset() + " unreadable (" + e.getMessage() + "), skipped");
                }
            }
            if (header == null) throw new IOException(sessionFile + ": no session header (empty or damaged at the start)");
            if (r.damage() != null) notes.add("warning: " + r.damage());
            boolean clean = endWall != null;
            if (!clean) notes.add("warning: " + sessionFile + ": no clean end (process killed or still running?): data up to the last snapshot");
            long drops = 0;
            for (ThreadInfo t : threads.values()) drops += t.eventDrops();
            if (endDrops > drops) drops = endDrops;
            if (drops > 0) notes.add("warning: " + drops + " events dropped: the event-log budget was used up (raise --budget)");

            String status = r.damage() != null ? "damaged" : clean ? "ended" : "crashed";
            final Properties h = header;
            final long fDrops = drops;
            final Long fEnd = endWall;
            long[] pid = new long[1];
            store.inTransaction(() -> {
                pid[0] = store.addProcess(new ProcessInfo(0, longOf(h, "pid"), h.getProperty("process", "?"),
                        h.getProperty("vm", ""), h.getProperty("mode", "aggregate"), longOf(h, "budgetBytes"),
                        longOf(h, "startWallMillis"), longOf(h, "startNanos"), fEnd, status, fDrops,
                        sessionFile.toAbsolutePath().toString()));
                store.addProbes(pid[0], manifest.probes());
                store.addSkipped(pid[0], manifest.skipped());
                for (CalibrationRecord cr : cals) store.addCalibration(pid[0], cr);
                for (ThreadInfo t : threads.values()) store.putThread(pid[0], t);
                store.putStats(pid[0], stats.values());
                for (Object[] e : events) store.addEventChunk(pid[0], (Long) e[0], (Long) e[1], (Long) e[2], (byte[]) e[3]);
                for (String n : notes) {
                    int colon = n.indexOf(": ");
                    store.addNote(pid[0], n.substring(0, colon), n.substring(colon + 2));
                }
            });
            return new Result(pid[0], h.getProperty("process", "?"), manifest.probes().size(), threads.size(),
                    stats.size(), events.size(), drops, clean, notes);
        }
    }

    private static void readSnapshot(SessionReader.Payload p, Map<Long, ThreadInfo> threads, Map<Long, ProbeStats> stats) {
        p.varint(); // nanoTime of the snapshot
        long nThreads = p.varint();
        for (long t = 0; t < nThreads; t++) {
            long tid = p.varint();
            String name = p.string();
            long depthDrops = p.varint();
            long eventDrops = p.varint();
            threads.put(tid, new ThreadInfo(tid, name, eventDrops, depthDrops));
            long count = p.varint();
            for (long k = 0; k < count; k++) {
                int id = (int) p.varint();
                long[] f = new long[Stats.HIST];
                for (int i = 0; i < f.length; i++) f[i] = p.varint();
                long[] hist = new long[Stats.HIST_BUCKETS];
                long nonEmpty = p.varint();
                for (long h = 0; h < nonEmpty; h++) {
                    int b = (int) p.varint();
                    long v = p.varint();
                    if (b >= 0 && b < hist.length) hist[b] = v;
                }
                if (id == 0) continue; // the runtime's calibration probe
                stats.put((tid << 32) | (id & 0xffffffffL), new ProbeStats(tid, id, f[Stats.CALLS], f[Stats.INCL_RAW],
                        f[Stats.EXCL_RAW], f[Stats.INCL], f[Stats.EXCL], f[Stats.MIN], f[Stats.MAX], f[Stats.OUTER_CALLS],
                        f[Stats.EVENTS_INSIDE], f[Stats.ITERS_INSIDE], f[Stats.CHILD_CALLS], f[Stats.DIRECT_LOOP_EVENTS],
                        f[Stats.DIRECT_ITERS], f[Stats.ITERATIONS], f[Stats.THROWS], f[Stats.SEEN], hist));
            }
        }
    }

    private static long longOf(Properties h, String key) {
        try {
            return Long.parseLong(h.getProperty(key, "0").trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
