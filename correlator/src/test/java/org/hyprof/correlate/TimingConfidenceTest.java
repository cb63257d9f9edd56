package org.hyprof.correlate;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.runtime.Calibration;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Probe;
import org.hyprof.runtime.RuntimeTesting;
import org.hyprof.store.SessionImporter;
import org.hyprof.store.Store;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15 items 4 and 5, end to end: a session recorded by the real runtime, with a calibration
 * whose probe cost (100 µs per event, so calls under 300 µs are tiny) makes one method tiny
 * whatever the machine, imported and reported. The tiny method goes count-only and its row says
 * so, with the reason and its exact calls; the method that calls it had far more probe cost inside
 * it than time, so its one activation was clamped (to what its callees recorded) and the row is
 * flagged; a method that spins
 * 2 ms is neither. Probe shares stay in [0, 1] and no time is negative.
 */
class TimingConfidenceTest {
    static final int MAIN = 1, TINY = 2, SLOW = 3;
    static final int TINY_CALLS = 5000, SLOW_CALLS = 3;
    /** Calls a probe is timed before it may go count-only (the runtime's ThreadState.COUNT_ONLY_AFTER). */
    static final int TIMED_BEFORE_SWITCH = 1024;
    static final String MAIN_NAME = "app.Main.main(java.lang.String[])";
    static final String TINY_NAME = "app.Main.tiny()";
    static final String SLOW_NAME = "app.Main.slow()";

    @TempDir Path dir;

    @AfterEach
    void reset() {
        Hyprof.reset();
    }

    /** Records the workload through the runtime ({@code extra}: more runtime options) and loads its profile. */
    Profile record(String extra) throws Exception {
        Hyprof.reset();
        Path session = dir.resolve("s.hyprof");
        assertTrue(Hyprof.start(Options.parse("out=" + session + ",mode=aggregate,calibrate=false,snapshotMillis=60000" + extra)));
        Manifest m = new Manifest();
        m.add(new ProbeInfo(MAIN, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"));
        m.add(new ProbeInfo(TINY, false, Resolution.METHOD, "app.Main", "tiny", "()V", -1, -1, 9, "Main.java"));
        m.add(new ProbeInfo(SLOW, false, Resolution.METHOD, "app.Main", "slow", "()V", -1, -1, 12, "Main.java"));
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD, Hyprof.METHOD}, new boolean[] {true, true, true},
                Manifest.lines(m.probes(), m.skipped()));
        RuntimeTesting.useCalibration(new Calibration(0, 100_000_000L, 0, 0, System.nanoTime()));
        int main = Probe.begin(MAIN);
        for (int i = 0; i < TINY_CALLS; i++) Probe.end(TINY, Probe.begin(TINY));
        for (int i = 0; i < SLOW_CALLS; i++) {
            int t = Probe.begin(SLOW);
            long end = System.nanoTime() + 2_000_000;
            while (System.nanoTime() < end) { /* busy: 2 ms, far above the 300 µs threshold */ }
            Probe.end(SLOW, t);
        }
        Probe.end(MAIN, main);
        Hyprof.stop();
        Path db = dir.resolve("s.db");
        try (Store s = Store.create(db)) {
            SessionImporter.importFile(session, s);
        }
        try (Store s = Store.openReadOnly(db)) {
            return Profile.load(s);
        }
    }

    static MethodRow row(Profile p, String name) {
        return p.methods().stream().filter(r -> r.method().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name));
    }

    static String write(Profile p, ReportWriter.Format f) {
        StringWriter w = new StringWriter();
        new ReportWriter(p, ReportWriter.By.METHOD, Profile.Sort.CALLS, 0, false).write(f, new PrintWriter(w));
        return w.toString();
    }

    static void assertSane(Profile p) {
        for (MethodRow r : p.methods()) {
            assertTrue(r.probeShare() >= 0 && r.probeShare() <= 1, r.method() + " probe share " + r.probeShare());
            assertTrue(r.inclNanos() >= 0 && r.exclNanos() >= 0, r.method() + " never negative");
        }
    }

    @Test
    void aTinyMethodGoesCountOnlyAndItsRowSaysWhyWithExactCalls() throws Exception {
        Profile p = record("");
        assertSane(p);
        MethodRow tiny = row(p, TINY_NAME), slow = row(p, SLOW_NAME), main = row(p, MAIN_NAME);

        assertEquals(TINY_CALLS, tiny.calls(), "every call counted, timed or not");
        assertEquals(TINY_CALLS - TIMED_BEFORE_SWITCH, tiny.countOnlyCalls());
        assertTrue(tiny.countOnly());
        assertTrue(tiny.countOnlyReason().matches("count-only: median [0-9.]+ (ns|us) < 300\\.0 us = 3 × probe cost 100\\.0 us"),
                tiny.countOnlyReason());
        assertEquals(TINY_CALLS, Arrays.stream(tiny.hist()).sum() + tiny.countOnlyCalls(), "the histogram holds the timed calls");

        assertEquals(SLOW_CALLS, slow.calls());
        assertEquals("", slow.countOnlyReason());
        assertEquals("", slow.probeWarning(), "2 ms calls with no probe inside: the probes cost nothing of their time");
        assertTrue(slow.probeShare() < 0.01, "share " + slow.probeShare());
        assertEquals("", slow.mark());

        // 2054 probe events inside main at 100 µs each: far more than its raw time
        assertEquals(1, main.calls());
        assertEquals(1, main.clamped());
        // clamped up to what its callees recorded (the 1,024 timed tiny calls come out at 0, the
        // slow ones at ~2 ms each): its own exclusive time is 0, the books still add up
        assertEquals(0, main.exclNanos(), "clamped: nothing of its own left after the probe cost");
        assertEquals(tiny.inclNanos() + slow.inclNanos(), main.inclNanos(), "its callees' recorded time, never less");
        assertTrue(main.probeShare() > 0.1 && main.probeShare() < 1, "share " + main.probeShare());
        assertTrue(main.probeWarning().endsWith("clamped 1 of 1 timed calls"), main.probeWarning());
        assertEquals("!", main.mark());

        assertEquals(1 + TINY_CALLS + SLOW_CALLS, p.threads().get(0).calls(), "thread rows count every call too");
        assertEquals(1 + TINY_CALLS + SLOW_CALLS, p.processes().get(0).calls());

        String table = write(p, ReportWriter.Format.TABLE);
        assertTrue(table.contains("calls under 300.0 us are tiny"), table);
        List<String> lines = table.lines().toList();
        String tinyLine = lines.stream().filter(l -> l.endsWith(" " + TINY_NAME)).findFirst().orElseThrow();
        assertTrue(tinyLine.matches("\\s*5000 .* c  " + java.util.regex.Pattern.quote(TINY_NAME)), tinyLine);
        String mainLine = lines.stream().filter(l -> l.endsWith(" " + MAIN_NAME)).findFirst().orElseThrow();
        assertTrue(mainLine.matches(".*  !  " + java.util.regex.Pattern.quote(MAIN_NAME)), mainLine);
        assertTrue(table.contains("marks: c = count-only"), table);
        assertTrue(table.contains("  c " + TINY_NAME + ": " + tiny.countOnlyReason() + "; 1,024 of 5,000 calls timed"), table);
        assertTrue(table.contains("  ! " + MAIN_NAME + ": " + main.probeWarning()), table);

        List<String> csv = write(p, ReportWriter.Format.CSV).lines().toList();
        List<String> header = List.of(csv.get(0).split(","));
        String[] tinyCsv = csv.stream().filter(l -> l.startsWith(TINY_NAME + ",")).findFirst().orElseThrow().split(",", -1);
        assertEquals("5000", tinyCsv[header.indexOf("calls")]);
        assertEquals("3976", tinyCsv[header.indexOf("count_only_calls")]);
        assertEquals(tiny.countOnlyReason(), tinyCsv[header.indexOf("count_only_reason")]);
        String[] mainCsv = csv.stream().filter(l -> l.startsWith(MAIN_NAME + ",")).findFirst().orElseThrow().split(",", -1);
        assertEquals(String.format(java.util.Locale.ROOT, "%.4f", main.probeShare()), mainCsv[header.indexOf("probe_share")]);
        assertEquals("1", mainCsv[header.indexOf("clamped")]);

        JsonNode json = new ObjectMapper().readTree(write(p, ReportWriter.Format.JSON));
        for (JsonNode r : json.get("rows")) {
            double share = r.get("probe_share").asDouble();
            assertTrue(share >= 0 && share <= 1, r.toString());
            if (r.get("method").asText().equals(TINY_NAME)) {
                assertEquals(TINY_CALLS, r.get("calls").asLong());
                assertEquals(TINY_CALLS - TIMED_BEFORE_SWITCH, r.get("count_only_calls").asLong());
                assertEquals(tiny.countOnlyReason(), r.get("count_only_reason").asText());
            }
        }
        assertEquals(300_000, json.get("calibrations").get(0).get("tiny_ns").asLong());
    }

    @Test
    void timeAllKeepsEveryCallTimed() throws Exception {
        Profile p = record(",timeAll=true");
        assertSane(p);
        MethodRow tiny = row(p, TINY_NAME);
        assertEquals(TINY_CALLS, tiny.calls());
        assertEquals(0, tiny.countOnlyCalls());
        assertEquals("", tiny.countOnlyReason());
        assertEquals(TINY_CALLS, Arrays.stream(tiny.hist()).sum(), "every call timed");
        assertFalse(tiny.mark().contains("c"));
    }
}
