package org.hyprof.correlate;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * Android's compiled binary XML ("AXML"), as {@code aapt} writes a {@code res/xml/} file into an
 * APK ({@code framework-res.apk}'s {@code res/xml/power_profile.xml} is one), read into an
 * {@link XmlElement} tree. Little-endian chunks, each {@code type:u16 headerSize:u16 size:u32}
 * (AOSP {@code ResourceTypes.h}):
 * <ul>
 * <li>{@code RES_XML_TYPE} (0x0003): the document, containing all other chunks;</li>
 * <li>{@code RES_STRING_POOL_TYPE} (0x0001): counts, flags (UTF-8 or UTF-16), offsets, strings;</li>
 * <li>{@code RES_XML_RESOURCE_MAP_TYPE} (0x0180), name spaces (0x0100/0x0101): skipped;</li>
 * <li>{@code RES_XML_START_ELEMENT_TYPE} (0x0102): name and attributes, each with a raw string or
 *     a typed value ({@code Res_value}); {@code RES_XML_END_ELEMENT_TYPE} (0x0103);</li>
 * <li>{@code RES_XML_CDATA_TYPE} (0x0104): an element's text, as a string or a typed value.</li>
 * </ul>
 *
 * <p>Hostile input: every offset, count and length is checked against its chunk and the file
 * before it is used, and nothing is allocated from a count before that check, so memory stays
 * proportional to the file: string-table and cache sizes are bounded by the pool's bytes,
 * decoded strings must not overlap (their bytes sum to at most the pool's), and an element's text
 * may grow to at most {@link #TEXT_BUDGET_FACTOR} times the file size. Problems are
 * {@link IllegalArgumentException}s with one line saying what and at which byte offset.
 */
final class BinaryXml {
    static final int RES_XML_TYPE = 0x0003;
    static final int RES_STRING_POOL_TYPE = 0x0001;
    static final int RES_XML_RESOURCE_MAP_TYPE = 0x0180;
    static final int RES_XML_START_NAMESPACE_TYPE = 0x0100;
    static final int RES_XML_END_NAMESPACE_TYPE = 0x0101;
    static final int RES_XML_START_ELEMENT_TYPE = 0x0102;
    static final int RES_XML_END_ELEMENT_TYPE = 0x0103;
    static final int RES_XML_CDATA_TYPE = 0x0104;
    static final int UTF8_FLAG = 1 << 8;
    /** Elements nested deeper than this are refused (power profiles nest three deep). */
    static final int MAX_DEPTH = 64;
    /** Text appended to elements in all may be this many times the file's size. */
    static final int TEXT_BUDGET_FACTOR = 4;

    private static final int NO_STRING = -1;

    private final byte[] b;
    private final int end;
    private StringPool pool;
    private long textBudget;

    private BinaryXml(byte[] b, int end) {
        this.b = b;
        this.end = end;
        this.textBudget = (long) TEXT_BUDGET_FACTOR * b.length + 1024;
    }

    /** Whether the bytes start like a compiled XML document (chunk type 0x0003, header size 8). */
    static boolean looksBinary(byte[] b) {
        return b.length >= 4 && u16(b, 0) == RES_XML_TYPE && u16(b, 2) == 8;
    }

    /** The document's root element. */
    static XmlElement parse(byte[] b) {
        if (b.length < 8) throw bad("file too short for a chunk header (" + b.length + " bytes)", 0);
        if (u16(b, 0) != RES_XML_TYPE)
            throw bad(String.format(Locale.ROOT, "not binary XML (first chunk type 0x%04x, expected 0x0003)", u16(b, 0)), 0);
        int headerSize = u16(b, 2);
        long size = u32(b, 4);
        if (size > b.length) throw bad("document chunk claims " + size + " bytes, the file has " + b.length, 4);
        if (headerSize < 8 || headerSize > size) throw bad("document header size " + headerSize + " outside 8.." + size, 2);
        return new BinaryXml(b, (int) size).document(headerSize);
    }

    private XmlElement document(int start) {
        Deque<XmlElement> open = new ArrayDeque<>();
        XmlElement root = null;
        int pos = start;
        while (pos < end) {
            if (end - pos < 8) throw bad("truncated chunk header (" + (end - pos) + " bytes left)", pos);
            int type = u16(b, pos);
            int headerSize = u16(b, pos + 2);
            long size = u32(b, pos + 4);
            if (headerSize < 8 || size < headerSize || size > end - pos)
                throw bad(String.format(Locale.ROOT, "chunk type 0x%04x claims size %d with header %d, %d bytes left in the document",
                        type, size, headerSize, end - pos), pos);
            int chunkEnd = pos + (int) size;
            switch (type) {
                case RES_STRING_POOL_TYPE -> {
                    if (pool != null) throw bad("a second string pool", pos);
                    pool = new StringPool(pos, headerSize, chunkEnd);
                }
                case RES_XML_START_ELEMENT_TYPE -> {
                    XmlElement e = startElement(pos, headerSize, chunkEnd);
                    if (open.isEmpty()) {
                        if (root != null) throw bad("a second root element <" + e.tag + ">", pos);
                        root = e;
                    } else {
                        open.peek().children.add(e);
                    }
                    if (open.size() >= MAX_DEPTH) throw bad("elements nested deeper than " + MAX_DEPTH, pos);
                    open.push(e);
                }
                case RES_XML_END_ELEMENT_TYPE -> {
                    int ext = node(pos, headerSize, chunkEnd, 8);
                    String name = strings(pos).get(i32(b, ext + 4), ext + 4);
                    if (open.isEmpty()) throw bad("end of element <" + name + "> that was never started", pos);
                    if (!open.peek().tag.equals(name)) throw bad("</" + name + "> closes <" + open.peek().tag + ">", pos);
                    open.pop();
                }
                case RES_XML_CDATA_TYPE -> {
                    int ext = node(pos, headerSize, chunkEnd, 12);
                    if (open.isEmpty()) throw bad("text outside any element", pos);
                    String text = value(i32(b, ext), ext + 4);
                    textBudget -= text.length();
                    if (textBudget < 0) throw bad("more text than " + TEXT_BUDGET_FACTOR + " times the file size", pos);
                    open.peek().text.append(text);
                }
                default -> { } // resource map, name spaces and chunk types added later carry nothing read here
            }
            pos = chunkEnd;
        }
        if (!open.isEmpty()) throw bad("element <" + open.peek().tag + "> not closed at the end of the document", end);
        if (root == null) throw bad("no element in the document", end);
        return root;
    }

    /**
     * Checks a tree node's header ({@code ResXMLTree_node}: line number, comment) and that
     * {@code extSize} bytes of its extension follow; returns the extension's offset.
     */
    private int node(int pos, int headerSize, int chunkEnd, int extSize) {
        if (headerSize < 16) throw bad("element chunk header of " + headerSize + " bytes, expected 16", pos + 2);
        if (chunkEnd - (pos + headerSize) < extSize) throw bad("element chunk too short for its " + extSize + "-byte body", pos);
        return pos + headerSize;
    }

    private XmlElement startElement(int pos, int headerSize, int chunkEnd) {
        int ext = node(pos, headerSize, chunkEnd, 20); // ResXMLTree_attrExt
        XmlElement e = new XmlElement(strings(pos).get(i32(b, ext + 4), ext + 4));
        int attributeStart = u16(b, ext + 8);
        int attributeSize = u16(b, ext + 10);
        int attributeCount = u16(b, ext + 12);
        if (attributeCount == 0) return e;
        if (attributeSize < 20) throw bad("attribute size " + attributeSize + ", expected at least 20", ext + 10);
        long attributesEnd = (long) ext + attributeStart + (long) attributeCount * attributeSize;
        if (attributeStart < 20 || attributesEnd > chunkEnd)
            throw bad(attributeCount + " attributes of " + attributeSize + " bytes from offset " + attributeStart + " run past the element chunk", ext + 8);
        for (int i = 0; i < attributeCount; i++) {
            int a = ext + attributeStart + i * attributeSize; // ResXMLTree_attribute: ns, name, rawValue, Res_value
            String name = pool.get(i32(b, a + 4), a + 4);
            int raw = i32(b, a + 8);
            e.attributes.put(name, raw != NO_STRING ? pool.get(raw, a + 8) : typed(a + 12));
        }
        return e;
    }

    /** A value given as a string index or, when that is absent, by the {@code Res_value} at {@code typedAt}. */
    private String value(int stringIndex, int typedAt) {
        return stringIndex != NO_STRING ? strings(typedAt).get(stringIndex, typedAt - 4) : typed(typedAt);
    }

    /** A {@code Res_value} (size:u16 res0:u8 dataType:u8 data:u32) as the text it stands for. */
    private String typed(int at) {
        int dataType = b[at + 3] & 0xff;
        int data = i32(b, at + 4);
        return switch (dataType) {
            case 0x00 -> ""; // TYPE_NULL
            case 0x03 -> strings(at).get(data, at + 4); // TYPE_STRING
            case 0x04 -> Float.toString(Float.intBitsToFloat(data)); // TYPE_FLOAT
            case 0x10, 0x11 -> Integer.toString(data); // TYPE_INT_DEC, TYPE_INT_HEX
            case 0x12 -> data != 0 ? "true" : "false"; // TYPE_INT_BOOLEAN
            case 0x01 -> String.format(Locale.ROOT, "@0x%08x", data); // TYPE_REFERENCE: a resource, not a number
            default -> throw bad(String.format(Locale.ROOT, "value of type 0x%02x is not a number or string", dataType), at + 3);
        };
    }

    private StringPool strings(int at) {
        if (pool == null) throw bad("element before the string pool", at);
        return pool;
    }

    /** A string pool chunk ({@code ResStringPool_header} + offsets + strings), decoded lazily. */
    private final class StringPool {
        private final int count;
        private final boolean utf8;
        private final int offsets;
        private final int dataStart;
        private final int dataEnd;
        private final String[] decoded;
        private long bytesLeft;

        StringPool(int pos, int headerSize, int chunkEnd) {
            if (headerSize < 28) throw bad("string pool header of " + headerSize + " bytes, expected 28", pos + 2);
            long stringCount = u32(b, pos + 8);
            long styleCount = u32(b, pos + 12);
            utf8 = (i32(b, pos + 16) & UTF8_FLAG) != 0;
            long stringsStart = u32(b, pos + 20);
            long stylesStart = u32(b, pos + 24);
            offsets = pos + headerSize;
            if ((stringCount + styleCount) * 4 > chunkEnd - offsets)
                throw bad(stringCount + " strings and " + styleCount + " styles do not fit a pool of " + (chunkEnd - pos) + " bytes", pos + 8);
            count = (int) stringCount;
            long dataEndRel = stylesStart != 0 ? stylesStart : chunkEnd - pos;
            if (count > 0 && (stringsStart < headerSize + (stringCount + styleCount) * 4 || stringsStart > dataEndRel || dataEndRel > chunkEnd - pos))
                throw bad("string data at " + stringsStart + ".." + dataEndRel + " outside the pool of " + (chunkEnd - pos) + " bytes", pos + 20);
            dataStart = pos + (int) Math.min(stringsStart, chunkEnd - pos);
            dataEnd = pos + (int) Math.min(dataEndRel, chunkEnd - pos);
            decoded = new String[count]; // count * 4 bytes of offsets are in the file: bounded by its size
            bytesLeft = dataEnd - dataStart;
        }

        String get(int index, int at) {
            if (index < 0 || index >= count) throw bad("string index " + index + " out of range (the pool has " + count + ")", at);
            String s = decoded[index];
            if (s == null) decoded[index] = s = decode(index);
            return s;
        }

        private String decode(int index) {
            int offsetAt = offsets + index * 4;
            long start = dataStart + u32(b, offsetAt);
            if (start >= dataEnd) throw bad("string " + index + " starts past the string data", offsetAt);
            int p = (int) start;
            long byteLength; // a UTF-16 length of up to 2^31-1 units: twice that overflows an int
            int from;
            if (utf8) {
                // UTF-16 length then UTF-8 length, each one byte, or two when the high bit is set
                int[] cursor = {p};
                length8(cursor);
                byteLength = length8(cursor);
                from = cursor[0];
            } else {
                need(p, 2, index);
                int n = u16(b, p);
                p += 2;
                if ((n & 0x8000) != 0) {
                    need(p, 2, index);
                    n = ((n & 0x7fff) << 16) | u16(b, p);
                    p += 2;
                }
                byteLength = n * 2L;
                from = p;
            }
            need(from, byteLength, index);
            bytesLeft -= (from - start) + byteLength;
            if (bytesLeft < 0) throw bad("strings overlap (string " + index + " decodes past the pool's size)", offsetAt);
            return new String(b, from, (int) byteLength, utf8 ? StandardCharsets.UTF_8 : StandardCharsets.UTF_16LE);
        }

        private int length8(int[] cursor) {
            need(cursor[0], 1, -1);
            int n = b[cursor[0]++] & 0xff;
            if ((n & 0x80) != 0) {
                need(cursor[0], 1, -1);
                n = ((n & 0x7f) << 8) | (b[cursor[0]++] & 0xff);
            }
            return n;
        }

        private void need(long from, long n, int index) {
            if (from + n > dataEnd)
                throw bad("string " + (index < 0 ? "" : index + " ") + "runs past the string data (" + n + " bytes at " + from + ", data ends at " + dataEnd + ")", (int) Math.min(from, Integer.MAX_VALUE));
        }
    }

    static int u16(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
    }

    static int i32(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    static long u32(byte[] b, int at) {
        return i32(b, at) & 0xffff_ffffL;
    }

    private static IllegalArgumentException bad(String problem, int offset) {
        return new IllegalArgumentException("binary XML: " + problem + " (byte " + offset + ")");
    }
}
