package org.hyprof.control;

import org.hyprof.runtime.Wire;

/** Agent → collector: the control state in effect (after connecting and after each CONFIG). */
public record StateFrame(ControlState state) implements Frame {
    @Override public int type() { return Wire.STATE; }
    @Override public byte[] payload() { return state.encode(); }
}
