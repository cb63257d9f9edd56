package org.hyprof.correlate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hyprof.store.CalibrationRecord;
import org.junit.jupiter.api.Test;

class CalibrationSummaryTest {
    @Test
    void aSessionRecordedBeforeTheExtraCostsWereStoredShowsWhatItHas() {
        assertEquals("probe event 33.0 ns, inner 24.0 ns, outer 42.0 ns (1 measurement)",
                CalibrationSummary.of(List.of(new CalibrationRecord(5, 24_000, 33_000, 4_000, 25_000))));
        assertEquals("probe event 31.0 ns (min-max 29.5-31.0 ns over the run), inner 22.0 ns, outer 40.0 ns (2 measurements)",
                CalibrationSummary.of(List.of(new CalibrationRecord(5, 20_000, 29_500, 4_000, 25_000),
                        new CalibrationRecord(6, 22_000, 31_000, 4_000, 25_000))));
    }

    @Test
    void countOnlyAndHandOverCostsWithTheirMovesAndTheEventCostsNoise() {
        List<CalibrationRecord> cals = List.of(
                new CalibrationRecord(5, 24_000, 33_000, 4_000, 25_000, 0, 0, 0), // an earlier runtime's: unknown, not 0
                new CalibrationRecord(6, 24_000, 33_000, 4_000, 25_000, 400, 2_500, 7_000),
                new CalibrationRecord(7, 24_000, 33_000, 4_000, 25_000, 500, 2_800, 7_000));
        assertEquals("probe event 33.0 ns (rounds within 0.5 ns), inner 24.0 ns, outer 42.0 ns,"
                + " count-only call 2.8 ns (min-max 2.5-2.8 ns over the run), loop hand-over 7.0 ns (3 measurements)",
                CalibrationSummary.of(cals));
    }

    /**
     * The runtime deducts with the median of its last measurements and writes the figures in
     * effect again (stamped later) after a measurement that did not go into effect: the headline
     * is the one in effect, the range and the count are of the measurements, each once.
     */
    @Test
    void theOneInEffectHeadsTheLineAndRepeatsAreNotCounted() {
        CalibrationRecord low = new CalibrationRecord(5, 36_000, 60_000, 4_000, 30_000, 500, 2_800, 20_000);
        CalibrationRecord high = new CalibrationRecord(6, 49_000, 90_000, 4_000, 33_000, 600, 3_600, 26_000);
        CalibrationRecord restated = new CalibrationRecord(7, 36_000, 60_000, 4_000, 30_000, 500, 2_800, 20_000);
        List<CalibrationRecord> cals = List.of(low, high, restated);
        assertEquals(restated, CalibrationRecord.inEffect(cals));
        assertTrue(low.sameFigures(restated) && !high.sameFigures(restated));
        assertEquals(List.of(low, high), CalibrationRecord.measurements(cals));
        assertEquals("probe event 60.0 ns (rounds within 0.5 ns; min-max 60.0-90.0 ns over the run), inner 36.0 ns,"
                + " outer 84.0 ns, count-only call 2.8 ns (min-max 2.8-3.6 ns over the run), loop hand-over 20.0 ns"
                + " (min-max 20.0-26.0 ns over the run) (2 measurements)", CalibrationSummary.of(cals));
    }
}
