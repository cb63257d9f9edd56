package org.hyprof.collector;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenFileTest {
    @TempDir Path dir;

    @Test
    void aNewTokenIsRandomOwnerOnlyAndReadAgain() throws Exception {
        Path f = TokenFile.beside(dir.resolve("s.db"));
        assertEquals(dir.resolve("s.db.token"), f);
        TokenFile.Token t = TokenFile.createOrRead(f);
        assertTrue(t.created());
        assertTrue(t.value().matches("[0-9a-f]{32}"), t.value()); // 128 bits
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        TokenFile.Token again = TokenFile.createOrRead(f);
        assertFalse(again.created());
        assertEquals(t.value(), again.value());
        assertNotEquals(t.value(), TokenFile.createOrRead(dir.resolve("other.token")).value());
        try (var files = Files.list(dir)) {
            assertEquals(2, files.count(), "no temporary file left");
        }
    }

    @Test
    void aTokenFileOthersCanReadIsRefused() throws Exception {
        Path f = dir.resolve("open.token");
        Files.writeString(f, "abc\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        var e = assertThrows(java.io.IOException.class, () -> TokenFile.read(f));
        assertTrue(e.getMessage().contains("readable by others"), e.getMessage());
    }
}
