package org.hyprof.export;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.hyprof.analysis.CallStream;
import org.hyprof.analysis.ReplayAhead;
import org.hyprof.analysis.Timeline;
import org.hyprof.store.NativeEpoch;
import org.hyprof.store.Store;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replay read ahead on another thread hands the visitor what the plain replay does, in order; failures on either side stop both. */
class ReplayAheadTest {
    @TempDir static Path dir;
    static Path db;

    @BeforeAll
    static void session() {
        db = dir.resolve("ahead.db");
        assertTrue(SyntheticSession.create(db, 200_000, 3) >= 200_000); // about 50 batches of 4,096, three threads
    }

    /** Every call a visitor gets, as text. */
    private static class Recording implements CallStream.Visitor {
        final List<String> seen = new ArrayList<>();

        @Override
        public void thread(CallStream.ThreadRef thread) {
            seen.add("thread " + thread);
        }

        @Override
        public void open(int probeId, boolean loop, long startNanos, int depth) {
            seen.add("open4 " + probeId);
        }

        @Override
        public void open(int probeId, boolean loop, long startNanos, long startCpuNanos, int depth) {
            seen.add("open " + probeId + " " + loop + " " + startNanos + " " + startCpuNanos + " " + depth);
        }

        @Override
        public void close(Timeline.Call call, double selfEnergyMicrojoules, NativeEpoch epoch) {
            seen.add("close " + call + " " + selfEnergyMicrojoules + " " + epoch);
        }

        @Override
        public void threadEnd(CallStream.ThreadRef thread) {
            seen.add("end " + thread);
        }
    }

    @Test
    void theSameCallsInTheSameOrder() {
        try (Store s = Store.openReadOnly(db)) {
            CallStream t = CallStream.of(s, s.processes().get(0), null);
            Recording plain = new Recording(), ahead = new Recording();
            t.replay(plain);
            ReplayAhead.replay(t, ahead);
            assertEquals(3, plain.seen.stream().filter(l -> l.startsWith("thread ")).count());
            assertTrue(plain.seen.size() > 40 * 4096, "many batches: " + plain.seen.size());
            assertEquals(plain.seen.size(), ahead.seen.size());
            assertEquals(plain.seen, ahead.seen);
        }
    }

    @Test
    void aVisitorThatFailsStopsTheReplayAndItsFailureReachesTheCaller() {
        try (Store s = Store.openReadOnly(db)) {
            CallStream t = CallStream.of(s, s.processes().get(0), null);
            AtomicLong closes = new AtomicLong();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> ReplayAhead.replay(t, new Recording() {
                @Override
                public void close(Timeline.Call call, double selfEnergyMicrojoules, NativeEpoch epoch) {
                    if (closes.incrementAndGet() == 10_000) throw new IllegalStateException("disk full");
                }
            }));
            assertEquals("disk full", e.getMessage());
            assertEquals(10_000, closes.get(), "nothing after the failure");
            // the replaying thread is gone (joined): the store can be used again at once
            Recording again = new Recording();
            ReplayAhead.replay(t, again);
            assertTrue(again.seen.size() > 40 * 4096);
        }
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(th -> th.getName().equals("hyprof-replay-ahead")),
                "no replaying thread left");
    }

    @Test
    void aFailingReplayReachesTheCallerAfterTheCallsBeforeIt() {
        Recording seen = new Recording();
        try (Store s = Store.openReadOnly(db)) {
            CallStream t = CallStream.of(s, s.processes().get(0), null);
            s.close(); // the store goes away under the replay: its error, not a hang
            assertThrows(RuntimeException.class, () -> ReplayAhead.replay(t, seen));
        }
    }
}
