package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.WireCodec;
import org.hyprof.runtime.chunk.PayloadReader;

/**
 * A frame of the live-control protocol ({@link Wire}); one record per frame type. {@link #decode}
 * throws {@link FrameException} on malformed payloads.
 */
public sealed interface Frame permits Hello, Welcome, Reject, Chunk, Ack, ConfigFrame, StateFrame,
        SnapshotRequest, Command, Result, Bye {

    /** Frame type ({@link Wire#HELLO}, ...). */
    int type();

    /** The payload bytes. */
    byte[] payload();

    /** The whole frame: length, type, payload. */
    default byte[] toBytes() {
        return WireCodec.frame(type(), payload());
    }

    /** Decodes a payload of the given type. */
    static Frame decode(int type, byte[] payload) {
        PayloadReader d = new PayloadReader(payload);
        try {
            return switch (type) {
                case Wire.HELLO -> Hello.decode(d);
                case Wire.WELCOME -> Welcome.decode(d);
                case Wire.REJECT -> new Reject(d.string());
                case Wire.CHUNK -> Chunk.decode(d, payload);
                case Wire.ACK -> new Ack(d.varint());
                case Wire.CONFIG -> new ConfigFrame(ControlState.decode(d));
                case Wire.STATE -> new StateFrame(ControlState.decode(d));
                case Wire.SNAPSHOT_REQUEST -> new SnapshotRequest(d.varint(), !d.atEnd() && d.u8() == 1);
                case Wire.COMMAND -> Command.decode(d);
                case Wire.RESULT -> new Result((int) d.varint(), d.string());
                case Wire.BYE -> new Bye(d.string());
                default -> throw new FrameException("unknown frame type " + type);
            };
        } catch (IllegalArgumentException e) {
            if (e instanceof FrameException) throw e;
            throw new FrameException("malformed frame of type " + type + ": " + e.getMessage());
        }
    }
}
