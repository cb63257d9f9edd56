package org.hyprof.runtime;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * Frames of the live-control protocol ({@link Wire}), shared by both ends; payloads are built and
 * read with {@code org.hyprof.runtime.chunk}'s {@code PayloadWriter} and {@code PayloadReader}.
 */
public final class WireCodec {
    private WireCodec() {}

    /** A whole frame: length, type, payload. */
    public static byte[] frame(int type, byte[] payload) {
        int len = payload.length + 1;
        byte[] f = new byte[4 + len];
        f[0] = (byte) (len >>> 24);
        f[1] = (byte) (len >>> 16);
        f[2] = (byte) (len >>> 8);
        f[3] = (byte) len;
        f[4] = (byte) type;
        System.arraycopy(payload, 0, f, 5, payload.length);
        return f;
    }

    /**
     * Reads one frame, checking its length against {@code max} before allocating; returns the
     * payload and puts the frame type in {@code type[0]}.
     */
    public static byte[] readFrame(DataInputStream in, int[] type, int max) throws IOException {
        int len;
        try {
            len = in.readInt();
        } catch (EOFException e) {
            throw new IOException("connection closed by the peer");
        }
        if (len < 1 || len > max) throw new IOException("bad frame length " + len);
        type[0] = in.readUnsignedByte();
        byte[] p = new byte[len - 1];
        in.readFully(p);
        return p;
    }
}
