package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadReader;
import org.hyprof.runtime.chunk.PayloadWriter;

/**
 * First frame of every connection: who is connecting (an agent's process, or hyprof ctl). For an
 * agent, {@code pid}, {@code process}, {@code startWallMillis} and {@code startNanos} are fixed when
 * its runtime starts, so together they identify that run: the collector resumes the run's process
 * when it connects again.
 */
public record Hello(int version, String role, String token, long pid, String process, String vm,
                    long startWallMillis, long startNanos, String kind) implements Frame {
    public static Hello ctl(String token) {
        return new Hello(Wire.VERSION, Wire.ROLE_CTL, token, 0, "hyprof ctl", "", 0, 0, "");
    }

    @Override
    public int type() {
        return Wire.HELLO;
    }

    @Override
    public byte[] payload() {
        return new PayloadWriter().varint(version).string(role).string(token).varint(pid).string(process).string(vm)
                .varint(startWallMillis).varint(startNanos).string(kind).toByteArray();
    }

    static Hello decode(PayloadReader d) {
        int version = (int) d.varint();
        if (version != Wire.VERSION) throw new FrameException("protocol version " + version + " (this collector speaks " + Wire.VERSION + ")");
        return new Hello(version, d.string(), d.string(), d.varint(), d.string(), d.string(), d.varint(), d.varint(), d.string());
    }
}
