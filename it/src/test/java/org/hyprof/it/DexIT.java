package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.hyprof.config.ProbeInfo;
import org.hyprof.instrument.dex.DexTools;
import org.hyprof.instrument.dex.Fixtures;
import org.hyprof.instrument.dex.TestApk;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hyprof instrument} on DEX files and APKs, end to end with real tools: the CLI rewrites
 * the fixtures (Java compiled by D8, hand-written smali), dexdump checks the output, dex2jar
 * converts it (the injected runtime DEX included) and the JVM runs it; the session the runtime
 * writes is imported and reported. Counts are exact: the fixtures print their own call and
 * back-edge counters, and in events mode every enter has its exit or exceptional exit.
 */
class DexIT {
    @TempDir Path dir;

    /** A converted program: its jar (with the runtime's resources) and the plain one to compare with. */
    record Converted(Path probed, Path plain) {}

    /** dex2jar of the original and of the instrumented code; {@code resources} go into the instrumented jar. */
    Converted convert(String name, byte[] original, byte[] instrumented, Map<String, byte[]> resources) throws Exception {
        Path plain = dir.resolve(name + "-plain.jar"), raw = dir.resolve(name + "-d2j.jar"), probed = dir.resolve(name + "-probed.jar");
        DexTools.dex2jar(original, plain);
        DexTools.dex2jar(instrumented, raw);
        DexTools.addToJar(raw, resources, probed);
        return new Converted(probed, plain);
    }

    /** Runs MAIN both ways; the outputs must be equal; returns the report of the recorded session. */
    Map<String, Map<String, String>> runAndReport(Converted c, String main, String name) throws Exception {
        return runAndReport(c.probed().toString(), c.plain().toString(), main, name);
    }

    /** As above, with class paths ({@code main} may be a Java source file: the JVM's source launcher). */
    Map<String, Map<String, String>> runAndReport(String probedClassPath, String plainClassPath, String main, String name)
            throws Exception {
        DexTools.Run plain = DexTools.java(List.of(), plainClassPath, main);
        assertEquals(0, plain.exit(), plain.err());
        Path session = dir.resolve(name + ".hyprof");
        DexTools.Run probed = DexTools.java(List.of("-Dhyprof.options=out=" + session + ",mode=events"), probedClassPath, main);
        assertEquals(0, probed.exit(), probed.err());
        assertEquals(plain.out(), probed.out(), "program output unchanged");
        Path db = dir.resolve(name + ".db");
        Cli imp = Cli.run("import", session.toString(), "-o", db.toString());
        assertEquals(0, imp.exit, imp.err);
        assertEveryEnterMatched(db);
        Map<String, Map<String, String>> all = new HashMap<>(Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out));
        all.putAll(Cli.withLoopIndexes(db, Cli.csv(Cli.run("report", db.toString(), "--format", "csv", "--by", "loop").out)));
        all.put("$out", Map.of("out", probed.out()));
        return all;
    }

    /** Every method enter in the event log is matched by an exit or an exceptional exit. */
    static void assertEveryEnterMatched(Path db) {
        try (Store store = Store.open(db)) {
            int checked = 0;
            for (ProcessInfo p : store.processes()) {
                Map<Integer, ProbeInfo> probes = new HashMap<>();
                for (ProbeInfo pi : store.probes(p.id())) probes.put(pi.id(), pi);
                Map<Integer, long[]> counts = eventCounts(store, p.id());
                assertTrue(!counts.isEmpty(), "events recorded");
                for (Map.Entry<Integer, long[]> e : counts.entrySet()) {
                    long[] k = e.getValue();
                    ProbeInfo pi = probes.get(e.getKey());
                    assertNotNull(pi, "probe " + e.getKey() + " in the manifest");
                    if (pi.loop()) continue;
                    assertEquals(k[SessionFormat.EV_ENTER], k[SessionFormat.EV_EXIT] + k[SessionFormat.EV_THROW],
                            pi.displayName() + ": enters = exits + exceptional exits");
                    checked++;
                }
            }
            assertTrue(checked > 0);
        }
    }

    /**
     * Event records per probe id and kind, read with the runtime's own decoder (records may carry
     * thread CPU time since session format 5; a cut record ends its chunk).
     */
    static Map<Integer, long[]> eventCounts(Store store, long process) {
        Map<Integer, long[]> counts = new HashMap<>();
        store.eventChunks(process, chunk -> {
            org.hyprof.runtime.chunk.EventRecords.Cursor c = new org.hyprof.runtime.chunk.EventRecords.Cursor(chunk.data(), chunk.baseNanos());
            while (c.next()) counts.computeIfAbsent(c.id(), k -> new long[8])[c.kind()]++;
        });
        return counts;
    }

    /** The piece's manifest and the settings, as the class path of a jar made from the DEX output gets them. */
    static Map<String, byte[]> besideResources(Path out) throws Exception {
        return DexTools.besideResources(out);
    }

    private static Path dir(Path out, String suffix) {
        return out.resolveSibling(out.getFileName() + suffix);
    }

    static int counter(String out, String name) {
        Matcher m = Pattern.compile("\\b" + Pattern.quote(name) + "=(\\d+)").matcher(out);
        assertTrue(m.find(), name + " in " + out);
        return Integer.parseInt(m.group(1));
    }

    /** A loop's report row: entries ({@code calls}) and back edges ({@code iterations}). */
    static void assertLoop(Map<String, Map<String, String>> r, String row, int entries, int iterations) {
        assertEquals(entries + " " + iterations, get(r, row, "calls") + " " + get(r, row, "iterations"), row + ": calls, iterations");
    }

    static String get(Map<String, Map<String, String>> r, String row, String col) {
        assertNotNull(r.get(row), row + " not reported");
        return r.get(row).get(col);
    }

    Path instrumentDex(String name, byte[] dex) throws Exception {
        Path in = dir.resolve(name + ".dex"), out = dir.resolve(name + "-hyprof.dex");
        Files.write(in, dex);
        Cli c = Cli.run("instrument", in.toString(), "-o", out.toString());
        assertEquals(0, c.exit, c.err);
        assertTrue(c.err.contains("classes ") && c.err.contains("DEX ") && c.err.contains("wrote " + out), c.err);
        if (DexTools.hasDexdump()) assertTrue(DexTools.dexdump(out).clean(), "dexdump " + out);
        return out;
    }

    @Test
    void javaFixturesCountExactly() throws Exception {
        byte[] dex = Fixtures.javaDex();
        Path out = instrumentDex("java", dex);
        Map<String, Map<String, String>> r = runAndReport(convert("java", dex, Files.readAllBytes(out), besideResources(out)),
                "dexfixtures.Main", "java");
        String printed = get(r, "$out", "out");
        String L = "dexfixtures.Loops.";
        assertEquals("1", get(r, L + "nested(int)#loop0", "calls"));
        assertEquals(String.valueOf(counter(printed, "outer")), get(r, L + "nested(int)#loop0", "iterations"));
        assertEquals(String.valueOf(counter(printed, "innerEntries")), get(r, L + "nested(int)#loop1", "calls"));
        assertEquals(String.valueOf(counter(printed, "inner")), get(r, L + "nested(int)#loop1", "iterations"));
        assertEquals(String.valueOf(counter(printed, "while")), get(r, L + "whileContinue(int)#loop0", "iterations"));
        assertEquals(String.valueOf(counter(printed, "do")), get(r, L + "doAndLabel(int)#loop0", "iterations"));
        assertEquals(String.valueOf(counter(printed, "loopIters")), get(r, "dexfixtures.Switches.inLoop(int)#loop0", "iterations"));
        assertEquals(String.valueOf(counter(printed, "arrayIters")), get(r, "dexfixtures.Sync.syncArray(int[])#loop0", "iterations"));
        // loops left by break, return, exception and labelled continue, and open in a recursion:
        // iterations are the back edges the fixture counted, entries the loopBegin calls
        String X = "dexfixtures.LoopExits.";
        assertLoop(r, X + "breakOut(int)#loop0", 2, counter(printed, "breakIters"));
        assertLoop(r, X + "find(int[][], int)#loop0", 2, counter(printed, "retOuter"));
        assertLoop(r, X + "find(int[][], int)#loop1", counter(printed, "retInnerEntries"), counter(printed, "retInner"));
        assertLoop(r, X + "throwFromNested(int, int)#loop0", 2, counter(printed, "thrOuter"));
        assertLoop(r, X + "throwFromNested(int, int)#loop1", counter(printed, "thrInnerEntries"), counter(printed, "thrInner"));
        assertEquals("1", get(r, X + "throwFromNested(int, int)", "throws"));
        assertLoop(r, X + "catchInside(int)#loop0", 1, counter(printed, "rounds"));
        assertLoop(r, X + "catchInside(int)#loop1", 3, counter(printed, "catchOuter"));
        assertLoop(r, X + "catchInside(int)#loop2", counter(printed, "catchInnerEntries"), counter(printed, "catchInner"));
        assertEquals(3, counter(printed, "caught"));
        assertLoop(r, X + "catchInsideUsed(int)#loop0", 1, counter(printed, "roundsE"));
        assertLoop(r, X + "catchInsideUsed(int)#loop1", 3, counter(printed, "catchOuterE"));
        assertLoop(r, X + "catchInsideUsed(int)#loop2", counter(printed, "catchInnerEntriesE"), counter(printed, "catchInnerE"));
        assertLoop(r, X + "labelledContinue(int)#loop0", 1, counter(printed, "contOuter"));
        assertLoop(r, X + "labelledContinue(int)#loop1", counter(printed, "contInnerEntries"), counter(printed, "contInner"));
        assertLoop(r, X + "recurse(int)#loop0", counter(printed, "recEntries"), counter(printed, "recIters"));
        assertEquals("5", get(r, X + "recurse(int)", "calls"));
        String E = "dexfixtures.Exceptions.";
        assertEquals("4", get(r, E + "thrower(int)", "calls"));
        assertEquals("4", get(r, E + "thrower(int)", "throws"), "an exception through 4 frames");
        assertEquals("1", get(r, E + "catcher()", "calls"));
        assertEquals("0", get(r, E + "catcher()", "throws"));
        assertEquals("1", get(r, E + "loopRethrow(int)", "throws"));
        assertEquals("2150", get(r, "dexfixtures.Recursion.fib(int)", "calls"), "fib(15) and fib(10): 1973 + 177");
        String C = "dexfixtures.Ctors$";
        assertEquals("3", get(r, C + "Child.<init>(int)", "calls"), "200 and -1 throw before super(): no activation");
        assertEquals("1", get(r, C + "Child.<init>(int)", "throws"), "13 throws after super()");
        assertEquals("4", get(r, C + "Base.<init>(int)", "calls"));
        assertEquals("1", get(r, C + "Base.<init>(int)", "throws"));
        assertEquals("5", get(r, C + "Child.check(int)", "calls"));
        assertEquals("1", get(r, C + "Inner.<init>(dexfixtures.Ctors, int)", "calls"));
        assertEquals("2", get(r, "dexfixtures.Sync.syncInstance(int)", "calls"));
        assertEquals("1", get(r, "dexfixtures.Sync.syncInstance(int)", "throws"));
        assertEquals("1", get(r, "dexfixtures.Wide.mix(long, double, int, long)", "calls"));
        assertEquals("1", get(r, "dexfixtures.Registers.many(long, long, int)", "calls"));
        assertEquals("process", get(r, "dexfixtures.Main.main(java.lang.String[])", "resolution"));
        assertEquals("thread", get(r, "dexfixtures.Threads$Worker.run()", "resolution"));
        assertEquals("thread", get(r, "dexfixtures.Threads$Spinner.run()", "resolution"));
        assertEquals("1", get(r, "dexfixtures.Threads$Worker.run()", "calls"));
        assertEquals("method", get(r, "dexfixtures.Threads$Task.call()", "resolution"));
    }

    @Test
    void smaliFixturesCountExactly() throws Exception {
        byte[] dex = Fixtures.smaliDex();
        Path out = instrumentDex("smali", dex);
        Map<String, Map<String, String>> r = runAndReport(convert("smali", dex, Files.readAllBytes(out), besideResources(out)),
                "smalifix.SmaliMain", "smali");
        assertEquals(List.of("0", "45", "15", "20", "11", "2", "217", "5", "-1", "-1", "96"), get(r, "$out", "out").lines().toList());
        String S = "smalifix.";
        assertEquals("4", get(r, S + "LoopAtZero.countDown(int)#loop0", "iterations"), "the entry is an edge into the loop");
        assertEquals("1", get(r, S + "LoopAtZero.countDown(int)#loop0", "calls"));
        assertEquals("3", get(r, S + "MoveResultExit.retry(int)#loop0", "iterations"));
        assertEquals("1", get(r, S + "MoveResultExit.retry(int)#loop0", "calls"));
        assertEquals("4", get(r, S + "MoveResultExit.maybeThrow(int)", "calls"));
        assertEquals("3", get(r, S + "MoveResultExit.maybeThrow(int)", "throws"));
        assertEquals("6", get(r, S + "MonitorLoop.sumLocked(java.lang.Object, int)#loop0", "iterations"));
        assertEquals("4", get(r, S + "BigRegisters.wide250(long, int)#loop0", "iterations"));
        assertEquals("1", get(r, S + "BigRegisters.inst240(int, long)", "calls"));
        assertNull(r.get(S + "BigRegisters.tooMany(int)"), "skipped: no probe");
        assertEquals("1", get(r, S + "BigRegisters.twoLoops250(int)", "calls"));
        assertEquals("4", get(r, S + "BigRegisters.twoLoops250(int)#loop0", "iterations"));
        assertNull(r.get(S + "BigRegisters.twoLoops250(int)#loop1"), "no registers left for the second loop");
        assertEquals("7", get(r, S + "Payloads.payloads(int)#loop0", "iterations"));
        assertEquals("2", get(r, S + "CtorThrow.<init>(int)", "calls"), "-1 throws before super(): no activation");
        assertEquals("1", get(r, S + "CtorThrow.<init>(int)", "throws"));
        assertTrue(Files.readString(dir.resolve("smali-hyprof.dex.manifest.tsv"))
                .contains("skip\tsmalifix.BigRegisters\ttooMany\t(I)I\tregisters + scratch exceed 256"));
    }

    /** The key of the piece a DEX output is, from the class-path root written beside it. */
    static String pieceKey(Path out) throws Exception {
        for (String name : besideResources(out).keySet()) {
            Matcher m = Pattern.compile("META-INF/hyprof/pieces/([0-9a-f]{16})/manifest\\.tsv").matcher(name);
            if (m.matches()) return m.group(1);
        }
        throw new AssertionError("no piece manifest beside " + out);
    }

    /**
     * Two DEX files instrumented one by one (as two pieces of an app, or an app and a library,
     * would be), both numbering their probes from 1, run in one JVM: every probe keeps its name
     * and its exact counts (those of each program run alone), the piece that runs second gets the
     * ids after the first's, and the session notes both pieces. The same input instrumented again
     * is the same piece.
     */
    @Test
    void piecesInstrumentedOneByOneKeepTheirIdentities() throws Exception {
        byte[] java = Fixtures.javaDex(), smali = Fixtures.smaliDex();
        Path a = instrumentDex("pieceA", java), b = instrumentDex("pieceB", smali);
        String keyA = pieceKey(a), keyB = pieceKey(b);
        assertNotEquals(keyA, keyB);
        Path again = instrumentDex("pieceA-again", java);
        assertEquals(keyA, pieceKey(again), "the same input instrumented the same way: the same key");
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(again));

        Converted ca = convert("pieceA", java, Files.readAllBytes(a), besideResources(a));
        Converted cb = convert("pieceB", smali, Files.readAllBytes(b), besideResources(b));
        Map<String, Map<String, String>> alone = new HashMap<>(runAndReport(ca, "dexfixtures.Main", "pieceA-alone"));
        Map<String, Map<String, String>> aloneB = runAndReport(cb, "smalifix.SmaliMain", "pieceB-alone");
        String outA = alone.remove("$out").get("out");
        for (Map.Entry<String, Map<String, String>> e : aloneB.entrySet())
            if (!e.getKey().equals("$out")) alone.put(e.getKey(), e.getValue());

        // one program running both pieces, A's code first
        Path both = dir.resolve("Both.java");
        Files.writeString(both, "public class Both {\n"
                + "    public static void main(String[] args) throws Exception {\n"
                + "        dexfixtures.Main.main(args);\n"
                + "        smalifix.SmaliMain.main(args);\n"
                + "    }\n"
                + "}\n");
        String sep = System.getProperty("path.separator");
        Map<String, Map<String, String>> r = runAndReport(ca.probed() + sep + cb.probed(), ca.plain() + sep + cb.plain(),
                both.toString(), "pieces");
        assertEquals(outA + aloneB.get("$out").get("out"), get(r, "$out", "out"));
        int rows = 0;
        for (Map.Entry<String, Map<String, String>> e : alone.entrySet()) {
            for (String col : List.of("calls", "throws", "iterations")) {
                String want = e.getValue().get(col);
                if (want == null || want.isEmpty()) continue;
                assertEquals(want, get(r, e.getKey(), col), e.getKey() + " " + col + ": as when run alone");
            }
            rows++;
        }
        assertTrue(rows > 50, "rows compared: " + rows);
        assertEquals("2150", get(r, "dexfixtures.Recursion.fib(int)", "calls"));
        assertEquals("7", get(r, "smalifix.Payloads.payloads(int)#loop0", "iterations"));

        int probesA = probeLines(a), probesB = probeLines(b);
        try (Store store = Store.open(dir.resolve("pieces.db"))) {
            List<String> notes = store.notes();
            assertTrue(notes.stream().anyMatch(n -> n.contains("instrumented piece " + keyA + ": " + probesA + " probes, ids 1–" + probesA)),
                    notes.toString());
            assertTrue(notes.stream().anyMatch(n -> n.contains("instrumented piece " + keyB + ": " + probesB + " probes, ids "
                    + (probesA + 1) + "–" + (probesA + probesB))), "the second piece's ids follow the first's: " + notes);
            for (ProcessInfo p : store.processes()) {
                Map<Integer, ProbeInfo> byId = new HashMap<>();
                for (ProbeInfo pi : store.probes(p.id())) byId.put(pi.id(), pi);
                for (int id = 1; id <= probesA + probesB; id++) {
                    assertNotNull(byId.get(id), "probe " + id);
                    assertTrue(byId.get(id).className().startsWith(id <= probesA ? "dexfixtures." : "smalifix."), id + ": " + byId.get(id));
                }
                int top = probesA + probesB;
                assertTrue(byId.keySet().stream().allMatch(id -> id <= top), "no probe past both pieces': " + byId.keySet());
            }
        }
    }

    static int probeLines(Path out) throws Exception {
        return (int) Files.readString(dir(out, ".manifest.tsv")).lines().filter(l -> l.startsWith("probe\t")).count();
    }

    @Test
    void multidexApkEndToEnd() throws Exception {
        byte[] java = Fixtures.javaDex(), smali = Fixtures.smaliDex();
        Path in = dir.resolve("app.apk"), out = dir.resolve("app-hyprof.apk");
        TestApk.write(in, TestApk.entries("org.hyprof.fixture", 21, java, smali));
        boolean sign = DebugSignerPresent.apksigner() != null;
        List<String> args = new ArrayList<>(List.of("instrument", in.toString(), "-o", out.toString()));
        if (sign) args.addAll(List.of("--sign-debug", "--debug-keystore", dir.resolve("debug.keystore").toString()));
        Cli c = Cli.run(args.toArray(String[]::new));
        assertEquals(0, c.exit, c.err);
        assertTrue(c.err.contains("classes.dex, classes2.dex, classes3.dex (the runtime)"), c.err);
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipFile z = new ZipFile(out.toFile())) {
            for (ZipEntry e : Collections.list(z.entries())) {
                try (InputStream s = z.getInputStream(e)) {
                    entries.put(e.getName(), s.readAllBytes());
                }
            }
        }
        for (String dex : List.of("classes.dex", "classes2.dex", "classes3.dex")) {
            assertTrue(entries.containsKey(dex), dex);
            if (DexTools.hasDexdump()) {
                Path f = dir.resolve("apk-" + dex);
                Files.write(f, entries.get(dex));
                DexTools.Dump d = DexTools.dexdump(f);
                assertTrue(d.clean(), dex + ": " + d.failures());
            }
        }
        if (sign) {
            assertTrue(c.err.contains("signed " + out), c.err);
            Process v = new ProcessBuilder(DebugSignerPresent.apksigner().toString(), "verify", "--verbose", out.toString())
                    .redirectErrorStream(true).start();
            String verify = new String(v.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, v.waitFor(), verify);
            assertTrue(verify.contains("Verified using v2 scheme (APK Signature Scheme v2): true"), verify);
        } else {
            assertTrue(c.err.contains("is unsigned"), c.err);
        }
        // the app's class loader serves APK entries as resources: give the JVM the same
        Map<String, byte[]> resources = new HashMap<>();
        for (Map.Entry<String, byte[]> e : entries.entrySet())
            if (!e.getKey().endsWith(".dex") && !e.getKey().startsWith("META-INF/")) resources.put(e.getKey(), e.getValue());
        byte[] originalApk = Files.readAllBytes(in);
        Converted conv = convert("apk", originalApk, Files.readAllBytes(out), resources);
        Map<String, Map<String, String>> r = runAndReport(conv, "dexfixtures.Main", "apk-java");
        assertEquals("2150", get(r, "dexfixtures.Recursion.fib(int)", "calls"));
        Map<String, Map<String, String>> s = runAndReport(conv, "smalifix.SmaliMain", "apk-smali");
        assertEquals("7", get(s, "smalifix.Payloads.payloads(int)#loop0", "iterations"));
    }

    @Test
    void signingWithoutApksignerSaysHow() throws Exception {
        assumeTrue(DebugSignerPresent.apksigner() == null, "apksigner is installed: multidexApkEndToEnd signs and verifies");
        Path in = dir.resolve("u.apk"), out = dir.resolve("u-hyprof.apk");
        TestApk.write(in, TestApk.entries("org.hyprof.fixture", 21, Fixtures.smaliDex()));
        Cli c = Cli.run("instrument", in.toString(), "-o", out.toString(), "--sign-debug");
        assertEquals(0, c.exit, c.err);
        assertTrue(c.err.contains("apksigner not found") && c.err.contains("apt-get install apksigner"), c.err);
    }

    @Test
    void badInputIsOneLineAndLeavesNothing() throws Exception {
        byte[] good = Fixtures.smaliDex();
        byte[] badSum = good.clone();
        badSum[badSum.length - 7] ^= 0x11;
        Path noDex = dir.resolve("nodex.apk");
        TestApk.write(noDex, TestApk.entries("x.y", 21));
        Map<Path, String> cases = new LinkedHashMap<>();
        cases.put(write("truncated.dex", java.util.Arrays.copyOf(good, good.length - 100)), "truncated DEX file");
        cases.put(write("junk.apk", "PK but not really a zip".getBytes()), "not an APK/zip file");
        cases.put(noDex, "no classes.dex inside");
        cases.put(write("checksum.dex", badSum), "bad checksum");
        // right checksum, wrong contents: the first class's data offset points past the end
        byte[] damaged = good.clone();
        java.nio.ByteBuffer h = java.nio.ByteBuffer.wrap(damaged).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        h.putInt(h.getInt(0x64) + 24, damaged.length + 0x1000);
        java.util.zip.Adler32 sum = new java.util.zip.Adler32();
        sum.update(damaged, 12, damaged.length - 12);
        h.putInt(8, (int) sum.getValue());
        cases.put(write("damaged.dex", damaged), "damaged DEX");
        for (Map.Entry<Path, String> e : cases.entrySet()) {
            Path out = dir.resolve("out-" + e.getKey().getFileName());
            Cli c = Cli.run("instrument", e.getKey().toString(), "-o", out.toString());
            BadInputIT.oneLine(c);
            assertTrue(c.err.contains(e.getKey().toString()) && c.err.contains(e.getValue()), c.err);
            assertFalse(Files.exists(out), "no output for " + e.getKey());
            assertFalse(Files.exists(out.resolveSibling(out.getFileName() + ".manifest.tsv")));
        }
        try (Stream<Path> s = Files.list(dir)) {
            assertTrue(s.noneMatch(f -> f.getFileName().toString().startsWith(".hyprof")), "no partial output left");
        }
    }

    @Test
    void helpDescribesApkAndDexInput() {
        Cli c = Cli.run("instrument", "--help");
        assertEquals(0, c.exit);
        for (String w : List.of("APK", "DEX", "--sign-debug", "--min-sdk", "assets/hyprof/"))
            assertTrue(c.out.contains(w), w + " in:\n" + c.out);
    }

    Path write(String name, byte[] b) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, b);
        return p;
    }

    /** Whether the Debian apksigner is on the PATH. */
    static final class DebugSignerPresent {
        static Path apksigner() {
            return org.hyprof.instrument.dex.DebugSigner.findApksigner();
        }
    }
}
