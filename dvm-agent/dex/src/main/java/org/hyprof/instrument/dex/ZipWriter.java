package org.hyprof.instrument.dex;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes an APK-shaped zip: entries stored or deflated as asked, every stored entry's data
 * aligned to 4 bytes (shared libraries to 4096) the way {@code zipalign -p} does, with an
 * alignment extra field (id 0xd935, as apksigner writes), and one fixed timestamp so the output
 * is reproducible. No ZIP64: an APK with more than 65,535 entries or 4 GiB is refused.
 */
final class ZipWriter implements Closeable {
    /** 2008-01-01 00:00:00 in MS-DOS format (Android's build uses the same). */
    private static final int DOS_TIME = 0, DOS_DATE = (28 << 9) | (1 << 5) | 1;

    private record Central(byte[] name, int method, long crc, long compressed, long size, long offset, byte[] extra) {}

    private final OutputStream out;
    private long offset;
    private final List<Central> central = new ArrayList<>();
    private final Set<String> names = new HashSet<>();

    ZipWriter(OutputStream out) {
        this.out = out;
    }

    /** Adds an entry; {@code deflate} false stores it (aligned). */
    void add(String name, byte[] data, boolean deflate) throws IOException {
        if (!names.add(name)) throw new IOException("duplicate zip entry " + name);
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        CRC32 crc = new CRC32();
        crc.update(data);
        byte[] body = data;
        byte[] extra = new byte[0];
        if (deflate) {
            Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
            d.setInput(data);
            d.finish();
            ByteArrayOutputStream bo = new ByteArrayOutputStream(Math.max(64, data.length / 2));
            byte[] buf = new byte[65536];
            while (!d.finished()) bo.write(buf, 0, d.deflate(buf));
            d.end();
            body = bo.toByteArray();
        } else {
            int align = name.endsWith(".so") ? 4096 : 4;
            long dataAt = offset + 30 + n.length + 6;
            int padding = (int) ((align - dataAt % align) % align);
            extra = new byte[6 + padding];
            extra[0] = 0x35;
            extra[1] = (byte) 0xd9;
            extra[2] = (byte) (2 + padding);
            extra[3] = (byte) ((2 + padding) >> 8);
            extra[4] = (byte) align;
            extra[5] = (byte) (align >> 8);
        }
        if (offset > 0xffffffffL - body.length || central.size() == 0xffff)
            throw new IOException("output too large for a zip without ZIP64");
        int method = deflate ? 8 : 0;
        central.add(new Central(n, method, crc.getValue(), body.length, data.length, offset, extra));
        ByteArrayOutputStream h = new ByteArrayOutputStream(30 + n.length + extra.length);
        u32(h, 0x04034b50);
        u16(h, 20);
        u16(h, 0x0800); // names are UTF-8
        u16(h, method);
        u16(h, DOS_TIME);
        u16(h, DOS_DATE);
        u32(h, crc.getValue());
        u32(h, body.length);
        u32(h, data.length);
        u16(h, n.length);
        u16(h, extra.length);
        h.write(n);
        h.write(extra);
        write(h.toByteArray());
        write(body);
    }

    private void write(byte[] b) throws IOException {
        out.write(b);
        offset += b.length;
    }

    @Override
    public void close() throws IOException {
        long cdStart = offset;
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        for (Central c : central) {
            u32(h, 0x02014b50);
            u16(h, 20);
            u16(h, 20);
            u16(h, 0x0800);
            u16(h, c.method);
            u16(h, DOS_TIME);
            u16(h, DOS_DATE);
            u32(h, c.crc);
            u32(h, c.compressed);
            u32(h, c.size);
            u16(h, c.name.length);
            u16(h, 0);
            u16(h, 0);
            u16(h, 0);
            u16(h, 0);
            u32(h, 0);
            u32(h, c.offset);
            h.write(c.name);
        }
        long cdSize = h.size();
        u32(h, 0x06054b50);
        u16(h, 0);
        u16(h, 0);
        u16(h, central.size());
        u16(h, central.size());
        u32(h, cdSize);
        u32(h, cdStart);
        u16(h, 0);
        write(h.toByteArray());
        out.close();
    }

    private static void u16(ByteArrayOutputStream o, int v) {
        o.write(v);
        o.write(v >>> 8);
    }

    private static void u32(ByteArrayOutputStream o, long v) {
        o.write((int) v);
        o.write((int) (v >>> 8));
        o.write((int) (v >>> 16));
        o.write((int) (v >>> 24));
    }
}
