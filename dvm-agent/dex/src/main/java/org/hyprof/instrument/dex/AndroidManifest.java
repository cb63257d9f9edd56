package org.hyprof.instrument.dex;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The little the instrumenter reads from an APK's binary {@code AndroidManifest.xml} (Android's
 * compiled XML, "AXML"): the package name and {@code <uses-sdk android:minSdkVersion>}, which
 * decides whether the runtime may live in its own {@code classesN.dex} (API ≥ 21: the platform
 * loads every DEX file) or must go into {@code classes.dex} (legacy multidex loads the others
 * late, from app code).
 */
public final class AndroidManifest {
    /** Resource id of the {@code android:minSdkVersion} attribute. */
    static final int MIN_SDK_VERSION_ATTR = 0x0101020c;
    /** Bytes of a start element's extension (namespace, name, attribute start, size and count, three indices). */
    private static final int ELEMENT_EXT_BYTES = 20;
    /** Bytes of one attribute (namespace, name, raw value, typed value). */
    private static final int ATTRIBUTE_BYTES = 20;
    /** Android's default when a manifest names no minSdkVersion. */
    public static final int DEFAULT_MIN_SDK = 1;

    /** Package name, or null when absent. */
    public final String packageName;
    /** minSdkVersion; {@link #DEFAULT_MIN_SDK} when absent; a codename counts as 10,000. */
    public final int minSdk;

    private AndroidManifest(String packageName, int minSdk) {
        this.packageName = packageName;
        this.minSdk = minSdk;
    }

    /**
     * Parses binary XML.
     *
     * @throws IllegalArgumentException with a short reason when the bytes are not binary XML
     */
    public static AndroidManifest parse(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < 8 || (b.getShort(0) & 0xffff) != 0x0003)
            throw new IllegalArgumentException("not a binary XML file");
        String[] strings = new String[0];
        int[] resIds = new int[0];
        String pkg = null;
        int minSdk = DEFAULT_MIN_SDK;
        int pos = b.getShort(2) & 0xffff;
        int end = Math.min(bytes.length, b.getInt(4));
        boolean poolSeen = false;
        while (pos + 8 <= end) {
            int type = b.getShort(pos) & 0xffff;
            int headerSize = b.getShort(pos + 2) & 0xffff;
            int size = b.getInt(pos + 4);
            if (size < 8 || (long) pos + size > end) throw new IllegalArgumentException("truncated chunk at " + pos);
            if (headerSize < 8 || headerSize > size)
                throw new IllegalArgumentException("chunk at " + pos + " has a header of " + headerSize + " bytes in " + size);
            if (type == 0x0001) {
                // one pool, its strings inside it: what it allocates is bounded by its own size
                if (poolSeen) throw new IllegalArgumentException("a second string pool at " + pos);
                poolSeen = true;
                strings = strings(b, pos, size);
            }
            else if (type == 0x0180) {
                resIds = new int[(size - headerSize) / 4];
                for (int i = 0; i < resIds.length; i++) resIds[i] = b.getInt(pos + headerSize + 4 * i);
            } else if (type == 0x0102) {
                int ext = pos + headerSize;
                // the element's attributes lie inside its chunk, none shorter than one: an element
                // reads no more attributes than its chunk's bytes hold (an attribute size of 0 read
                // one attribute 65,280 times from a 56-byte chunk)
                if (ext + ELEMENT_EXT_BYTES > pos + size)
                    throw new IllegalArgumentException("element at " + pos + " is shorter than its " + ELEMENT_EXT_BYTES + "-byte header");
                String element = str(strings, b.getInt(ext + 4));
                int attrStart = b.getShort(ext + 8) & 0xffff;
                int attrSize = b.getShort(ext + 10) & 0xffff;
                int attrCount = b.getShort(ext + 12) & 0xffff;
                if (attrCount > 0 && (attrSize < ATTRIBUTE_BYTES || (long) ext + attrStart + (long) attrCount * attrSize > pos + size))
                    throw new IllegalArgumentException("element at " + pos + ": " + attrCount + " attributes of " + attrSize
                            + " bytes from byte " + attrStart + " do not fit its " + size + " bytes");
                boolean isManifest = "manifest".equals(element), isUsesSdk = "uses-sdk".equals(element);
                if (!isManifest && !isUsesSdk) attrCount = 0; // no attribute of another element is read
                for (int a = 0; a < attrCount; a++) {
                    int at = ext + attrStart + a * attrSize;
                    int nameIdx = b.getInt(at + 4);
                    String name = str(strings, nameIdx);
                    int resId = nameIdx >= 0 && nameIdx < resIds.length ? resIds[nameIdx] : 0;
                    int raw = b.getInt(at + 8);
                    int dataType = b.get(at + 15) & 0xff;
                    int data = b.getInt(at + 16);
                    if (isManifest && "package".equals(name)) pkg = str(strings, raw >= 0 ? raw : data);
                    if (isUsesSdk && (resId == MIN_SDK_VERSION_ATTR || "minSdkVersion".equals(name))) {
                        if (dataType == 0x10 || dataType == 0x11) minSdk = data;
                        else if (dataType == 0x03) minSdk = codename(str(strings, data));
                    }
                }
            }
            pos += size;
        }
        return new AndroidManifest(pkg, minSdk);
    }

    private static int codename(String s) {
        if (s == null) return DEFAULT_MIN_SDK;
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return 10000; // a preview codename: newer than any release
        }
    }

    private static String str(String[] strings, int i) {
        return i >= 0 && i < strings.length ? strings[i] : null;
    }

    private static String[] strings(ByteBuffer b, int chunk, int size) {
        int count = b.getInt(chunk + 8);
        int flags = b.getInt(chunk + 16);
        int stringsStart = b.getInt(chunk + 20);
        boolean utf8 = (flags & 0x100) != 0;
        int offsets = chunk + (b.getShort(chunk + 2) & 0xffff);
        // counts and lengths come from the file: each must fit what remains before it is allocated
        int chunkEnd = chunk + size;
        if (count < 0 || count > (chunkEnd - offsets) / 4)
            throw new IllegalArgumentException("a string pool of " + Integer.toUnsignedString(count) + " strings in " + size + " bytes");
        String[] out = new String[count];
        // strings do not overlap, so together they are no longer than their pool; several indices
        // may name one string (read once). Without this, N offsets into one long run of characters
        // each decoded it again: N × its length from a pool of a few kilobytes.
        Map<Integer, String> byOffset = new HashMap<>();
        long decodedBytes = 0;
        for (int i = 0; i < count; i++) {
            long at = (long) chunk + stringsStart + b.getInt(offsets + 4 * i);
            if (stringsStart < 0 || at < chunk || at + 2 > chunkEnd)
                throw new IllegalArgumentException("string " + i + " lies outside its pool");
            int p = (int) at;
            String seen = byOffset.get(p);
            if (seen != null) {
                out[i] = seen;
                continue;
            }
            if (utf8) {
                p += (b.get(p) & 0x80) != 0 ? 2 : 1; // UTF-16 length
                int len = b.get(p) & 0xff;
                if ((len & 0x80) != 0) { len = ((len & 0x7f) << 8) | (b.get(p + 1) & 0xff); p += 2; } else p += 1;
                if ((long) p + len > chunkEnd) throw new IllegalArgumentException("string " + i + " of " + len + " bytes runs past its pool");
                decodedBytes = overlapChecked(decodedBytes + len, i, size);
                byte[] s = new byte[len];
                b.get(p, s);
                out[i] = new String(s, StandardCharsets.UTF_8);
            } else {
                int len = b.getShort(p) & 0xffff;
                if ((len & 0x8000) != 0) { len = ((len & 0x7fff) << 16) | (b.getShort(p + 2) & 0xffff); p += 4; } else p += 2;
                if ((long) p + 2L * len > chunkEnd)
                    throw new IllegalArgumentException("string " + i + " of " + len + " characters runs past the end");
                decodedBytes = overlapChecked(decodedBytes + 2L * len, i, size);
                char[] s = new char[len];
                for (int k = 0; k < len; k++) s[k] = b.getChar(p + 2 * k);
                out[i] = new String(s);
            }
            byOffset.put((int) at, out[i]);
        }
        return out;
    }

    /** The bytes of the pool's distinct strings so far, refused once they exceed the pool's own size (they overlap). */
    private static long overlapChecked(long decodedBytes, int string, int poolBytes) {
        if (decodedBytes > poolBytes)
            throw new IllegalArgumentException("string " + string + " overlaps others: " + decodedBytes + " bytes of strings in a pool of " + poolBytes);
        return decodedBytes;
    }
}
