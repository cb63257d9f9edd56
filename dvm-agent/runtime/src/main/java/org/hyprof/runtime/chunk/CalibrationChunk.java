package org.hyprof.runtime.chunk;

/**
 * CALIBRATION: the probes' measured cost on the running VM, in picoseconds (see the runtime's
 * {@code Calibration}): measuredAtNanos, innerPicos, perEventPicos, perIterPicos, clockPicos, then
 * perEventSpreadPicos, countPicos and loopFlushPicos. The last three came later (sessions written
 * before have five fields; they decode as 0, unknown) and a reader that knows only the first five
 * leaves them unread, so the format's version did not change.
 */
public final class CalibrationChunk {
    public final long measuredAtNanos;
    public final long innerPicos;
    public final long perEventPicos;
    public final long perIterPicos;
    public final long clockPicos;
    /** The noise of {@link #perEventPicos} in its measurement (0: unknown). */
    public final long perEventSpreadPicos;
    /** One call of a count-only probe (0: unknown). */
    public final long countPicos;
    /** One hand-over of count-only loop activations the code added up (0: unknown). */
    public final long loopFlushPicos;

    public CalibrationChunk(long measuredAtNanos, long innerPicos, long perEventPicos, long perIterPicos, long clockPicos) {
        this(measuredAtNanos, innerPicos, perEventPicos, perIterPicos, clockPicos, 0, 0, 0);
    }

    public CalibrationChunk(long measuredAtNanos, long innerPicos, long perEventPicos, long perIterPicos, long clockPicos,
                            long perEventSpreadPicos, long countPicos, long loopFlushPicos) {
        this.measuredAtNanos = measuredAtNanos;
        this.innerPicos = innerPicos;
        this.perEventPicos = perEventPicos;
        this.perIterPicos = perIterPicos;
        this.clockPicos = clockPicos;
        this.perEventSpreadPicos = perEventSpreadPicos;
        this.countPicos = countPicos;
        this.loopFlushPicos = loopFlushPicos;
    }

    public void encode(PayloadWriter w) {
        w.varint(measuredAtNanos).varint(innerPicos).varint(perEventPicos).varint(perIterPicos).varint(clockPicos)
                .varint(perEventSpreadPicos).varint(countPicos).varint(loopFlushPicos);
    }

    public static CalibrationChunk decode(PayloadReader r) {
        long at = r.varint(), inner = r.varint(), perEvent = r.varint(), perIter = r.varint(), clock = r.varint();
        if (r.atEnd()) return new CalibrationChunk(at, inner, perEvent, perIter, clock); // written before the last three
        return new CalibrationChunk(at, inner, perEvent, perIter, clock, r.varint(), r.varint(), r.varint());
    }
}
