package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hyprof.runtime.chunk.PayloadReader;
import org.hyprof.runtime.chunk.SnapshotChunk;
import org.hyprof.runtime.chunk.TextChunk;
import org.hyprof.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's memory follows the live threads and stays within the stats budget: ended threads
 * are dropped once their final figures are in the sink, and past the budget activations are
 * dropped and counted instead of allocating.
 */
class ThreadMemoryTest {
    static final int PROBES = 40;

    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    private File start(long statsBudget) {
        return start(statsBudget, PROBES);
    }

    private File start(long statsBudget, int probes) {
        return start(statsBudget, probes, Options.DEFAULT_TREE_NODES);
    }

    private File start(long statsBudget, int probes, long treeNodes) {
        Hyprof.reset();
        File out = dir.resolve("s.hyprof").toFile();
        Options o = new Options();
        o.calibrate = false;
        o.snapshotMillis = 3_600_000; // no periodic snapshot: what is in the file came from retirement or stop
        o.out = out.getPath();
        o.statsBudgetBytes = statsBudget;
        o.treeNodes = treeNodes;
        assertTrue(Hyprof.start(o));
        byte[] kinds = new byte[probes];
        boolean[] on = new boolean[probes];
        java.util.Arrays.fill(kinds, Hyprof.METHOD);
        java.util.Arrays.fill(on, true);
        Hyprof.defineProbes(1, kinds, on, null);
        return out;
    }

    /** Calls probe id {@code times} times on this thread. */
    private static void call(int id, int times) {
        for (int i = 0; i < times; i++) Probe.end(id, Probe.begin(id));
    }

    private static Thread[] runThreads(int n, final int firstId, final int lastId) throws InterruptedException {
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            final int calls = i + 1;
            ts[i] = new Thread(new Runnable() {
                @Override
                public void run() {
                    for (int id = firstId; id <= lastId; id++) call(id, calls);
                }
            }, "worker-" + i);
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        return ts;
    }

    private static Set<Long> liveTids() {
        Set<Long> s = new HashSet<Long>();
        for (Snapshot.ThreadData t : Hyprof.snapshot().threads) s.add(t.tid);
        return s;
    }

    @Test
    void endedThreadsAreDroppedAfterTheirFiguresAreInTheSessionFile() throws Exception {
        File out = start(Recorder.DEFAULT_STATS_BUDGET);
        final Thread[] ts = runThreads(4, 1, PROBES);
        Await.until("the ended threads dropped from the runtime", new Await.Condition() {
            @Override
            public boolean holds() {
                Set<Long> live = liveTids();
                for (Thread t : ts) if (live.contains(t.getId())) return false;
                return true;
            }
        });
        assertEquals(0, Hyprof.statsBytes(), "their pages went back to the budget");
        Hyprof.stop();

        Session s = Session.read(out);
        for (int i = 0; i < ts.length; i++) {
            long tid = ts[i].getId();
            assertEquals("worker-" + i, s.names.get(tid));
            for (int id = 1; id <= PROBES; id++) {
                long[] f = s.row(tid, id);
                assertNotNull(f, "thread " + i + " probe " + id);
                assertEquals(i + 1, f[Stats.CALLS]);
                assertEquals(i + 1, f[Stats.SEEN]);
            }
            assertEquals(i + 1, s.histogramTotal(tid, 1));
        }
    }

    @Test
    void threadsEndingJustBeforeStopAreInTheFinalSnapshot() throws Exception {
        File out = start(Recorder.DEFAULT_STATS_BUDGET);
        Thread[] ts = runThreads(3, 1, 9);
        Hyprof.stop(); // retired or not by now: either way their figures are written
        Session s = Session.read(out);
        for (int i = 0; i < ts.length; i++)
            for (int id = 1; id <= 9; id++) assertEquals(i + 1, s.row(ts[i].getId(), id)[Stats.CALLS]);
    }

    @Test
    void aThreadWithManyProbesIsWrittenInSeveralChunks() throws Exception {
        int probes = 30_000; // rows of about 40 bytes: more than one chunk's worth (1 MB)
        File out = start(Recorder.DEFAULT_STATS_BUDGET, probes);
        Thread[] ts = runThreads(2, 1, probes);
        Hyprof.stop();
        Session s = Session.read(out);
        assertTrue(s.snapshotChunks > 1, "chunks: " + s.snapshotChunks);
        for (int i = 0; i < ts.length; i++)
            for (int id = 1; id <= probes; id++) assertEquals(i + 1, s.row(ts[i].getId(), id)[Stats.CALLS], "probe " + id);
    }

    @Test
    void pastTheStatsBudgetActivationsAreDroppedAndCounted() throws Exception {
        File out = start(2 * Stats.PAGE_BYTES); // two pages: probe ids 0 … 15
        Thread[] ts = runThreads(1, 1, PROBES);
        long tid = ts[0].getId();
        int dropped = PROBES - (2 * Stats.PAGE_PROBES - 1);
        assertEquals(dropped, Hyprof.statsDrops());
        Await.until("the ended thread dropped, its pages given back", new Await.Condition() {
            @Override
            public boolean holds() {
                return Hyprof.statsBytes() == 0;
            }
        });
        assertEquals(dropped, Hyprof.statsDrops(), "an ended thread's drops still count");
        call(PROBES, 1); // the budget is free again: this thread records probe 40
        Snapshot.ThreadData mine = ProbeTest.mine();
        assertEquals(1, mine.get(PROBES, Stats.CALLS));
        assertEquals(0, mine.statsDrops);
        Hyprof.stop();

        Session s = Session.read(out);
        assertEquals(1, s.row(tid, 2 * Stats.PAGE_PROBES - 1)[Stats.CALLS]);
        assertNull(s.row(tid, 2 * Stats.PAGE_PROBES), "dropped past the budget");
        assertTrue(s.errors.toString().contains("stats budget of " + 2 * Stats.PAGE_BYTES + " bytes used up"), s.errors.toString());
        assertTrue(s.errors.toString().contains(dropped + " activations were not recorded"), s.errors.toString());
    }

    @Test
    void theStatsBudgetIsAnOption() {
        assertEquals(16L << 20, Options.parse("statsBudget=16m").statsBudgetBytes);
        assertEquals(Recorder.DEFAULT_STATS_BUDGET, new Options().statsBudgetBytes);
        assertEquals(32L << 20, Recorder.DEFAULT_STATS_BUDGET, "the default README.md states");
    }

    @Test
    void aHistogramCountPast16BitsIsCarried() {
        start(Recorder.DEFAULT_STATS_BUDGET, PROBES, 0); // no tree: the probe's own record keeps every call (else its node would)
        call(1, 1);
        long[] page = Recorder.state().pages[0];
        int b = 1 * Stats.REC + Stats.R_HIST;
        for (int round = 1; round <= 2; round++) {
            for (int i = 0; i < Stats.HIST_BUCKETS / 4; i++) page[b + i] = -1L; // every bucket's 16 bits at 65,535
            call(1, 1); // whichever bucket it lands in wraps
            Snapshot.ThreadData t = ProbeTest.mine();
            long total = 0, max = 0;
            for (int h = 0; h < Stats.HIST_BUCKETS; h++) {
                total += t.get(1, Stats.HIST + h);
                max = Math.max(max, t.get(1, Stats.HIST + h));
            }
            // each round, all buckets at 65,535 and one call: one more wrap carried, one bucket at 0
            assertEquals((Stats.HIST_BUCKETS - 1) * 0xffffL + round * 0x10000L, total, "round " + round);
            if (round == 1) assertEquals(0x10000, max);
        }
    }

    /** Spins {@code nanos} of wall time inside an activation of probe 1, for each of the given durations. */
    private static Thread spinCalls(final long... nanos) {
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {
                for (long n : nanos) {
                    int token = Probe.begin(1);
                    ProbeTest.spin(n);
                    Probe.end(1, token);
                }
            }
        }, "spinner");
        t.setDaemon(true); // a hung one must not keep the test JVM alive
        t.start();
        return t;
    }

    /** Durations in seven powers of two apart (each spin at least its figure): more than a smallest table at log₂ holds. */
    static final long[] SPREAD_NANOS = {0, 1_000, 8_000, 64_000, 512_000, 4_096_000, 32_768_000};

    @Test
    void aFineHistogramThatMayNotGrowStillCountsEveryCall() throws Exception {
        // a page and one smallest fine histogram with its page of references: no bytes to grow with
        long fine = DurationHistogram.tableBytes(DurationHistogram.MIN_SLOTS) + 24 + 16 + 4L * Stats.PAGE_PROBES;
        File out = start(Stats.PAGE_BYTES + fine, PROBES, 0); // no tree: the probe's own record keeps every call
        Thread t = spinCalls(SPREAD_NANOS);
        t.join(60_000); // a deadline for a hang, not a timing: the calls take about 40 ms
        assertFalse(t.isAlive(), "the recording thread hung in its full histogram");
        Hyprof.stop();
        Session s = Session.read(out);
        assertEquals(SPREAD_NANOS.length, s.row(t.getId(), 1)[Stats.CALLS]);
        assertEquals(SPREAD_NANOS.length, s.fines.get(t.getId()).get(1).total(), "every call in the fine histogram");
    }

    @Test
    void aTreeNodeHistogramThatMayNotGrowStillCountsEveryCall() throws Exception {
        File out = start(Recorder.DEFAULT_STATS_BUDGET);
        long smallest = DurationHistogram.tableBytes(DurationHistogram.MIN_SLOTS) + 24;
        long spent = PathTree.histBytesLeft.getAndSet(smallest) - smallest; // the node's first table, no more
        try {
            Thread t = spinCalls(SPREAD_NANOS);
            t.join(60_000);
            assertFalse(t.isAlive(), "the recording thread hung in its full node histogram");
            Hyprof.stop();
            Session s = Session.read(out);
            assertEquals(SPREAD_NANOS.length, s.row(t.getId(), 1)[Stats.CALLS]);
            assertEquals(SPREAD_NANOS.length, s.fines.get(t.getId()).get(1).total(), "every call in the node's histogram");
        } finally {
            PathTree.histBytesLeft.addAndGet(spent);
        }
    }

    /** What a session file holds, read as the host does: a later row of a thread and probe replaces an earlier one. */
    static final class Session {
        final Map<Long, Map<Integer, long[]>> rows = new HashMap<Long, Map<Integer, long[]>>();
        final Map<Long, Map<Integer, long[]>> hists = new HashMap<Long, Map<Integer, long[]>>();
        final Map<Long, Map<Integer, DurationHistogram>> fines = new HashMap<Long, Map<Integer, DurationHistogram>>();
        final Map<Long, String> names = new HashMap<Long, String>();
        final List<String> errors = new ArrayList<String>();
        int snapshotChunks;

        long[] row(long tid, int id) {
            Map<Integer, long[]> m = rows.get(tid);
            return m == null ? null : m.get(id);
        }

        long histogramTotal(long tid, int id) {
            long n = 0;
            for (long v : hists.get(tid).get(id)) n += v;
            return n;
        }

        static Session read(File f) throws IOException {
            Session s = new Session();
            byte[] all = Files.readAllBytes(f.toPath());
            DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(all));
            in.skipBytes(SessionFormat.MAGIC.length);
            while (in.available() > 0) {
                int type = in.readUnsignedByte();
                byte[] payload = new byte[in.readInt()];
                in.readFully(payload);
                in.readInt(); // CRC
                if (type == SessionFormat.ERROR) s.errors.add(TextChunk.decode(new PayloadReader(payload)));
                if (type != SessionFormat.SNAPSHOT) continue;
                s.snapshotChunks++;
                SnapshotChunk c = SnapshotChunk.decode(new PayloadReader(payload), Stats.HIST, Stats.HIST_BUCKETS);
                for (SnapshotChunk.ThreadRow t : c.threads) {
                    s.names.put(t.tid, t.name);
                    if (!s.rows.containsKey(t.tid)) {
                        s.rows.put(t.tid, new HashMap<Integer, long[]>());
                        s.hists.put(t.tid, new HashMap<Integer, long[]>());
                        s.fines.put(t.tid, new HashMap<Integer, DurationHistogram>());
                    }
                    for (SnapshotChunk.ProbeRow p : t.probes) {
                        s.rows.get(t.tid).put(p.id, p.fields);
                        s.hists.get(t.tid).put(p.id, p.histogram);
                        s.fines.get(t.tid).put(p.id, p.fine);
                    }
                }
            }
            return s;
        }
    }
}
