package org.hyprof.collector;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hyprof.live.LiveSession;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Probe;
import org.hyprof.runtime.Snapshot;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime, streaming to a real collector on loopback, drops the states of threads that ended
 * once their final figures are sent (issue 23): the session keeps their per-thread rows, with the
 * collector connection alone and with a session file beside it (TeeSink).
 */
class RetiredThreadsTest {
    static final int PROBES = 20;

    @TempDir Path dir;
    final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        Hyprof.reset();
        for (int i = closeables.size() - 1; i >= 0; i--) closeables.get(i).close();
    }

    @Test
    void endedThreadsFiguresReachTheCollectorBeforeTheirStatesAreDropped() throws Exception {
        run(false);
    }

    @Test
    void theSameWithASessionFileBeside() throws Exception {
        run(true);
    }

    private void run(boolean file) throws Exception {
        Hyprof.reset();
        Store store = Store.create(dir.resolve("s.db"));
        closeables.add(store);
        LiveSession live = new LiveSession(store);
        Collector c = new Collector("127.0.0.1", 0, null, live, live, line -> { });
        int port = c.start();
        closeables.add(c);

        Options o = new Options();
        o.calibrate = false;
        o.snapshotMillis = 3_600_000; // no periodic snapshot: the rows come from retirement
        o.connect = "127.0.0.1:" + port;
        if (file) o.out = dir.resolve("s.hyprof").toString();
        assertTrue(Hyprof.start(o));
        byte[] kinds = new byte[PROBES];
        boolean[] on = new boolean[PROBES];
        Arrays.fill(kinds, Hyprof.METHOD);
        Arrays.fill(on, true);
        Hyprof.defineProbes(1, kinds, on, null);

        Thread[] ts = new Thread[3];
        for (int i = 0; i < ts.length; i++) {
            final int calls = i + 1;
            ts[i] = new Thread(() -> {
                for (int id = 1; id <= PROBES; id++) for (int k = 0; k < calls; k++) Probe.end(id, Probe.begin(id));
            }, "worker-" + i);
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        Await.until("the ended threads dropped from the runtime", () -> {
            Set<Long> liveTids = new HashSet<>();
            for (Snapshot.ThreadData t : Hyprof.snapshot().threads) liveTids.add(t.tid);
            for (Thread t : ts) if (liveTids.contains(t.getId())) return false;
            return true;
        });
        Await.until("their rows stored by the collector", () -> rows(store, ts[2].getId()).size() == PROBES);
        Hyprof.stop();

        for (int i = 0; i < ts.length; i++) {
            List<ProbeStats> rows = rows(store, ts[i].getId());
            assertEquals(PROBES, rows.size(), "worker-" + i);
            for (ProbeStats r : rows) assertEquals(i + 1, r.calls(), "worker-" + i + " probe " + r.probeId());
        }
    }

    private static List<ProbeStats> rows(Store store, long tid) {
        List<ProbeStats> r = new ArrayList<>();
        for (ProcessInfo p : store.processes())
            for (ProbeStats s : store.stats(p.id())) if (s.tid() == tid) r.add(s);
        return r;
    }
}
