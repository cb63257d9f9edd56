package org.hyprof.runtime.chunk;

/**
 * Unsigned LEB128 varints, the integer encoding of session chunks, frames and event records: the
 * one writer ({@link PayloadReader} is the one reader).
 */
public final class Varint {
    private Varint() {}

    /** Writes v at b[p] and returns the position after it. The caller ensures room (≤ 10 bytes). */
    public static int put(byte[] b, int p, long v) {
        while ((v & ~0x7FL) != 0) {
            b[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        return p;
    }

    /** Writes v to out. */
    public static void write(java.io.ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }
}
