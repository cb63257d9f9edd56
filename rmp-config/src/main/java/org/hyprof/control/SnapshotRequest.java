package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadWriter;

/** Collector → agent: send a full aggregate snapshot now. */
public record SnapshotRequest(long requestId) implements Frame {
    @Override public int type() { return Wire.SNAPSHOT_REQUEST; }
    @Override public byte[] payload() { return new PayloadWriter().varint(requestId).toByteArray(); }
}
