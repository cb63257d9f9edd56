package org.hyprof.store;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.hyprof.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreTest {
    @TempDir Path dir;

    @Test
    void aClosedSessionIsOneFileAndReadingItMakesNoSideFiles() throws Exception {
        Path db = dir.resolve("s.db");
        try (Store s = Store.create(db)) {
            s.putInfo("k", "v");
        }
        try (Store s = Store.openReadOnly(db)) {
            assertNotNull(s.processes());
        }
        assertFalse(Files.exists(Path.of(db + "-wal")), "no -wal after a read-only open");
        assertFalse(Files.exists(Path.of(db + "-shm")), "no -shm after a read-only open");
        try (Store w = Store.open(db); Store r = Store.openReadOnly(db)) {
            w.putInfo("k", "w"); // WAL again while written: a reader beside the writer still works
            assertNotNull(r.processes());
        }
        try (Store s = Store.openReadOnly(db)) {
            assertNotNull(s.processes());
        }
        assertFalse(Files.exists(Path.of(db + "-wal")));
    }

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

        // issue 20: schema_version -1 was an internal error (ArrayIndexOutOfBounds), 0 an error naming a temporary copy
        for (int v : new int[] {-1, 0}) {
            Path forged = dir.resolve("forged" + v + ".db");
            try (Store s = Store.create(forged)) { /* created */ }
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + forged); Statement s = c.createStatement()) {
                s.execute("UPDATE schema_version SET version = " + v);
            }
            for (org.junit.jupiter.api.function.Executable open : List.<org.junit.jupiter.api.function.Executable>of(
                    () -> Store.open(forged), () -> Store.openReadOnly(forged).close())) {
                String m = assertThrows(StoreException.class, open).getMessage();
                assertEquals(forged + ": not a hyprof session (schema_version " + v + ")", m);
            }
        }
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
        Path copy;
        try (Store s = Store.openReadOnly(v1)) {
            assertEquals(Store.SCHEMA_VERSION, s.schemaVersion());
            assertTrue(s.processes().isEmpty());
            copy = s.temporaryCopy();
            assertTrue(Files.exists(copy) && Files.exists(Path.of(copy + "-wal")), "read through a copy: " + copy);
        }
        assertArrayEquals(old, Files.readAllBytes(v1));
        // issue 20: every upgrade left the copy's -wal and -shm files in the temporary directory
        for (String side : new String[] {"", "-wal", "-shm", "-journal"})
            assertFalse(Files.exists(Path.of(copy + side)), "left behind: " + copy + side);
        for (String side : new String[] {"-wal", "-shm", "-journal"}) assertFalse(Files.exists(Path.of(v1 + side)), side);
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

    /**
     * Issue 20: one stored chunk's bytes halved made exports rebuild wrong stacks without a word.
     * Each chunk carries the CRC-32 of its records: the damaged one is named and left out.
     */
    @Test
    void aDamagedEventChunkIsNamedAndNeverReplayed() throws Exception {
        Path db = dir.resolve("damaged.db");
        byte[] first = new org.hyprof.runtime.chunk.EventRecords.Writer(1_000)
                .add(1, org.hyprof.runtime.SessionFormat.EV_ENTER, 1_100)
                .add(2, org.hyprof.runtime.SessionFormat.EV_ENTER, 1_200)
                .add(2, org.hyprof.runtime.SessionFormat.EV_EXIT, 1_300).toByteArray();
        byte[] second = new org.hyprof.runtime.chunk.EventRecords.Writer(2_000)
                .add(1, org.hyprof.runtime.SessionFormat.EV_EXIT, 2_100).toByteArray();
        long p;
        try (Store s = Store.create(db)) {
            p = s.addProcess(new ProcessInfo(0, 1, "app", "vm", "events", 1 << 20, 0, 0, null, "ended", 0, "test"));
            assertTrue(s.addEventChunk(p, 7, 0, 1_000, first));
            assertTrue(s.addEventChunk(p, 7, 1, 2_000, second));
            assertTrue(s.addEventChunk(p, 8, 0, 1_000, first));
            assertEquals(List.of(), s.damagedEventChunks(p), "as stored: intact");
        }
        // what the audit did: halve one chunk's bytes behind the store's back
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            assertEquals(1, st.executeUpdate("UPDATE event_chunk SET data = substr(data, 1, length(data) / 2) WHERE tid = 7 AND seq = 0"));
        }
        try (Store s = Store.openReadOnly(db)) {
            assertEquals(List.of(new DamagedChunk(p, 7, 0, first.length / 2)), s.damagedEventChunks(p));
            List<String> read = new java.util.ArrayList<>();
            s.eventChunks(p, c -> read.add(c.tid() + "/" + c.seq()));
            assertEquals(List.of("7/1", "8/0"), read, "the damaged chunk is never handed to the analysis");
            assertEquals(3, s.eventChunkCount(p), "but it is still in the session");
        }
        // a session of schema 3 has no checksums: its chunks are taken as they are
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE event_chunk SET crc32 = NULL");
        }
        try (Store s = Store.openReadOnly(db)) {
            assertEquals(List.of(), s.damagedEventChunks(p));
            long[] n = new long[1];
            s.eventChunks(p, c -> n[0]++);
            assertEquals(3, n[0]);
        }
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

    /**
     * A session of schema 4 (before the runtime's count-only, clamped and tiny counts) is read
     * through the migration: its rows read 0 for them, and every call counts as timed.
     */
    @Test
    void aSchema4SessionReadsZeroForTheTimingCounts() throws Exception {
        Path v4 = dir.resolve("v4.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + v4); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
            st.execute("INSERT INTO schema_version VALUES (4)");
            for (String v : List.of("V1.sql", "V2.sql", "V3.sql", "V4.sql")) {
                String sql = new String(Store.class.getResourceAsStream(v).readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                for (String stmt : sql.split(";\\s*\\n")) {
                    String t = stmt.replaceAll("(?m)--.*$", "").trim();
                    if (!t.isEmpty()) st.execute(t);
                }
            }
            st.execute("INSERT INTO process(id, pid, name, status) VALUES (1, 7, 'old', 'ended')");
            st.execute("INSERT INTO probe_stats(process_id, tid, probe_id, calls, incl_raw_ns, excl_raw_ns, incl_ns, excl_ns,"
                    + " min_ns, max_ns, outer_calls, events_inside, iters_inside, child_calls, direct_loop_events, direct_iters,"
                    + " iterations, throws, seen, hist) VALUES (1, 1, 2, 42, 900, 900, 800, 800, 10, 30, 42, 0, 0, 0, 0, 0, 0, 0, 42, X'')");
        }
        try (Store s = Store.openReadOnly(v4)) {
            assertEquals(Store.SCHEMA_VERSION, s.schemaVersion());
            ProbeStats st = s.stats(1).get(0);
            assertEquals(TimingCounts.NONE, st.timing());
            assertEquals(42, st.allCalls());
        }
        try (Store s = Store.open(v4)) {
            assertEquals(Store.SCHEMA_VERSION, s.schemaVersion(), "opened for writing, it is brought up to date");
            assertNull(s.stats(1).get(0).cpu(), "no CPU time before schema 7: absent, not 0");
            s.putStats(1, List.of(new ProbeStats(1, 2, 42, 900, 900, 800, 800, 10, 30, 42, 0, 0, 0, 0, 0, 0, 0, 4042,
                    new long[org.hyprof.runtime.Stats.HIST_BUCKETS], NativeCost.NONE, new TimingCounts(4000, 3, 5, 48))));
            ProbeStats st = s.stats(1).get(0);
            assertEquals(new TimingCounts(4000, 3, 5, 48), st.timing());
            assertEquals(4042, st.allCalls());
        }
    }

    @Test
    void aStoredCountBelowZeroIsADamagedSessionNamingTheFile() throws Exception {
        Path db = dir.resolve("tampered.db");
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 1, "app", "vm", "aggregate", 0, 0, 0, null, "ended", 0, "test"));
            s.putStats(p, List.of(new ProbeStats(1, 2, 42, 900, 900, 800, 800, 10, 30, 42, 0, 0, 0, 0, 0, 0, 0, 42,
                    new long[org.hyprof.runtime.Stats.HIST_BUCKETS], NativeCost.NONE)));
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("UPDATE probe_stats SET calls = -1"); // what a hand edit or a damaged page can leave
        }
        try (Store s = Store.openReadOnly(db)) {
            long p = s.processes().get(0).id();
            StoreException e = assertThrows(StoreException.class, () -> s.stats(p));
            assertEquals(db + ": damaged session (probe 2 of thread 1 has calls = -1)", e.getMessage());
        }
    }
}
