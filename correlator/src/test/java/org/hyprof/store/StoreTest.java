package org.hyprof.store;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreTest {
    @TempDir Path dir;

    @Test
    void createsAtCurrentSchemaAndReopens() {
        Path db = dir.resolve("a.db");
        try (Store s = Store.create(db)) {
            assertEquals(Store.SCHEMA_VERSION, s.schemaVersion());
            s.putInfo("k", "v");
        }
        try (Store s = Store.open(db)) {
            assertEquals(Store.SCHEMA_VERSION, s.schemaVersion());
            assertTrue(s.processes().isEmpty());
        }
        assertThrows(StoreException.class, () -> Store.create(db), "never overwrites");
    }

    @Test
    void badFilesGiveOneLineErrors() throws Exception {
        Path junk = dir.resolve("junk.db");
        Files.writeString(junk, "definitely not sqlite, just some text that is long enough to be a header ........");
        StoreException e = assertThrows(StoreException.class, () -> Store.open(junk));
        assertTrue(e.getMessage().startsWith(junk.toString()), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));

        assertThrows(StoreException.class, () -> Store.open(dir.resolve("missing.db")));

        Path other = dir.resolve("other.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + other); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(x)");
        }
        assertTrue(assertThrows(StoreException.class, () -> Store.open(other)).getMessage().contains("not a hyprof session"));

        Path newer = dir.resolve("newer.db");
        try (Store s = Store.create(newer)) { /* created */ }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + newer); Statement s = c.createStatement()) {
            s.execute("UPDATE schema_version SET version = 99");
        }
        assertTrue(assertThrows(StoreException.class, () -> Store.open(newer)).getMessage().contains("newer hyprof"));
    }

    @Test
    void histogramsRoundTrip() {
        long[] h = {0, 1, 2, 3, Long.MAX_VALUE};
        assertArrayEquals(h, Store.decodeHist(Store.encodeHist(h)));
    }
}
