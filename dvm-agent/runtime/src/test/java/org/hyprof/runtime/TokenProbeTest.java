package org.hyprof.runtime;

import static org.hyprof.runtime.ProbeTest.mine;
import static org.hyprof.runtime.ProbeTest.spin;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The token API instrumented code calls ({@link Probe#begin}/{@link Probe#end}, loops counted in
 * a local): an exit closes exactly the frame its entry opened, whatever was toggled in between,
 * and the books add up (exclusive ≤ inclusive, nothing negative).
 */
class TokenProbeTest {
    static final int A = 1, B = 2, L = 3, L2 = 4;

    @BeforeEach
    void start() {
        RuntimeTesting.startQuiet();
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD, Hyprof.LOOP, Hyprof.LOOP},
                new boolean[] {true, true, true, true}, null);
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    private static void assertBooks(Snapshot.ThreadData t, int id) {
        assertTrue(t.get(id, Stats.INCL) >= 0, "inclusive ≥ 0");
        assertTrue(t.get(id, Stats.EXCL) >= 0, "exclusive ≥ 0");
        assertTrue(t.get(id, Stats.EXCL) <= t.get(id, Stats.INCL), "exclusive " + t.get(id, Stats.EXCL)
                + " ≤ inclusive " + t.get(id, Stats.INCL));
    }

    @Test
    void recursiveActivationEnteredWhileOffAndLeftWhileOnLeavesTheOuterFrameAlone() {
        int outer = Probe.begin(A);
        assertNotEquals(0, outer);
        Hyprof.setOn(A, false);
        int inner = Probe.begin(A);   // off: nothing opened
        assertEquals(0, inner);
        Hyprof.setOn(A, true);
        int b = Probe.begin(B);       // a callee of the inner activation, recorded
        spin(200_000);
        Probe.end(B, b);
        Probe.end(A, inner);          // must not close the outer frame (the id-only API did)
        spin(200_000);
        Probe.end(A, outer);
        Snapshot.ThreadData t = mine();
        assertEquals(1, t.get(A, Stats.CALLS));
        assertEquals(1, t.get(B, Stats.CALLS));
        assertEquals(1, t.get(B, Stats.OUTER_CALLS));
        assertTrue(t.get(A, Stats.INCL_RAW) >= 400_000, "the outer activation spans both spins");
        assertTrue(t.get(A, Stats.EXCL_RAW) >= 200_000 && t.get(A, Stats.EXCL_RAW) < t.get(A, Stats.INCL_RAW));
        assertBooks(t, A);
        assertBooks(t, B);
    }

    @Test
    void activationEnteredWhileOnAndLeftWhileOffIsCountedInFull() {
        int a = Probe.begin(A);
        Hyprof.setOn(A, false);
        spin(100_000);
        Probe.end(A, a);
        Snapshot.ThreadData t = mine();
        assertEquals(1, t.get(A, Stats.CALLS));
        assertTrue(t.get(A, Stats.INCL_RAW) >= 100_000);
        assertEquals(0, Probe.begin(A), "off: nothing recorded");
    }

    @Test
    void exitThrowClosesItsOwnFrameAndDropsAFrameWhoseExitNeverRan() {
        int a = Probe.begin(A);
        int b = Probe.begin(B);       // B is left by an exception through code without probes
        assertNotEquals(0, b);
        spin(100_000);
        Probe.endThrow(A, a);
        Probe.end(B, b);              // stale: B's frame is gone
        Snapshot.ThreadData t = mine();
        assertEquals(1, t.get(A, Stats.CALLS));
        assertEquals(1, t.get(A, Stats.THROWS));
        assertEquals(0, t.get(B, Stats.CALLS));
        assertEquals(0, Recorder.state().depth());
        assertBooks(t, A);
    }

    @Test
    void loopIterationsCountedInTheCodeAreHandedOverAtItsEnd() {
        int a = Probe.begin(A);
        for (int round = 0; round < 3; round++) {
            int l = Probe.loopBegin(L);
            int n = 0;
            for (int i = 0; i < 4; i++) {
                int l2 = Probe.loopBegin(L2);
                int m = 0;
                for (int j = 0; j < 5; j++) m++;
                Probe.loopEnd(L2, l2, m);
                n++;
            }
            Probe.loopEnd(L, l, n);
        }
        Probe.end(A, a);
        Snapshot.ThreadData t = mine();
        assertEquals(3, t.get(L, Stats.CALLS));
        assertEquals(12, t.get(L, Stats.ITERATIONS));
        assertEquals(12, t.get(L2, Stats.CALLS));
        assertEquals(60, t.get(L2, Stats.ITERATIONS));
        assertEquals(72, t.get(A, Stats.DIRECT_ITERS));
        assertEquals(72, t.get(A, Stats.ITERS_INSIDE));
        assertBooks(t, A);
    }

    @Test
    void aLoopLeftByAnExceptionIsClosedByItsMethodsHandlerWithItsCount() {
        int a = Probe.begin(A);
        int l = Probe.loopBegin(L);
        int n = 7;                     // back edges taken before the throw
        // the catch-all handler: loop ends first (innermost first), then the method's
        Probe.loopEnd(L, l, n);
        Probe.loopEnd(L2, 0, 0);       // a loop of the method that was not open: token 0
        Probe.endThrow(A, a);
        Snapshot.ThreadData t = mine();
        assertEquals(1, t.get(L, Stats.CALLS));
        assertEquals(7, t.get(L, Stats.ITERATIONS));
        assertEquals(0, t.get(L2, Stats.CALLS));
        assertEquals(1, t.get(A, Stats.THROWS));
    }

    @Test
    void aLoopInARecursiveMethodCountsItsInclusiveTimeOnceForTheOutermostActivation() {
        int a1 = Probe.begin(A);
        int l1 = Probe.loopBegin(L);
        spin(100_000);
        int a2 = Probe.begin(A);
        int l2 = Probe.loopBegin(L);
        spin(100_000);
        Probe.loopEnd(L, l2, 1);
        Probe.end(A, a2);
        Probe.loopEnd(L, l1, 1);
        Probe.end(A, a1);
        Snapshot.ThreadData t = mine();
        assertEquals(2, t.get(L, Stats.CALLS));
        assertEquals(1, t.get(L, Stats.OUTER_CALLS));
        assertTrue(t.get(L, Stats.INCL_RAW) <= t.get(A, Stats.INCL_RAW), "a loop's inclusive within its method's");
        assertEquals(1, t.get(A, Stats.OUTER_CALLS));
        assertBooks(t, A);
        assertBooks(t, L);
    }

    @Test
    void aProbeWhoseCallsAreTooShortGoesCountOnlyAndKeepsExactCalls() {
        // a calibration whose tiny-call threshold (3 × 1 ms) is above every call here
        Recorder.calibration = new Calibration(0, 1_000_000_000L, 0, 0, System.nanoTime());
        int calls = 5000;
        for (int i = 0; i < calls; i++) {
            int a = Probe.begin(A);
            Probe.end(A, a);
        }
        assertTrue(Recorder.config.countOnly(A), "switched after " + ThreadState.COUNT_ONLY_AFTER + " calls");
        Snapshot.ThreadData t = mine();
        assertEquals(ThreadState.COUNT_ONLY_AFTER, t.get(A, Stats.CALLS), "timed until the switch");
        assertEquals(calls, t.get(A, Stats.CALLS) + t.get(A, Stats.COUNT_ONLY_CALLS), "every call counted");
        assertTrue(t.get(A, Stats.COUNT_ONLY_MEDIAN_NS) >= 1);
        assertEquals(0, Probe.begin(A), "count-only: no frame, no token");
    }

    @Test
    void aLongCallThatDeductionBringsToZeroStaysTimed() {
        // a calibration whose count-only call (100 ms: no pause makes a call outlast three of them)
        // is far above what the count-only loops inside cost: every call of A is clamped to 0,
        // below the tiny threshold (3 × 10 ns), but its raw time (a microsecond at least) is not
        // short, so A is not switched (SciMark's FFT.bitreverse)
        Recorder.calibration = new Calibration(0, 10_000, 0, 0, System.nanoTime(), 0, 100_000_000_000L);
        Hyprof.countOnly(L);
        int calls = 3000;
        for (int i = 0; i < calls; i++) {
            int a = Probe.begin(A);
            for (int k = 0; k < 3; k++) Probe.loopEnd(L, Probe.loopBegin(L), 1);
            long until = System.nanoTime() + 1_000;
            while (System.nanoTime() < until) Thread.onSpinWait();
            Probe.end(A, a);
        }
        assertFalse(Recorder.config.countOnly(A), "a long call is not a tiny one, whatever deduction left of it");
        Snapshot.ThreadData t = mine();
        assertEquals(calls, t.get(A, Stats.CALLS), "every call timed");
        assertEquals(calls, t.get(A, Stats.CLAMPED), "and clamped: the deduction exceeded each call's raw time");
        assertEquals(3L * calls, t.get(L, Stats.COUNT_ONLY_CALLS));
    }

    @Test
    void timeAllKeepsEveryProbeTimed() {
        Recorder.countOnlyAllowed = false;
        Recorder.calibration = new Calibration(0, 1_000_000_000L, 0, 0, System.nanoTime());
        for (int i = 0; i < 3000; i++) Probe.end(A, Probe.begin(A));
        assertFalse(Recorder.config.countOnly(A));
        assertEquals(3000, mine().get(A, Stats.CALLS));
    }

    @Test
    void aCallSiteFollowsItsProbesState() throws Throwable {
        CallSite site = ProbeSites.bootstrap(MethodHandles.lookup(), "begin", MethodType.methodType(int.class), A);
        assertSame(site, ProbeSites.bootstrap(MethodHandles.lookup(), "begin", MethodType.methodType(int.class), A),
                "one call site per probe");
        MethodHandle begin = site.dynamicInvoker();
        int tok = (int) begin.invokeExact();
        assertNotEquals(0, tok);
        Probe.end(A, tok);
        Hyprof.setOn(A, false);
        assertEquals(0, (int) begin.invokeExact(), "off: the constant 0");
        Hyprof.setOn(A, true);
        Hyprof.countOnly(A);
        assertEquals(0, (int) begin.invokeExact(), "count-only: counted, no frame");
        Snapshot.ThreadData t = mine();
        assertEquals(1, t.get(A, Stats.CALLS));
        assertEquals(1, t.get(A, Stats.COUNT_ONLY_CALLS));
        assertEquals(0, Recorder.state().depth());
        assertThrows(IllegalArgumentException.class,
                () -> ProbeSites.bootstrap(MethodHandles.lookup(), "other", MethodType.methodType(int.class), A));
    }

    /**
     * The probe sites' warm-up (before the program's first timed call) builds and calls each kind
     * of handle the sites link to with stand-in targets: it links no probe's site and records
     * nothing, whatever the probes' states.
     */
    @Test
    void theWarmUpLinksNoSiteAndRecordsNothing() {
        int linked = ProbeSites.linkedSites();
        Hyprof.countOnly(B);
        assertTrue(ProbeSites.warmUpNow(), "every stand-in handle built and called");
        assertEquals(linked, ProbeSites.linkedSites());
        assertEquals(0, Recorder.state().depth());
        Snapshot.ThreadData t = mine();
        for (int id : new int[] {A, B, L, L2}) {
            assertEquals(0, t.get(id, Stats.CALLS), "probe " + id);
            assertEquals(0, t.get(id, Stats.COUNT_ONLY_CALLS), "probe " + id);
        }
    }

    /**
     * A count-only site's guard: inside a timed frame its fast path counts (the target stays);
     * a call its fast path cannot take (no frame open) takes the full path, counted the same,
     * and the site gets a fresh guard, at most {@link ProbeSites#COUNT_REFRESHES} times. A thread's
     * first call is counted on its own thread. Every call is counted once.
     */
    @Test
    void aCountOnlySiteCountsOnItsFastPathAndGetsAFreshGuardAfterItsSlowPath() throws Throwable {
        CallSite site = ProbeSites.bootstrap(MethodHandles.lookup(), "begin", MethodType.methodType(int.class), A);
        MethodHandle begin = site.dynamicInvoker();
        Hyprof.countOnly(A);
        MethodHandle guard = site.getTarget();
        int tok = Probe.begin(B);
        for (int i = 0; i < 100; i++) assertEquals(0, (int) begin.invokeExact());
        Probe.end(B, tok);
        assertSame(guard, site.getTarget(), "the fast path counted every call under the frame");
        assertEquals(100, mine().get(A, Stats.COUNT_ONLY_CALLS));
        for (int i = 0; i < ProbeSites.COUNT_REFRESHES + 3; i++) {
            assertEquals(0, (int) begin.invokeExact()); // no frame open: the full path
            if (i < ProbeSites.COUNT_REFRESHES) assertNotSame(guard, site.getTarget(), "a fresh guard after the slow path");
            else assertSame(guard, site.getTarget(), "at most COUNT_REFRESHES fresh guards");
            guard = site.getTarget();
        }
        assertEquals(100 + ProbeSites.COUNT_REFRESHES + 3, mine().get(A, Stats.COUNT_ONLY_CALLS));
        long[] other = new long[1];
        Thread th = new Thread(() -> {
            try {
                int first = (int) begin.invokeExact(); // the thread's first probe event: the full path registers it
                int t = Probe.begin(B);
                for (int i = 0; i < 7; i++) first += (int) begin.invokeExact();
                Probe.end(B, t);
                other[0] = mine().get(A, Stats.COUNT_ONLY_CALLS) + first;
            } catch (Throwable e) {
                throw new AssertionError(e);
            }
        });
        th.start();
        th.join();
        assertEquals(8, other[0], "another thread's calls on its own thread");
        assertEquals(100 + ProbeSites.COUNT_REFRESHES + 3, mine().get(A, Stats.COUNT_ONLY_CALLS));
    }

    /**
     * The target of a loop site linked for recording never hands out {@link OutOfLineLoops#COUNT_IN_CODE}
     * (C2 then folds the code's adding-up branches away, see {@link OutOfLineLoops#loopBegin}): a timed
     * activation's token is its frame, and a loop decided count-only whose site is re-linked a moment
     * late is counted by the path ({@link ThreadState#COUNT_ONLY_LOOP}).
     */
    @Test
    void aRecordingLoopSitesTokenIsAFrameOrCountedByThePath() {
        int a = Probe.begin(A);
        int timed = OutOfLineLoops.loopBegin(L);
        assertTrue(timed > 0, "a frame: " + timed);
        OutOfLineLoops.loopEnd(L, timed, 3);
        Hyprof.countOnly(L); // the site itself is not re-linked here: the next entry is "a moment late"
        int late = OutOfLineLoops.loopBegin(L);
        assertEquals(ThreadState.COUNT_ONLY_LOOP, late);
        OutOfLineLoops.loopEnd(L, late, 2);
        Probe.end(A, a);
        Snapshot.ThreadData t = mine();
        assertEquals(1, t.get(L, Stats.CALLS), "the timed activation");
        assertEquals(1, t.get(L, Stats.COUNT_ONLY_CALLS));
        assertEquals(5, t.get(L, Stats.ITERATIONS));
        Hyprof.setOn(L, false);
        assertEquals(0, OutOfLineLoops.loopBegin(L), "off: nothing recorded");
    }

    @Test
    void aCountOnlyLoopsSiteHandsOutTheConstantThatTheCodeCountsBy() throws Throwable {
        CallSite site = ProbeSites.bootstrap(MethodHandles.lookup(), "loopBegin", MethodType.methodType(int.class), L);
        MethodHandle on = site.getTarget();
        Hyprof.countOnly(L);
        assertNotSame(on, site.getTarget(), "count-only: re-targeted to the constant");
        int a = Probe.begin(A);
        int l = (int) site.dynamicInvoker().invokeExact();
        assertEquals(OutOfLineLoops.COUNT_IN_CODE, l, "the code adds the activation up itself");
        // code rewritten before it added activations up hands such a token to loopEnd: one counted
        OutOfLineLoops.loopEnd(L, l, 5);
        // the rewritten code's hand-over: 3 more activations, 12 iterations, under A's frame
        OutOfLineLoops.loopsCounted(L, 3, 12);
        OutOfLineLoops.loopsCounted(L, 0, 0); // nothing added up: nothing counted
        Probe.end(A, a);
        Snapshot.ThreadData t = mine();
        assertEquals(4, t.get(L, Stats.COUNT_ONLY_CALLS));
        assertEquals(17, t.get(L, Stats.ITERATIONS));
        assertEquals(1, t.get(A, Stats.CALLS), "the frame around them is whole");
        Hyprof.setOn(L, false);
        assertEquals(0, (int) site.dynamicInvoker().invokeExact(), "off: the constant 0");
    }

    /** A recursive walk with a loop and a short leaf, deep enough that the probe cost dominates the leaves. */
    private static long walk(int depth) {
        int a = Probe.begin(A);
        long r = depth;
        if (depth > 0) {
            int l = Probe.loopBegin(L);
            int n = 0;
            for (int i = 0; i < 2; i++, n++) r += walk(depth - 1);
            Probe.loopEnd(L, l, n);
        } else {
            int b = Probe.begin(B); // a leaf of a few ns: its deduction is all noise
            r++;
            Probe.end(B, b);
        }
        Probe.end(A, a);
        return r;
    }

    @Test
    void exclusiveTimesAddUpToTheThreadsTotalEvenWhenTheProbeCostDominates() {
        Recorder.countOnlyAllowed = false; // every call timed: the leaves must be clamped, not skipped
        // a calibration far above what the leaves take: most of them come out "negative"
        Recorder.calibration = new Calibration(500_000, 600_000, 0, 20_000, System.nanoTime());
        long sink = 0;
        for (int round = 0; round < 20; round++) {
            sink += walk(8);
            if (round == 7) Hyprof.setOn(B, false); // toggles between (and during) activations
            if (round == 12) Hyprof.setOn(B, true);
        }
        assertTrue(sink > 0);
        Snapshot.ThreadData t = mine();
        long exclusive = 0;
        for (int id : new int[] {A, B}) exclusive += t.get(id, Stats.EXCL);
        ThreadState st = Recorder.state();
        assertEquals(st.topInclNanos, exclusive, "Σ exclusive of the methods = the thread's total");
        assertEquals(t.get(A, Stats.INCL), st.topInclNanos, "A is the only top-level method");
        assertTrue(t.get(B, Stats.CLAMPED) > 0, "leaves below the probe cost are clamped and counted");
        for (int id : new int[] {A, B, L}) assertBooks(t, id);
    }

    @Test
    void aLoopTooShortToTimeGoesCountOnlyAndStillCountsItsIterations() {
        Recorder.calibration = new Calibration(0, 1_000_000_000L, 0, 0, System.nanoTime());
        int a = Probe.begin(A);
        int rounds = 3000;
        for (int r = 0; r < rounds; r++) {
            int l = Probe.loopBegin(L);
            int n = 0;
            for (int i = 0; i < 3; i++) n++;
            Probe.loopEnd(L, l, n);
        }
        Probe.end(A, a);
        assertTrue(Recorder.config.countOnly(L));
        Snapshot.ThreadData t = mine();
        assertEquals(rounds, t.get(L, Stats.CALLS) + t.get(L, Stats.COUNT_ONLY_CALLS), "every activation counted");
        assertEquals(3L * rounds, t.get(L, Stats.ITERATIONS), "every iteration counted, timed or not");
        assertEquals(3L * rounds, t.get(A, Stats.DIRECT_ITERS));
        assertEquals(0, Recorder.state().depth());
    }

    /**
     * A nested activation of a recursive method is held to its raw time less the timed events
     * inside it (its own recursion's, which going count-only takes away too); an outermost one,
     * and a loop, to its raw time as measured.
     */
    @Test
    void aNestedRecursiveCallIsTinyOnItsRawTimeLessTheTimedEventsInside() {
        Calibration cal = new Calibration(0, 40_000L, 0, 0, System.nanoTime()); // 40 ns an event
        assertEquals(120, cal.tinyNanos);
        // 500 ns raw, 20 ns deducted, 12 timed events inside (480 ns of probes)
        assertTrue(ThreadState.tinyCall(cal, false, true, 20, 500, 12), "nested: 500 - 480 ns raw");
        assertFalse(ThreadState.tinyCall(cal, false, false, 20, 500, 12), "outermost: 500 ns raw ≥ 2 × 120 ns");
        assertFalse(ThreadState.tinyCall(cal, false, true, 150, 500, 12), "nested, but 150 ns deducted");
        assertTrue(ThreadState.tinyCall(cal, false, false, 20, 200, 0), "a short call");
        assertFalse(ThreadState.tinyCall(cal, true, false, 20, 2000, 40), "a loop: its raw time as measured");
    }

    /**
     * A loop's activations are held to the loop threshold ({@link Calibration#TINY_LOOP_EVENTS} ×
     * the probe cost), a method's calls to the method one ({@link Calibration#TINY_EVENTS} ×): calls
     * and activations of the same length (between the two) leave the method timed and make the
     * loop count-only. The spins only bound durations from below; the loop's side holds as long as
     * most of its activations are not stretched by more than 600 µs.
     */
    @Test
    void aLoopIsHeldToTheHigherLoopThresholdAMethodToItsOwn() {
        Recorder.calibration = new Calibration(0, 50_000_000L, 0, 0, System.nanoTime()); // 50 µs an event
        assertEquals(150_000, Recorder.calibration.tinyNanos);
        assertEquals(800_000, Recorder.calibration.tinyLoopNanos);
        int rounds = (int) ThreadState.COUNT_ONLY_AFTER + 76;
        int a = Probe.begin(A);
        for (int r = 0; r < rounds; r++) {
            int b = Probe.begin(B);
            spin(200_000);
            Probe.end(B, b);
            int l = Probe.loopBegin(L);
            spin(200_000);
            Probe.loopEnd(L, l, 1);
        }
        Probe.end(A, a);
        assertFalse(Recorder.config.countOnly(B), "a method of 200 µs calls is not tiny at 150 µs");
        assertTrue(Recorder.config.countOnly(L), "a loop of 200 µs activations is tiny at 800 µs");
        Snapshot.ThreadData t = mine();
        assertEquals(rounds, t.get(B, Stats.CALLS), "every call of the method timed");
        assertEquals(rounds, t.get(L, Stats.CALLS) + t.get(L, Stats.COUNT_ONLY_CALLS), "every activation counted");
        assertEquals(rounds, t.get(L, Stats.ITERATIONS), "every iteration counted, timed or not");
    }
}
