package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadWriter;

/**
 * Collector → agent: send a full aggregate snapshot now; with {@code dumpEvents}, also the events
 * each thread's flight-recorder log keeps ({@code keep=last}; {@code hyprof ctl dump}). The flag is
 * a byte after the id, so an agent that reads only the id still answers with its snapshot.
 */
public record SnapshotRequest(long requestId, boolean dumpEvents) implements Frame {
    public SnapshotRequest(long requestId) {
        this(requestId, false);
    }

    @Override public int type() { return Wire.SNAPSHOT_REQUEST; }
    @Override public byte[] payload() {
        PayloadWriter w = new PayloadWriter().varint(requestId);
        if (dumpEvents) w.u8(1);
        return w.toByteArray();
    }
}
