package org.hyprof.store;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.hyprof.testing.Golden;
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

    /** The schema a new session gets (all migrations applied), as SQLite keeps it: a golden file. */
    @Test
    void schemaGolden() throws Exception {
        Path db = dir.resolve("schema.db");
        try (Store s = Store.create(db)) { /* all migrations */ }
        StringBuilder b = new StringBuilder();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type DESC, name")) {
            while (rs.next()) b.append(rs.getString(1).strip().replaceAll("[ \\t]+\\n", "\\n")).append(";\n");
        }
        Golden.check("schema.sql", b.toString());
    }

    @Test
    void nativeRunsRoundTrip() {
        Path db = dir.resolve("n.db");
        NativeRunRecord r = new NativeRunRecord(0, "/x/libk.so", "kernel_fft", "256, 4", "armeabi-v7a", "cortex-a9", "libunicorn",
                -7, 100, 1000, 2000, 1000, 1_500_000, 42_000, new java.util.LinkedHashMap<>(java.util.Map.of("alu", 900L)), 1234,
                java.util.List.of(new NativeRunRecord.Function("kernel_fft", 1000, 2000, 1000, 1_500_000)),
                java.util.List.of(new NativeRunRecord.Block(0x4d0, "kernel_fft", 50, 20, 2000, "add r0, r0, r1 ; alu")));
        try (Store s = Store.create(db)) {
            assertEquals(1, s.addNativeRun(r));
            assertEquals(2, s.addNativeRun(r));
        }
        try (Store s = Store.openReadOnly(db)) {
            java.util.List<NativeRunRecord> runs = s.nativeRuns();
            assertEquals(2, runs.size());
            NativeRunRecord back = runs.get(1);
            assertEquals(new NativeRunRecord(2, r.library(), r.symbol(), r.args(), r.abi(), r.cpuProfile(), r.engine(), r.returnValue(),
                    r.blocks(), r.instructions(), r.cycles(), r.estNanos(), r.energyPicojoules(), r.emulatedNanos(), r.categories(),
                    r.recordedWallMillis(), r.functions(), r.hotBlocks()), back);
            assertEquals("libk.so kernel_fft(256, 4)", back.label());
        }
    }
}
