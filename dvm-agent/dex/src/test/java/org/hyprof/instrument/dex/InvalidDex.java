package org.hyprof.instrument.dex;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.Adler32;

/**
 * The {@code invalid/} corpus: damaged DEX files made from a valid fixture ({@link Fixtures#smaliDex()})
 * by one deterministic change each, with the checksum and signature written again after the change
 * (except where they are the damage) so the damage itself is what a reader meets. Nothing binary
 * is checked in: {@link #write} puts the files in a directory (tests use {@code target/invalid/}).
 * Every one is refused by the instrumenter and by {@code dexdump}; {@link #BAD_SIGNATURE} alone is
 * accepted by both (Android never checks the SHA-1 signature) and gets a note.
 */
public final class InvalidDex {
    private InvalidDex() {}

    /** A damaged file and the problem its one-line error names. */
    public record Case(String file, byte[] bytes, String expected) {}

    /** A valid file with a stale SHA-1 signature: instrumented with a note, not refused. */
    public static final String BAD_SIGNATURE = "bad-signature.dex";

    /** Every refused case, in a fixed order, made from {@code good}. */
    public static Map<String, Case> cases(byte[] good) {
        Map<String, Case> m = new LinkedHashMap<>();
        int len = good.length;
        int past = (len + 16) & ~3; // an aligned offset past the end of the file
        add(m, "truncated.dex", Arrays.copyOf(good, len / 2), "truncated DEX file (header says " + len + " bytes");
        byte[] b = Arrays.copyOf(good, len / 2);
        putInt(b, 0x20, b.length);
        add(m, "truncated-size-updated.dex", fix(b), "damaged DEX file: data (");
        b = good.clone();
        b[2] = 'y';
        add(m, "bad-magic.dex", fix(b), "not a DEX file (bad magic)");
        b = good.clone();
        b[5] = '9';
        b[6] = '9';
        add(m, "bad-version.dex", fix(b), "unsupported DEX version 099");
        b = good.clone();
        b[len - 10] ^= 0x55;
        add(m, "bad-checksum.dex", b, "bad checksum");
        b = good.clone();
        putInt(b, 0x28, 0x78563412);
        add(m, "wrong-endian.dex", fix(b), "unsupported byte order");
        b = good.clone();
        putInt(b, 0x24, 0x78);
        add(m, "header-size.dex", fix(b), "unsupported DEX header size 120");
        b = Arrays.copyOf(good, len + 8);
        add(m, "trailing-bytes.dex", fix(b), "8 bytes after the end of the DEX file");
        b = good.clone();
        putInt(b, 0x34, past);
        add(m, "map-offset.dex", fix(b), "damaged DEX file: map list offset 0x" + Integer.toHexString(past) + " is past the end");
        b = good.clone();
        putInt(b, getInt(b, 0x34), 0xffff);
        add(m, "map-count.dex", fix(b), "damaged DEX file: map list (65535 items");
        b = good.clone();
        putInt(b, 0x3c, past);
        add(m, "string-ids-offset.dex", fix(b), "damaged DEX file: string_ids offset 0x" + Integer.toHexString(past) + " is past the end");
        b = good.clone();
        putInt(b, 0x38, 0x7fffffff);
        add(m, "string-ids-size.dex", fix(b), "damaged DEX file: string_ids (2147483647 × 4 bytes");
        b = good.clone();
        putInt(b, 0x40, getInt(b, 0x40) - 1);
        add(m, "map-disagrees.dex", fix(b), "damaged DEX file: map list and header disagree on type_ids");
        b = good.clone();
        putInt(b, getInt(b, 0x3c), past);
        add(m, "string-data-offset.dex", fix(b), "damaged DEX file: string_ids[0] data offset 0x" + Integer.toHexString(past));
        b = good.clone();
        int string = firstNonEmptyString(b);
        b[string] = (byte) 0xff;
        add(m, "string-data-utf8.dex", fix(b), "data: byte 0xff cannot start a character (modified UTF-8)");
        b = good.clone();
        putInt(b, getInt(b, 0x44), 0x7fff);
        add(m, "type-descriptor-index.dex", fix(b), "damaged DEX file: type_ids[0] descriptor: string index 32767 out of range");
        b = good.clone();
        putInt(b, getInt(b, 0x64) + 24, past);
        add(m, "class-data-offset.dex", fix(b), "damaged DEX file: class_defs[0] class data offset 0x" + Integer.toHexString(past));
        b = good.clone();
        int[] code = firstCodeOffset(b);
        // past the end when the offset's ULEB128 has room for it, else as far as it reaches
        int far = code[1] >= 5 || past >>> (7 * code[1]) == 0 ? past : ((1 << (7 * code[1])) - 1) & ~3;
        putUleb(b, code[0], code[1], far);
        add(m, "code-offset.dex", fix(b), "code offset 0x" + Integer.toHexString(far)
                + (far >= len ? " is past the end of the file" : " is not in the code-item section"));
        b = good.clone();
        putUleb(b, code[0], code[1], getInt(b, 0x3c));
        add(m, "code-offset-into-ids.dex", fix(b), "code offset 0x" + Integer.toHexString(getInt(b, 0x3c)) + " is not in the code-item section");
        b = good.clone();
        int tries = firstTryItem(b);
        putShort(b, tries + 4, 0xffff);
        add(m, "try-range.dex", fix(b), "covers code units past the code");
        return m;
    }

    /** A valid file whose SHA-1 signature is stale (the checksum is right). */
    public static byte[] badSignature(byte[] good) {
        byte[] b = good.clone();
        b[12] ^= 1;
        return checksum(b);
    }

    /** Writes every case and {@link #BAD_SIGNATURE} into {@code dir}; returns the refused cases. */
    public static Map<String, Case> write(byte[] good, Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, Case> m = cases(good);
        for (Case c : m.values()) Files.write(dir.resolve(c.file), c.bytes);
        Files.write(dir.resolve(BAD_SIGNATURE), badSignature(good));
        return m;
    }

    private static void add(Map<String, Case> m, String file, byte[] bytes, String expected) {
        m.put(file, new Case(file, bytes, expected));
    }

    /** Signature, then checksum, written again for the current contents. */
    static byte[] fix(byte[] b) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(b, 32, b.length - 32);
            System.arraycopy(sha1.digest(), 0, b, 12, 20);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return checksum(b);
    }

    private static byte[] checksum(byte[] b) {
        Adler32 a = new Adler32();
        a.update(b, 12, b.length - 12);
        putInt(b, 8, (int) a.getValue());
        return b;
    }

    /**
     * Every method with code, in class-data order: {where its code_off ULEB128 is, that ULEB128's
     * length, the code offset}.
     */
    static java.util.List<int[]> codeOffsets(byte[] b) {
        java.util.List<int[]> out = new java.util.ArrayList<>();
        int defs = getInt(b, 0x64), n = getInt(b, 0x60);
        for (int i = 0; i < n; i++) {
            int data = getInt(b, defs + i * 32 + 24);
            if (data == 0) continue;
            int[] p = {data};
            long sf = uleb(b, p), inf = uleb(b, p), dm = uleb(b, p), vm = uleb(b, p);
            for (long k = 0; k < 2 * (sf + inf); k++) uleb(b, p);
            for (long k = 0; k < dm + vm; k++) {
                uleb(b, p);
                uleb(b, p);
                int at = p[0];
                int code = (int) uleb(b, p);
                if (code != 0) out.add(new int[] {at, p[0] - at, code});
            }
        }
        return out;
    }

    /** Where the first method with code keeps its code offset: {position, ULEB128 length}. */
    static int[] firstCodeOffset(byte[] b) {
        for (int[] c : codeOffsets(b)) return new int[] {c[0], c[1]};
        throw new IllegalStateException("no method with code");
    }

    /** Where the characters of the first non-empty string start. */
    static int firstNonEmptyString(byte[] b) {
        int ids = getInt(b, 0x3c), n = getInt(b, 0x38);
        for (int i = 0; i < n; i++) {
            int[] p = {getInt(b, ids + i * 4)};
            if (uleb(b, p) > 0) return p[0];
        }
        throw new IllegalStateException("no non-empty string");
    }

    /** The first try item of any code item. */
    static int firstTryItem(byte[] b) {
        for (int[] c : codeOffsets(b)) {
            int code = c[2];
            int tries = getShort(b, code + 6), insns = getInt(b, code + 12);
            if (tries > 0) return (code + 16 + insns * 2 + 3) & ~3;
        }
        throw new IllegalStateException("no try item");
    }

    private static long uleb(byte[] b, int[] p) {
        long v = 0;
        for (int shift = 0; ; shift += 7) {
            int x = b[p[0]++] & 0xff;
            v |= (long) (x & 0x7f) << shift;
            if ((x & 0x80) == 0) return v;
        }
    }

    /** Writes {@code value} as a ULEB128 of exactly {@code length} bytes (padded, as the format allows). */
    private static void putUleb(byte[] b, int at, int length, int value) {
        if (length < 5 && value >>> (7 * length) != 0) throw new IllegalArgumentException(value + " needs more than " + length + " bytes");
        for (int i = 0; i < length; i++) {
            int part = (value >>> (7 * i)) & 0x7f;
            b[at + i] = (byte) (i < length - 1 ? part | 0x80 : part);
        }
    }

    static int getInt(byte[] b, int at) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(at);
    }

    private static int getShort(byte[] b, int at) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getShort(at) & 0xffff;
    }

    private static void putInt(byte[] b, int at, int v) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
    }

    private static void putShort(byte[] b, int at, int v) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(at, (short) v);
    }
}
