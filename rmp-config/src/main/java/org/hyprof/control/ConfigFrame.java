package org.hyprof.control;

import org.hyprof.runtime.Wire;

/** Collector → agent: the full control state to apply. */
public record ConfigFrame(ControlState state) implements Frame {
    @Override public int type() { return Wire.CONFIG; }
    @Override public byte[] payload() { return state.encode(); }
}
