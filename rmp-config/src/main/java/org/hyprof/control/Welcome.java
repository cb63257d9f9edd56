package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.WireCodec;

/** The collector accepted a connection; {@code processId} is the agent's process in the session. */
public record Welcome(long processId, String message) implements Frame {
    @Override public int type() { return Wire.WELCOME; }
    @Override public byte[] payload() { return new WireCodec.Enc().varint(processId).string(message).done(); }
}
