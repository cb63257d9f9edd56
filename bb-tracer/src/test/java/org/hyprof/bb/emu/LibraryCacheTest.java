package org.hyprof.bb.emu;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.hyprof.bb.NativeException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-user directory native libraries are loaded from (issue 20: a library planted by another
 * local user under the old predictable temporary path was loaded as it was).
 */
class LibraryCacheTest {
    static final byte[] GOOD = "the library hyprof ships".getBytes(StandardCharsets.US_ASCII);
    static final String SHA = sha(GOOD);

    @TempDir Path tmp;
    final List<String> warnings = new ArrayList<>();

    static String sha(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    Path extract(Path dir) throws Exception {
        return LibraryCache.extract(dir, "libx", () -> new ByteArrayInputStream(GOOD), SHA, warnings::add);
    }

    @Test
    void aNewDirectoryIsPrivateAndTheFileIsWrittenWithItsHashInTheName() throws Exception {
        Path dir = LibraryCache.privateDirectory(tmp.resolve("cache"), warnings::add);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        Path so = extract(dir);
        assertEquals("libx-" + SHA.substring(0, 16) + ".so", so.getFileName().toString());
        assertArrayEquals(GOOD, Files.readAllBytes(so));
        assertEquals(List.of(), warnings);
        assertEquals(so, extract(dir), "a good copy is reused");
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count(), "no temporary file left");
        }
    }

    @Test
    void aPlantedFileWithTheRightNameButWrongBytesIsReplacedNotLoaded() throws Exception {
        Path dir = LibraryCache.privateDirectory(tmp.resolve("cache"), warnings::add);
        Path planted = dir.resolve("libx-" + SHA.substring(0, 16) + ".so");
        Files.writeString(planted, "someone else's code");
        Path so = extract(dir);
        assertEquals(planted, so);
        assertArrayEquals(GOOD, Files.readAllBytes(so));
        assertEquals(List.of(planted + " did not match its SHA-256; replaced it with the library hyprof ships"), warnings);
    }

    @Test
    void aPlantedSymbolicLinkWithTheRightNameIsReplacedAndItsTargetLeftAlone() throws Exception {
        Path dir = LibraryCache.privateDirectory(tmp.resolve("cache"), warnings::add);
        Path target = tmp.resolve("elsewhere.so");
        Files.write(target, GOOD); // even the right bytes: a link can be re-pointed later
        Path link = Files.createSymbolicLink(dir.resolve("libx-" + SHA.substring(0, 16) + ".so"), target);
        Path so = extract(dir);
        assertFalse(Files.isSymbolicLink(so));
        assertArrayEquals(GOOD, Files.readAllBytes(so));
        assertTrue(Files.exists(target));
        assertEquals(List.of(link + " was a symbolic link; replaced it with the library hyprof ships"), warnings);
    }

    @Test
    void aFileOthersCanWriteIsReplaced() throws Exception {
        Path dir = LibraryCache.privateDirectory(tmp.resolve("cache"), warnings::add);
        Path f = dir.resolve("libx-" + SHA.substring(0, 16) + ".so");
        Files.write(f, GOOD);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw-rw-"));
        extract(dir);
        assertEquals(List.of(f + " could be written by other users; replaced it with the library hyprof ships"), warnings);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
    }

    @Test
    void aDirectoryOfOursThatOthersCanWriteIsMadePrivate() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("cache"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        LibraryCache.privateDirectory(dir, warnings::add);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        assertEquals(List.of(dir + " could be written by other users (mode rwxrwxrwx); made it private (rwx------)"), warnings);
    }

    @Test
    void aSymbolicLinkInPlaceOfTheDirectoryIsRefused() throws Exception {
        Path real = Files.createDirectory(tmp.resolve("real"));
        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwx------"));
        Path link = Files.createSymbolicLink(tmp.resolve("cache"), real);
        NativeException e = assertThrows(NativeException.class, () -> LibraryCache.privateDirectory(link, warnings::add));
        assertEquals(link + " is a symbolic link; hyprof loads native libraries only from a directory of its own"
                + " (remove it, or set XDG_CACHE_HOME to another place)", e.getMessage());
    }

    @Test
    void aDirectoryOfAnotherUserIsRefused() throws Exception {
        Assumptions.assumeTrue(LibraryCache.uid().equals("0"), "needs root to give a directory to another user");
        Path dir = Files.createDirectory(tmp.resolve("cache"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Files.setOwner(dir, dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        NativeException e = assertThrows(NativeException.class, () -> LibraryCache.privateDirectory(dir, warnings::add));
        assertTrue(e.getMessage().startsWith(dir + " belongs to nobody, not to this user;"), e.getMessage());
    }

    @Test
    void aJarCopyThatDoesNotMatchItsHashIsNotInstalled() throws Exception {
        Path dir = LibraryCache.privateDirectory(tmp.resolve("cache"), warnings::add);
        String other = sha("something else".getBytes(StandardCharsets.US_ASCII));
        NativeException e = assertThrows(NativeException.class,
                () -> LibraryCache.extract(dir, "libx", () -> new ByteArrayInputStream(GOOD), other, warnings::add));
        assertTrue(e.getMessage().startsWith("libx in hyprof's jar does not match its SHA-256"), e.getMessage());
        try (var s = Files.list(dir)) {
            assertEquals(0, s.count(), "nothing left behind");
        }
    }
}
