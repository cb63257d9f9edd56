package org.hyprof.runtime.chunk;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.util.zip.CRC32;

/**
 * Builds a chunk or frame payload (varints, strings, bytes), the counterpart of
 * {@link PayloadReader}; {@link #writeChunk} frames it as a session-file chunk.
 * Reusable ({@link #reset}); not thread-safe.
 */
public final class PayloadWriter {
    private static final Charset UTF8 = Charset.forName("UTF-8");

    private Buffer payload = new Buffer(256);
    private final CRC32 crc = new CRC32();

    /** A ByteArrayOutputStream whose array can be written out without copying it first. */
    private static final class Buffer extends ByteArrayOutputStream {
        Buffer(int size) {
            super(size);
        }

        byte[] array() {
            return buf;
        }

        // Unsynchronized (ByteArrayOutputStream's methods lock on every byte; a writer here is
        // confined to one thread or guarded by its owner): a snapshot is thousands of varints.
        @Override
        public void write(int b) {
            if (count == buf.length) buf = java.util.Arrays.copyOf(buf, buf.length * 2);
            buf[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            if (off < 0 || len < 0 || off + len > b.length) throw new IndexOutOfBoundsException();
            if (count + len > buf.length) buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, count + len));
            System.arraycopy(b, off, buf, count, len);
            count += len;
        }
    }

    public PayloadWriter reset() {
        payload.reset();
        return this;
    }

    /** Unsigned LEB128 (a negative value takes 10 bytes). */
    public PayloadWriter varint(long v) {
        Varint.write(payload, v);
        return this;
    }

    public PayloadWriter u8(int v) {
        payload.write(v);
        return this;
    }

    /** Varint byte length, then UTF-8. */
    public PayloadWriter string(String s) {
        byte[] b = s.getBytes(UTF8);
        varint(b.length);
        payload.write(b, 0, b.length);
        return this;
    }

    public PayloadWriter bytes(byte[] b) {
        return bytes(b, 0, b.length);
    }

    public PayloadWriter bytes(byte[] b, int off, int len) {
        payload.write(b, off, len);
        return this;
    }

    public int size() {
        return payload.size();
    }

    /** Appends what {@code other} holds. */
    public PayloadWriter append(PayloadWriter other) {
        return bytes(other.payload.array(), 0, other.size());
    }

    /**
     * Empties this writer and gives back its buffer if it grew past {@code maxBytes} (one large
     * chunk, a manifest, does not keep its size in memory for the rest of the run).
     */
    public PayloadWriter release(int maxBytes) {
        if (payload.array().length > maxBytes) payload = new Buffer(256);
        else payload.reset();
        return this;
    }

    /** A copy of the payload built so far. */
    public byte[] toByteArray() {
        return payload.toByteArray();
    }

    /**
     * Writes {@code type:u8 length:u32be payload crc32:u32be} (the session file's chunk, see
     * {@code SessionFormat}) to {@code out} in a single write call, so a crash leaves at most one
     * torn chunk at the end of the file.
     */
    public void writeChunk(int type, OutputStream out) throws IOException {
        out.write(chunk(type));
    }

    /** The whole session-file chunk: type, length, payload, CRC-32 of the three. */
    public byte[] chunk(int type) {
        int n = payload.size();
        byte[] all = new byte[n + 9];
        all[0] = (byte) type;
        putInt(all, 1, n);
        System.arraycopy(payload.array(), 0, all, 5, n);
        crc.reset();
        crc.update(all, 0, n + 5);
        putInt(all, n + 5, (int) crc.getValue());
        return all;
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
