package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.hyprof.runtime.chunk.NativeBlocksChunk;
import org.hyprof.store.NativeBlock;
import org.hyprof.store.NativeEpoch;
import org.hyprof.store.Store;
import org.hyprof.testing.Await;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hybrid runs end to end with the real command, agent and emulator: the demo (samples/java,
 * package demo) with its native methods in bb-tracer. Results against the Java twins, native cost
 * on the calling methods, Java → native → Java nesting, exceptions from native code, the energy
 * sum check, a native method's energy against {@code hyprof native} on the same function, and the
 * error paths (each a single line from hyprof, the Java part of the session kept).
 */
class HybridIT {
    static final Path LIBS = Path.of("../samples/native/lib").toAbsolutePath().normalize();
    static final int ROUNDS = 2;
    @TempDir static Path dir;
    static Path aggregate, events;

    /** The hyprof command as a user runs it (a separate JVM), with its output captured. */
    record Run(int exit, String out, String err) {
        List<String> hyprofLines() {
            List<String> r = new ArrayList<>();
            for (String l : err.split("\n")) if (l.startsWith("hyprof: native:")) r.add(l);
            return r;
        }
    }

    static Run hyprof(String... args) throws IOException, InterruptedException {
        return hyprofIn(dir, args);
    }

    /** The same, its output captured in files under {@code tmp}. */
    static Run hyprofIn(Path tmp, String... args) throws IOException, InterruptedException {
        Path jar = Cli.hyprofJar();
        List<String> cmd = new ArrayList<>(List.of(Cli.java(), "-jar", jar.toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(tmp, "out", ".txt"), err = Files.createTempFile(tmp, "err", ".txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "hyprof " + String.join(" ", args) + " did not finish");
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    static String samples() {
        return Cli.home().resolve("lib/hyprof-samples-java.jar").toString();
    }

    static Run demo(Path db, String abi, String... extra) throws Exception {
        List<String> a = new ArrayList<>(List.of("profile", "-o", db.toString(), "--native-libs", LIBS.toString(), "--abi", abi,
                "--cpu", abi.equals("armeabi-v7a") ? "cortex-a9" : "generic-aarch64"));
        a.addAll(List.of(extra));
        a.addAll(List.of("--", Cli.java(), "-cp", samples(), "demo.HybridDemo", Integer.toString(ROUNDS)));
        return hyprof(a.toArray(new String[0]));
    }

    @BeforeAll
    static void record() throws Exception {
        aggregate = dir.resolve("hybrid.db");
        Run r = demo(aggregate, "armeabi-v7a");
        assertEquals(0, r.exit(), r.out() + r.err());
        events = dir.resolve("hybrid-events.db");
        Run e = demo(events, "armeabi-v7a", "--mode", "events");
        assertEquals(0, e.exit(), e.out() + e.err());
    }

    static Map<String, Map<String, String>> report(Path db, String... extra) {
        List<String> a = new ArrayList<>(List.of("report", db.toString(), "--format", "csv"));
        a.addAll(List.of(extra));
        Cli c = Cli.run(a.toArray(new String[0]));
        assertEquals(0, c.exit, c.err);
        return Cli.csv(c.out);
    }

    static long n(Map<String, Map<String, String>> rows, String method, String column) {
        Map<String, String> r = rows.get(method);
        assertNotNull(r, method + " not in the report: " + rows.keySet());
        return Long.parseLong(r.get(column));
    }

    @Test
    void nativeResultsEqualTheirJavaTwinsOnBothAbis() throws Exception {
        Run arm64 = demo(dir.resolve("arm64.db"), "arm64-v8a");
        for (Run r : new Run[] {arm64, demo(dir.resolve("arm.db"), "armeabi-v7a")}) {
            assertEquals(0, r.exit(), "demo.HybridDemo exits 3 when a native result differs from its Java twin: " + r.out());
            assertTrue(r.out().contains("all native results equal their Java twins"), r.out());
            assertFalse(r.out().contains("DIFFERENT"), r.out());
        }
        assertTrue(n(report(dir.resolve("arm64.db")), "demo.NativeKernels.fft(int, int)", "native_instr") > 0);
    }

    @Test
    void nativeCostLandsOnTheCallingJavaMethods() {
        Map<String, Map<String, String>> rows = report(aggregate);
        for (String m : new String[] {"demo.NativeKernels.fft(int, int)", "demo.NativeKernels.sparse(int, int, int)",
            "demo.NativeKernels.sor(double[], int, int)", "demo.NativeKernels.intKernel(int)", "demo.NativeKernels.checksum(byte[])"}) {
            assertEquals(ROUNDS, n(rows, m, "calls"), m);
            for (String c : new String[] {"native_instr", "native_cycles", "native_est_ns"}) assertTrue(n(rows, m, c) > 0, m + " " + c);
            assertTrue(Double.parseDouble(rows.get(m).get("energy_uj")) > 0, m);
            // the estimated device time is part of the method's time: it replaces the emulator's time
            // on the method's clock (raw: before the calibrated probe costs, which depend on the
            // machine's load, are taken out), and deduction only takes time away
            assertTrue(n(rows, m, "excl_raw_ns") >= n(rows, m, "native_est_ns") * 0.95, m + ": " + rows.get(m));
            assertTrue(n(rows, m, "excl_ns") <= n(rows, m, "excl_raw_ns"), m + ": " + rows.get(m));
        }
        assertEquals(0, n(rows, "demo.JavaKernels.fft(int, int)", "native_instr"), "the Java twin runs no native code");
        Map<String, Map<String, String>> incl = report(aggregate, "--inclusive");
        long all = 0;
        for (Map.Entry<String, Map<String, String>> e : rows.entrySet()) all += Long.parseLong(e.getValue().get("native_instr"));
        assertEquals(all, n(incl, "demo.HybridDemo.main(java.lang.String[])", "native_instr_incl"),
                "main's inclusive native instructions are every method's exclusive ones");
        assertEquals(0, n(incl, "demo.JavaKernels.sumCallbacks(demo.Callback, int)", "native_instr_incl"));
    }

    @Test
    void javaToNativeToJavaCallsNest() throws Exception {
        Path chrome = dir.resolve("events.json");
        Cli c = Cli.run("export", events.toString(), "--format", "chrome", "-o", chrome.toString());
        assertEquals(0, c.exit, c.err);
        JsonNode doc = new ObjectMapper().readTree(chrome.toFile());
        Map<Long, Deque<String>> stacks = new HashMap<>();
        int squareUnderNative = 0, squareUnderJava = 0, maxNativeJavaChain = 0;
        for (JsonNode e : doc.get("traceEvents")) {
            String ph = e.get("ph").asText();
            if (!ph.equals("B") && !ph.equals("E")) continue;
            Deque<String> s = stacks.computeIfAbsent(e.get("tid").asLong(), k -> new ArrayDeque<>());
            if (ph.equals("E")) { s.pop(); continue; }
            String name = e.get("name").asText();
            if (name.equals("demo.Square.value(int)")) {
                String caller = s.stream().filter(f -> !f.contains("#loop")).findFirst().orElse("");
                if (caller.equals("demo.NativeKernels.sumCallbacks(demo.Callback, int)")) squareUnderNative++;
                if (caller.equals("demo.JavaKernels.sumCallbacks(demo.Callback, int)")) squareUnderJava++;
            }
            s.push(name);
            int chain = 0;
            for (String f : s) {
                if (f.startsWith("demo.NativeKernels.nested")) chain++;
                else break;
            }
            maxNativeJavaChain = Math.max(maxNativeJavaChain, chain);
        }
        assertEquals(50 * ROUNDS, squareUnderNative, "callbacks made by native code sit inside the native method");
        assertEquals(50 * ROUNDS, squareUnderJava);
        // nested(3) -> nestedJava(2) -> nested(2) -> nestedJava(1) -> nested(1) -> nestedJava(0) -> nested(0)
        assertEquals(7, maxNativeJavaChain, "native -> Java -> native nests 7 deep");
        Map<String, Map<String, String>> rows = report(events);
        assertEquals(4L * ROUNDS, n(rows, "demo.NativeKernels.nested(int)", "calls"));
        assertEquals(3L * ROUNDS, n(rows, "demo.NativeKernels.nestedJava(int)", "calls"));
    }

    @Test
    void anExceptionThrownByNativeCodeReachesTheJavaCaller() {
        Map<String, Map<String, String>> rows = report(aggregate);
        assertEquals(ROUNDS, n(rows, "demo.NativeKernels.check(int)", "calls"));
        assertEquals(ROUNDS, n(rows, "demo.NativeKernels.check(int)", "throws"), "each call ended by the exception native code threw");
    }

    @Test
    void exclusiveEnergyAddsUpToTheSessionTotal() throws Exception {
        Cli c = Cli.run("report", aggregate.toString(), "--format", "json");
        assertEquals(0, c.exit, c.err);
        JsonNode e = new ObjectMapper().readTree(c.out).get("energy");
        assertEquals(e.get("native_top_pj").asLong(), e.get("native_excl_pj").asLong(), "native: exact");
        assertTrue(e.get("native_excl_pj").asLong() > 0);
        assertTrue(e.get("relative_difference").asDouble() < 1e-3, "Σ exclusive vs thread totals: " + e);
        Cli t = Cli.run("report", aggregate.toString());
        assertTrue(t.out.contains("check: sum of exclusive energy"), t.out);
    }

    /**
     * A native method's cost is bb-tracer's estimate for its blocks. With Android's libc loaded (the
     * default userland) the first call of a process also pays libc's first-time set-up (malloc's
     * arenas), so a lone {@code hyprof native} call is compared with the session per library: the
     * demo library's own instructions and hot blocks are the same in every call, exactly; libc's and
     * libm's are present; the rounds after the first cost the same; and the method carries exactly
     * its epochs' energy. (LibrarySplitIT compares a first call whole, library by library.)
     */
    @Test
    void aNativeMethodsEnergyIsBbTracersEstimateForItsBlocks() throws Exception {
        // the same JNI function run alone by 'hyprof native' (JNIEnv* and jclass unused by it: 0)
        Cli nat = Cli.run("native", LIBS.resolve("armeabi-v7a/libhyprofdemo.so").toString(), "--call", "Java_demo_NativeKernels_fft",
                "--arg", "0", "--arg", "0", "--arg", "512", "--arg", "4", "--cpu", "cortex-a9", "--format", "json");
        assertEquals(0, nat.exit, nat.err);
        JsonNode j = new ObjectMapper().readTree(nat.out);
        JsonNode app = j.get("libraries").get("libhyprofdemo.so");
        assertNotNull(app, nat.out);
        Map<String, Map<String, String>> rows = report(aggregate);
        String fft = "demo.NativeKernels.fft(int, int)";
        try (Store s = Store.open(aggregate)) {
            long p = s.processes().get(0).id();
            int id = s.probes(p).stream().filter(x -> x.displayName().equals(fft)).findFirst().orElseThrow().id();
            Map<String, org.hyprof.store.NativeLibraryCost> split = new HashMap<>();
            for (var c : s.nativeLibraryCosts(p)) if (c.probeId() == id) split.put(c.codeLibrary(), c);
            assertEquals(app.get("instructions").asLong() * ROUNDS, split.get("libhyprofdemo.so").instructions(), "the app's own code: " + split);
            assertEquals(app.get("cycles").asDouble() * ROUNDS, split.get("libhyprofdemo.so").cycles(), 1.0 * ROUNDS);
            assertTrue(split.get("libc.so").instructions() > 0 && split.get("libm.so").instructions() > 0, "malloc, sin...: " + split);
            assertEquals(split.values().stream().mapToLong(c -> c.instructions()).sum(), n(rows, fft, "native_instr"), "the split adds up");

            List<NativeEpoch> calls = s.nativeEpochs(p).stream().filter(x -> x.symbol().equals("Java_demo_NativeKernels_fft")).toList();
            assertEquals(ROUNDS, calls.size(), "one epoch per native call");
            for (NativeEpoch x : calls.subList(1, calls.size())) {
                assertEquals(calls.get(1).blocks(), x.blocks(), "rounds after the first run the same blocks");
                assertEquals(calls.get(1).energyPicojoules(), x.energyPicojoules(), 1.0);
            }
            long epochsPj = calls.stream().mapToLong(NativeEpoch::energyPicojoules).sum();
            long methodPj = s.stats(p).stream().filter(st -> st.probeId() == id).mapToLong(st -> st.nativeCost().energyPicojoules()).sum();
            assertEquals(epochsPj, methodPj, ROUNDS, "the method carries exactly its epochs' energy");
            assertFalse(s.nativeBlocks(p).isEmpty(), "blocks with disassembly are stored");
            assertTrue(s.nativeBlocks(p).get(0).disassembly().length() > 0);
            // the demo library's blocks 'hyprof native' printed are those the hybrid run stored (what the TUI shows), by the same name
            Map<String, NativeBlock> stored = new HashMap<>();
            for (NativeBlock b : s.nativeBlocks(p)) stored.put(NativeBlocksChunk.blockId(b.library(), b.address()), b);
            int compared = 0;
            for (JsonNode h : j.get("hot_blocks")) {
                if (!h.get("block").asText().startsWith("libhyprofdemo.so+")) continue;
                NativeBlock b = stored.get(h.get("block").asText());
                assertNotNull(b, h.get("block") + " among the stored blocks " + stored.keySet());
                assertEquals(h.get("executions").asLong() * ROUNDS, b.executionsByProbe().get(id));
                List<String> lines = new ArrayList<>();
                h.get("disassembly").forEach(x -> lines.add(x.asText()));
                assertEquals(String.join("\n", lines), b.disassembly());
                compared++;
            }
            assertTrue(compared > 0, "fft's hot blocks are the demo library's: " + j.get("hot_blocks"));
        }
    }

    @Test
    void badInputIsOneLineAndTheJavaPartIsKept() throws Exception {
        Path missing = dir.resolve("missing/armeabi-v7a");
        Files.createDirectories(missing);
        Path wrong = dir.resolve("wrong/armeabi-v7a");
        Files.createDirectories(wrong);
        Files.copy(LIBS.resolve("arm64-v8a/libhyprofdemo.so"), wrong.resolve("libhyprofdemo.so"));
        String[][] cases = {
            {"missing", "armeabi-v7a", "1", "libhyprofdemo.so not found"},
            {"wrong", "armeabi-v7a", "1", "AArch64 (arm64-v8a) code, but the ABI chosen is armeabi-v7a"},
            {LIBS.toString(), "arm64-v8a", "unsupported", "unsupported JNI function NewDirectByteBuffer"},
            // issue 20: a native call past its limit (here every real one: 2,000 instructions) is one error, the Java part is kept
            {LIBS.toString(), "armeabi-v7a", "1", "did not return within 2,000 instructions (the limit per native call", "2k"}};
        for (String[] k : cases) {
            Path libs = k[0].startsWith("/") ? Path.of(k[0]) : dir.resolve(k[0]);
            Path db = dir.resolve("bad-" + k[0].replace('/', '_') + k.length + ".db");
            List<String> a = new ArrayList<>(List.of("profile", "-o", db.toString(), "--native-libs", libs.toString(), "--abi", k[1]));
            if (k.length > 4) a.addAll(List.of("--native-limit", k[4]));
            a.addAll(List.of("--", Cli.java(), "-cp", samples(), "demo.HybridDemo", k[2]));
            Run r = hyprof(a.toArray(new String[0]));
            assertEquals(1, r.exit(), "the program died of the error: " + r.err());
            assertEquals(1, r.hyprofLines().size(), r.err());
            assertTrue(r.hyprofLines().get(0).contains(k[3]), r.err());
            Cli rep = Cli.run("report", db.toString());
            assertEquals(0, rep.exit, rep.err);
            assertTrue(rep.out.contains("demo.HybridDemo.main(java.lang.String[])"), "the Java part is saved: " + rep.out);
            assertTrue(rep.out.contains("error: native code:") && rep.out.contains(k[3]), rep.out);
        }
    }

    @Test
    void badOptionsAreRefusedBeforeTheProgramRuns() {
        String[][] cases = {
            {"--native-libs", dir.resolve("nope").toString()},
            {"--native-libs", LIBS.toString(), "--abi", "x86"},
            {"--native-libs", LIBS.toString(), "--abi", "arm64-v8a", "--cpu", "cortex-a8"},
            {"--native-libs", LIBS.toString(), "--cpu", "no-such-cpu"},
            {"--native-libs", LIBS.toString(), "--native-limit", "lots"},
            {"--native-limit", "30s"},
            {"--native-sandbox", dir.resolve("files").toString()},
            {"--native-libs", LIBS.toString(), "--userland", "stubs", "--native-sandbox", dir.resolve("files").toString()},
            {"--abi", "arm64-v8a"},
            {"--power-profile", dir.resolve("nope.xml").toString()},
            {"--cluster", "7"}};
        for (String[] k : cases) {
            List<String> a = new ArrayList<>(List.of("profile", "-o", dir.resolve("never.db").toString()));
            a.addAll(List.of(k));
            a.addAll(List.of("--", Cli.java(), "-version"));
            Cli c = Cli.run(a.toArray(new String[0]));
            assertNotEquals(0, c.exit, String.join(" ", k));
            assertEquals(1, Cli.lines(c.err).size(), String.join(" ", k) + ": " + c.err);
            assertFalse(Files.exists(dir.resolve("never.db")), String.join(" ", k));
        }
    }

    @Test
    void aHybridRunStreamsToACollector() throws Exception {
        Path db = dir.resolve("live.db");
        try (Store store = Store.create(db)) {
            org.hyprof.live.LiveSession live = new org.hyprof.live.LiveSession(store);
            try (org.hyprof.collector.Collector c = new org.hyprof.collector.Collector("127.0.0.1", 0, null, live, live, m -> { })) {
                int port = c.start();
                Run r = hyprof("profile", "--connect", "127.0.0.1:" + port, "--native-libs", LIBS.toString(), "--abi", "arm64-v8a",
                        "--", Cli.java(), "-cp", samples(), "demo.HybridDemo", "1");
                assertEquals(0, r.exit(), r.err());
                Await.until("the program's connection to end",
                        () -> !live.processes().isEmpty() && !live.processes().get(0).connected());
            }
            long p = store.processes().get(0).id();
            assertFalse(store.nativeEpochs(p).isEmpty(), "epochs came over the wire");
            assertFalse(store.nativeBlocks(p).isEmpty(), "blocks came over the wire");
            assertEquals("arm64-v8a", store.nativeInfo(p).get("abi"));
            org.hyprof.correlate.Profile prof = org.hyprof.correlate.Profile.load(store);
            assertTrue(prof.hybrid());
            assertTrue(prof.totals().energyRelativeDifference() < 1e-3, prof.totals().toString());
        }
    }

    @Test
    void demoCommandRunsTheHybridDemo() {
        Path db = dir.resolve("demo.db");
        Cli c = Cli.run("demo", "-o", db.toString(), "--rounds", "1", "--top", "40");
        assertEquals(0, c.exit, c.err);
        assertTrue(c.out.contains("native ms") && c.out.contains("energy uJ"), c.out);
        assertTrue(c.out.contains("demo.NativeKernels."), c.out);
        assertTrue(c.out.contains("check: sum of exclusive energy"), c.out);
    }
}
