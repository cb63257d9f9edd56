package org.hyprof.runtime;

/**
 * Measured probe costs on the running VM, used to deduct the profiler's own time.
 *
 * <p>For an activation with raw inclusive time R and e timed probe events strictly inside it:
 * deducted inclusive = R − inner − e·perEvent (loop iterations are counted in the code, at no
 * probe cost; {@link #perIterPicos} is what the id-only API's {@code loopIter} call costs).
 * Deducted exclusive = deducted inclusive − Σ deducted inclusive of the direct callees, which is
 * the raw exclusive time less inner, each callee's outer part (outer = 2·perEvent − inner) and the
 * loop events in it, and which makes exclusive times add up to the thread's total exactly. An
 * activation whose deduction would fall below what its callees recorded is clamped there (see
 * {@code ThreadState.deduct}).
 * Immutable: published through a plain field, safe by final-field semantics.
 */
public final class Calibration {
    /** Part of a recording probe pair that falls inside the activation's own measured interval. */
    public final long innerPicos;
    /** Full cost of one timed probe event (enter or exit) as seen by an enclosing activation. */
    public final long perEventPicos;
    /** Full cost of one loop-iteration event. */
    public final long perIterPicos;
    /** System.nanoTime() when measured. */
    public final long measuredAtNanos;
    /** The cost of one System.nanoTime() call, for reference. */
    public final long clockPicos;

    /**
     * The same costs in fixed point, 1/1024 ns units, for the hot path: deduction there is
     * shifts, multiplications and subtractions, no division (a 64-bit division costs 20-40
     * cycles, more than the rest of the arithmetic together).
     */
    final long innerFx, perEventFx, perIterFx, outerFx;
    static final int FX_SHIFT = 10;

    /**
     * Calls whose deducted time is below this are too short to time honestly: 3 × the cost of a
     * probe event, the size of the calibration's own noise on such calls. A probe whose median call
     * is below it goes count-only (see {@code ThreadState.maybeCountOnly}). 0 when uncalibrated.
     */
    public final long tinyNanos;
    /** How many probe events' cost the tiny-call threshold is. */
    public static final int TINY_EVENTS = 3;

    /**
     * The tiny-call threshold of a loop's activations: {@link #TINY_LOOP_EVENTS} × the cost of a
     * probe event, so a loop stays timed only where its activation's two events are at most an
     * eighth of its time. Higher than a method's because going count-only costs a loop next to
     * nothing and loses nothing of its method's time: its activations and iterations stay exact,
     * the code adds them up in locals (JVM), and their time is in the method's exclusive time.
     * Timed, an activation of a few hundred nanoseconds kept two clock reads and two calls in the
     * loop around it: CallHeavy's {@code loops} (a 120-iteration loop inside another) ran 1.5×
     * as long as plain, and ~1.0× once that loop went count-only (bench/README, 2026-12-02).
     * 0 when uncalibrated.
     */
    public final long tinyLoopNanos;
    /** How many probe events' cost a loop activation's tiny threshold is. */
    public static final int TINY_LOOP_EVENTS = 16;

    /**
     * The noise of {@link #perEventPicos} in the measurement that produced it: the spread of its
     * rounds, extremes dropped (0 when unknown). A new measurement within this (or 5 %) of the one in
     * effect does not replace it, so deduction stays the same across a run unless the cost moved.
     */
    public final long perEventSpreadPicos;
    /**
     * Cost of one call of a count-only probe (its entry counts, its exit is a no-op), measured in
     * recursive trees of such calls under a timed activation ({@link Calibrator}): deducted from
     * the activations around it, like a probe event (0 when unknown).
     */
    public final long countPicos;
    final long countFx;
    /**
     * Cost of handing over count-only loop activations that the code added up (one call for any
     * number of them; see {@code ThreadState.loopsCounted}): deducted per hand-over (0 when unknown).
     */
    public final long loopFlushPicos;
    final long loopFlushFx;

    public Calibration(long innerPicos, long perEventPicos, long perIterPicos, long clockPicos,
                       long measuredAtNanos) {
        this(innerPicos, perEventPicos, perIterPicos, clockPicos, measuredAtNanos, 0);
    }

    public Calibration(long innerPicos, long perEventPicos, long perIterPicos, long clockPicos,
                       long measuredAtNanos, long perEventSpreadPicos) {
        this(innerPicos, perEventPicos, perIterPicos, clockPicos, measuredAtNanos, perEventSpreadPicos, 0);
    }

    public Calibration(long innerPicos, long perEventPicos, long perIterPicos, long clockPicos,
                       long measuredAtNanos, long perEventSpreadPicos, long countPicos) {
        this(innerPicos, perEventPicos, perIterPicos, clockPicos, measuredAtNanos, perEventSpreadPicos, countPicos, 0);
    }

    public Calibration(long innerPicos, long perEventPicos, long perIterPicos, long clockPicos,
                       long measuredAtNanos, long perEventSpreadPicos, long countPicos, long loopFlushPicos) {
        this.loopFlushPicos = loopFlushPicos;
        this.loopFlushFx = toFx(loopFlushPicos);
        this.perEventSpreadPicos = perEventSpreadPicos;
        this.countPicos = countPicos;
        this.countFx = toFx(countPicos);
        this.innerPicos = innerPicos;
        this.perEventPicos = perEventPicos;
        this.perIterPicos = perIterPicos;
        this.clockPicos = clockPicos;
        this.measuredAtNanos = measuredAtNanos;
        this.innerFx = toFx(innerPicos);
        this.perEventFx = toFx(perEventPicos);
        this.perIterFx = toFx(perIterPicos);
        this.outerFx = toFx(outerPicos());
        this.tinyNanos = TINY_EVENTS * perEventPicos / 1000;
        this.tinyLoopNanos = TINY_LOOP_EVENTS * perEventPicos / 1000;
    }

    private static long toFx(long picos) {
        return (picos << FX_SHIFT) / 1000;
    }

    /** Part of a callee's probe pair charged to its caller, in picoseconds. */
    public long outerPicos() {
        return Math.max(0, 2 * perEventPicos - innerPicos);
    }

    static final Calibration NONE = new Calibration(0, 0, 0, 0, 0);

    /** The same figures, stamped {@code atNanos}: the calibration in effect restated in the session after another measurement. */
    Calibration restatedAt(long atNanos) {
        return new Calibration(innerPicos, perEventPicos, perIterPicos, clockPicos, atNanos, perEventSpreadPicos, countPicos,
                loopFlushPicos);
    }

    /** Measurements a run's calibration in effect is chosen from (its last ones; {@link #choose}). */
    static final int KEPT = 7;
    /** A measurement whose rounds spread more than 1/DISTURBED of its event cost was disturbed ({@link #choose}). */
    static final int DISTURBED = 4;

    /**
     * The calibration in effect after {@code measured} joins {@code kept} (the last {@link #KEPT}
     * with positive costs, oldest first, updated here): their median by probe-event cost, or
     * {@code current} while that is one of the middle two of an even count, or kept and within
     * the noise of the median. A measurement of no cost (all noise), or whose rounds spread more
     * than 1/{@link #DISTURBED} of its event cost (preempted by the program's own threads, a GC:
     * periodic measurements on a busy machine read 150 ns within a run of 60), is not kept, and
     * goes into effect only while nothing is kept. {@link Hyprof#calibrate} holds a run's
     * measurements so.
     */
    static Calibration choose(java.util.List<Calibration> kept, Calibration measured, Calibration current) {
        boolean steady = measured.perEventSpreadPicos <= measured.perEventPicos / DISTURBED;
        if (measured.perEventPicos > 0 && measured.innerPicos > 0 && steady) {
            kept.add(measured);
            if (kept.size() > KEPT) kept.remove(0);
        }
        if (kept.isEmpty()) return current.movedBeyondNoise(measured) ? measured : current;
        Calibration[] s = kept.toArray(new Calibration[0]);
        java.util.Arrays.sort(s, new java.util.Comparator<Calibration>() {
            @Override
            public int compare(Calibration a, Calibration b) {
                return a.perEventPicos < b.perEventPicos ? -1 : a.perEventPicos == b.perEventPicos ? 0 : 1;
            }
        });
        Calibration lower = s[(s.length - 1) / 2], upper = s[s.length / 2];
        if (current == lower || current == upper) return current;
        // one no longer kept (disturbed, or older than the last KEPT): its noise is no reference
        if (!kept.contains(current)) return lower;
        return current.movedBeyondNoise(lower) ? lower : current;
    }

    /** Whether {@code next} differs from this one by more than the noise of either measurement. */
    boolean movedBeyondNoise(Calibration next) {
        if (this == NONE || perEventPicos == 0) return true;
        long noise = Math.max(Math.max(perEventSpreadPicos, next.perEventSpreadPicos), perEventPicos / 20);
        return Math.abs(next.perEventPicos - perEventPicos) > noise;
    }

    @Override
    public String toString() {
        return "inner=" + innerPicos / 1000.0 + "ns perEvent=" + perEventPicos / 1000.0
                + "ns perIter=" + perIterPicos / 1000.0 + "ns outer=" + outerPicos() / 1000.0
                + "ns clock=" + clockPicos / 1000.0 + "ns count-only call=" + countPicos / 1000.0 + "ns loop hand-over=" + loopFlushPicos / 1000.0 + "ns";
    }
}
