package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Thread CPU time accounting: the sampler's readings are handed to the thread's state by hand
 * ({@link ThreadState#cpuSampled}), at wall times in the future, so that probes extrapolate
 * nothing and take exactly the reading: deterministic however loaded the machine is. No
 * calibration: nothing is deducted.
 */
class CpuTimeTest {
    static final int A = 1, B = 2, L = 3;
    /** Wall times of the hand-made readings: far after any System.nanoTime() of the test. */
    private final long future = System.nanoTime() + (1L << 50);
    private int readings;
    private ThreadState s;

    @BeforeEach
    void start() {
        Hyprof.reset();
        Options o = new Options();
        o.calibrate = false;
        o.snapshotMillis = 60_000;
        o.cpuClock = CpuClock.OFF; // no sampler thread: the test is the sampler
        Hyprof.start(o);
        Recorder.cpuMode = CpuClock.SAMPLED;
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD, Hyprof.LOOP}, new boolean[] {true, true, true}, null);
        s = Recorder.state();
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    private void reading(long cpuNanos) {
        s.cpuSampled(future + ++readings * 1_000_000_000L, cpuNanos);
    }

    private static Snapshot.ThreadData mine() {
        for (Snapshot.ThreadData t : Hyprof.snapshot().threads)
            if (t.tid == Thread.currentThread().getId()) return t;
        throw new AssertionError("no data for this thread");
    }

    /** Spins until at least {@code nanos} of wall time passed (so the wall clamp does not bite). */
    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) { /* busy */ }
    }

    @Test
    void cpuTimeIsTheGrowthOfTheReadingsAndExclusiveTakesOutTheCallees() {
        reading(1_000_000);
        int a = Probe.begin(A);
        spin(3_000_000);
        reading(1_500_000); // A itself: 0.5 ms
        int b = Probe.begin(B);
        spin(3_000_000);
        reading(2_500_000); // B: 1 ms
        Probe.end(B, b);
        spin(1_000_000);
        reading(2_700_000); // A again: 0.2 ms
        Probe.end(A, a);
        Snapshot.ThreadData t = mine();
        assertEquals(1_000_000, t.get(B, Stats.CPU_INCL));
        assertEquals(1_000_000, t.get(B, Stats.CPU_EXCL));
        assertEquals(1_700_000, t.get(A, Stats.CPU_INCL));
        assertEquals(700_000, t.get(A, Stats.CPU_EXCL));
        assertEquals(CpuClock.SAMPLED, t.get(A, Stats.CPU_CLOCK));
        assertTrue(t.get(A, Stats.CPU_INCL) <= t.get(A, Stats.INCL), "CPU within wall");
    }

    @Test
    void cpuTimeNeverExceedsWallTimeNorGoesBack() {
        reading(0);
        int a = Probe.begin(A);
        reading(10_000_000_000L); // 10 s of CPU in a call of microseconds: a reading out of step
        Probe.end(A, a);
        Snapshot.ThreadData t = mine();
        assertEquals(t.get(A, Stats.INCL), t.get(A, Stats.CPU_INCL), "held at the wall time");
        assertEquals(t.get(A, Stats.EXCL), t.get(A, Stats.CPU_EXCL));

        int b = Probe.begin(B);
        reading(5); // a reading below what was handed out already: no negative time
        Probe.end(B, b);
        t = mine();
        assertEquals(0, t.get(B, Stats.CPU_INCL));
        assertEquals(0, t.get(B, Stats.CPU_EXCL));
    }

    @Test
    void aWaitingCallerKeepsOnlyItsOwnCpuTime() {
        reading(0);
        int a = Probe.begin(A);
        int b = Probe.begin(B);
        spin(2_000_000);
        reading(2_000_000); // B spun
        Probe.end(B, b);
        spin(2_000_000);    // A "waits": the reading does not move
        reading(2_000_000);
        Probe.end(A, a);
        Snapshot.ThreadData t = mine();
        assertEquals(2_000_000, t.get(A, Stats.CPU_INCL));
        assertEquals(0, t.get(A, Stats.CPU_EXCL));
        assertTrue(t.get(A, Stats.EXCL) >= 2_000_000, "its wall time is there");
    }

    @Test
    void loopsGetCpuTimeAndTheirMethodKeepsItInItsExclusiveTime() {
        reading(0);
        int a = Probe.begin(A);
        int l = Probe.loopBegin(L);
        spin(2_000_000);
        reading(1_200_000);
        Probe.loopEnd(L, l, 3);
        Probe.end(A, a);
        Snapshot.ThreadData t = mine();
        assertEquals(1_200_000, t.get(L, Stats.CPU_INCL));
        assertEquals(1_200_000, t.get(A, Stats.CPU_EXCL), "a loop is part of its method's own time");
    }

    @Test
    void probesExtrapolateAtTheRateOfThePeriodBeforeTheLastReading() {
        s.cpuSampled(future, 1_000);
        s.cpuSampled(future + 1_000, 1_500); // half a core
        assertEquals(1_500 + 1_000, s.cpuAt(future + 3_000));
        s.cpuSampled(future + 4_000, 1_000_000); // more CPU than wall time since the reading before: out of step
        assertEquals(2_500 + 1_500, s.cpuAt(future + 4_500), "no more than the wall time since the value before");
        assertEquals(4_000 + 1_000, s.cpuAt(future + 5_500), "one core at most");
        s.cpuSampled(future + 6_000, 10); // a reading below what was handed out
        assertEquals(5_000, s.cpuAt(future + 9_000), "never back below what was handed out");
        assertEquals(5_000, s.cpuAt(future + 4_000), "a wall time before the last value's extrapolates nothing");
    }

    @Test
    void dualModeReadsTheThreadsOwnClock() {
        Recorder.cpuClock = CpuClock.forThisVm();
        assertNotNull(Recorder.cpuClock, "a JVM on Linux has thread CPU clocks");
        Recorder.cpuMode = CpuClock.DUAL;
        int a = Probe.begin(A);
        long before = Recorder.cpuClock.currentThreadCpuNanos();
        while (Recorder.cpuClock.currentThreadCpuNanos() - before < 2_000_000) { /* busy until 2 ms of CPU */ }
        Probe.end(A, a);
        Snapshot.ThreadData t = mine();
        assertTrue(t.get(A, Stats.CPU_INCL) >= 2_000_000, "spun for 2 ms of CPU: " + t.get(A, Stats.CPU_INCL));
        assertTrue(t.get(A, Stats.CPU_INCL) <= t.get(A, Stats.INCL));
        assertEquals(CpuClock.DUAL, t.get(A, Stats.CPU_CLOCK));
    }

    /**
     * A reading older than two sampler periods (the sampler's thread waited for a core): the probe
     * reads its own thread's clock rather than extrapolate from it at a rate that no longer holds.
     */
    @Test
    void aLateSamplerIsReplacedByTheThreadsOwnReading() {
        Recorder.cpuClock = CpuClock.forThisVm();
        assertNotNull(Recorder.cpuClock, "a JVM on Linux has thread CPU clocks");
        Recorder.cpuStaleNanos = 4_000_000;
        long past = System.nanoTime() - 1_000_000_000L;
        s.cpuSampled(past - 1_000_000_000L, 0);
        s.cpuSampled(past, 1_000_000_000L); // one core over the second before it, a second ago
        long now = System.nanoTime();
        long ownBefore = Recorder.cpuClock.currentThreadCpuNanos();
        long v = s.cpuAt(now);
        long ownAfter = Recorder.cpuClock.currentThreadCpuNanos();
        // extrapolated, the stale reading would say 2 s of CPU; the thread's own clock says what it used
        assertTrue(v >= ownBefore && v <= ownAfter, v + " not within the thread's own readings " + ownBefore + ".." + ownAfter);
        assertEquals(now, s.cpuSample.wallNanos, "the thread's reading is the new sample");
        // a fresh reading is not replaced: probes within two periods extrapolate from it
        ThreadState.CpuSample fresh = s.cpuSample;
        s.cpuAt(now + 1_000_000);
        assertSame(fresh, s.cpuSample);
        // without a sampler (stale = never) nothing is read
        Recorder.cpuStaleNanos = Long.MAX_VALUE;
        s.cpuAt(now + 1_000_000_000L);
        assertSame(fresh, s.cpuSample);
    }

    @Test
    void theSamplerReadsEveryLiveThread() throws Exception {
        Recorder.cpuClock = CpuClock.forThisVm();
        final ThreadState[] other = new ThreadState[1];
        final java.util.concurrent.CountDownLatch registered = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Thread w = new Thread(() -> {
            other[0] = Recorder.state();
            registered.countDown();
            try { done.await(); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
        });
        w.start();
        registered.await();
        ThreadState.CpuSample first = other[0].cpuSample;
        assertNotNull(first, "baseline read on the thread itself at registration");
        Recorder.sampleCpu();
        assertNotSame(first, other[0].cpuSample, "a pass of the sampler reads it");
        assertTrue(other[0].cpuSample.cpuNanos >= first.cpuNanos);
        done.countDown();
        w.join();
    }

    @Test
    void optionsSpellTheModes() {
        assertEquals(CpuClock.DUAL, Options.parse("cpuClock=dual").cpuClock);
        assertEquals(CpuClock.OFF, Options.parse("cpuClock=off").cpuClock);
        assertEquals(CpuClock.SAMPLED, new Options().cpuClock);
        assertEquals(500, Options.parse("cpuSampleMicros=500").cpuSampleMicros);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Options.parse("cpuClock=thread"));
        assertEquals("cpuClock must be sampled, dual or off, not 'thread'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Options.parse("cpuSampleMicros=5"));
    }
}
