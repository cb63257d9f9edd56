package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.*;

import org.hyprof.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The runtime's bookkeeping, driven by direct probe calls (what instrumented code does). */
class ProbeTest {
    static final int A = 1, B = 2, C = 3, L = 4, L2 = 5, OFF = 6;

    @BeforeEach
    void start() {
        RuntimeTesting.startQuiet();
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD, Hyprof.METHOD, Hyprof.LOOP, Hyprof.LOOP, Hyprof.METHOD},
                new boolean[] {true, true, true, true, true, false}, null);
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    static Snapshot.ThreadData mine() {
        for (Snapshot.ThreadData t : Hyprof.snapshot().threads)
            if (t.tid == Thread.currentThread().getId()) return t;
        throw new AssertionError("no data for this thread");
    }

    static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) { /* busy */ }
    }

    @Test
    void nestedCallsCountExactlyAndExclusiveAddsUp() {
        for (int i = 0; i < 3; i++) {
            Probe.enter(A);
            spin(100_000);
            for (int j = 0; j < 2; j++) {
                Probe.enter(B);
                Probe.enter(C);
                spin(50_000);
                Probe.exit(C);
                Probe.exit(B);
            }
            Probe.exit(A);
        }
        Snapshot.ThreadData t = mine();
        assertEquals(3, t.get(A, Stats.CALLS));
        assertEquals(6, t.get(B, Stats.CALLS));
        assertEquals(6, t.get(C, Stats.CALLS));
        assertEquals(6, t.get(A, Stats.CHILD_CALLS));
        long excl = t.get(A, Stats.EXCL_RAW) + t.get(B, Stats.EXCL_RAW) + t.get(C, Stats.EXCL_RAW);
        assertEquals(t.get(A, Stats.INCL_RAW), excl, "Σ raw exclusive = root's raw inclusive");
        assertTrue(t.get(C, Stats.INCL_RAW) >= 6 * 50_000);
        assertTrue(t.get(A, Stats.MIN) <= t.get(A, Stats.MAX));
        long hist = 0;
        for (int b = 0; b < Stats.HIST_BUCKETS; b++) hist += t.get(A, Stats.HIST + b);
        assertEquals(3, hist);
        assertEquals(0, Recorder.state().depth());
    }

    /** A probe called once keeps no fine histogram (its one time is its min); from the second call on it counts every timed call. */
    @Test
    void fineHistogramFromTheSecondCallCountsEveryTimedCall() {
        // without a tree: with one, the calls' node would hold them (PathTreeTest)
        Hyprof.reset();
        Options o = new Options();
        o.calibrate = false;
        o.snapshotMillis = 60_000;
        o.treeNodes = 0;
        Hyprof.start(o);
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD}, new boolean[] {true}, null);
        Probe.enter(A);
        spin(10_000);
        Probe.exit(A);
        ThreadState s = Recorder.state();
        DurationHistogram[][] fp = s.finePages;
        assertTrue(fp == null || fp.length <= A >>> Stats.PAGE_SHIFT || fp[A >>> Stats.PAGE_SHIFT] == null
                || fp[A >>> Stats.PAGE_SHIFT][A & (Stats.PAGE_PROBES - 1)] == null, "nothing for one call");
        for (int i = 0; i < 300; i++) {
            Probe.enter(A);
            spin(1_000 + 500L * i);
            Probe.exit(A);
        }
        DurationHistogram h = s.finePages[A >>> Stats.PAGE_SHIFT][A & (Stats.PAGE_PROBES - 1)];
        assertEquals(301, h.total());
        assertEquals(mine().get(A, Stats.CALLS), h.total());
        assertTrue(h.slots() > DurationHistogram.MIN_SLOTS, "grown for the spread");
        long[] d = h.dense();
        int first = 0;
        while (d[first] == 0) first++;
        assertEquals(Buckets.index(mine().get(A, Stats.MIN), Buckets.SUB_BITS), first, "the shortest call's bucket");
    }

    @Test
    void recursionCountsOutermostActivationOnlyForInclusive() {
        recurse(5);
        Snapshot.ThreadData t = mine();
        assertEquals(6, t.get(A, Stats.CALLS));
        assertEquals(1, t.get(A, Stats.OUTER_CALLS));
        assertEquals(t.get(A, Stats.INCL_RAW), t.get(A, Stats.EXCL_RAW), "all time is A's own");
        assertTrue(t.get(A, Stats.INCL_RAW) >= 6 * 10_000);
    }

    private void recurse(int n) {
        Probe.enter(A);
        spin(10_000);
        if (n > 0) recurse(n - 1);
        Probe.exit(A);
    }

    @Test
    void exceptionalExitsAndFramesLeftOpenAreClosed() {
        Probe.enter(A);
        Probe.enter(B);
        Probe.enter(C);       // C never exits: an exception went through code without probes
        Probe.exitThrow(B);   // B's handler closes B and discards C
        Probe.exit(A);
        Probe.exit(B);        // unmatched exit: ignored
        Snapshot.ThreadData t = mine();
        assertEquals(1, t.get(A, Stats.CALLS));
        assertEquals(1, t.get(B, Stats.CALLS));
        assertEquals(1, t.get(B, Stats.THROWS));
        assertEquals(0, t.get(C, Stats.CALLS));
        assertEquals(0, Recorder.state().depth());
    }

    @Test
    void loopsCountIterationsAndCloseAtMethodExit() {
        Probe.enter(A);
        Probe.loopEnter(L);
        for (int i = 0; i < 10; i++) {
            Probe.loopEnter(L2);
            for (int j = 0; j < 3; j++) Probe.loopIter(L2);
            Probe.loopExit(L2);
            Probe.loopIter(L);
        }
        Probe.loopEnter(L2);   // left by a return: closed by A's exit
        Probe.loopIter(L2);
        Probe.exit(A);
        Snapshot.ThreadData t = mine();
        assertEquals(1, t.get(L, Stats.CALLS));
        assertEquals(10, t.get(L, Stats.ITERATIONS));
        assertEquals(11, t.get(L2, Stats.CALLS));
        assertEquals(31, t.get(L2, Stats.ITERATIONS));
        assertEquals(1, t.get(A, Stats.CALLS));
        assertEquals(0, Recorder.state().depth());
    }

    @Test
    void offProbesRecordNothingAndTogglesTakeEffect() {
        Probe.enter(OFF);
        Probe.exit(OFF);
        assertEquals(0, Hyprof.snapshot().total(OFF, Stats.CALLS));
        Hyprof.setOn(OFF, true);
        Probe.enter(OFF);
        Probe.exit(OFF);
        assertEquals(1, mine().get(OFF, Stats.CALLS));
        // switched off while open: the frame is discarded by the next exit further out
        Probe.enter(A);
        Probe.enter(OFF);
        Hyprof.setOn(OFF, false);
        Probe.exit(OFF);
        Probe.exit(A);
        assertEquals(1, mine().get(OFF, Stats.CALLS));
        assertEquals(1, mine().get(A, Stats.CALLS));
        assertEquals(0, Recorder.state().depth());
    }

    @Test
    void outOfRangeIdsNeverThrow() {
        Probe.enter(-1);
        Probe.exit(1 << 30);
        Probe.loopIter(-5);
        Probe.loopExit(Integer.MAX_VALUE);
        Probe.exitThrow(Integer.MIN_VALUE);
        assertNull(Hyprof.failure());
    }

    @Test
    void callerFilterRecordsOnlyUnderRoots() {
        Hyprof.setRoots(new int[] {A});
        Probe.enter(B);
        Probe.exit(B);           // outside A: not recorded
        Probe.enter(A);
        Probe.enter(B);
        Probe.exit(B);           // inside A: recorded
        Probe.exit(A);
        Snapshot.ThreadData t = mine();
        assertEquals(1, t.get(A, Stats.CALLS));
        assertEquals(1, t.get(B, Stats.CALLS));
    }

    @Test
    void rulesMinCallsMaxDepthMinDuration() {
        Hyprof.setRules(0, 2, 0);
        for (int i = 0; i < 5; i++) { Probe.enter(B); Probe.exit(B); }
        assertEquals(3, mine().get(B, Stats.CALLS), "first 2 calls skipped");
        Hyprof.setRules(0, 0, 1);
        Probe.enter(A); Probe.enter(C); Probe.exit(C); Probe.exit(A);
        assertEquals(1, mine().get(A, Stats.CALLS));
        assertEquals(0, mine().get(C, Stats.CALLS), "deeper than 1");
        Hyprof.setRules(1_000_000, 0, 0);
        long t0 = System.nanoTime();
        Probe.enter(C); Probe.exit(C);
        long emptyNanos = System.nanoTime() - t0;   // at least what the probes measured
        Probe.enter(C); spin(2_000_000); Probe.exit(C);
        // a loaded machine may stretch even the empty call past 1 ms (then it counts too): every
        // call recorded lasted ≥ 1 ms, and the empty one counts only if it did
        long calls = mine().get(C, Stats.CALLS);
        if (emptyNanos < 1_000_000) assertEquals(1, calls, "only the call ≥ 1 ms");
        else assertTrue(calls == 1 || calls == 2, "the call ≥ 1 ms, and the empty one if it took that long: " + calls);
        assertTrue(mine().get(C, Stats.MIN) >= 1_000_000, "every call recorded lasted ≥ 1 ms: " + mine().get(C, Stats.MIN));
    }

    @Test
    void deductionTakesCalibratedCostOut() {
        Recorder.calibration = new Calibration(10_000, 20_000, 1_000, 0, 0); // 10 ns, 20 ns, 1 ns
        Probe.enter(A);
        for (int i = 0; i < 100; i++) { Probe.enter(B); Probe.exit(B); }
        Probe.exit(A);
        Snapshot.ThreadData t = mine();
        long raw = t.get(A, Stats.INCL_RAW);
        long expected = Math.max(0, (raw * 1000 - 10_000 - 200 * 20_000L) / 1000);
        assertEquals(expected, t.get(A, Stats.INCL));
        assertEquals(200, t.get(A, Stats.EVENTS_INSIDE));
        assertEquals(100, t.get(A, Stats.CHILD_CALLS));
    }

    /** What the runtime computes, in its fixed point: value in ns minus costs in 1/1024 ns. */
    static long deducted(long rawNanos, long costFx) {
        return ((rawNanos << Calibration.FX_SHIFT) - costFx) >> Calibration.FX_SHIFT;
    }

    @Test
    void aRecalibrationWhileAnActivationIsOpenChargesEachEventAtItsOwnCost() {
        Calibration first = new Calibration(10_000, 20_000, 1_000, 0, 0);   // 10 ns inner, 20 ns per event
        Calibration second = new Calibration(30_000, 50_000, 3_000, 0, 0);  // 30 ns inner, 50 ns per event
        Recorder.calibration = first;
        Probe.enter(A);
        for (int i = 0; i < 100; i++) { Probe.enter(B); Probe.exit(B); }
        Recorder.calibration = second;                                       // the periodic recalibration
        for (int i = 0; i < 50; i++) { Probe.enter(B); Probe.exit(B); }
        Probe.exit(A);
        Snapshot.ThreadData t = mine();
        long inside = 200 * first.perEventFx + 100 * second.perEventFx;
        assertEquals(deducted(t.get(A, Stats.INCL_RAW), second.innerFx + inside), t.get(A, Stats.INCL),
                "200 events at 20 ns, 100 at 50 ns, the inner part at exit");
        // exclusive: each callee's outer part at the calibration of its exit
        long outer = 100 * first.outerFx + 50 * second.outerFx;
        assertEquals(deducted(t.get(A, Stats.EXCL_RAW), second.innerFx + outer), t.get(A, Stats.EXCL));
        // B's calls: the first 100 deducted with the first calibration, the rest with the second
        assertEquals(150, t.get(B, Stats.CALLS));
        assertEquals(300, t.get(A, Stats.EVENTS_INSIDE));
    }

    @Test
    void loopExclusiveTimeLeavesOutItsCalleesAndTheirProbes() {
        Calibration cal = new Calibration(10_000, 20_000, 1_000, 0, 0);
        Recorder.calibration = cal;
        Probe.enter(A);
        Probe.loopEnter(L);
        for (int i = 0; i < 20; i++) {
            Probe.enter(B);
            spin(20_000);
            Probe.exit(B);
            Probe.loopIter(L);
        }
        Probe.loopExit(L);
        Probe.exit(A);
        Snapshot.ThreadData t = mine();
        assertEquals(20, t.get(L, Stats.CHILD_CALLS));
        assertEquals(t.get(L, Stats.INCL_RAW) - t.get(B, Stats.INCL_RAW), t.get(L, Stats.EXCL_RAW));
        assertEquals(deducted(t.get(L, Stats.EXCL_RAW), cal.innerFx + 20 * cal.outerFx + 20 * cal.perIterFx), t.get(L, Stats.EXCL));
        assertTrue(t.get(L, Stats.EXCL) <= t.get(L, Stats.INCL), "a loop's exclusive time is part of its inclusive time");
        // the method: its callees' outer parts, the loop's two timed events and its iterations
        assertEquals(deducted(t.get(A, Stats.EXCL_RAW), cal.innerFx + 20 * cal.outerFx + 2 * cal.perEventFx + 20 * cal.perIterFx),
                t.get(A, Stats.EXCL));
    }

    @Test
    void maxDepthWithRecursionRecordsTheOuterActivationsOnly() {
        Hyprof.setRules(0, 0, 2);
        recurse(5);                                   // A six deep: depth 1 and 2 recorded
        Snapshot.ThreadData t = mine();
        assertEquals(2, t.get(A, Stats.CALLS));
        assertEquals(1, t.get(A, Stats.OUTER_CALLS));
        assertTrue(t.get(A, Stats.INCL_RAW) >= 6 * 10_000, "the outermost call includes the unrecorded ones");
        assertEquals(0, Recorder.state().depth());
        // a loop inside an unrecorded call is not recorded either
        Probe.enter(A); Probe.enter(B);
        Probe.enter(C); Probe.loopEnter(L); Probe.loopIter(L); Probe.loopExit(L); Probe.exit(C);
        Probe.exit(B); Probe.exit(A);
        assertEquals(0, mine().get(L, Stats.CALLS));
        assertEquals(0, mine().get(C, Stats.CALLS));
        assertEquals(1, mine().get(B, Stats.CALLS));
        assertEquals(0, Recorder.state().depth());
    }

    @Test
    void calibrationMeasuresPositiveCosts() throws InterruptedException {
        // the per-event cost is a difference of two timed runs (with and without probes): on a
        // loaded machine one calibration can be all noise (the run without probes preempted, the
        // difference 0), so calibrate until one measures both costs, as the periodic recalibration would
        Calibration c = Await.until("a calibration with positive costs", () -> Hyprof.calibrate(true),
                x -> x.perEventPicos > 0 && x.innerPicos > 0);
        // the inner part is capped at the enter+exit pair's cost, which perEvent halves in whole picoseconds
        assertTrue(c.innerPicos <= 2 * c.perEventPicos + 1, c.toString());
        for (Snapshot.ThreadData t : Hyprof.snapshot().threads)
            assertNotEquals("hyprof-calibration", t.name, "calibration never shows in the data");
    }

    /**
     * The start-up calibration's first-call exercise (Calibrator.firstCalls) runs probe events on
     * threads of its own, of probe ids a program has: none of them is ever registered (a snapshot
     * would show it, the reporter would send an ended one's figures to the session), their stats
     * pages go back to the budget, and the costs it deducts meanwhile (none being in effect yet)
     * are taken back.
     */
    @Test
    void theFirstCallExerciseLeavesNoThreadAndGivesItsStatsPagesBack() throws InterruptedException {
        Probe.enter(A);
        Probe.exit(A); // this thread's page is taken before the figure is read
        long statsBytes = Recorder.statsBytes();
        int threads = Recorder.threads().length;
        Calibration inEffect = Recorder.calibration;
        Calibrator.freshThread(new Config(new boolean[] {true}, new boolean[1], new byte[1], 0, 0, 0, false));
        assertEquals(statsBytes, Recorder.statsBytes(), "the exercise's stats pages are given back");
        assertEquals(threads, Recorder.threads().length, "no thread of the exercise stays");
        assertSame(inEffect, Recorder.calibration, "its provisional costs are taken back");
        Hyprof.calibrate(false); // the exercise in place: the same
        assertEquals(statsBytes, Recorder.statsBytes());
        assertEquals(threads, Recorder.threads().length);
        // never registered, even while it runs: a live collector's snapshot may come at any time
        ThreadState[] made = new ThreadState[1];
        Thread t = new Calibrator.FirstCallsThread(() -> made[0] = Recorder.state());
        t.start();
        t.join();
        assertNotNull(made[0]);
        assertFalse(java.util.Arrays.asList(Recorder.threads()).contains(made[0]), "a first-call thread's state is never registered");
    }

    @Test
    void threadsKeepSeparateStacks() throws Exception {
        Thread[] ts = new Thread[4];
        // the threads stay alive until the snapshot is taken: the reporter retires the state of an
        // ended thread (its figures go to the session, not to Hyprof.snapshot) within 50 ms
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(ts.length);
        java.util.concurrent.CountDownLatch taken = new java.util.concurrent.CountDownLatch(1);
        for (int k = 0; k < ts.length; k++) {
            ts[k] = new Thread(() -> {
                for (int i = 0; i < 1000; i++) { Probe.enter(A); Probe.enter(B); Probe.exit(B); Probe.exit(A); }
                done.countDown();
                try {
                    taken.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            ts[k].start();
        }
        done.await();
        Snapshot s = Hyprof.snapshot();
        taken.countDown();
        for (Thread t : ts) t.join();
        assertEquals(4000, s.total(A, Stats.CALLS));
        assertEquals(4000, s.total(B, Stats.CALLS));
    }
}
