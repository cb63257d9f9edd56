package org.hyprof.analysis;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import org.hyprof.config.ProbeInfo;
import org.hyprof.export.ExportGoldenTest;
import org.hyprof.config.Resolution;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.chunk.EventRecords;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Callers and callees summed from the event log, on the exports' golden session and a growing log. */
class CallGraphTest {
    @TempDir Path dir;

    static CallGraph.Edge edge(int caller, int callee, long calls, long recursive, long nanos) {
        return new CallGraph.Edge(caller, callee, calls, recursive, nanos);
    }

    @Test
    void callersAndCalleesOfTheGoldenSession() {
        ExportGoldenTest.timeline(dir);
        try (Store s = Store.open(dir.resolve("e.db"))) {
            CallGraph g = CallGraph.load(s, s.processes().get(0).id());
            assertEquals(2, g.chunks());
            assertEquals(6, g.calls(), "main, two fib, run, two fail (one still open)");
            // main (1) -> loop 3 -> fib (2) -> fib: the loop is not a caller, the inner fib is recursive
            assertEquals(List.of(edge(CallGraph.ROOT, 1, 1, 0, 29_000)), g.callers(1));
            assertEquals(List.of(edge(1, 2, 1, 0, 9_000)), g.callees(1));
            assertEquals(List.of(edge(1, 2, 1, 0, 9_000), edge(2, 2, 1, 1, 0)), g.callers(2),
                    "callers' times add up to fib's inclusive time (outermost calls only)");
            assertEquals(List.of(edge(2, 2, 1, 1, 0)), g.callees(2));
            // worker: run (4) -> fail (5) thrown after 2 µs, fail again open at the end (closed at the last timestamp)
            assertEquals(List.of(edge(CallGraph.ROOT, 4, 1, 0, 5_000)), g.callers(4));
            assertEquals(List.of(edge(4, 5, 2, 0, 2_000)), g.callees(4));
            assertEquals(List.of(), g.callers(3), "loops are neither callers nor callees");
            assertEquals(List.of(), g.callees(99));
        }
    }

    @Test
    void updateReplaysOnlyNewChunksAndCountsOpenCallsMeanwhile() {
        Path db = dir.resolve("live.db");
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 1, "app", "vm", "events", 1 << 20, 0, 0, null, "running", 0, "test"));
            s.addProbes(p, List.of(
                    new ProbeInfo(1, false, Resolution.THREAD, "app.T", "run", "()V", -1, -1, 1, ""),
                    new ProbeInfo(2, false, Resolution.METHOD, "app.T", "step", "()V", -1, -1, 2, "")));
            long t = 1_000;
            s.addEventChunk(p, 7, 0, t, new EventRecords.Writer(t)
                    .add(1, SessionFormat.EV_ENTER, t + 100)
                    .add(2, SessionFormat.EV_ENTER, t + 200)
                    .add(2, SessionFormat.EV_EXIT, t + 500).toByteArray());
            CallGraph.Builder b = new CallGraph.Builder(p).update(s);
            CallGraph g = b.build();
            assertEquals(List.of(edge(1, 2, 1, 0, 300)), g.callees(1));
            assertEquals(List.of(edge(CallGraph.ROOT, 1, 1, 0, 400)), g.callers(1), "run still open: counted up to the last timestamp");

            s.addEventChunk(p, 7, 1, t + 500, new EventRecords.Writer(t + 500)
                    .add(2, SessionFormat.EV_ENTER, t + 600)
                    .add(2, SessionFormat.EV_EXIT, t + 1_000)
                    .add(1, SessionFormat.EV_EXIT, t + 1_100).toByteArray());
            b.update(s);
            b.update(s); // nothing new: nothing counted twice
            assertEquals(List.of(edge(1, 2, 1, 0, 300)), g.callees(1), "a graph built earlier does not change");
            g = b.build();
            assertEquals(2, g.chunks());
            assertEquals(List.of(edge(1, 2, 2, 0, 700)), g.callees(1));
            assertEquals(List.of(edge(CallGraph.ROOT, 1, 1, 0, 1_000)), g.callers(1));
            assertEquals(3, g.calls());

            CallGraph once = CallGraph.load(s, p);
            assertEquals(g.callees(1), once.callees(1), "incremental = all at once");
            assertEquals(g.callers(1), once.callers(1));
        }
    }

    @Test
    void noEventLogNoGraph() {
        try (Store s = Store.create(dir.resolve("agg.db"))) {
            long p = s.addProcess(new ProcessInfo(0, 1, "app", "vm", "aggregate", 0, 0, 0, null, "ended", 0, "test"));
            CallGraph g = CallGraph.load(s, p);
            assertEquals(0, g.chunks());
            assertEquals(0, g.calls());
            assertTrue(g.callers(1).isEmpty());
        }
    }
}
