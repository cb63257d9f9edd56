package org.hyprof.runtime;

import static org.hyprof.runtime.ProbeTest.mine;
import static org.hyprof.runtime.ProbeTest.spin;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A count-only call's calibrated cost is charged when its slot is flushed, not by the call
 * ({@link ThreadState#countFast}): it must still come off exactly the activations that were open
 * when the call was made — the caller's, never a timed callee entered after it — by both count-only
 * paths (an {@code invokedynamic} site's fast path and the full path of {@link Probe#begin}).
 */
class CountOnlyChargeTest {
    static final int PARENT = 1, CHILD = 2, TINY = 3;
    /** A count-only call charged 2 ms, far above any scheduling noise, so a misplaced charge shows. */
    static final long COUNT_PICOS = 2_000_000_000L;
    static final long COUNT_NANOS = COUNT_PICOS / 1000;

    @BeforeEach
    void start() {
        RuntimeTesting.startQuiet();
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD, Hyprof.METHOD}, new boolean[] {true, true, true}, null);
        Recorder.calibration = new Calibration(0, 0, 0, 0, System.nanoTime(), 0, COUNT_PICOS);
        Hyprof.countOnly(TINY);
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    private static MethodHandle site() throws Throwable {
        return ProbeSites.bootstrap(MethodHandles.lookup(), "begin", MethodType.methodType(int.class), TINY).dynamicInvoker();
    }

    @Test
    void callsMadeBeforeATimedCalleeAreChargedToTheCallerNotToTheCallee() throws Throwable {
        MethodHandle tiny = site();
        int parent = Probe.begin(PARENT);
        for (int i = 0; i < 3; i++) assertEquals(0, (int) tiny.invokeExact()); // the fast path: pending in a slot
        assertEquals(0, Probe.begin(TINY)); // the full path, on the same path
        int child = Probe.begin(CHILD);
        spin(3 * COUNT_NANOS);
        Probe.end(CHILD, child);
        Probe.end(PARENT, parent);
        Snapshot.ThreadData t = mine();
        assertEquals(4, t.get(TINY, Stats.COUNT_ONLY_CALLS), "every call counted once");
        assertEquals(0, t.get(CHILD, Stats.CLAMPED), "the callee is charged none of the calls made before it");
        assertTrue(t.get(CHILD, Stats.INCL) >= 3 * COUNT_NANOS, "the callee keeps its whole time: " + t.get(CHILD, Stats.INCL));
        // the caller is charged all four (8 ms) against its raw time (a little over 6 ms): clamped
        // to what its callee recorded
        assertEquals(1, t.get(PARENT, Stats.CLAMPED), "the caller is charged the calls");
        assertEquals(t.get(CHILD, Stats.INCL), t.get(PARENT, Stats.INCL));
    }

    @Test
    void callsInsideATimedCalleeAreChargedToItAndToItsCaller() throws Throwable {
        MethodHandle tiny = site();
        int parent = Probe.begin(PARENT);
        int child = Probe.begin(CHILD);
        assertEquals(0, (int) tiny.invokeExact());
        assertEquals(0, (int) tiny.invokeExact());
        spin(6 * COUNT_NANOS);
        Probe.end(CHILD, child);
        spin(COUNT_NANOS);
        Probe.end(PARENT, parent);
        Snapshot.ThreadData t = mine();
        assertEquals(2, t.get(TINY, Stats.COUNT_ONLY_CALLS));
        long childRaw = t.get(CHILD, Stats.INCL_RAW), child2 = t.get(CHILD, Stats.INCL);
        assertEquals(2 * COUNT_NANOS, childRaw - child2, "the callee is charged its two calls, exactly");
        long parentRaw = t.get(PARENT, Stats.INCL_RAW), parentIncl = t.get(PARENT, Stats.INCL);
        assertEquals(2 * COUNT_NANOS, parentRaw - parentIncl, "and so is its caller, around them");
        assertEquals(parentIncl - child2, t.get(PARENT, Stats.EXCL), "the books add up");
    }

    @Test
    void aSlotHeldThroughManyCallsIsChargedInFull() throws Throwable {
        // past the slow paths' flush bound, on the fast path, which has none: one flush at the end
        Recorder.calibration = new Calibration(0, 0, 0, 0, System.nanoTime(), 0, 1_000);
        MethodHandle tiny = site();
        int parent = Probe.begin(PARENT);
        int n = (int) ThreadState.FLUSH_COUNTED * 2 + 5;
        for (int i = 0; i < n; i++) assertEquals(0, (int) tiny.invokeExact());
        spin(2 * n); // 1 ns charged a call: the raw time must exceed the charge
        Probe.end(PARENT, parent);
        Snapshot.ThreadData t = mine();
        assertEquals(n, t.get(TINY, Stats.COUNT_ONLY_CALLS));
        assertEquals(n, t.get(PARENT, Stats.INCL_RAW) - t.get(PARENT, Stats.INCL), "1 ns a call, every call");
    }
}
