package org.hyprof.store;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.config.SkippedMethod;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.Stats;
import org.hyprof.runtime.chunk.CalibrationChunk;
import org.hyprof.runtime.chunk.EventRecords;
import org.hyprof.runtime.chunk.EventsChunk;
import org.hyprof.runtime.chunk.PayloadWriter;
import org.hyprof.runtime.chunk.SnapshotChunk;
import org.hyprof.runtime.chunk.TextChunk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an agent sends again after a reconnect (manifest, calibrations, errors, unacknowledged
 * event chunks, a full cumulative snapshot) is stored once, whether the same ingest receives it or
 * one resumed from the store by a restarted collector. Chunks are encoded in the runtime's session
 * format, into a real SQLite store.
 */
class SessionIngestTest {
    @TempDir Path dir;

    static final long MAIN = 1, CALIBRATION_THREAD = 12, LOOPS_ONLY = 13;

    static byte[] manifest() {
        Manifest m = new Manifest();
        m.add(new ProbeInfo(1, false, Resolution.METHOD, "app.Main", "work", "()V", -1, -1, 9, "Main.java"));
        m.add(new ProbeInfo(2, true, Resolution.LOOP, "app.Main", "work", "()V", 1, 0, 10, "Main.java"));
        m.addSkipped(new SkippedMethod("app.Main", "huge", "()V", "too large with probes"));
        PayloadWriter w = new PayloadWriter();
        TextChunk.encode(w, Manifest.lines(m.probes(), m.skipped()));
        return w.toByteArray();
    }

    static byte[] calibration(long atNanos) {
        PayloadWriter w = new PayloadWriter();
        new CalibrationChunk(atNanos, 30_000, 80_000, 2_000, 25_000, 1_500, 3_200, 6_400).encode(w);
        return w.toByteArray();
    }

    static byte[] error(String message) {
        PayloadWriter w = new PayloadWriter();
        TextChunk.encode(w, message);
        return w.toByteArray();
    }

    static byte[] events(long tid, long seq) {
        byte[] records = new EventRecords.Writer(1_000).add(1, EventRecords.ENTER, 999).add(1, EventRecords.EXIT, 996).toByteArray();
        PayloadWriter w = new PayloadWriter();
        new EventsChunk(tid, seq, 1_000, records).encode(w);
        return w.toByteArray();
    }

    /**
     * A snapshot taken at {@code atNanos}: main with {@code calls} calls of probe 1 and its loop;
     * the calibration thread with only the calibration probe (id 0); a thread with only a loop row.
     */
    static byte[] snapshot(long atNanos, long calls) {
        PayloadWriter e = new PayloadWriter();
        SnapshotChunk.begin(e, atNanos, Stats.HIST, 3);
        thread(e, MAIN, "main", new int[] {1, 2}, calls);
        thread(e, CALIBRATION_THREAD, "hyprof-calibration", new int[] {0}, 40_000);
        thread(e, LOOPS_ONLY, "loops-only", new int[] {2}, 3);
        return e.toByteArray();
    }

    private static void thread(PayloadWriter e, long tid, String name, int[] probes, long calls) {
        SnapshotChunk.thread(e, tid, name, 0, 0, 0, 0, 0, 0, probes.length);
        for (int id : probes) {
            long[] page = new long[Stats.STRIDE];
            page[Stats.CALLS] = page[Stats.SEEN] = calls;
            page[Stats.HIST + 5] = calls; // one histogram bucket
            SnapshotChunk.probe(e, id, page, 0, Stats.HIST, Stats.MIN, Stats.HIST, Stats.HIST_BUCKETS);
        }
    }

    /** Everything an agent sends on a (re)connection, with a snapshot of {@code calls} calls. */
    static void connection(SessionIngest in, long snapshotAtNanos, long calls) {
        in.accept(SessionFormat.MANIFEST, manifest());
        in.accept(SessionFormat.CALIBRATION, calibration(777));
        in.accept(SessionFormat.ERROR, error("probe failure: boom"));
        in.accept(SessionFormat.EVENTS, events(MAIN, 0));
        in.accept(SessionFormat.SNAPSHOT, snapshot(snapshotAtNanos, calls));
    }

    static long calls(Store s, long process, long tid, int probe) {
        return s.stats(process).stream().filter(r -> r.tid() == tid && r.probeId() == probe).mapToLong(ProbeStats::calls).sum();
    }

    static long addProcess(Store s) {
        return s.addProcess(new ProcessInfo(0, 4242, "app.Main", "vm", "aggregate", 0, 1, 2, null, ProcessInfo.RUNNING, 0,
                ProcessInfo.COLLECTOR_SOURCE + "/127.0.0.1:1"));
    }

    static void assertStoredOnce(Store s, long p, SessionIngest in, long expectedCalls) {
        assertEquals(2, s.probes(p).size());
        assertEquals(List.of(new SkippedMethod("app.Main", "huge", "()V", "too large with probes")), s.skipped(p));
        assertEquals(1, s.calibrations(p).size());
        assertEquals(List.of("error: runtime reported: probe failure: boom"), s.notes(p));
        assertEquals(1, s.eventChunkCount(p));
        assertEquals(1, in.eventChunks());
        assertEquals(expectedCalls, calls(s, p, MAIN, 1), "cumulative: the latest snapshot replaces, never adds");
        assertEquals(2, in.manifest().probes().size());
        assertEquals(1, in.manifest().skipped().size());
    }

    /**
     * A calibration chunk keeps every cost the runtime measured (the event cost's noise, a
     * count-only call, a loop hand-over); one written before those were sent (five fields) is
     * stored with them 0, unknown.
     */
    @Test
    void calibrationsKeepTheirNoiseCountOnlyAndHandOverCosts() {
        try (Store s = Store.create(dir.resolve("cal.db"))) {
            long p = addProcess(s);
            SessionIngest in = new SessionIngest(s, p);
            in.accept(SessionFormat.CALIBRATION, calibration(777));
            PayloadWriter old = new PayloadWriter();
            old.varint(888).varint(30_000).varint(81_000).varint(2_000).varint(25_000); // as CalibrationChunk wrote it before
            in.accept(SessionFormat.CALIBRATION, old.toByteArray());
            assertEquals(List.of(new CalibrationRecord(777, 30_000, 80_000, 2_000, 25_000, 1_500, 3_200, 6_400),
                    new CalibrationRecord(888, 30_000, 81_000, 2_000, 25_000, 0, 0, 0)), s.calibrations(p));
        }
    }

    @Test
    void whatAReconnectedAgentSendsAgainIsStoredOnce() {
        try (Store s = Store.create(dir.resolve("again.db"))) {
            long p = addProcess(s);
            SessionIngest in = new SessionIngest(s, p);
            connection(in, 100, 5);
            connection(in, 200, 7);
            assertStoredOnce(s, p, in, 7);
        }
    }

    @Test
    void aResumedIngestRecognisesWhatIsStored() {
        Path db = dir.resolve("resumed.db");
        long p;
        try (Store s = Store.create(db)) {
            p = addProcess(s);
            connection(new SessionIngest(s, p), 100, 5);
        }
        try (Store s = Store.open(db)) { // a collector restarted on the same session
            SessionIngest in = SessionIngest.resume(s, p);
            assertEquals(2, in.manifest().probes().size(), "the manifest is known before the agent sends it again");
            assertEquals(1, in.threadCount(), "main; not the calibration thread, not a thread with only loop rows");
            connection(in, 300, 9);
            assertStoredOnce(s, p, in, 9);
            in.accept(SessionFormat.EVENTS, events(MAIN, 1));
            assertEquals(2, in.eventChunks(), "a new chunk is stored");
        }
    }

    @Test
    void aSnapshotOlderThanTheLatestIsIgnored() {
        try (Store s = Store.create(dir.resolve("stale.db"))) {
            long p = addProcess(s);
            SessionIngest in = new SessionIngest(s, p);
            in.accept(SessionFormat.SNAPSHOT, snapshot(200, 7));
            in.accept(SessionFormat.SNAPSHOT, snapshot(100, 5)); // late, over a connection since replaced
            assertEquals(7, calls(s, p, MAIN, 1));
        }
    }

    @Test
    void anEndedThreadsFinalFiguresOvertakenByTheFinalSnapshotAreKept() {
        try (Store s = Store.create(dir.resolve("retired.db"))) {
            long p = addProcess(s);
            SessionIngest in = new SessionIngest(s, p);
            in.accept(SessionFormat.SNAPSHOT, snapshot(100, 5));
            // the runtime dropped an ended thread after writing its final figures at 150; the final
            // snapshot at 200 (which overtook them, and no longer has the thread) came first
            PayloadWriter last = new PayloadWriter();
            SnapshotChunk.begin(last, 200, Stats.HIST, 1);
            thread(last, MAIN, "main", new int[] {1, 2}, 7);
            in.accept(SessionFormat.SNAPSHOT, last.toByteArray());
            PayloadWriter ended = new PayloadWriter();
            SnapshotChunk.begin(ended, 150, Stats.HIST, 1);
            thread(ended, LOOPS_ONLY, "loops-only", new int[] {2}, 4);
            in.accept(SessionFormat.SNAPSHOT, ended.toByteArray());
            assertEquals(4, calls(s, p, LOOPS_ONLY, 2), "the ended thread's final figures");
            assertEquals(7, calls(s, p, MAIN, 1));
            in.accept(SessionFormat.SNAPSHOT, snapshot(120, 6)); // periodic, overtaken: stale for every thread in it
            assertEquals(4, calls(s, p, LOOPS_ONLY, 2));
            assertEquals(7, calls(s, p, MAIN, 1));
            assertEquals(3, s.threads(p).size(), "a thread that no longer appears keeps its row");
        }
    }

    @Test
    void threadsAreThoseThatRecordedMethodsAsReportsCountThem() {
        try (Store s = Store.create(dir.resolve("threads.db"))) {
            long p = addProcess(s);
            SessionIngest in = new SessionIngest(s, p);
            in.accept(SessionFormat.MANIFEST, manifest());
            in.accept(SessionFormat.SNAPSHOT, snapshot(100, 5));
            assertEquals(3, s.threads(p).size(), "every thread of the snapshot is stored");
            // the calibration thread (only probe 0, never a row) and a thread with only loop rows
            // are not threads of the program's methods; the report counts the same way
            assertEquals(1, in.threadCount());
            assertEquals(1, org.hyprof.correlate.Profile.load(s, p).processes().get(0).threads());
        }
    }
}
