package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The runtime tells its listener ({@link Hyprof#onLoopsSwitchedOn}) which loop probes each change
 * of flags switches on, however the change comes (one probe, all flags, the collector's config, a
 * definition of probes that start on), and nothing for method probes, for loops already on, or for
 * changes that leave the flags alone. The JVM agent places a loop's code then.
 */
class LoopsSwitchedOnTest {
    static final int M = 1, L1 = 2, L2 = 3;
    final List<String> told = new ArrayList<>();

    @BeforeEach
    void start() {
        RuntimeTesting.startQuiet();
        Hyprof.defineProbes(M, new byte[] {Hyprof.METHOD, Hyprof.LOOP, Hyprof.LOOP}, new boolean[] {true, false, false}, null);
        Hyprof.onLoopsSwitchedOn(ids -> told.add(Arrays.toString(ids)));
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    @Test
    void eachLoopSwitchedOnIsToldOnce() {
        Hyprof.setOn(L1, true);
        Hyprof.setOn(L1, true);  // already on: no change
        Hyprof.setOn(M, false);
        Hyprof.setOn(M, true);   // a method probe: nobody is told
        Hyprof.setRules(1000, 0, 0);
        Hyprof.setRoots(new int[] {M});
        assertEquals(List.of("[2]"), told);
        Hyprof.setFlags(new boolean[] {false, true, true, true});
        assertEquals(List.of("[2]", "[3]"), told, "only the loop that was off");
        Hyprof.setFlags(new boolean[0]);
        Hyprof.applyRemoteConfig(new boolean[] {false, true, true, true}, new int[0], 0, 0, 0, false, 0);
        assertEquals(List.of("[2]", "[3]", "[2, 3]"), told, "the collector's config switching both on again");
    }

    @Test
    void loopsDefinedOnAreTold() {
        Hyprof.defineProbes(4, new byte[] {Hyprof.METHOD, Hyprof.LOOP, Hyprof.LOOP}, new boolean[] {true, true, false}, null);
        assertEquals(List.of("[5]"), told);
    }

    @Test
    void aListenerThatThrowsNeverReachesWhoeverChangedTheFlags() {
        Hyprof.onLoopsSwitchedOn(ids -> { throw new IllegalStateException("placer gone"); });
        Hyprof.setOn(L2, true);
        assertTrue(Hyprof.isOn(L2), "the flag changed all the same");
        Hyprof.onLoopsSwitchedOn(null);
        Hyprof.setOn(L1, true);
        assertTrue(told.isEmpty());
    }
}
