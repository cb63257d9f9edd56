package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadWriter;

/** Chunks up to {@code seq} are stored; the agent may forget them. */
public record Ack(long seq) implements Frame {
    @Override public int type() { return Wire.ACK; }
    @Override public byte[] payload() { return new PayloadWriter().varint(seq).toByteArray(); }
}
