package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.hyprof.testing.FuzzChecks;
import org.junit.jupiter.api.Test;

/**
 * Hostile binary XML: counts and offsets from the file never make {@link AndroidManifest#parse}
 * read or allocate more than the file holds. Each case failed before its check (issue 20: the fuzz
 * input {@code fuzz-manifest-string-pools.apk} read one attribute 65,280 times).
 */
class AndroidManifestTest {
    @Test
    void aRealManifestStillParses() {
        AndroidManifest m = AndroidManifest.parse(TestApk.manifest("com.example.app", 19));
        assertEquals("com.example.app", m.packageName);
        assertEquals(19, m.minSdk);
    }

    @Test
    void attributesMustFitTheirElementEachAWholeAttribute() {
        // <manifest>'s one attribute said to be 65,280 attributes of 0 bytes: read again and again
        byte[] zeroSize = TestApk.manifest("com.example.app", 19);
        int manifest = firstElement(zeroSize);
        ByteBuffer.wrap(zeroSize).order(ByteOrder.LITTLE_ENDIAN).putShort(manifest + 16 + 10, (short) 0).putShort(manifest + 16 + 12, (short) 65280);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AndroidManifest.parse(zeroSize));
        assertEquals("element at " + manifest + ": 65280 attributes of 0 bytes from byte 20 do not fit its 56 bytes", e.getMessage());

        // two attributes of 20 bytes where the chunk holds one: the second would be the next chunk's bytes
        byte[] twoInOne = TestApk.manifest("com.example.app", 19);
        ByteBuffer.wrap(twoInOne).order(ByteOrder.LITTLE_ENDIAN).putShort(manifest + 16 + 12, (short) 2);
        e = assertThrows(IllegalArgumentException.class, () -> AndroidManifest.parse(twoInOne));
        assertTrue(e.getMessage().contains("2 attributes of 20 bytes"), e.getMessage());
    }

    @Test
    void indicesNamingOneStringReadItOnce() {
        // 10,000 indices, all at one string of 2,000 characters: 10,000 copies were ~60 MB
        int count = 10_000, chars = 2_000;
        ByteBuffer data = le(2 + 2 * chars + 2).putShort((short) chars);
        for (int i = 0; i < chars; i++) data.putChar('x');
        byte[] xml = binaryXml(new int[count], data.putShort((short) 0).array());
        long before = FuzzChecks.allocatedBytes();
        AndroidManifest.parse(xml);
        long allocatedBytes = FuzzChecks.allocatedBytes() - before;
        assertTrue(allocatedBytes < 2 * xml.length + (1 << 20), allocatedBytes + " bytes allocated for " + xml.length + " bytes");
    }

    @Test
    void stringsThatOverlapAreRefused() {
        // 8 KiB of the character U+0400: at every even offset a length of 1,024 characters starts
        int dataBytes = 8192, len = 0x0400;
        ByteBuffer data = le(dataBytes);
        while (data.hasRemaining()) data.putShort((short) len);
        int[] offsets = new int[(dataBytes - 2 - 2 * len) / 2];
        for (int i = 0; i < offsets.length; i++) offsets[i] = 2 * i;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AndroidManifest.parse(binaryXml(offsets, data.array())));
        assertTrue(e.getMessage().startsWith("string ") && e.getMessage().contains(" overlaps others: "), e.getMessage());
    }

    /** Offset of the first start-element chunk (after the file header, the pool and the resource map). */
    private static int firstElement(byte[] xml) {
        ByteBuffer b = ByteBuffer.wrap(xml).order(ByteOrder.LITTLE_ENDIAN);
        for (int pos = 8; ; pos += b.getInt(pos + 4))
            if (b.getShort(pos) == 0x0102) return pos;
    }

    /** A binary XML file holding a UTF-16 string pool only: these offsets into this string data. */
    private static byte[] binaryXml(int[] offsets, byte[] stringData) {
        int poolHeader = 28, pool = poolHeader + 4 * offsets.length + stringData.length;
        ByteBuffer b = le(8 + pool);
        b.putShort((short) 0x0003).putShort((short) 8).putInt(8 + pool);
        b.putShort((short) 0x0001).putShort((short) poolHeader).putInt(pool);
        b.putInt(offsets.length).putInt(0).putInt(0).putInt(poolHeader + 4 * offsets.length).putInt(0);
        for (int o : offsets) b.putInt(o);
        return b.put(stringData).array();
    }

    private static ByteBuffer le(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
}
