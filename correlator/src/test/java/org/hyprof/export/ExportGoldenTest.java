package org.hyprof.export;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hyprof.analysis.CallStream;
import org.hyprof.analysis.Timeline;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.correlate.EnergyModel;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.chunk.EventRecords;
import org.hyprof.testing.Golden;
import org.hyprof.store.NativeEpoch;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every export format from a small deterministic events-mode session, against golden files. */
public class ExportGoldenTest {
    @TempDir Path dir;

    public static Timeline timeline(Path dir) {
        Path db = dir.resolve("e.db");
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 4242, "app.Main", "test-vm", "events", 1 << 20, 1_700_000_000_000L,
                    1_000_000, 1_700_000_000_010L, "ended", 0, "golden"));
            s.addProbes(p, List.of(
                    new ProbeInfo(1, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"),
                    new ProbeInfo(2, false, Resolution.METHOD, "app.Main", "fib", "(I)I", -1, -1, 9, "Main.java"),
                    new ProbeInfo(3, true, Resolution.LOOP, "app.Main", "main", "([Ljava/lang/String;)V", 1, 0, 5, "Main.java"),
                    new ProbeInfo(4, false, Resolution.THREAD, "app.Worker", "run", "()V", -1, -1, 20, "Worker.java"),
                    new ProbeInfo(5, false, Resolution.METHOD, "app.Worker", "fail", "()V", -1, -1, 25, "Worker.java")));
            s.putThread(p, new ThreadInfo(1, "main", 0, 0));
            s.putThread(p, new ThreadInfo(12, "worker", 0, 0));
            long t = 1_000_000;
            EventRecords.Writer main = new EventRecords.Writer(t)
                    .add(1, SessionFormat.EV_ENTER, t + 1_000)
                    .add(3, SessionFormat.EV_LOOP_ENTER, t + 2_000)
                    .add(2, SessionFormat.EV_ENTER, t + 3_000)
                    .add(2, SessionFormat.EV_ENTER, t + 4_000)
                    .add(2, SessionFormat.EV_EXIT, t + 9_000)
                    .add(2, SessionFormat.EV_EXIT, t + 12_000)
                    .loopExit(3, t + 20_000, 7)
                    .add(1, SessionFormat.EV_EXIT, t + 30_000);
            EventRecords.Writer worker = new EventRecords.Writer(t + 5_000)
                    .add(4, SessionFormat.EV_ENTER, t + 5_000)
                    .add(5, SessionFormat.EV_ENTER, t + 6_000)
                    .add(5, SessionFormat.EV_THROW, t + 8_000)
                    .add(5, SessionFormat.EV_ENTER, t + 10_000); // still open at the end
            s.addEventChunk(p, 1, 0, t, main.toByteArray());
            s.addEventChunk(p, 12, 0, t + 5_000, worker.toByteArray());
            // as if fib were a native method of a hybrid run: one epoch per call, in the order they ended
            s.addNativeEpochs(p, List.of(
                    new NativeEpoch(1, 1, 2, "Java_app_Main_fib", 40, 900, 1_500, 3_000, 2_000_000, 60_000),
                    new NativeEpoch(2, 1, 2, "Java_app_Main_fib", 10, 300, 500, 1_000, 500_000, 20_000)));
            new EnergyModel(500, "500 mW (test)").save(s);
            return Timeline.load(s, s.processes().get(0), null);
        }
    }

    @Test
    void timelineRebuildsCalls() {
        Timeline t = timeline(dir);
        assertEquals(2, t.threads.size());
        Timeline.ThreadCalls main = t.threads.get(0);
        assertEquals(4, main.calls().size());
        assertEquals(7, main.calls().get(1).iterations(), "the loop");
        assertEquals(2, main.calls().get(2).depth());
        Timeline.ThreadCalls worker = t.threads.get(1);
        assertTrue(worker.calls().get(1).thrown());
        assertTrue(worker.calls().get(2).closedAtEnd(), "open at the end: closed at the last timestamp");
        assertTrue(worker.calls().get(0).closedAtEnd());
    }

    @Test
    void selfEnergyTakesNativeTimeOutAndAddsNativeEnergy() {
        Timeline t = timeline(dir);
        double[] e = t.selfEnergyMicrojoules(t.threads.get(0));
        // inner fib: 5 µs, 3 µs of it native: 2 µs × 500 mW = 1 µJ, + 2 µJ native
        assertEquals(3.0, e[3], 1e-9);
        // outer fib: 9 µs − 5 µs child = 4 µs, 1 µs native: 3 µs × 500 mW = 1.5 µJ, + 0.5 µJ
        assertEquals(2.0, e[2], 1e-9);
        // main: 29 µs − 18 µs (the loop) = 11 µs of Java
        assertEquals(5.5, e[0], 1e-9);
    }

    @Test
    void chromeCumulativeCountersStartAtZeroAndStepAtEachOutermostEnd() throws Exception {
        Path db = dir.resolve("two.db");
        String json;
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 7, "app.Two", "test-vm", "events", 1 << 20, 1_700_000_000_000L,
                    1_000_000, 1_700_000_000_010L, "ended", 0, "test"));
            s.addProbes(p, List.of(new ProbeInfo(2, false, Resolution.METHOD, "app.Two", "work", "()V", -1, -1, 9, "Two.java")));
            s.putThread(p, new ThreadInfo(3, "main", 0, 0));
            long b = 1_000_000;
            EventRecords.Writer ev = new EventRecords.Writer(b) // two outermost calls, 2 µs and 4 µs, with a gap between them
                    .add(2, SessionFormat.EV_ENTER, b + 1_000).add(2, SessionFormat.EV_EXIT, b + 3_000)
                    .add(2, SessionFormat.EV_ENTER, b + 10_000).add(2, SessionFormat.EV_EXIT, b + 14_000);
            s.addEventChunk(p, 3, 0, b, ev.toByteArray());
            new EnergyModel(500, "500 mW (test)").save(s);
            StringWriter w = new StringWriter();
            ChromeTrace.write(List.of(CallStream.of(s, s.processes().get(0), null)), w);
            json = w.toString();
        }
        JsonNode root = new ObjectMapper().readTree(json);
        Map<String, List<String>> tracks = new TreeMap<>();
        for (JsonNode e : root.get("traceEvents"))
            if (e.get("ph").asText().equals("C"))
                tracks.computeIfAbsent(e.get("name").asText(), k -> new ArrayList<>())
                        .add(e.get("ts").asText() + "=" + e.get("args").elements().next().asText());
        assertEquals(Map.of(
                "energy main", List.of("0.0=0.0", "2.0=1.0", "13.0=3.0"),
                "java time main", List.of("0.0=0.0", "2.0=0.002", "13.0=0.006"),
                "power main", List.of("0.0=500.0", "2.0=0.0", "9.0=500.0", "13.0=0.0")), tracks);
    }

    @Test
    void chromeCounterTracksOfSameNamedThreadsStayApart() throws Exception {
        String json;
        try (Store s = Store.create(dir.resolve("same.db"))) {
            long p = s.addProcess(new ProcessInfo(0, 7, "app.Pool", "test-vm", "events", 1 << 20, 1_700_000_000_000L,
                    1_000_000, 1_700_000_000_010L, "ended", 0, "test"));
            s.addProbes(p, List.of(new ProbeInfo(2, false, Resolution.METHOD, "app.Pool", "work", "()V", -1, -1, 9, "Pool.java")));
            long b = 1_000_000;
            for (long tid : new long[] {3, 4}) {
                s.putThread(p, new ThreadInfo(tid, "w", 0, 0));
                EventRecords.Writer ev = new EventRecords.Writer(b).add(2, SessionFormat.EV_ENTER, b + tid * 1_000).add(2, SessionFormat.EV_EXIT, b + tid * 2_000);
                s.addEventChunk(p, tid, 0, b, ev.toByteArray());
            }
            StringWriter w = new StringWriter();
            ChromeTrace.write(List.of(CallStream.of(s, s.processes().get(0), null)), w);
            json = w.toString();
        }
        Map<String, Integer> samples = new TreeMap<>();
        for (JsonNode e : new ObjectMapper().readTree(json).get("traceEvents"))
            if (e.get("ph").asText().equals("C")) samples.merge(e.get("name").asText(), 1, Integer::sum);
        assertEquals(Map.of("energy w #3", 2, "energy w #4", 2, "java time w #3", 2, "java time w #4", 2, "power w #3", 2,
                "power w #4", 2), samples, "a process's counter track per thread, not one for both");
    }

    /**
     * Records with the thread CPU clock (format 5): the {@code .trace}'s thread-CPU column is each
     * thread's CPU time in µs since its first event there, the wall column as before. The golden
     * session above has none: its file carries the wall clock in both columns (today's format-4 files).
     */
    @Test
    void traceWritesEachThreadsCpuClockBesideTheWallClock() throws Exception {
        byte[] trace;
        try (Store s = Store.create(dir.resolve("cpu.db"))) {
            long p = s.addProcess(new ProcessInfo(0, 7, "app.Cpu", "test-vm", "events", 1 << 20, 1_700_000_000_000L,
                    1_000_000, 1_700_000_000_010L, "ended", 0, "test"));
            s.addProbes(p, List.of(
                    new ProbeInfo(1, false, Resolution.METHOD, "app.Cpu", "spin", "()V", -1, -1, 5, "Cpu.java"),
                    new ProbeInfo(2, false, Resolution.METHOD, "app.Cpu", "sleep", "()V", -1, -1, 9, "Cpu.java")));
            s.putThread(p, new ThreadInfo(3, "main", 0, 0));
            s.putThread(p, new ThreadInfo(4, "worker", 0, 0));
            long b = 1_000_000;
            // main: spin 8 µs on a CPU, then sleep 100 µs of which 2 µs on a CPU; its CPU clock started long before
            s.addEventChunk(p, 3, 0, b, new EventRecords.Writer(b, true)
                    .add(1, SessionFormat.EV_ENTER, b + 1_000, 70_000_000).add(1, SessionFormat.EV_EXIT, b + 9_000, 70_008_000)
                    .add(2, SessionFormat.EV_ENTER, b + 10_000, 70_008_500).add(2, SessionFormat.EV_EXIT, b + 110_000, 70_010_999)
                    .toByteArray());
            // worker: its own CPU clock (per thread, as ART counts it)
            s.addEventChunk(p, 4, 0, b, new EventRecords.Writer(b, true)
                    .add(1, SessionFormat.EV_ENTER, b + 5_000, 3_000).add(1, SessionFormat.EV_EXIT, b + 20_000, 18_000)
                    .toByteArray());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            AndroidTrace.write(CallStream.of(s, s.processes().get(0), null), out);
            trace = out.toByteArray();
        }
        Golden.check("export-cpu.trace.hex", HexFormat.of().formatHex(trace).replaceAll("(.{64})", "$1\n") + "\n");
        String text = new String(trace, java.nio.charset.StandardCharsets.ISO_8859_1);
        int data = text.indexOf("*end\n") + "*end\n".length() + 32; // after the text part and the 32-byte header
        java.nio.ByteBuffer r = java.nio.ByteBuffer.wrap(trace, data, trace.length - data).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        List<String> records = new ArrayList<>();
        while (r.remaining() >= 14) records.add(r.getShort() + " " + r.getInt() + " cpu=" + r.getInt() + " wall=" + r.getInt());
        assertEquals(List.of( // thread, method id | action, thread-CPU µs, wall µs; merged by wall time
                "1 4 cpu=0 wall=0", "2 4 cpu=0 wall=4", "1 5 cpu=8 wall=8", "1 8 cpu=8 wall=9",
                "2 5 cpu=15 wall=19", "1 9 cpu=10 wall=109"), records);
    }

    @Test
    void goldenFormats() throws Exception {
        timeline(dir);
        try (Store s = Store.openReadOnly(dir.resolve("e.db"))) {
            goldenFormats(CallStream.of(s, s.processes().get(0), null));
        }
    }

    private static void goldenFormats(CallStream t) throws Exception {
        ByteArrayOutputStream trace = new ByteArrayOutputStream();
        AndroidTrace.write(t, trace);
        Golden.check("export.trace.hex", HexFormat.of().formatHex(trace.toByteArray()).replaceAll("(.{64})", "$1\n") + "\n");
        StringWriter chrome = new StringWriter();
        ChromeTrace.write(List.of(t), chrome, true);
        Golden.check("export.chrome.json", chrome.toString());
        StringWriter compact = new StringWriter();
        ChromeTrace.write(List.of(t), compact);
        assertEquals(chrome.toString().replaceAll("\\s+", ""), compact.toString().replaceAll("\\s+", ""), "compact: the same but for whitespace");
        assertFalse(compact.toString().contains("\n"), "compact by default");
        StringWriter folded = new StringWriter();
        Folded.write(List.of(t), new PrintWriter(folded));
        Golden.check("export.folded", folded.toString());
        StringWriter energy = new StringWriter();
        Folded.write(List.of(t), new PrintWriter(energy), true);
        Golden.check("export.energy.folded", energy.toString());
        StringWriter ss = new StringWriter();
        Speedscope.write(List.of(t), "golden", ss);
        Golden.check("export.speedscope.json", ss.toString());
        // the byte-stream forms (what the command writes files with) write the same text
        ByteArrayOutputStream chromeBytes = new ByteArrayOutputStream();
        ChromeTrace.write(List.of(t), chromeBytes, true);
        assertEquals(chrome.toString(), chromeBytes.toString(java.nio.charset.StandardCharsets.UTF_8));
        ByteArrayOutputStream ssBytes = new ByteArrayOutputStream();
        Speedscope.write(List.of(t), "golden", ssBytes);
        assertEquals(ss.toString(), ssBytes.toString(java.nio.charset.StandardCharsets.UTF_8));
    }
}
