package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadWriter;

/** Either side ends the connection normally. */
public record Bye(String reason) implements Frame {
    @Override public int type() { return Wire.BYE; }
    @Override public byte[] payload() { return new PayloadWriter().string(reason).toByteArray(); }
}
