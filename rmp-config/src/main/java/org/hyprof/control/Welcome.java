package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadWriter;

/** The collector accepted a connection; {@code processId} is the agent's process in the session. */
public record Welcome(long processId, String message) implements Frame {
    @Override public int type() { return Wire.WELCOME; }
    @Override public byte[] payload() { return new PayloadWriter().varint(processId).string(message).toByteArray(); }
}
