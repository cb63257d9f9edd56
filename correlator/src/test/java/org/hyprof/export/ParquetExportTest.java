package org.hyprof.export;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.Type;
import org.hyprof.analysis.Timeline;
import org.hyprof.correlate.Profile;
import org.hyprof.runtime.chunk.SessionFiles;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.SessionImporter;
import org.hyprof.store.Store;
import org.hyprof.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Parquet files read back with parquet-java's own reader: schema (golden), row counts and values against the store. */
class ParquetExportTest {
    @TempDir Path dir;

    /** The golden session file (every chunk kind: aggregates, events, a hybrid run's native blocks and epochs). */
    private Path golden() throws IOException {
        Path f = dir.resolve("golden.hyprof");
        Files.write(f, SessionFiles.golden());
        Path db = dir.resolve("golden.db");
        try (Store s = Store.create(db)) {
            SessionImporter.importFile(f, s);
        }
        return db;
    }

    static List<Group> rows(Path file) throws IOException {
        List<Group> rows = new ArrayList<>();
        try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file))) {
            MessageType schema = r.getFooter().getFileMetaData().getSchema();
            for (PageReadStore pages; (pages = r.readNextRowGroup()) != null; ) {
                RecordReader<Group> rr = new ColumnIOFactory().getColumnIO(schema).getRecordReader(pages, new GroupRecordConverter(schema));
                for (long i = 0; i < pages.getRowCount(); i++) rows.add(rr.read());
            }
        }
        return rows;
    }

    static Map<String, String> labels(Group row) {
        Map<String, String> m = new LinkedHashMap<>();
        Group labels = row.getGroup("labels", 0);
        for (int i = 0; i < labels.getFieldRepetitionCount("key_value"); i++) {
            Group kv = labels.getGroup("key_value", i);
            m.put(kv.getString("key", 0), kv.getString("value", 0));
        }
        return m;
    }

    @Test
    void everyTableHasTheStoresRowsAndTheSessionColumns() throws Exception {
        Path db = golden();
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("build", "813");
        labels.put("device", "lab-7");
        ParquetExport.Written w;
        long methods, loops, threads, epochs, blocks, calls = 0;
        String id;
        try (Store s = Store.openReadOnly(db)) {
            w = ParquetExport.write(s, db, labels, dir.resolve("out"));
            id = ParquetExport.sessionId(s, "golden.db");
            Profile p = Profile.load(s);
            methods = p.methods().stream().filter(r -> r.kind().equals("method")).count();
            loops = p.methods().stream().filter(r -> r.kind().equals("loop")).count();
            threads = p.threads().size();
            ProcessInfo proc = s.processes().get(0);
            epochs = s.nativeEpochs(proc.id()).size();
            blocks = s.nativeBlocks(proc.id()).stream().mapToLong(b -> b.executionsByProbe().size()).sum();
            for (Timeline.ThreadCalls t : Timeline.load(s, proc, null).threads) calls += t.calls().size();
        }
        assertEquals(id, w.sessionId());
        assertEquals(dir.resolve("out").resolve(id), w.directory());
        assertTrue(methods > 0 && loops > 0 && epochs > 0 && blocks > 0 && calls > 0, "the golden session has every kind of row");
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("processes", 1L);
        expected.put("threads", threads);
        expected.put("methods", methods);
        expected.put("loops", loops);
        expected.put("native_epochs", epochs);
        expected.put("native_blocks", blocks);
        expected.put("events", calls);
        assertEquals(expected, w.rows());
        try (Stream<Path> files = Files.list(w.directory())) {
            assertEquals(expected.keySet().stream().map(t -> t + ".parquet").sorted().toList(),
                    files.map(f -> f.getFileName().toString()).sorted().toList(), "one file per table, nothing else");
        }
        for (String table : expected.keySet()) {
            Path f = w.directory().resolve(table + ".parquet");
            List<Group> rows = rows(f);
            assertEquals(expected.get(table), rows.size(), table);
            try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(f))) {
                Map<String, String> kv = r.getFileMetaData().getKeyValueMetaData();
                assertEquals("1", kv.get("hyprof.schema_version"), table);
                assertEquals(table, kv.get("hyprof.table"));
                assertEquals(expected.get(table), r.getRecordCount());
            }
            for (Group g : rows) {
                assertEquals(ParquetExport.SCHEMA_VERSION, g.getInteger("schema_version", 0));
                assertEquals(id, g.getString("session_id", 0));
                assertEquals("golden.db", g.getString("session_file", 0));
                assertEquals(SessionFiles.PID, g.getLong("pid", 0));
                assertEquals(labels, labels(g), table);
            }
        }
        // values: the methods' calls are the report's; the events' per method count the replayed calls
        Map<String, Long> callsByMethod = new HashMap<>();
        for (Group g : rows(w.directory().resolve("methods.parquet"))) callsByMethod.put(g.getString("method", 0), g.getLong("calls", 0));
        Map<String, Long> eventsByMethod = new HashMap<>();
        for (Group g : rows(w.directory().resolve("events.parquet")))
            if (g.getString("kind", 0).equals("method")) eventsByMethod.merge(g.getString("method", 0), 1L, Long::sum);
        try (Store s = Store.openReadOnly(db)) {
            for (var r : Profile.load(s).methods())
                if (r.kind().equals("method")) assertEquals(r.calls(), callsByMethod.get(r.method()), r.method());
            ProcessInfo proc = s.processes().get(0);
            Map<String, Long> replayed = new HashMap<>();
            Timeline tl = Timeline.load(s, proc, null);
            for (Timeline.ThreadCalls t : tl.threads)
                for (Timeline.Call c : t.calls())
                    if (!c.loop()) replayed.merge(tl.probes.get(c.probeId()) == null ? "probe#" + c.probeId() : tl.probes.get(c.probeId()).displayName(), 1L, Long::sum);
            assertEquals(replayed, eventsByMethod);
        }
    }

    @Test
    void schemaGolden() throws Exception {
        Path db = golden();
        ParquetExport.Written w;
        try (Store s = Store.openReadOnly(db)) {
            w = ParquetExport.write(s, db, Map.of(), dir.resolve("out"));
        }
        StringBuilder b = new StringBuilder();
        b.append("# hyprof Parquet export, schema version ").append(ParquetExport.SCHEMA_VERSION)
                .append(": DIR/<session_id>/<table>.parquet, columns in order (parquet-java's schema text)\n");
        for (String table : ParquetExport.TABLES) {
            try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(w.directory().resolve(table + ".parquet")))) {
                b.append('\n').append(r.getFileMetaData().getSchema());
                List<String> names = r.getFileMetaData().getSchema().getFields().stream().map(Type::getName).toList();
                assertEquals(ParquetExport.SESSION_COLUMNS, names.subList(0, ParquetExport.SESSION_COLUMNS.size()), table);
            }
        }
        Golden.check("parquet/schema.txt", b.toString());
        for (Group g : rows(w.directory().resolve("methods.parquet"))) assertEquals(Map.of(), labels(g), "no --label: an empty map");
    }

    @Test
    void exportingAgainReplacesTheSessionsDirectoryAndOtherSessionsStay() throws Exception {
        Path db = golden();
        Path synthetic = dir.resolve("synthetic.db");
        SyntheticSession.create(synthetic, 20_000, 2);
        Path out = dir.resolve("out");
        ParquetExport.Written a, b, again;
        try (Store s = Store.openReadOnly(db)) {
            a = ParquetExport.write(s, db, Map.of("build", "A"), out);
        }
        try (Store s = Store.openReadOnly(synthetic)) {
            b = ParquetExport.write(s, synthetic, Map.of("build", "B"), out);
        }
        assertNotEquals(a.sessionId(), b.sessionId());
        try (Store s = Store.openReadOnly(db)) {
            again = ParquetExport.write(s, db, Map.of("build", "A2"), out);
        }
        assertEquals(a.sessionId(), again.sessionId(), "the id is stable");
        try (Stream<Path> l = Files.list(out)) {
            assertEquals(List.of(a.sessionId(), b.sessionId()).stream().sorted().toList(),
                    l.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary directory left, one per session");
        }
        assertEquals(Map.of("build", "A2"), labels(rows(again.directory().resolve("processes.parquet")).get(0)));
        long calls = 0;
        try (Store s = Store.openReadOnly(synthetic)) {
            for (Timeline.ThreadCalls t : Timeline.load(s, s.processes().get(0), null).threads) calls += t.calls().size();
        }
        assertTrue(calls >= 10_000, "synthetic: a call per two records");
        assertEquals(calls, rows(b.directory().resolve("events.parquet")).size());
    }

    @Test
    void theNativeLibraryDirectoryIsPrivate() throws Exception {
        Path d = ParquetExport.privateDirectory(dir.resolve("native"));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d)));
        Path open = Files.createDirectory(dir.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        ParquetExport.privateDirectory(open);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(open)), "made private");
        Path link = Files.createSymbolicLink(dir.resolve("link"), d);
        IOException e = assertThrows(IOException.class, () -> ParquetExport.privateDirectory(link));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }
}
