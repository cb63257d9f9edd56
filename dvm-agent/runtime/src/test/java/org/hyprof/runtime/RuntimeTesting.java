package org.hyprof.runtime;

/**
 * For host-side tests (in this module's test-jar) that record a session through the real runtime:
 * what the runtime's own tests do by reaching into the package, behind a public door.
 */
public final class RuntimeTesting {
    private RuntimeTesting() {}

    /**
     * Puts a calibration in effect and in the session, as {@link Hyprof#calibrate} does with a
     * measured one: a chosen probe cost makes chosen calls tiny (below
     * {@link Calibration#TINY_EVENTS} × {@code perEventPicos}), whatever the machine.
     */
    public static void useCalibration(Calibration c) {
        Recorder.calibration = c;
        Recorder.sink().calibration(c);
    }

    /**
     * Forgets everything recorded and starts recording to nowhere, without calibration (deduction
     * then takes nothing out) and without periodic snapshots: what most runtime tests start from.
     */
    public static void startQuiet() {
        Hyprof.reset();
        Options o = new Options();
        o.calibrate = false;
        o.snapshotMillis = 60_000;
        Hyprof.start(o);
    }
}
