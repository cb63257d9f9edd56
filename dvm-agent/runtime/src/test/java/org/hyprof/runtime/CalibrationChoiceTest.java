package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which measurement of the probe costs is in effect ({@link Calibration#choose}): the first; then the
 * median by probe-event cost of the last {@link Calibration#KEPT}, so that one measurement
 * made during a few seconds of contention (1.5× on a shared machine) changes nothing, while a
 * lasting change goes into effect once it is most of them. Measurements of 0, or disturbed ones
 * (their rounds spread over a quarter of their cost), are never kept.
 */
class CalibrationChoiceTest {
    private final List<Calibration> kept = new ArrayList<>();
    private Calibration current = Calibration.NONE;

    private static Calibration event(long nanos) {
        return new Calibration(nanos * 500, nanos * 1000, 0, 30_000, 0, 500); // rounds within 0.5 ns
    }

    private Calibration measured(Calibration c) {
        current = Calibration.choose(kept, c, current);
        return current;
    }

    @Test
    void theFirstGoesIntoEffect() {
        Calibration a = event(60);
        assertSame(a, measured(a));
    }

    @Test
    void aMeasurementDuringContentionChangesNothing() {
        Calibration a = event(60);
        measured(a);
        assertSame(a, measured(event(90)), "one of two: the one in effect stays");
        assertSame(a, measured(event(61)), "the median, 61, is within the noise of 60");
        assertSame(a, measured(event(89)));
        assertSame(a, measured(event(59)), "60 is the median of 59 60 61 89 90");
    }

    @Test
    void aLastingChangeGoesIntoEffectOnceItIsMostOfThem() {
        measured(event(60));
        measured(event(90));
        Calibration c = event(88);
        assertSame(c, measured(c), "60 88 90: the median moved beyond the noise");
        assertSame(c, measured(event(89)), "within the noise of the one in effect");
        for (int i = 0; i < Calibration.KEPT; i++) measured(event(120));
        assertEquals(120_000, current.perEventPicos);
        assertEquals(Calibration.KEPT, kept.size(), "the last ones only");
        for (Calibration k : kept) assertEquals(120_000, k.perEventPicos);
    }

    @Test
    void aMeasurementOfNoCostIsNotKept() {
        Calibration zero = new Calibration(0, 0, 0, 30_000, 0);
        assertSame(zero, measured(zero), "in effect while there is nothing else, as before");
        Calibration a = event(60);
        assertSame(a, measured(a));
        assertSame(a, measured(zero), "not kept, so never the median");
        assertEquals(1, kept.size());
    }

    @Test
    void aDisturbedMeasurementIsNotKept() {
        Calibration a = event(60);
        measured(a);
        Calibration disturbed = new Calibration(75_000, 150_000, 0, 30_000, 0, 152_800); // rounds within 152.8 ns
        assertSame(a, measured(disturbed));
        assertEquals(List.of(a), kept);
        Calibration first = new Calibration(35_000, 70_000, 0, 30_000, 0, 30_000); // a start-up one within 30 ns of 70
        kept.clear();
        current = Calibration.NONE;
        assertSame(first, measured(first), "in effect while nothing steadier is there");
        Calibration b = event(61);
        assertSame(b, measured(b), "then the first steady one");
    }
}
