package org.hyprof.runtime;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.util.zip.CRC32;

/** Builds one session chunk (type, length, payload, CRC) so it can go out in one write. */
final class ChunkBuilder {
    private static final Charset UTF8 = Charset.forName("UTF-8");
    private final ByteArrayOutputStream payload = new ByteArrayOutputStream(256);
    private final CRC32 crc = new CRC32();

    ChunkBuilder reset() {
        payload.reset();
        return this;
    }

    ChunkBuilder varint(long v) {
        Varint.write(payload, v);
        return this;
    }

    ChunkBuilder string(String s) {
        byte[] b = s.getBytes(UTF8);
        Varint.write(payload, b.length);
        payload.write(b, 0, b.length);
        return this;
    }

    ChunkBuilder bytes(byte[] b, int off, int len) {
        payload.write(b, off, len);
        return this;
    }

    /** The payload built so far. */
    byte[] payload() {
        return payload.toByteArray();
    }

    /** Writes type, length, payload and CRC to out in a single write call. */
    void writeTo(int type, OutputStream out) throws IOException {
        int n = payload.size();
        byte[] all = new byte[n + 9];
        all[0] = (byte) type;
        all[1] = (byte) (n >>> 24);
        all[2] = (byte) (n >>> 16);
        all[3] = (byte) (n >>> 8);
        all[4] = (byte) n;
        byte[] p = payload.toByteArray();
        System.arraycopy(p, 0, all, 5, n);
        crc.reset();
        crc.update(all, 0, n + 5);
        int c = (int) crc.getValue();
        all[n + 5] = (byte) (c >>> 24);
        all[n + 6] = (byte) (c >>> 16);
        all[n + 7] = (byte) (c >>> 8);
        all[n + 8] = (byte) c;
        out.write(all);
    }
}
