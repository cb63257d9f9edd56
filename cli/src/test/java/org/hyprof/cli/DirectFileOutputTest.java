package org.hyprof.cli;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Big exports' file: the same bytes whether they go past the page cache or through it, whatever the length. */
class DirectFileOutputTest {
    @TempDir Path dir;

    /** Lengths around a block and around the buffer, written in pieces of varying size and byte by byte. */
    private static final int[] LENGTHS = {0, 1, 511, 4095, 4096, 4097, DirectFileOutput.BUFFER_BYTES - 1,
            DirectFileOutput.BUFFER_BYTES, DirectFileOutput.BUFFER_BYTES + 1, 3 * DirectFileOutput.BUFFER_BYTES + 17};

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Writes {@code b} in pieces of 1 to 70,000 bytes, some through {@code write(int)}. */
    private static void writeInPieces(DirectFileOutput o, byte[] b) throws IOException {
        Random r = new Random(b.length);
        for (int at = 0; at < b.length; ) {
            int n = Math.min(b.length - at, 1 + r.nextInt(70_000));
            if (n < 8) {
                for (int i = 0; i < n; i++) o.write(b[at + i]);
            } else {
                o.write(b, at, n);
            }
            at += n;
        }
    }

    @Test
    void everyLengthReadsBackAsWritten() throws IOException {
        boolean anyDirect = false;
        for (int n : LENGTHS) {
            byte[] b = bytes(n, n);
            Path f = dir.resolve("out-" + n);
            try (DirectFileOutput o = DirectFileOutput.create(f)) {
                writeInPieces(o, b);
                anyDirect |= o.isDirect();
            }
            assertArrayEquals(b, Files.readAllBytes(f), "length " + n);
        }
        String type = Files.getFileStore(dir).type();
        if (type.equals("ext4") || type.equals("xfs")) assertTrue(anyDirect, "direct I/O on " + type);
    }

    @Test
    void anExistingLongerFileIsReplaced() throws IOException {
        Path f = Files.write(dir.resolve("old"), bytes(3 * DirectFileOutput.BUFFER_BYTES, 1));
        byte[] b = bytes(5000, 2);
        try (DirectFileOutput o = DirectFileOutput.create(f)) {
            o.write(b);
        }
        assertArrayEquals(b, Files.readAllBytes(f));
    }

    @Test
    void throughThePageCacheEveryLengthReadsBackAsWritten() throws IOException {
        for (int n : LENGTHS) {
            byte[] b = bytes(n, -n);
            Path f = dir.resolve("cached-" + n);
            try (DirectFileOutput o = DirectFileOutput.create(f, false)) {
                assertFalse(o.isDirect());
                writeInPieces(o, b);
            }
            assertArrayEquals(b, Files.readAllBytes(f), "length " + n);
        }
    }

    /** tmpfs: without O_DIRECT before Linux 6.6, with it since. */
    @Test
    void aMemoryFileSystemGetsTheSameBytes() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm) && Files.getFileStore(shm).type().equals("tmpfs"), "no tmpfs here");
        Path d = Files.createTempDirectory(shm, "hyprof-test");
        try {
            byte[] b = bytes(DirectFileOutput.BUFFER_BYTES + 4097, 3);
            Path f = d.resolve("out");
            try (DirectFileOutput o = DirectFileOutput.create(f)) {
                writeInPieces(o, b);
            }
            assertArrayEquals(b, Files.readAllBytes(f));
        } finally {
            try (var s = Files.list(d)) {
                for (Path p : s.toList()) Files.delete(p);
            }
            Files.delete(d);
        }
    }

    @Test
    void aDeviceIsWrittenThroughWithoutPadding() throws IOException {
        Path devNull = Path.of("/dev/null");
        assumeTrue(Files.isWritable(devNull));
        try (DirectFileOutput o = DirectFileOutput.create(devNull)) {
            assertFalse(o.isDirect());
            writeInPieces(o, bytes(DirectFileOutput.BUFFER_BYTES + 3, 4));
        }
    }

    @Test
    void writingAfterCloseIsAnError() throws IOException {
        DirectFileOutput o = DirectFileOutput.create(dir.resolve("closed"));
        o.write(1);
        o.close();
        o.close(); // twice: nothing more
        assertThrows(IOException.class, () -> o.write(2));
        assertThrows(IOException.class, () -> o.write(new byte[3], 0, 3));
        assertArrayEquals(new byte[] {1}, Files.readAllBytes(dir.resolve("closed")));
    }
}
