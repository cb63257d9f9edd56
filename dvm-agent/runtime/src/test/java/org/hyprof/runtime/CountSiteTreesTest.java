package org.hyprof.runtime;

import static org.hyprof.runtime.ProbeTest.mine;
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The calibrator's count-only trees on the JVM go through a site linked as an app's count-only
 * site is ({@link CountSiteTrees}): installed when recording starts, and every call of a tree
 * counted once, under the timed activation around the trees, whatever config the site is linked for.
 */
class CountSiteTreesTest {
    @BeforeEach
    void start() {
        RuntimeTesting.startQuiet();
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    /** The calibrator's configs: probe 0 timed, and probe 0 count-only under the same roots. */
    private static Config[] configs() {
        Config timed = new Config(new boolean[] {true}, new boolean[1], new byte[1], 0, 0, 0, false);
        Config counting = new Config(new boolean[] {true}, timed.root, new byte[1], 0, 0, 0, false, new boolean[] {true});
        return new Config[] {timed, counting};
    }

    @Test
    void startingInstallsTheSiteTrees() {
        assertTrue(Calibrator.countedTrees instanceof CountSiteTrees, "on the JVM: " + Calibrator.countedTrees);
    }

    @Test
    void everyCallOfTheTreesIsCountedOnceUnderTheTimedActivation() {
        Config[] c = configs();
        int trees = 3, depth = 4, perTree = (1 << (depth + 1)) - 1;
        long nanos = Calibrator.countedTrees.run(c[1], c[0], trees, depth, true);
        assertTrue(nanos > 0);
        Snapshot.ThreadData t = mine();
        assertEquals(trees * perTree, t.get(0, Stats.COUNT_ONLY_CALLS), "each of the trees' calls, once");
        assertEquals(1, t.get(0, Stats.CALLS), "the one timed activation around them");
        // linked again for another calibration's configs: counted the same way
        Config[] again = configs();
        Calibrator.countedTrees.run(again[1], again[0], 2, depth, true);
        assertEquals((trees + 2) * perTree, mine().get(0, Stats.COUNT_ONLY_CALLS));
    }

    @Test
    void thePlainTreesCountNothing() {
        Config[] c = configs();
        Recorder.state(); // this thread's state, so that its snapshot exists
        assertTrue(Calibrator.countedTrees.run(c[1], c[0], 2, 4, false) > 0);
        assertEquals(0, mine().get(0, Stats.COUNT_ONLY_CALLS));
        assertEquals(0, mine().get(0, Stats.CALLS));
    }
}
