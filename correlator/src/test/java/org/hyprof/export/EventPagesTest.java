package org.hyprof.export;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The events' hand-encoded pages read back by parquet-java's own reader, value for value: pages
 * of a few rows (so that rows cross pages, blocks of 128 deltas and miniblocks of 32 at every
 * offset), extreme values whose deltas wrap around, probe ids outside the dense range, and
 * statistics. DuckDB reads the same pages in {@code ParquetIT}.
 */
class EventPagesTest {
    @TempDir Path dir;

    record Event(int probe, boolean loop, long start, long duration, int depth, boolean thrown, boolean open, long iterations, double energy) {}

    static MessageType schema() {
        Types.MessageTypeBuilder b = Types.buildMessage();
        b.required(PrimitiveTypeName.INT32).named("probe_id");
        b.required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("method");
        b.required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("kind");
        b.required(PrimitiveTypeName.INT64).named("start_nanos");
        b.required(PrimitiveTypeName.INT64).named("duration_nanos");
        b.required(PrimitiveTypeName.INT32).named("depth");
        b.required(PrimitiveTypeName.BOOLEAN).named("thrown");
        b.required(PrimitiveTypeName.BOOLEAN).named("open_at_end");
        b.required(PrimitiveTypeName.INT64).named("iterations");
        b.required(PrimitiveTypeName.DOUBLE).named("self_energy_microjoules");
        return b.named("events");
    }

    /** Pages as they are: what the reader gets is exactly what the encoder wrote. */
    static final class Uncompressed implements CompressionCodecFactory.BytesInputCompressor {
        @Override
        public BytesInput compress(BytesInput bytes) throws java.io.IOException {
            return BytesInput.copy(bytes);
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.UNCOMPRESSED;
        }

        @Override
        public void release() {}
    }

    /** Writes {@code groups} (each a row group) with {@code pageRows} rows a page, and reads the rows back. */
    static List<Group> roundTrip(Path file, int pageRows, List<List<Event>> groups) throws Exception {
        MessageType schema = schema();
        ParquetProperties props = ParquetProperties.builder().build();
        ParquetFileWriter w = new ParquetFileWriter(new LocalOutputFile(file), schema, ParquetFileWriter.Mode.CREATE, 1 << 20, 0, null, props);
        w.start();
        EventPages pages = new EventPages(schema.getColumns(), pageRows);
        pages.names(id -> Binary.fromString("m" + id));
        for (List<Event> group : groups) {
            ColumnChunkPageWriteStore store = new ColumnChunkPageWriteStore(new Uncompressed(), schema, HeapByteBufferAllocator.getInstance(),
                    props.getColumnIndexTruncateLength(), false);
            pages.startGroup(store);
            for (Event e : group) pages.add(e.probe, e.loop, e.start, e.duration, e.depth, e.thrown, e.open, e.iterations, e.energy);
            w.startBlock(group.size());
            pages.endGroup();
            store.flushToFileWriter(w);
            w.endBlock();
            store.close();
        }
        w.end(Map.of());
        return ParquetExportTest.rows(file);
    }

    static void assertRow(Event e, Group g, String where) {
        assertEquals(e.probe, g.getInteger("probe_id", 0), where);
        assertEquals("m" + e.probe, g.getString("method", 0), where);
        assertEquals(e.loop ? "loop" : "method", g.getString("kind", 0), where);
        assertEquals(e.start, g.getLong("start_nanos", 0), where);
        assertEquals(e.duration, g.getLong("duration_nanos", 0), where);
        assertEquals(e.depth, g.getInteger("depth", 0), where);
        assertEquals(e.thrown, g.getBoolean("thrown", 0), where);
        assertEquals(e.open, g.getBoolean("open_at_end", 0), where);
        assertEquals(e.iterations, g.getLong("iterations", 0), where);
        assertEquals(Double.doubleToLongBits(e.energy), Double.doubleToLongBits(g.getDouble("self_energy_microjoules", 0)), where);
    }

    @Test
    void everyValueReadsBackAcrossPagesBlocksAndRowGroups() throws Exception {
        Random r = new Random(19);
        long[] extremes = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1};
        int[] probes = {0, 1, 2, 7, 300, 70_000, (1 << 24) + 5, -3, Integer.MAX_VALUE, Integer.MIN_VALUE};
        List<List<Event>> groups = new java.util.ArrayList<>();
        for (int size : new int[] {1, 2, 129, 1000, 5}) {
            List<Event> g = new java.util.ArrayList<>();
            long t = r.nextLong();
            for (int i = 0; i < size; i++) {
                t += r.nextInt(1 << r.nextInt(30)) - 1000;
                boolean extreme = r.nextInt(10) == 0;
                g.add(new Event(probes[r.nextInt(r.nextBoolean() ? 3 : probes.length)], r.nextInt(5) == 0,
                        extreme ? extremes[r.nextInt(extremes.length)] : t,
                        extreme ? extremes[r.nextInt(extremes.length)] : r.nextInt(1 << r.nextInt(31)),
                        extreme ? (r.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : r.nextInt(40),
                        r.nextInt(7) == 0, r.nextInt(50) == 0, r.nextBoolean() ? 0 : r.nextLong() >>> r.nextInt(64),
                        extreme ? Double.NaN : r.nextDouble() * 1e6));
            }
            groups.add(g);
        }
        for (int pageRows : new int[] {1, 7, 32, 128, 333, 100_000}) {
            Path f = dir.resolve("events-" + pageRows + ".parquet");
            List<Group> rows = roundTrip(f, pageRows, groups);
            int k = 0;
            for (List<Event> g : groups)
                for (Event e : g) assertRow(e, rows.get(k), "page rows " + pageRows + ", row " + k++);
            assertEquals(k, rows.size());
        }
    }

    @Test
    void statisticsAreEachRowGroupsMinAndMaxButForTheNames() throws Exception {
        List<Event> g = List.of(new Event(5, false, 100, 3, 2, false, false, 0, 1.5), new Event(9, true, 90, 7, 0, true, false, 4, 0.25),
                new Event(5, false, 120, -1, 1, false, false, 0, 2.0));
        Path f = dir.resolve("s.parquet");
        roundTrip(f, 2, List.of(g));
        try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(f))) {
            BlockMetaData b = r.getFooter().getBlocks().get(0);
            Map<String, Statistics<?>> s = new java.util.HashMap<>();
            for (ColumnChunkMetaData c : b.getColumns()) s.put(c.getPath().toDotString(), c.getStatistics());
            assertEquals(5, s.get("probe_id").genericGetMin());
            assertEquals(9, s.get("probe_id").genericGetMax());
            assertEquals(90L, s.get("start_nanos").genericGetMin());
            assertEquals(120L, s.get("start_nanos").genericGetMax());
            assertEquals(-1L, s.get("duration_nanos").genericGetMin());
            assertEquals(0, s.get("depth").genericGetMin());
            assertEquals(2, s.get("depth").genericGetMax());
            assertEquals(false, s.get("thrown").genericGetMin());
            assertEquals(true, s.get("thrown").genericGetMax());
            assertEquals(false, s.get("open_at_end").genericGetMax());
            assertEquals(4L, s.get("iterations").genericGetMax());
            assertEquals(0.25, s.get("self_energy_microjoules").genericGetMin());
            assertFalse(s.get("method").hasNonNullValue(), "no min/max for the names");
            assertEquals(3, b.getRowCount());
        }
    }
}
