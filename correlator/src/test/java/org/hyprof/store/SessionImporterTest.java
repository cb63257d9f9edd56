package org.hyprof.store;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Probe;
import org.hyprof.testing.FuzzChecks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real runtime writes a session file; the importer reads it whole, truncated and corrupted. */
class SessionImporterTest {
    @TempDir Path dir;
    Path session;

    @BeforeEach
    void record() {
        Hyprof.reset();
        session = dir.resolve("s.hyprof");
        Options o = Options.parse("out=" + session + ",mode=events,calibrate=false,snapshotMillis=10");
        assertTrue(Hyprof.start(o));
        Manifest m = new Manifest();
        m.add(new ProbeInfo(1, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"));
        m.add(new ProbeInfo(2, false, Resolution.METHOD, "app.Main", "work", "(I)I", -1, -1, 9, "Main.java"));
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD}, new boolean[] {true, true},
                Manifest.lines(m.probes(), m.skipped()));
        Probe.enter(1);
        for (int i = 0; i < 500; i++) { Probe.enter(2); Probe.exit(2); }
        Probe.exit(1);
        Hyprof.stop();
    }

    @AfterEach
    void reset() {
        Hyprof.reset();
    }

    SessionImporter.Result importInto(Path file) throws IOException {
        try (Store s = Store.create(dir.resolve(file.getFileName() + ".db"))) {
            return SessionImporter.importFile(file, s);
        }
    }

    @Test
    void wholeFileImportsCleanly() throws IOException {
        Path db = dir.resolve("whole.db");
        try (Store s = Store.create(db)) {
            SessionImporter.Result r = SessionImporter.importFile(session, s);
            assertTrue(r.cleanEnd());
            assertEquals(List.of(), r.notes());
            assertEquals(2, r.probes());
            long calls = s.stats(r.processId()).stream().filter(p -> p.probeId() == 2).mapToLong(ProbeStats::calls).sum();
            assertEquals(500, calls);
            assertEquals("ended", s.processes().get(0).status());
            assertTrue(s.eventChunkCount(r.processId()) >= 1);
            // the recording thread (this one) under the id the kernel gives it (Linux: /proc/thread-self)
            long osTid = Long.parseLong(Path.of("/proc/thread-self").toRealPath().getFileName().toString());
            assertEquals(java.util.Map.of(Thread.currentThread().getId(), osTid), s.osTids(r.processId()));
        }
    }

    /**
     * Issue 20, fuzz finding: appending a file found its run by listing every process of the
     * session, so a 172-byte file allocated 8.6 MB in a session of thousands of processes. Now the
     * import allocates the same with 3,000 processes more.
     */
    @Test
    void appendingAllocatesNoMoreInALargeSession() throws Exception {
        try (Store s = Store.create(dir.resolve("large.db"))) {
            SessionImporter.importFile(session, s);
            SessionImporter.importFile(session, s); // warm: classes loaded, statements prepared
            long small = allocatedByAppend(s);
            for (int i = 0; i < 3000; i++)
                s.addProcess(new ProcessInfo(0, 10_000 + i, "p" + i, "vm", "events", 0, i + 1, i + 1, null, "crashed", 0,
                        "/some/where/p" + i + ".hyprof"));
            long large = allocatedByAppend(s);
            // before the fix: +2.2 KB per process row, 6.6 MB here
            assertTrue(large < small + (1 << 20), "appending allocated " + small + " bytes, with 3,000 processes more " + large);
            assertEquals(3001, s.processes().size(), "every import went into the run's row");
        }
    }

    /** Bytes the calling thread allocates appending the session file again (the least of two runs). */
    long allocatedByAppend(Store s) throws IOException {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            long before = FuzzChecks.allocatedBytes();
            assertTrue(SessionImporter.importFile(session, s).resumed());
            least = Math.min(least, FuzzChecks.allocatedBytes() - before);
        }
        return least;
    }

    @Test
    void truncatedFileGivesValidPrefixAndSaysWhere() throws IOException {
        long size = Files.size(session);
        Path cut = dir.resolve("cut.hyprof");
        byte[] all = Files.readAllBytes(session);
        Files.write(cut, java.util.Arrays.copyOf(all, (int) size - 7)); // inside the END chunk
        SessionImporter.Result r = importInto(cut);
        assertFalse(r.cleanEnd());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("damaged at byte") && n.contains("truncated")), r.notes().toString());
        assertEquals(2, r.probes(), "manifest before the damage survives");
    }

    @Test
    void flippedByteIsACrcMismatch() throws IOException {
        Path bad = dir.resolve("bad.hyprof");
        Files.copy(session, bad);
        try (RandomAccessFile f = new RandomAccessFile(bad.toFile(), "rw")) {
            long at = f.length() - 12;
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x55);
        }
        SessionImporter.Result r = importInto(bad);
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("checksum mismatch")), r.notes().toString());
    }

    @Test
    void notASessionIsAOneLineError() throws IOException {
        Path junk = dir.resolve("junk.hyprof");
        Files.writeString(junk, "this is not a session\n");
        IOException e = assertThrows(IOException.class, () -> importInto(junk));
        assertTrue(e.getMessage().contains("not a hyprof session file"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
        Path empty = dir.resolve("empty.hyprof");
        Files.write(empty, new byte[0]);
        assertThrows(IOException.class, () -> importInto(empty));
        Path onlyMagic = dir.resolve("magic.hyprof");
        Files.write(onlyMagic, org.hyprof.runtime.SessionFormat.MAGIC);
        IOException e2 = assertThrows(IOException.class, () -> importInto(onlyMagic));
        assertTrue(e2.getMessage().contains("no session header"), e2.getMessage());
    }
}
