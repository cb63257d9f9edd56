package org.hyprof.export;

import static org.junit.jupiter.api.Assertions.*;

import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.hyprof.analysis.CallStream;
import org.hyprof.store.Store;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every format (Parquet too, to disk) from a session of 10⁷ events in a 256 MiB heap: exports stream, so memory does
 * not grow with the session. Runs in its own surefire execution ({@code large-exports} in the
 * correlator's pom) with {@code -Xmx256m}; the outputs go to a counting sink, not to disk.
 */
public class LargeExportTest {
    static final long EVENTS = 10_000_000;
    @TempDir static Path dir;
    static Path db;

    @BeforeAll
    static void session() {
        db = dir.resolve("large.db");
        assertTrue(SyntheticSession.create(db, EVENTS, 4) >= EVENTS);
    }

    @Test
    void heapIsSmall() {
        assertTrue(Runtime.getRuntime().maxMemory() <= 300L << 20,
                "this test runs in a small heap (the large-exports execution's -Xmx256m): " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB");
    }

    @Test
    void everyFormatStreams() throws Exception {
        try (Store s = Store.openReadOnly(db)) {
            List<CallStream> streams = List.of(CallStream.of(s, s.processes().get(0), null));
            Counting trace = new Counting();
            AndroidTrace.write(streams.get(0), trace);
            Counting chrome = new Counting();
            try (Writer w = new OutputStreamWriter(chrome, StandardCharsets.UTF_8)) {
                ChromeTrace.write(streams, w);
            }
            Counting folded = new Counting();
            try (PrintWriter w = new PrintWriter(new OutputStreamWriter(folded, StandardCharsets.UTF_8))) {
                Folded.write(streams, w);
            }
            Counting speedscope = new Counting();
            try (Writer w = new OutputStreamWriter(speedscope, StandardCharsets.UTF_8)) {
                Speedscope.write(streams, "large", w);
            }
            Counting perfetto = new Counting();
            PerfettoTrace.write(streams, perfetto);
            // every event is a 14-byte record of the trace, loops aside (about 1 in 40 here)
            assertTrue(trace.bytes > EVENTS * 14 * 9 / 10, "trace: " + trace.bytes);
            assertTrue(chrome.bytes > EVENTS * 40, "chrome: " + chrome.bytes);
            assertEquals('}', chrome.last, "chrome: a complete JSON object");
            assertTrue(folded.bytes > 0);
            assertTrue(speedscope.bytes > EVENTS * 20, "speedscope: " + speedscope.bytes);
            assertEquals('}', speedscope.last);
            assertTrue(perfetto.bytes > EVENTS * 10, "perfetto: " + perfetto.bytes);
        }
    }

    @Test
    void parquetStreams() throws Exception {
        try (Store s = Store.openReadOnly(db)) {
            ParquetExport.Written w = ParquetExport.write(s, db, java.util.Map.of("build", "large"), dir.resolve("parquet"));
            // a row per call or loop activation: half the events (an enter and an exit each)
            assertEquals(EVENTS / 2, w.rows().get("events"), 1_000);
            assertTrue(java.nio.file.Files.size(w.directory().resolve("events.parquet")) > 0);
        }
    }

    /** Counts what is written, keeps the last byte. */
    static final class Counting extends OutputStream {
        long bytes;
        int last;

        @Override
        public void write(int b) {
            bytes++;
            last = b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
            if (len > 0) last = b[off + len - 1];
        }
    }
}
