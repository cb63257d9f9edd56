package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadWriter;

/** Collector → hyprof ctl: the command's exit code and output. */
public record Result(int exitCode, String output) implements Frame {
    @Override public int type() { return Wire.RESULT; }
    @Override public byte[] payload() { return new PayloadWriter().varint(exitCode).string(output).toByteArray(); }
}
