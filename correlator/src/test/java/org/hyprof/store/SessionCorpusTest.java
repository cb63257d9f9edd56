package org.hyprof.store;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hyprof.runtime.chunk.SessionFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Imports the runtime's golden session file and each of its damaged variants
 * ({@link SessionFiles}): the valid part is imported, the damage is named with its byte offset,
 * a chunk that does not decode is skipped with a warning, and nothing else escapes.
 */
class SessionCorpusTest {
    @TempDir Path dir;

    private SessionImporter.Result importBytes(String name, byte[] bytes, Store s) throws IOException {
        Path f = dir.resolve(name + ".hyprof");
        Files.write(f, bytes);
        return SessionImporter.importFile(f, s);
    }

    /**
     * Imports the golden file as hyprof wrote it in session format {@code version}
     * ({@code src/test/resources/sessions/formatN.hyprof.hex}); it ended cleanly.
     */
    private SessionImporter.Result importOlder(int version, Store s) throws IOException {
        String hex = Files.readString(Path.of("src/test/resources/sessions/format" + version + ".hyprof.hex")).replaceAll("\\s", "");
        byte[] bytes = java.util.HexFormat.of().parseHex(hex);
        assertEquals(version, bytes[7], "a format-" + version + " file");
        SessionImporter.Result r = importBytes("format" + version, bytes, s);
        assertTrue(r.cleanEnd(), r.notes().toString());
        return r;
    }

    @Test
    void theGoldenSessionImportsWhole() throws IOException {
        try (Store s = Store.create(dir.resolve("g.db"))) {
            SessionImporter.Result r = importBytes("golden", SessionFiles.golden(), s);
            assertTrue(r.cleanEnd(), r.notes().toString());
            assertEquals(2, r.probes());
            assertEquals(1, r.threads());
            assertEquals(1, r.eventChunks());
            assertEquals(0, r.eventDrops());
            assertEquals("golden", r.processName());
            long p = r.processId();
            assertEquals(1, s.calibrations(p).size());
            assertEquals(1, s.skipped(p).size());
            assertEquals(1, s.nativeEpochs(p).size());
            assertEquals(Map.of(1, 20L, -1, 1L), s.nativeBlocks(p).get(0).executionsByProbe());
            assertEquals("armeabi-v7a", s.nativeInfo(p).get("abi"));
            assertEquals(List.of(new NativeLibraryCost("libx.so", "libx.so", false, 1, 30, 800, 1_100, 550, 300_000),
                    new NativeLibraryCost("libx.so", "libc.so", true, 1, 10, 200, 400, 200, 100_000)), s.nativeLibraryCosts(p));
            assertTrue(s.notes().stream().anyMatch(n -> n.contains("probe failure: golden")), s.notes().toString());
            ProbeStats main = s.stats(p).stream().filter(x -> x.probeId() == 1).findFirst().orElseThrow();
            assertEquals(1, main.calls());
            assertEquals(8_500, main.inclNanos());
            assertEquals(new CpuTime(6_000, 6_000, CpuTime.SAMPLED), main.cpu());
            assertEquals(6_000L, s.threads(p).get(0).topCpuNanos());
        }
    }

    /**
     * A session file of format 2 (before thread CPU time: the golden file as hyprof wrote it then,
     * kept in {@code src/test/resources/sessions/format2.hyprof.hex}) still imports, and its rows
     * have no CPU time: absent (null), never 0.
     */
    @Test
    void aFormat2SessionImportsWithoutCpuTime() throws IOException {
        try (Store s = Store.create(dir.resolve("v2.db"))) {
            SessionImporter.Result r = importOlder(2, s);
            long p = r.processId();
            ProbeStats main = s.stats(p).stream().filter(x -> x.probeId() == 1).findFirst().orElseThrow();
            assertEquals(8_500, main.inclNanos());
            assertNull(main.cpu());
            assertNull(s.threads(p).get(0).topCpuNanos());
        }
    }

    /**
     * A session file of format 4 (before native cost per library: the golden file as hyprof wrote
     * it then, {@code src/test/resources/sessions/format4.hyprof.hex}) still imports, with its
     * native blocks and epochs and no per-library rows.
     */
    @Test
    void aFormat4SessionImportsWithoutCostPerLibrary() throws IOException {
        try (Store s = Store.create(dir.resolve("v4.db"))) {
            SessionImporter.Result r = importOlder(4, s);
            long p = r.processId();
            assertEquals(1, s.nativeEpochs(p).size());
            assertEquals(1, s.nativeBlocks(p).size());
            assertEquals(List.of(), s.nativeLibraryCosts(p));
        }
    }

    /**
     * A session file of format 3 (before fine histograms: the golden file as hyprof wrote it then,
     * {@code src/test/resources/sessions/format3.hyprof.hex}) still imports; its rows have log₂
     * histograms only, and the report says their percentiles are log₂ ones.
     */
    @Test
    void aFormat3SessionImportsWithLog2Percentiles() throws IOException {
        try (Store s = Store.create(dir.resolve("v3.db"))) {
            SessionImporter.Result r = importOlder(3, s);
            long p = r.processId();
            ProbeStats main = s.stats(p).stream().filter(x -> x.probeId() == 1).findFirst().orElseThrow();
            assertEquals(8_500, main.inclNanos());
            assertNull(main.fine(), "no fine histogram before format 4");
            assertEquals(1, main.hist()[org.hyprof.runtime.Stats.bucket(8_500)]);
            org.hyprof.correlate.Profile prof = org.hyprof.correlate.Profile.load(s, org.hyprof.config.MethodNames.Style.JAVA);
            org.hyprof.correlate.MethodRow row = prof.methods().stream().filter(x -> x.method().startsWith("app.Main.main")).findFirst().orElseThrow();
            assertTrue(row.log2Percentiles(), row.toString());
            assertEquals(8_500, row.p50Nanos(), "one call: clamped to its min and max");
            assertTrue(prof.notes().stream().anyMatch(n -> n.contains("log₂ histograms")), prof.notes().toString());
        }
    }

    /**
     * A session file of format 4 (before thread CPU time in event records: the golden file as
     * hyprof wrote it then, {@code src/test/resources/sessions/format4.hyprof.hex}) still imports;
     * its calls have no CPU time (-1, never 0) and its {@code .trace} has the wall clock in both
     * columns, while the current golden file's calls have their CPU time.
     */
    @Test
    void aFormat4SessionsEventsHaveNoCpuTime() throws Exception {
        try (Store s = Store.create(dir.resolve("v4.db"))) {
            importOlder(4, s);
            ProcessInfo p = s.processes().get(0);
            java.util.List<org.hyprof.analysis.Timeline.Call> calls = org.hyprof.analysis.Timeline.load(s, p, null).threads.get(0).calls();
            assertEquals(2, calls.size(), "main and its loop");
            assertTrue(calls.stream().allMatch(c -> c.cpuNanos() == -1), calls.toString());
            assertNotNull(s.stats(p.id()).get(0).cpu(), "the aggregates had CPU time already");
            java.io.ByteArrayOutputStream trace = new java.io.ByteArrayOutputStream();
            org.hyprof.export.AndroidTrace.write(org.hyprof.analysis.CallStream.of(s, p, null), trace);
            byte[] t = trace.toByteArray();
            int last = t.length - 14; // main's exit: thread u2, method u4, thread-CPU µs u4, wall µs u4
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(t, last + 6, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            assertEquals(9, b.getInt(), "main ran 9 µs: the wall clock in the thread-CPU column");
            assertEquals(9, b.getInt());
        }
        try (Store s = Store.create(dir.resolve("v5.db"))) {
            ProcessInfo p = s.process(importBytes("golden", SessionFiles.golden(), s).processId());
            org.hyprof.analysis.Timeline.Call main = org.hyprof.analysis.Timeline.load(s, p, null).threads.get(0).calls().get(0);
            assertEquals(6_000, main.cpuNanos(), "the golden file's records carry CPU time");
        }
    }

    /** The golden file's one call of main comes with its fine bucket, and its percentiles are quotable. */
    @Test
    void theGoldenSessionHasFineHistograms() throws IOException {
        try (Store s = Store.create(dir.resolve("g4.db"))) {
            long p = importBytes("golden", SessionFiles.golden(), s).processId();
            ProbeStats main = s.stats(p).stream().filter(x -> x.probeId() == 1).findFirst().orElseThrow();
            assertNotNull(main.fine());
            assertEquals(1, main.fine().total());
            org.hyprof.correlate.Profile prof = org.hyprof.correlate.Profile.load(s, org.hyprof.config.MethodNames.Style.JAVA);
            org.hyprof.correlate.MethodRow row = prof.methods().stream().filter(x -> x.method().startsWith("app.Main.main")).findFirst().orElseThrow();
            assertFalse(row.log2Percentiles(), row.toString());
            assertTrue(row.percentileErrorBound() < 0.01);
        }
    }

    @Test
    void damagedFilesImportTheirValidPartAndSayWhere() throws IOException {
        Map<String, String> damage = Map.of(
                "truncated-chunk-header", "truncated chunk header",
                "torn-last-chunk", "truncated chunk",
                "bad-crc", "checksum mismatch",
                "huge-length", "chunk length 2147483647 over the limit",
                "unknown-type", "unknown chunk type 200");
        Map<String, String> refused = Map.of(
                "bad-magic", "not a hyprof session file",
                "bad-version", "unsupported session file version 99",
                "empty-after-magic", "no session header");
        Map<String, byte[]> corpus = SessionFiles.damaged();
        assertEquals(damage.size() + refused.size() + SessionFiles.SKIPPED_CHUNK.size(), corpus.size(), "every variant is checked");
        for (Map.Entry<String, byte[]> e : corpus.entrySet()) {
            String name = e.getKey();
            try (Store s = Store.create(dir.resolve(name + ".db"))) {
                if (refused.containsKey(name)) {
                    IOException x = assertThrows(IOException.class, () -> importBytes(name, e.getValue(), s), name);
                    assertTrue(x.getMessage().contains(name + ".hyprof") && x.getMessage().contains(refused.get(name)),
                            name + ": " + x.getMessage());
                    continue;
                }
                SessionImporter.Result r = importBytes(name, e.getValue(), s);
                assertEquals(2, r.probes(), name + ": the manifest before the damage is kept");
                if (damage.containsKey(name)) {
                    String note = String.join("\n", r.notes());
                    assertTrue(note.contains(name + ".hyprof: damaged at byte ") && note.contains(damage.get(name)), name + ": " + note);
                    assertEquals("damaged", s.processes().get(0).status(), name);
                    assertFalse(r.cleanEnd(), name);
                } else {
                    assertTrue(SessionFiles.SKIPPED_CHUNK.contains(name), name);
                    String note = String.join("\n", r.notes());
                    assertTrue(note.contains("unreadable") && note.contains("skipped"), name + ": " + note);
                    assertTrue(r.cleanEnd(), name + ": the chunks after the bad one are imported");
                    assertEquals(1, r.eventChunks(), name);
                    assertEquals(1, r.threads(), name);
                }
            }
        }
    }
}
