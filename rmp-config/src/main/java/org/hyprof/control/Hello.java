package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadReader;
import org.hyprof.runtime.chunk.PayloadWriter;

/**
 * First frame of every connection: who is connecting (an agent's process, or hyprof ctl). For an
 * agent, {@code pid}, {@code process}, {@code startWallMillis} and {@code startNanos} are fixed when
 * its runtime starts, so together they identify that run; they are not secret (anyone who can
 * read the session can copy them). What proves a reconnecting agent is the run the collector knows
 * is {@code resume}: the secret the collector gave it in {@link Welcome} (empty on the first
 * connection, and for ctl).
 *
 * <p>{@code resume} is the payload's last field and optional on decoding (a HELLO without it, from
 * a runtime older than the field, reads as an empty secret: a first connection).
 */
public record Hello(int version, String role, String token, long pid, String process, String vm,
                    long startWallMillis, long startNanos, String kind, String resume) implements Frame {

    /** A HELLO without a resume secret (a first connection, or ctl). */
    public Hello(int version, String role, String token, long pid, String process, String vm, long startWallMillis,
                 long startNanos, String kind) {
        this(version, role, token, pid, process, vm, startWallMillis, startNanos, kind, "");
    }

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
                .varint(startWallMillis).varint(startNanos).string(kind).string(resume).toByteArray();
    }

    static Hello decode(PayloadReader d) {
        int version = (int) d.varint();
        if (version != Wire.VERSION) throw new FrameException("protocol version " + version + " (this collector speaks " + Wire.VERSION + ")");
        Hello h = new Hello(version, d.string(), d.string(), d.varint(), d.string(), d.string(), d.varint(), d.varint(), d.string());
        return d.atEnd() ? h : new Hello(h.version, h.role, h.token, h.pid, h.process, h.vm, h.startWallMillis, h.startNanos,
                h.kind, d.string());
    }
}
