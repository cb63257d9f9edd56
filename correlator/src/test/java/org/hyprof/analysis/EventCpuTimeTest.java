package org.hyprof.analysis;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Probe;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.SessionImporter;
import org.hyprof.store.Store;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The thread CPU time in event records (format 5) is what the aggregates were charged, through the
 * real runtime, importer and replay: without calibration nothing is deducted, so for every probe
 * the CPU time of its calls rebuilt from the records adds up exactly to the snapshot's
 * {@code cpu_incl_ns} and {@code cpu_excl_ns}, with either clock. With {@code cpuClock=off} the
 * records carry none.
 */
class EventCpuTimeTest {
    @TempDir Path dir;

    static final int MAIN = 1, SPIN = 2, WAIT = 3, OUTER = 4, LOOP = 5;

    @AfterEach
    void reset() {
        Hyprof.reset();
    }

    /** Calls that spin, sleep, and nest, under main and a loop; returns the imported store's process. */
    Store record(String clock) throws Exception {
        Hyprof.reset();
        Path session = dir.resolve(clock + ".hyprof");
        assertTrue(Hyprof.start(Options.parse("out=" + session + ",mode=events,calibrate=false,timeAll=true,cpuClock=" + clock
                + ",snapshotMillis=60000")));
        Manifest m = new Manifest();
        m.add(new ProbeInfo(MAIN, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"));
        m.add(new ProbeInfo(SPIN, false, Resolution.METHOD, "app.Main", "spin", "()V", -1, -1, 9, "Main.java"));
        m.add(new ProbeInfo(WAIT, false, Resolution.METHOD, "app.Main", "waitABit", "()V", -1, -1, 12, "Main.java"));
        m.add(new ProbeInfo(OUTER, false, Resolution.METHOD, "app.Main", "outer", "()V", -1, -1, 15, "Main.java"));
        m.add(new ProbeInfo(LOOP, true, Resolution.LOOP, "app.Main", "main", "([Ljava/lang/String;)V", MAIN, 0, 4, "Main.java"));
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD, Hyprof.METHOD, Hyprof.METHOD, Hyprof.LOOP},
                new boolean[] {true, true, true, true, true}, Manifest.lines(m.probes(), m.skipped()));
        int main = Probe.begin(MAIN);
        int loop = Probe.loopBegin(LOOP);
        for (int i = 0; i < 20; i++) {
            spin();
            int o = Probe.begin(OUTER);
            spin();
            int w = Probe.begin(WAIT);
            Thread.sleep(1);
            Probe.end(WAIT, w);
            Probe.end(OUTER, o);
        }
        Probe.loopEnd(LOOP, loop, 20);
        Probe.end(MAIN, main);
        Hyprof.stop();
        Store s = Store.create(dir.resolve(clock + ".db"));
        SessionImporter.importFile(session, s);
        return s;
    }

    static void spin() {
        int t = Probe.begin(SPIN);
        long end = System.nanoTime() + 200_000;
        while (System.nanoTime() < end) { /* busy */ }
        Probe.end(SPIN, t);
    }

    void recordsAddUpToTheAggregates(String clock) throws Exception {
        try (Store s = record(clock)) {
            ProcessInfo p = s.processes().get(0);
            List<Timeline.Call> calls = Timeline.load(s, p, null).threads.get(0).calls();
            // a method call's CPU time is its callers' callee time up to the nearest method (loops
            // are part of their method's own time), as the runtime charges it
            int n = calls.size();
            long[] children = new long[n];
            int[] parent = new int[n], lastAtDepth = new int[64];
            for (int i = 0; i < n; i++) {
                Timeline.Call c = calls.get(i);
                assertTrue(c.cpuNanos() >= 0, "CPU time in the records: " + c);
                assertTrue(c.cpuNanos() <= c.endNanos() - c.startNanos(), "at most the wall time: " + c);
                parent[i] = c.depth() == 0 ? -1 : lastAtDepth[c.depth() - 1]; // calls come in start order
                lastAtDepth[c.depth()] = i;
                if (c.loop()) continue;
                for (int k = parent[i]; k >= 0; k = parent[k]) {
                    children[k] += c.cpuNanos();
                    if (!calls.get(k).loop()) break;
                }
            }
            Map<Integer, long[]> fromRecords = new HashMap<>(); // per probe: Σ inclusive (no recursion here), Σ exclusive
            for (int i = 0; i < n; i++) {
                long[] sum = fromRecords.computeIfAbsent(calls.get(i).probeId(), k -> new long[2]);
                sum[0] += calls.get(i).cpuNanos();
                sum[1] += calls.get(i).cpuNanos() - children[i];
            }
            int rows = 0;
            for (ProbeStats st : s.stats(p.id())) {
                if (st.calls() == 0) continue;
                assertNotNull(st.cpu(), "probe " + st.probeId());
                long[] sum = fromRecords.get(st.probeId());
                assertEquals(st.cpu().inclNanos(), sum[0], "probe " + st.probeId() + " inclusive");
                assertEquals(st.cpu().exclNanos(), sum[1], "probe " + st.probeId() + " exclusive");
                rows++;
            }
            assertEquals(5, rows, "every probe has its row");
            assertTrue(fromRecords.get(SPIN)[0] > 0, "spinning took CPU time");
        }
    }

    @Test
    void dualClockRecordsAddUpToTheAggregates() throws Exception {
        recordsAddUpToTheAggregates("dual");
    }

    @Test
    void sampledClockRecordsAddUpToTheAggregates() throws Exception {
        recordsAddUpToTheAggregates("sampled");
    }

    @Test
    void withoutACpuClockTheRecordsCarryNone() throws Exception {
        try (Store s = record("off")) {
            ProcessInfo p = s.processes().get(0);
            List<Timeline.Call> calls = Timeline.load(s, p, null).threads.get(0).calls();
            assertFalse(calls.isEmpty());
            assertTrue(calls.stream().allMatch(c -> c.cpuNanos() == -1 && c.startCpuNanos() == -1), "no CPU time");
            assertTrue(s.stats(p.id()).stream().allMatch(st -> st.cpu() == null));
        }
    }
}
