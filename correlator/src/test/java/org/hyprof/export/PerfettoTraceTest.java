package org.hyprof.export;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.hyprof.analysis.CallStream;
import org.hyprof.store.Store;
import org.hyprof.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Perfetto export of the golden session: bytes, protoc's reading of them, slices that nest. */
public class PerfettoTraceTest {
    /** The schema subset the export follows (shipped beside the exporter, in the correlator's jar). */
    static final String PROTO = "perfetto_trace.proto";

    @TempDir Path dir;

    private byte[] export() throws Exception {
        ExportGoldenTest.timeline(dir);
        try (Store s = Store.openReadOnly(dir.resolve("e.db"))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PerfettoTrace.write(List.of(CallStream.of(s, s.processes().get(0), null)), out);
            return out.toByteArray();
        }
    }

    @Test
    void goldenBytes() throws Exception {
        Golden.check("export.perfetto.hex", HexFormat.of().formatHex(export()).replaceAll("(.{64})", "$1\n") + "\n");
    }

    @Test
    void protocDecodesItAsAPerfettoTrace() throws Exception {
        assumeTrue(onPath("protoc"), "protoc not installed (Debian package protobuf-compiler, in .ci/run's PACKAGES): decoding skipped");
        Path f = dir.resolve("run.pftrace");
        Files.write(f, export());
        Golden.check("export.perfetto.txt", decode(f, dir));
    }

    /**
     * protoc's text form of a trace file (fails the test if protoc complains); the schema is
     * copied from the class path into {@code scratch}.
     */
    public static String decode(Path trace, Path scratch) throws Exception {
        Path proto = scratch.resolve(PROTO);
        try (var in = PerfettoTrace.class.getResourceAsStream(PROTO)) {
            Files.copy(in, proto, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Process p = new ProcessBuilder("protoc", "--decode=perfetto.protos.Trace", "-I", scratch.toAbsolutePath().toString(), PROTO)
                .redirectInput(trace.toFile()).start();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread drain = new Thread(() -> {
            try {
                p.getErrorStream().transferTo(err);
            } catch (java.io.IOException ignored) {
                // the exit code says it
            }
        });
        drain.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        drain.join();
        assertEquals(0, p.exitValue(), "protoc: " + err);
        assertEquals("", err.toString(StandardCharsets.UTF_8), "protoc complained");
        return out;
    }

    public static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            if (Files.isExecutable(Path.of(d, tool))) return true;
        return false;
    }

    @Test
    void slicesNestPerThreadAndNamesAreInterned() throws Exception {
        String main = "app.Main.main(java.lang.String[])", fib = "app.Main.fib(int)", fail = "app.Worker.fail()";
        assertEquals(Map.of(
                2L, List.of(main, main + "#loop@5", fib, fib),
                3L, List.of("app.Worker.run()", fail, fail)), slices(export()));
    }

    /**
     * Reads a trace with protobuf's generic parser: per packet sequence, each SLICE_END closes the
     * latest open SLICE_BEGIN, names resolve through the sequence's interned names, and nothing is
     * left open. Returns the slice names per sequence in the order they began.
     */
    public static Map<Long, List<String>> slices(byte[] trace) throws Exception {
        Map<Long, Deque<String>> open = new HashMap<>();
        Map<Long, Map<Long, String>> names = new HashMap<>();
        Map<Long, List<String>> began = new java.util.TreeMap<>();
        Map<Long, Long> lastTime = new HashMap<>();
        for (ByteString packet : UnknownFieldSet.parseFrom(trace).getField(1).getLengthDelimitedList()) {
            UnknownFieldSet p = UnknownFieldSet.parseFrom(packet);
            long seq = p.getField(10).getVarintList().get(0);
            if ((one(p, 13) & 1) != 0) names.put(seq, new HashMap<>()); // incremental state cleared
            for (ByteString in : p.getField(12).getLengthDelimitedList())
                for (ByteString n : UnknownFieldSet.parseFrom(in).getField(2).getLengthDelimitedList()) {
                    UnknownFieldSet en = UnknownFieldSet.parseFrom(n);
                    names.get(seq).put(one(en, 1), en.getField(2).getLengthDelimitedList().get(0).toStringUtf8());
                }
            for (ByteString te : p.getField(11).getLengthDelimitedList()) {
                UnknownFieldSet e = UnknownFieldSet.parseFrom(te);
                long ts = one(p, 8);
                assertTrue(ts >= lastTime.getOrDefault(seq, 0L), "time goes forward on a sequence");
                lastTime.put(seq, ts);
                long type = one(e, 9);
                if (type == 1) {
                    String name = names.get(seq).get(one(e, 10));
                    assertNotNull(name, "interned name " + one(e, 10) + " on sequence " + seq);
                    open.computeIfAbsent(seq, k -> new ArrayDeque<>()).push(name);
                    began.computeIfAbsent(seq, k -> new ArrayList<>()).add(name);
                } else if (type == 2) {
                    assertNotNull(open.get(seq), "an end without a begin on sequence " + seq);
                    assertNotNull(open.get(seq).poll(), "an end without a begin on sequence " + seq);
                }
            }
        }
        open.forEach((seq, s) -> assertTrue(s.isEmpty(), "slices left open on sequence " + seq + ": " + s));
        return began;
    }

    private static long one(UnknownFieldSet m, int field) {
        List<Long> v = m.getField(field).getVarintList();
        return v.isEmpty() ? 0 : v.get(0);
    }
}
