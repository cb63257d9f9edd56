package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hybrid-run bookkeeping: native work charged to the nearest method activation (exclusive) and to
 * every enclosing one (inclusive), loops included; thread totals; the thread clock that replaces
 * emulator time by device time.
 */
class NativeCostTest {
    static final int A = 1, B = 2, L = 3;

    @BeforeEach
    void start() {
        RuntimeTesting.startQuiet();
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD, Hyprof.LOOP}, new boolean[] {true, true, true}, null);
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    @Test
    void nativeWorkIsExclusiveToTheBridgeAndInclusiveUpTheStack() {
        for (int i = 0; i < 2; i++) {
            Probe.enter(A);
            Probe.loopEnter(L);
            Probe.enter(B);                                // the native method's bridge
            NativeCall.charge(1_000, 2_000, 3_000, 4_000);
            Probe.exit(B);
            Probe.loopExit(L);
            Probe.exit(A);
        }
        Snapshot.ThreadData t = ProbeTest.mine();
        assertEquals(2_000, t.get(B, Stats.NATIVE_INSTR));
        assertEquals(4_000, t.get(B, Stats.NATIVE_CYCLES));
        assertEquals(6_000, t.get(B, Stats.NATIVE_EST_NS));
        assertEquals(8_000, t.get(B, Stats.NATIVE_ENERGY_PJ));
        assertEquals(2_000, t.get(B, Stats.NATIVE_INSTR_INCL));
        assertEquals(0, t.get(A, Stats.NATIVE_INSTR), "A did not call native code itself");
        assertEquals(2_000, t.get(A, Stats.NATIVE_INSTR_INCL));
        assertEquals(8_000, t.get(A, Stats.NATIVE_ENERGY_PJ_INCL));
        assertEquals(2_000, t.get(L, Stats.NATIVE_INSTR_INCL), "the loop holds the call");
        ThreadState s = Recorder.state();
        assertEquals(6_000, s.topNativeEstNanos);
        assertEquals(8_000, s.topNativeEnergyPicojoules);
    }

    @Test
    void recursionCountsNativeInclusiveOnceLikeTime() {
        Probe.enter(A);
        Probe.enter(A);
        Probe.enter(B);
        NativeCall.charge(10, 20, 30, 40);
        Probe.exit(B);
        Probe.exit(A);
        Probe.exit(A);
        Snapshot.ThreadData t = ProbeTest.mine();
        assertEquals(10, t.get(A, Stats.NATIVE_INSTR_INCL), "outermost activation only");
        assertEquals(40, Recorder.state().topNativeEnergyPicojoules);
    }

    @Test
    void nativeWorkWithNoMethodOpenStillCountsForTheThread() {
        NativeCall.charge(5, 6, 7, 8);
        ThreadState s = Recorder.state();
        assertEquals(7, s.topNativeEstNanos);
        assertEquals(8, s.topNativeEnergyPicojoules);
    }

    @Test
    void threadTotalIsTopLevelInclusiveAndMatchesExclusiveSum() {
        for (int i = 0; i < 5; i++) {
            Probe.enter(A);
            Probe.enter(B);
            ProbeTest.spin(20_000);
            Probe.exit(B);
            Probe.exit(A);
        }
        Snapshot.ThreadData t = ProbeTest.mine();
        assertEquals(t.get(A, Stats.INCL), Recorder.state().topInclNanos);
        assertEquals(t.get(A, Stats.EXCL) + t.get(B, Stats.EXCL), Recorder.state().topInclNanos,
                "no calibration: deduction is 0, so the sums are exact");
    }

    @Test
    void shiftedClockReplacesEmulatorTimeInEveryOpenActivation() {
        long before = System.nanoTime();
        Probe.enter(A);
        Probe.enter(B);
        long t0 = System.nanoTime();
        ProbeTest.spin(3_000_000);                     // "the emulator ran for a while"
        long wall = System.nanoTime() - t0;
        NativeCall.shiftClock(wall, 1_000);            // "the device would have taken 1 µs"
        Probe.exit(B);
        Probe.exit(A);
        long outside = System.nanoTime() - before - wall; // everything but the emulated stretch
        Snapshot.ThreadData t = ProbeTest.mine();
        long b = t.get(B, Stats.INCL_RAW), a = t.get(A, Stats.INCL_RAW);
        assertTrue(b >= 1_000, "at least the device time: " + b);
        assertTrue(b <= 1_000 + outside, "the emulator's time is gone: " + b + " vs device 1000 + " + outside + " outside it");
        assertTrue(a >= b && a <= 1_000 + outside, a + " " + b);
    }
}
