package org.hyprof.control;

import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadReader;
import org.hyprof.runtime.chunk.PayloadWriter;

/** Recorded data: one session chunk ({@link SessionFormat} type and payload) with a sequence number. */
public record Chunk(long seq, int chunkType, byte[] data) implements Frame {
    @Override public int type() { return Wire.CHUNK; }

    @Override
    public byte[] payload() {
        return new PayloadWriter().varint(seq).u8(chunkType).bytes(data).toByteArray();
    }

    static Chunk decode(PayloadReader d, byte[] all) {
        long seq = d.varint();
        int t = d.u8();
        if (t < SessionFormat.HEADER || t > SessionFormat.LAST_TYPE) throw new FrameException("unknown chunk type " + t);
        return new Chunk(seq, t, d.rest());
    }
}
