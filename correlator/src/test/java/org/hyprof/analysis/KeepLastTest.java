package org.hyprof.analysis;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Probe;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.SessionImporter;
import org.hyprof.store.Store;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flight recorder ({@code keep=last}) through the real runtime, importer and replay: a log
 * budget far smaller than the run keeps its last calls, counts what it overwrote, and the calls
 * around the cut (main, the last phase) are reconstructed, so every kept call nests in its parent.
 */
class KeepLastTest {
    @TempDir Path dir;

    static final int MAIN = 1, EARLY = 2, LATE = 3, LOOP = 4;
    static final int EARLY_CALLS = 200_000, LATE_CALLS = 2_000;

    @AfterEach
    void reset() {
        Hyprof.reset();
    }

    Path record(String keep) {
        Hyprof.reset();
        Path session = dir.resolve(keep + ".hyprof");
        // 4 buffers of 64 KiB: a few tens of thousands of records, far fewer than the run's 400,000+
        Options o = Options.parse("out=" + session + ",mode=events,budget=256k,keep=" + keep
                + ",calibrate=false,snapshotMillis=60000");
        assertTrue(Hyprof.start(o));
        Manifest m = new Manifest();
        m.add(new ProbeInfo(MAIN, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"));
        m.add(new ProbeInfo(EARLY, false, Resolution.METHOD, "app.Main", "early", "()V", -1, -1, 9, "Main.java"));
        m.add(new ProbeInfo(LATE, false, Resolution.METHOD, "app.Main", "late", "()V", -1, -1, 12, "Main.java"));
        m.add(new ProbeInfo(LOOP, true, Resolution.LOOP, "app.Main", "main", "([Ljava/lang/String;)V", MAIN, 0, 4, "Main.java"));
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD, Hyprof.METHOD, Hyprof.LOOP},
                new boolean[] {true, true, true, true}, Manifest.lines(m.probes(), m.skipped()));
        int main = Probe.begin(MAIN);
        int loop = Probe.loopBegin(LOOP);
        for (int i = 0; i < EARLY_CALLS; i++) Probe.end(EARLY, Probe.begin(EARLY));
        Probe.loopEnd(LOOP, loop, EARLY_CALLS);
        for (int i = 0; i < LATE_CALLS; i++) Probe.end(LATE, Probe.begin(LATE));
        Probe.end(MAIN, main);
        Hyprof.stop();
        return session;
    }

    @Test
    void keepsTheLastCallsWellNestedAndCountsTheOverwritten() throws Exception {
        Path session = record("last");
        try (Store s = Store.create(dir.resolve("last.db"))) {
            SessionImporter.Result r = SessionImporter.importFile(session, s);
            ProcessInfo p = s.processes().get(0);
            long made = 1 + 1 + EARLY_CALLS + LATE_CALLS; // calls and loops, 2 records each
            assertTrue(p.eventDrops() > 0 && p.eventDrops() < 2 * made, "overwritten records counted as drops: " + p.eventDrops());
            List<String> notes = s.notes(p.id());
            assertTrue(notes.stream().anyMatch(n -> n.startsWith("info: keep last: " + p.eventDrops() + " of the dropped events were overwritten")),
                    notes.toString());
            Timeline t = Timeline.load(s, p, null);
            assertEquals(1, t.threads.size());
            List<Timeline.Call> calls = t.threads.get(0).calls();
            long late = calls.stream().filter(c -> c.probeId() == LATE).count();
            long early = calls.stream().filter(c -> c.probeId() == EARLY).count();
            assertEquals(LATE_CALLS, late, "the last phase is kept whole");
            assertTrue(early > 0 && early < EARLY_CALLS, "the first phase's oldest calls were overwritten: " + early);
            List<Timeline.Call> mains = calls.stream().filter(c -> c.probeId() == MAIN).toList();
            assertEquals(1, mains.size(), "main, opened before the cut, is reconstructed once");
            Timeline.Call m = mains.get(0);
            assertEquals(0, m.depth());
            assertFalse(m.closedAtEnd(), "main's own exit is in the log");
            assertEquals(1, calls.stream().filter(c -> c.probeId() == LOOP).count(), "the loop around the cut, once");
            assertNested(calls);
            // main, reconstructed, starts where the kept log does (its earlier part was overwritten)
            assertEquals(calls.stream().mapToLong(Timeline.Call::startNanos).min().orElseThrow(), m.startNanos());
            assertTrue(calls.stream().allMatch(c -> c.endNanos() <= m.endNanos()));
            // the thread CPU clock (the default, sampled) comes through the cut too: every call has
            // its CPU time, within its wall time, and main's holds every other's
            for (Timeline.Call c : calls)
                assertTrue(c.cpuNanos() >= 0 && c.cpuNanos() <= c.endNanos() - c.startNanos(), c::toString);
            assertTrue(calls.stream().allMatch(c -> c.startCpuNanos() >= m.startCpuNanos() && c.endCpuNanos() <= m.endCpuNanos()));
        }
    }

    @Test
    void keepFirstKeepsTheFirstCallsAndDropsTheRest() throws Exception {
        Path session = record("first");
        try (Store s = Store.create(dir.resolve("first.db"))) {
            SessionImporter.Result r = SessionImporter.importFile(session, s);
            ProcessInfo p = s.processes().get(0);
            assertTrue(p.eventDrops() > 0);
            assertTrue(s.notes(p.id()).stream().noneMatch(n -> n.startsWith("info: keep last")), s.notes(p.id()).toString());
            List<Timeline.Call> calls = Timeline.load(s, p, null).threads.get(0).calls();
            assertEquals(0, calls.stream().filter(c -> c.probeId() == LATE).count(), "the last phase is past the budget");
            assertNested(calls);
        }
    }

    /** Calls in start order: each one's depth is the number of kept calls around it, and it lies inside them. */
    static void assertNested(List<Timeline.Call> calls) {
        Deque<Timeline.Call> open = new ArrayDeque<>();
        for (Timeline.Call c : calls) {
            while (!open.isEmpty() && open.peek().endNanos() <= c.startNanos() && open.peek().endNanos() < c.endNanos()) open.pop();
            assertEquals(open.size(), c.depth(), () -> "depth of " + c + " inside " + open);
            if (!open.isEmpty()) {
                Timeline.Call parent = open.peek();
                assertTrue(parent.startNanos() <= c.startNanos() && c.endNanos() <= parent.endNanos(), c + " outside " + parent);
            }
            open.push(c);
        }
    }
}
