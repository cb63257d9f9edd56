package org.hyprof.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.hyprof.runtime.SessionFormat;

/**
 * Reads the chunks of a runtime session file ({@link SessionFormat}) and stops at the first
 * damaged one: a length beyond the file or the payload limit, or a CRC mismatch. What was read
 * before it is valid; {@link #damage()} says where and what.
 */
public final class SessionReader implements AutoCloseable {
    /** One chunk: type and payload. */
    public record Chunk(int type, long offset, byte[] payload) {}

    private final Path file;
    private final InputStream in;
    private long offset;
    private String damage;
    private boolean eof;

    public SessionReader(Path file) throws IOException {
        this.file = file;
        this.in = new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 16);
        byte[] magic = in.readNBytes(SessionFormat.MAGIC.length);
        if (magic.length < 6 || !Arrays.equals(Arrays.copyOf(magic, 6), Arrays.copyOf(SessionFormat.MAGIC, 6))) {
            in.close();
            throw new IOException(file + ": not a hyprof session file (bad magic)");
        }
        if (magic.length < SessionFormat.MAGIC.length || magic[7] < SessionFormat.OLDEST_READABLE
                || magic[7] > SessionFormat.VERSION) {
            in.close();
            throw new IOException(file + ": unsupported session file version " + (magic.length > 7 ? magic[7] : -1));
        }
        offset = magic.length;
    }

    /** The next valid chunk, or null at the end or at the first damaged chunk. */
    public Chunk next() throws IOException {
        if (eof || damage != null) return null;
        byte[] head = in.readNBytes(5);
        if (head.length == 0) { eof = true; return null; }
        long start = offset;
        if (head.length < 5) return damaged(start, "truncated chunk header");
        int type = head[0] & 0xff;
        long len = ((head[1] & 0xffL) << 24) | ((head[2] & 0xffL) << 16) | ((head[3] & 0xffL) << 8) | (head[4] & 0xffL);
        if (len > SessionFormat.MAX_PAYLOAD) return damaged(start, "chunk length " + len + " over the limit");
        byte[] payload = in.readNBytes((int) len);
        if (payload.length < len) return damaged(start, "truncated chunk (" + payload.length + " of " + len + " bytes)");
        byte[] crcBytes = in.readNBytes(4);
        if (crcBytes.length < 4) return damaged(start, "truncated chunk checksum");
        CRC32 crc = new CRC32();
        crc.update(head);
        crc.update(payload);
        long expected = ((crcBytes[0] & 0xffL) << 24) | ((crcBytes[1] & 0xffL) << 16) | ((crcBytes[2] & 0xffL) << 8) | (crcBytes[3] & 0xffL);
        if (crc.getValue() != expected) return damaged(start, "checksum mismatch");
        if (type < SessionFormat.HEADER || type > SessionFormat.LAST_TYPE) return damaged(start, "unknown chunk type " + type);
        offset += 5 + len + 4;
        return new Chunk(type, start, payload);
    }

    private Chunk damaged(long at, String what) throws IOException {
        long size = Files.size(file);
        damage = file + ": damaged at byte " + at + ": " + what + "; " + (size - at) + " bytes ignored";
        return null;
    }

    /** Where and how the file was damaged, or null if it was read to its end. */
    public String damage() {
        return damage;
    }

    /** Bytes of valid chunks read so far (including the magic). */
    public long validBytes() {
        return offset;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
