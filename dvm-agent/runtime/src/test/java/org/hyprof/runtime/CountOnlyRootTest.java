package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A method the runtime decided is too short to time is timed again while it is a caller-filter
 * root (a zoom step into it): what runs under a root records only inside its frames, so a
 * count-only root would leave its loops and callees with nothing. Taken off the roots, it counts
 * only again, without the runtime deciding anew.
 */
class CountOnlyRootTest {
    static final int M = 1, LOOP = 2, CALLEE = 3, OUTER = 4;

    @BeforeEach
    void start() {
        RuntimeTesting.startQuiet();
        Hyprof.defineProbes(M, new byte[] {Hyprof.METHOD, Hyprof.LOOP, Hyprof.METHOD, Hyprof.METHOD},
                new boolean[] {true, true, true, true}, null);
        Hyprof.countOnly(M);
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    /**
     * One call of M from OUTER (whose end hands over the count-only calls made inside it): a loop
     * of 5 iterations calling CALLEE in each.
     */
    static void callM() {
        int o = Probe.begin(OUTER);
        int t = Probe.begin(M);
        int l = Probe.loopBegin(LOOP);
        for (int i = 0; i < 5; i++) Probe.end(CALLEE, Probe.begin(CALLEE));
        Probe.loopEnd(LOOP, l, 5);
        Probe.end(M, t);
        Probe.end(OUTER, o);
    }

    static long total(int id, int field) {
        return Hyprof.snapshot().total(id, field);
    }

    @Test
    void aCountOnlyMethodIsTimedWhileItIsARoot() {
        Hyprof.setRoots(new int[] {M});
        for (int i = 0; i < 3; i++) callM();
        assertEquals(3, total(M, Stats.CALLS));
        assertEquals(0, total(M, Stats.COUNT_ONLY_CALLS), "timed while a root");
        assertEquals(3, total(LOOP, Stats.CALLS), "its loop records inside its frames");
        assertEquals(15, total(LOOP, Stats.ITERATIONS));
        assertEquals(15, total(CALLEE, Stats.CALLS));

        Hyprof.setRoots(new int[0]);
        callM();
        assertEquals(3, total(M, Stats.CALLS), "timed calls");
        assertEquals(1, total(M, Stats.COUNT_ONLY_CALLS), "count-only again once no longer a root");
    }

    @Test
    void underAnotherRootItStaysCountOnly() {
        Hyprof.setRoots(new int[] {OUTER});
        callM();
        assertEquals(0, total(M, Stats.CALLS), "no timed call");
        assertEquals(1, total(M, Stats.COUNT_ONLY_CALLS));
        assertEquals(5, total(CALLEE, Stats.CALLS));
    }
}
