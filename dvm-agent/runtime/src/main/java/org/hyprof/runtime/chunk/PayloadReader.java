package org.hyprof.runtime.chunk;

import java.nio.charset.Charset;

/**
 * Reads a chunk or frame payload: unsigned LEB128 varints, strings (varint byte length, UTF-8),
 * raw bytes. The one decoder of the session file's chunks, the live protocol's frames and event
 * records' numbers.
 *
 * <p>Payload bytes come from files and sockets: nothing here allocates or loops on a number read
 * from them before checking it against what remains. Lengths must fit in the bytes left
 * ({@link #length}); element counts too, since every element takes at least one byte
 * ({@link #count}); the arithmetic cannot overflow ({@code n > remaining()}, never
 * {@code pos + n > end}). Malformed input throws {@link MalformedPayloadException}.
 */
public final class PayloadReader {
    private static final Charset UTF8 = Charset.forName("UTF-8");

    private final byte[] b;
    private int p;
    private final int end;

    public PayloadReader(byte[] b) {
        this(b, 0, b.length);
    }

    /** Reads {@code b[offset .. offset+length)}. */
    public PayloadReader(byte[] b, int offset, int length) {
        if (offset < 0 || length < 0 || length > b.length - offset)
            throw new IndexOutOfBoundsException("range " + offset + "+" + length + " of " + b.length);
        this.b = b;
        this.p = offset;
        this.end = offset + length;
    }

    /** An unsigned LEB128 number of at most 10 bytes (64 bits). */
    public long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p >= end) throw new MalformedPayloadException("payload ends inside a number");
            int x = b[p++] & 0xff;
            v |= (long) (x & 0x7f) << shift;
            if ((x & 0x80) == 0) return v;
        }
        throw new MalformedPayloadException("number longer than 10 bytes");
    }

    /** A varint that must lie in {@code [0, max]} (an id, a field count, a code). */
    public int varintAtMost(int max, String what) {
        long v = varint();
        if (v < 0 || v > max) throw new MalformedPayloadException(what + " " + unsigned(v) + " over " + max);
        return (int) v;
    }

    /** A byte length: at most the bytes that remain. */
    public int length() {
        long n = varint();
        if (n < 0 || n > remaining())
            throw new MalformedPayloadException("length " + unsigned(n) + " runs past the payload (" + remaining() + " bytes left)");
        return (int) n;
    }

    /**
     * A count of elements that each take at least {@code minBytesEach} bytes: at most what the
     * remaining bytes can hold, so a count never makes a reader allocate or loop beyond its input.
     */
    public int count(int minBytesEach) {
        long n = varint();
        if (n < 0 || n > remaining() / Math.max(1, minBytesEach))
            throw new MalformedPayloadException("count " + unsigned(n) + " larger than the payload can hold");
        return (int) n;
    }

    /** An unsigned number for a message (Long.toUnsignedString is not in Android's API 21). */
    private static String unsigned(long v) {
        return v >= 0 ? String.valueOf(v) : "2^63 or more";
    }

    public int u8() {
        if (p >= end) throw new MalformedPayloadException("payload too short");
        return b[p++] & 0xff;
    }

    /** The next {@code n} bytes. */
    public byte[] bytes(int n) {
        if (n < 0 || n > remaining()) throw new MalformedPayloadException("bytes run past the payload");
        byte[] r = new byte[n];
        System.arraycopy(b, p, r, 0, n);
        p += n;
        return r;
    }

    /** A string: varint byte length, then UTF-8. */
    public String string() {
        int n = length();
        String s = new String(b, p, n, UTF8);
        p += n;
        return s;
    }

    /** The bytes not read yet. */
    public byte[] rest() {
        return bytes(remaining());
    }

    public int remaining() {
        return end - p;
    }

    public boolean atEnd() {
        return p >= end;
    }
}
