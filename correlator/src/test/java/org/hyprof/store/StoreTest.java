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
    void readOnlyOpeningNeverWritesTheFile() throws Exception {
        Path empty = dir.resolve("empty.db");
        Files.createFile(empty);
        StoreException e = assertThrows(StoreException.class, () -> Store.openReadOnly(empty));
        assertTrue(e.getMessage().contains("empty file, not a hyprof session"), e.getMessage());
        assertEquals(0, Files.size(empty), "an empty file stays empty");

        Path db = dir.resolve("s.db");
        try (Store s = Store.create(db)) {
            s.putInfo("k", "v");
        }
        byte[] before = Files.readAllBytes(db);
        long modified = Files.getLastModifiedTime(db).toMillis();
        try (Store s = Store.openReadOnly(db)) {
            assertEquals(Store.SCHEMA_VERSION, s.schemaVersion());
            assertThrows(StoreException.class, () -> s.putInfo("k2", "v2"), "read only");
        }
        assertArrayEquals(before, Files.readAllBytes(db));
        assertEquals(modified, Files.getLastModifiedTime(db).toMillis());

        // a session of schema 1 is read through an up-to-date temporary copy; the file keeps its schema
        Path v1 = dir.resolve("v1.db");
        String sql = new String(Store.class.getResourceAsStream("V1.sql").readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + v1); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
            st.execute("INSERT INTO schema_version VALUES (1)");
            for (String stmt : sql.split(";\\s*\\n")) {
                String t = stmt.replaceAll("(?m)--.*$", "").trim();
                if (!t.isEmpty()) st.execute(t);
            }
        }
        byte[] old = Files.readAllBytes(v1);
        try (Store s = Store.openReadOnly(v1)) {
            assertEquals(Store.SCHEMA_VERSION, s.schemaVersion());
            assertTrue(s.processes().isEmpty());
        }
        assertArrayEquals(old, Files.readAllBytes(v1));
        try (Store s = Store.open(v1)) {
            assertEquals(Store.SCHEMA_VERSION, s.schemaVersion(), "opened for writing, it is brought up to date");
        }
    }

    @Test
    void histogramsRoundTrip() {
        long[] h = {0, 1, 2, 3, Long.MAX_VALUE};
        assertArrayEquals(h, Store.decodeHist(Store.encodeHist(h)));
    }
}
