package org.hyprof.runtime;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.Charset;

/** Frame and payload encoding of the live-control protocol ({@link Wire}), shared by both ends. */
public final class WireCodec {
    private WireCodec() {}

    private static final Charset UTF8 = Charset.forName("UTF-8");


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

    /** Payload encoder. */
    public static final class Enc {
        private final java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream(64);

        public Enc varint(long v) {
            Varint.write(b, v);
            return this;
        }

        public Enc u8(int v) {
            b.write(v);
            return this;
        }

        public Enc string(String s) {
            byte[] x = s.getBytes(UTF8);
            varint(x.length);
            b.write(x, 0, x.length);
            return this;
        }

        public Enc bytes(byte[] x) {
            b.write(x, 0, x.length);
            return this;
        }

        public byte[] done() {
            return b.toByteArray();
        }
    }

    /** Payload decoder; throws IllegalArgumentException on malformed input. */
    public static final class Dec {
        private final byte[] b;
        private int p;

        public Dec(byte[] b) {
            this.b = b;
        }

        public long varint() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (p >= b.length) throw new IllegalArgumentException("payload ends inside a number");
                int x = b[p++] & 0xff;
                v |= (long) (x & 0x7f) << shift;
                if ((x & 0x80) == 0) return v;
            }
            throw new IllegalArgumentException("number too long");
        }

        public int u8() {
            if (p >= b.length) throw new IllegalArgumentException("payload too short");
            return b[p++] & 0xff;
        }

        public byte[] bytes(int n) {
            if (n < 0 || p + n > b.length) throw new IllegalArgumentException("payload too short");
            byte[] r = new byte[n];
            System.arraycopy(b, p, r, 0, n);
            p += n;
            return r;
        }

        /** The bytes not read yet. */
        public byte[] rest() {
            return bytes(b.length - p);
        }

        public String string() {
            return new String(bytes((int) varint()), UTF8);
        }
    }
}
