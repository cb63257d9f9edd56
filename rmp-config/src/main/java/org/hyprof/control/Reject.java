package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadWriter;

/** The collector refused a connection (wrong token, wrong role, ...); it closes right after. */
public record Reject(String reason) implements Frame {
    @Override public int type() { return Wire.REJECT; }
    @Override public byte[] payload() { return new PayloadWriter().string(reason).toByteArray(); }
}
