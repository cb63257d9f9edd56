package org.hyprof.runtime.chunk;

/**
 * CALIBRATION: the probes' measured cost on the running VM, in picoseconds (see the runtime's
 * {@code Calibration}): measuredAtNanos, innerPicos, perEventPicos, perIterPicos, clockPicos.
 */
public final class CalibrationChunk {
    public final long measuredAtNanos;
    public final long innerPicos;
    public final long perEventPicos;
    public final long perIterPicos;
    public final long clockPicos;

    public CalibrationChunk(long measuredAtNanos, long innerPicos, long perEventPicos, long perIterPicos, long clockPicos) {
        this.measuredAtNanos = measuredAtNanos;
        this.innerPicos = innerPicos;
        this.perEventPicos = perEventPicos;
        this.perIterPicos = perIterPicos;
        this.clockPicos = clockPicos;
    }

    public void encode(PayloadWriter w) {
        w.varint(measuredAtNanos).varint(innerPicos).varint(perEventPicos).varint(perIterPicos).varint(clockPicos);
    }

    public static CalibrationChunk decode(PayloadReader r) {
        return new CalibrationChunk(r.varint(), r.varint(), r.varint(), r.varint(), r.varint());
    }
}
