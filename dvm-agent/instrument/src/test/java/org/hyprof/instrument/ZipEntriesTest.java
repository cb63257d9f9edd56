package org.hyprof.instrument;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A zip whose entry the JDK cannot decode is a {@link ZipException}, never an unchecked exception. */
class ZipEntriesTest {
    @TempDir Path dir;

    @Test
    void anEntryCommentThatIsNotItsUtf8IsAZipException() throws Exception {
        Path zip = dir.resolve("bad-comment.zip");
        Files.write(zip, withBadComment());
        try (ZipFile z = new ZipFile(zip.toFile())) {
            // what the callers met before (issue 20: a fuzzed APK, an internal error)
            assertThrows(IllegalArgumentException.class, () -> Collections.list(z.entries()));
            ZipException e = assertThrows(ZipException.class, () -> ZipEntries.of(z));
            assertTrue(e.getMessage().startsWith("entry 2 of the central directory: malformed input"), e.getMessage());
        }
    }

    @Test
    void aWholeZipListsInOrder() throws Exception {
        Path zip = dir.resolve("good.zip");
        Files.write(zip, zip("a.txt", "b.txt"));
        try (ZipFile z = new ZipFile(zip.toFile())) {
            assertEquals(java.util.List.of("a.txt", "b.txt"), ZipEntries.of(z).stream().map(ZipEntry::getName).toList());
        }
    }

    /** Two entries; the second's comment says UTF-8 (flag bit 11) and holds 0xFF 0xFE. */
    private static byte[] withBadComment() throws Exception {
        byte[] b = zip("a.txt", "b.txt");
        ByteBuffer z = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int central = -1;
        for (int i = b.length - 4, seen = 0; i >= 0; i--) // the second central directory header, from the end
            if (z.getInt(i) == 0x02014b50 && ++seen == 1) { central = i; break; }
        assertEquals("b.txt", new String(b, central + 46, 5, java.nio.charset.StandardCharsets.US_ASCII));
        z.putShort(central + 8, (short) (z.getShort(central + 8) | 0x0800));
        int comment = central + 46 + z.getShort(central + 28) + z.getShort(central + 30);
        assertEquals(2, z.getShort(central + 32), "the comment written below");
        b[comment] = (byte) 0xFF;
        b[comment + 1] = (byte) 0xFE;
        return b;
    }

    private static byte[] zip(String... names) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(out)) {
            for (String n : names) {
                ZipEntry e = new ZipEntry(n);
                e.setComment("ok");
                z.putNextEntry(e);
                z.write(n.getBytes());
                z.closeEntry();
            }
        }
        return out.toByteArray();
    }
}
