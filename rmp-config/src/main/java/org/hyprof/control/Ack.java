package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadWriter;

/**
 * Chunk {@code seq} is stored, and so is every chunk sent before it on this connection (stored in
 * the order received); the agent may forget them.
 */
public record Ack(long seq) implements Frame {
    @Override public int type() { return Wire.ACK; }
    @Override public byte[] payload() { return new PayloadWriter().varint(seq).toByteArray(); }
}
