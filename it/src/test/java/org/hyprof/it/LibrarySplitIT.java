package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.ProbeInfo;
import org.hyprof.store.NativeLibraryCost;
import org.hyprof.store.Store;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Native cost per library in a stored hybrid session (issue 16 item 4): the demo's FFT kernel
 * ({@code demo.NativeKernels.fft}, C calling libc's malloc/free and libm's sin/sqrt) run once on
 * {@code --userland bionic}; the session's split of the method's native cost over
 * {@code libhyprofdemo.so}, {@code libm.so} and {@code libc.so} equals what {@code hyprof native}
 * reports for the same JNI function with the same arguments — instructions exactly, cycles and
 * energy within rounding — and {@code report --by library} shows it, in CSV and JSON, with the
 * share spent in system libraries.
 */
class LibrarySplitIT {
    @TempDir Path dir;

    static final String FFT = "demo.NativeKernels.fft(int, int)";

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void theStoredSplitEqualsHyprofNativesForTheSameCall(String abi) throws Exception {
        String cpu = abi.equals("armeabi-v7a") ? "cortex-a9" : "generic-aarch64";
        Path db = dir.resolve(abi + ".db");
        // one round: fft is the first native call after JNI_OnLoad, as the call below is the first after libc's start-up
        HybridIT.Run r = HybridIT.hyprofIn(dir, "profile", "-o", db.toString(), "--native-libs", HybridIT.LIBS.toString(), "--abi", abi,
                "--cpu", cpu, "--userland", "bionic", "--", Cli.java(), "-cp", HybridIT.samples(), "demo.HybridDemo", "1");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("all native results equal their Java twins"), r.out());

        Cli nat = Cli.run("native", HybridIT.LIBS.resolve(abi).resolve("libhyprofdemo.so").toString(), "--call",
                "Java_demo_NativeKernels_fft", "--arg", "0", "--arg", "0", "--arg", "512", "--arg", "4", "--cpu", cpu,
                "--userland", "bionic", "--format", "json");
        assertEquals(0, nat.exit, nat.err);
        JsonNode libs = new ObjectMapper().readTree(nat.out).get("libraries");
        assertNotNull(libs, nat.out);

        Map<String, NativeLibraryCost> stored = new LinkedHashMap<>();
        try (Store s = Store.openReadOnly(db)) {
            long p = s.processes().get(0).id();
            int fft = s.probes(p).stream().filter(x -> x.className().equals("demo.NativeKernels") && x.methodName().equals("fft"))
                    .mapToInt(ProbeInfo::id).findFirst().orElseThrow();
            for (NativeLibraryCost c : s.nativeLibraryCosts(p)) if (c.probeId() == fft) stored.put(c.codeLibrary(), c);
        }
        assertEquals(java.util.Set.of("libhyprofdemo.so", "libm.so", "libc.so"), stored.keySet());
        assertEquals("libhyprofdemo.so", stored.keySet().iterator().next(), "the app's own code first");
        for (Iterator<Map.Entry<String, JsonNode>> it = libs.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            NativeLibraryCost c = stored.get(e.getKey());
            long instr = e.getValue().get("instructions").asLong();
            if (instr == 0) { // hyprof native lists every loaded library, the session only those that ran
                assertNull(c, e.getKey());
                continue;
            }
            assertNotNull(c, e.getKey() + " ran in hyprof native but is not stored: " + stored);
            assertEquals(instr, c.instructions(), abi + " " + e.getKey() + ": instructions");
            assertEquals(e.getValue().get("cycles").asDouble(), c.cycles(), 1.0, abi + " " + e.getKey() + ": cycles");
            assertEquals(e.getValue().get("energy_uj").asDouble() * 1e6, c.energyPicojoules(), 1.0, abi + " " + e.getKey() + ": pJ");
            assertEquals(!e.getKey().equals("libhyprofdemo.so"), c.system(), e.getKey());
        }
        assertTrue(stored.get("libm.so").instructions() > 0 && stored.get("libc.so").instructions() > 0, stored.toString());

        // the method table's native instructions are the split's sum; the report shows the split
        long sum = stored.values().stream().mapToLong(NativeLibraryCost::instructions).sum();
        assertEquals(sum, HybridIT.n(HybridIT.report(db), FFT, "native_instr"));
        Map<String, Map<String, String>> rows = libraryRows(db);
        for (NativeLibraryCost c : stored.values()) {
            Map<String, String> row = rows.get(FFT + "|" + c.codeLibrary());
            assertNotNull(row, FFT + " in " + c.codeLibrary() + ": " + rows.keySet());
            assertEquals(c.instructions(), Long.parseLong(row.get("instructions")));
            assertEquals(c.system() ? "system" : "app", row.get("kind"));
        }
        assertTrue(rows.containsKey("|libc.so"), "a row for libc.so over all methods: " + rows.keySet());
        Cli json = Cli.run("report", db.toString(), "--by", "library", "--format", "json");
        assertEquals(0, json.exit, json.err);
        JsonNode j = new ObjectMapper().readTree(json.out);
        double share = j.get("system_share").get("instructions").asDouble();
        assertTrue(share > 0 && share < 1, json.out);
        for (JsonNode m : j.get("methods"))
            if (m.get("method").asText().equals(FFT))
                assertEquals((stored.get("libm.so").instructions() + stored.get("libc.so").instructions()) / (double) sum,
                        m.get("system_share_instructions").asDouble(), 1e-9);
        Cli table = Cli.run("report", db.toString(), "--by", "library");
        assertEquals(0, table.exit, table.err);
        assertTrue(table.out.contains("in system libraries:"), table.out);
    }

    /** {@code report --by library --format csv} keyed by "method|library" (method empty: the library over all methods). */
    static Map<String, Map<String, String>> libraryRows(Path db) {
        Cli c = Cli.run("report", db.toString(), "--by", "library", "--format", "csv");
        assertEquals(0, c.exit, c.err);
        String[] lines = c.out.strip().split("\r?\n");
        List<String> head = Cli.fields(lines[0]);
        Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            List<String> f = Cli.fields(lines[i]);
            Map<String, String> row = new LinkedHashMap<>();
            for (int k = 0; k < head.size(); k++) row.put(head.get(k), f.get(k));
            rows.put(row.get("method") + "|" + row.get("library"), row);
        }
        return rows;
    }
}
