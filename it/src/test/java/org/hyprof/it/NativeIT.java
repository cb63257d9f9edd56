package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** 'hyprof native' end to end: the JSON contract and one-line errors. */
class NativeIT {
    static final String LIBS = "../samples/native/lib/";

    @Test
    void jsonContract() throws Exception {
        Cli c = Cli.run("native", LIBS + "armeabi-v7a/libkernels-thumb.so", "--call", "count_loop", "--arg", "100",
                "--cpu", "cortex-a8", "--format", "json");
        assertEquals(0, c.exit, c.err);
        JsonNode j = new ObjectMapper().readTree(c.out);
        for (String k : new String[] {"return", "blocks", "instructions", "categories", "cycles", "time_ns", "energy_uj"})
            assertTrue(j.has(k), "missing " + k + " in " + c.out);
        assertEquals(4950, j.get("return").asLong());
        assertEquals(102, j.get("blocks").asLong());
        assertEquals(405, j.get("instructions").asLong());
        assertEquals(101, j.get("categories").get("branch-cond").asLong());
        // 101 conditional branches at 3 cycles, 304 other instructions at the A8's CPI of 13.03
        assertEquals(Math.round(101 * 3 + 304 * 13.03), j.get("cycles").asLong());
        assertTrue(j.get("hot_blocks").get(0).get("disassembly").size() > 0);
    }

    /**
     * --userland bionic (issue 16): Android 6.0's libm and libc run beside the kernel; same result
     * as on the stubs, the library's own instructions unchanged, libm's and libc's counted on top
     * and listed per library.
     */
    @Test
    void bionicUserlandSplitsCostPerLibrary() throws Exception {
        for (String abi : new String[] {"arm64-v8a", "armeabi-v7a"}) {
            JsonNode[] j = new JsonNode[2];
            String[] userlands = {"stubs", "bionic"};
            for (int i = 0; i < 2; i++) {
                Cli c = Cli.run("native", LIBS + abi + "/libkernels.so", "--call", "kernel_fft", "--arg", "256", "--arg", "4",
                        "--userland", userlands[i], "--format", "json");
                assertEquals(0, c.exit, c.err);
                j[i] = new ObjectMapper().readTree(c.out);
            }
            assertEquals(j[0].get("return_double").asDouble(), j[1].get("return_double").asDouble(), abi);
            assertFalse(j[0].has("libraries"), "one library on the stubs");
            JsonNode libs = j[1].get("libraries");
            assertEquals(j[0].get("instructions").asLong(), libs.get("libkernels.so").get("instructions").asLong(), abi);
            assertTrue(libs.get("libm.so").get("instructions").asLong() > 0, abi + ": " + libs);
            assertTrue(libs.get("libc.so").get("instructions").asLong() > 0, abi + ": " + libs);
            long sum = 0;
            for (JsonNode l : libs) sum += l.get("instructions").asLong();
            assertEquals(j[1].get("instructions").asLong(), sum, abi);
        }
        Cli bad = Cli.run("native", LIBS + "arm64-v8a/libkernels.so", "--call", "count_loop", "--arg", "1", "--userland", "glibc");
        assertEquals(2, bad.exit);
        assertEquals("hyprof: --userland 'glibc': not a userland (stubs, bionic)", bad.err.strip());
    }

    /**
     * --native-sandbox (issue 16): bionic's stdio writes, stats, reads and unlinks a file in the
     * directory named (kept afterwards); the option needs --userland bionic.
     */
    @Test
    void nativeCodesFilesLiveInTheSandboxNamed(@TempDir Path dir) throws Exception {
        Path sandbox = dir.resolve("files");
        Cli c = Cli.run("native", LIBS + "arm64-v8a/libuserland.so", "--call", "files_roundtrip", "--arg", "100",
                "--userland", "bionic", "--native-sandbox", sandbox.toString(), "--format", "json");
        assertEquals(0, c.exit, c.err);
        long sum = 0;
        for (int k = 0; k < 100; k++) sum += (k * 7) & 0xff;
        assertEquals(sum, new ObjectMapper().readTree(c.out).get("return").asLong(), c.out);
        assertTrue(Files.isDirectory(sandbox.resolve("data")), "the directory native code made is in the sandbox");
        Cli bad = Cli.run("native", LIBS + "arm64-v8a/libuserland.so", "--call", "files_roundtrip", "--arg", "100",
                "--userland", "stubs", "--native-sandbox", sandbox.toString());
        assertEquals(2, bad.exit);
        assertEquals("hyprof: --native-sandbox needs --userland bionic (the stubs userland opens no files)", bad.err.strip());
    }

    @Test
    void floatingPointResultsAndTable() {
        Cli c = Cli.run("native", LIBS + "arm64-v8a/libkernels.so", "--call", "mix_args", "--arg", "3", "--arg", "1.5f",
                "--arg", "2.25", "--arg", "7L");
        assertEquals(0, c.exit, c.err);
        assertTrue(c.out.contains("as double 2.0"), c.out);
        assertTrue(c.out.contains("hottest blocks:"), c.out);
    }

    @Test
    void runsAreStoredAndListed(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path db = dir.resolve("native.db");
        JsonNode[] printed = new JsonNode[2];
        String[] cpus = {"cortex-a8", "cortex-a9"};
        for (int i = 0; i < 2; i++) {
            Cli c = Cli.run("native", LIBS + "armeabi-v7a/libkernels.so", "--call", "kernel_sor", "--arg", "20", "--arg", "3",
                    "--cpu", cpus[i], "--format", "json", "-o", db.toString());
            assertEquals(0, c.exit, c.err);
            assertTrue(c.err.contains("stored as native run " + (i + 1)), c.err);
            printed[i] = new ObjectMapper().readTree(c.out);
        }
        JsonNode stored = new ObjectMapper().readTree(Cli.run("report", db.toString(), "--by", "native", "--format", "json").out);
        assertEquals(2, stored.size());
        for (int i = 0; i < 2; i++) {
            JsonNode s = stored.get(i), p = printed[i];
            assertEquals(cpus[i], s.get("cpu").asText());
            assertEquals("20, 3", s.get("args").asText());
            assertEquals(p.get("engine").asText(), s.get("engine").asText());
            for (String k : new String[] {"return", "blocks", "instructions", "cycles"}) assertEquals(p.get(k).asLong(), s.get(k).asLong(), k);
            assertEquals(p.get("energy_uj").asDouble(), s.get("energy_uj").asDouble(), 1e-6);
            assertEquals(p.get("categories"), s.get("categories"));
            long executed = 0;
            for (JsonNode b : s.get("hot_blocks")) executed += b.get("executions").asLong();
            assertEquals(p.get("blocks").asLong(), executed, "every executed block is stored");
        }
        // a session of native runs only: the report lists them without --by native
        Cli table = Cli.run("report", db.toString());
        assertEquals(0, table.exit, table.err);
        assertTrue(table.out.contains("cortex-a8") && table.out.contains("libkernels.so kernel_sor(20, 3)"), table.out);
        Cli csv = Cli.run("report", db.toString(), "--by", "native", "--format", "csv");
        assertTrue(csv.out.startsWith(org.hyprof.correlate.NativeRunReport.COLUMNS + "\n"), csv.out);
        // an output that cannot be a session is refused before the run
        java.nio.file.Path junk = dir.resolve("junk.db");
        java.nio.file.Files.writeString(junk, "not a database, just text long enough to be read as a header.........");
        Cli bad = Cli.run("native", LIBS + "armeabi-v7a/libkernels.so", "--call", "count_loop", "--arg", "3", "-o", junk.toString());
        assertEquals(1, bad.exit);
        assertEquals(1, Cli.lines(bad.err).size(), bad.err);
        assertTrue(bad.err.contains(junk.toString()), bad.err);
        assertEquals("", bad.out, "nothing ran");
    }

    /**
     * One identity per block: what 'hyprof native' prints (table and JSON) and what
     * 'hyprof report --by native' shows of the stored run name each block the same way, as the
     * library's file name + its offset in the file (never the emulator's load address), with the
     * same disassembly, whose first instruction is at that offset.
     */
    @Test
    void aBlockHasTheSameAddressInNativeAndReport(@TempDir Path dir) throws Exception {
        for (String lib : new String[] {"arm64-v8a/libkernels.so", "armeabi-v7a/libkernels-thumb.so"}) {
            Path so = Path.of(LIBS + lib), db = dir.resolve(so.getFileName() + ".db");
            String[] call = {"native", so.toString(), "--call", "kernel_sor", "--arg", "20", "--arg", "3", "--top", "3"};
            Cli table = Cli.run(concat(call, "-o", db.toString()));
            assertEquals(0, table.exit, table.err);
            Cli json = Cli.run(concat(call, "--format", "json"));
            assertEquals(0, json.exit, json.err);
            Cli report = Cli.run("report", db.toString(), "--by", "native", "--format", "json");
            assertEquals(0, report.exit, report.err);

            // the table: "  libkernels.so+0xa20 in kernel_sor: 918 executions, ..." then its instructions
            Map<String, List<String>> printed = new LinkedHashMap<>();
            Map<String, Long> executions = new HashMap<>();
            Pattern head = Pattern.compile("  (\\S+) in \\S+: ([\\d,]+) executions, .*");
            List<String> current = null;
            for (String line : Cli.lines(table.out.substring(table.out.indexOf("hottest blocks:")))) {
                Matcher m = head.matcher(line);
                if (m.matches()) {
                    printed.put(m.group(1), current = new ArrayList<>());
                    executions.put(m.group(1), Long.parseLong(m.group(2).replace(",", "")));
                } else if (current != null && line.startsWith("      ")) current.add(line.substring(6));
            }
            assertEquals(3, printed.size(), table.out);
            long fileSize = Files.size(so);
            for (Map.Entry<String, List<String>> b : printed.entrySet()) {
                assertTrue(b.getKey().matches(Pattern.quote(so.getFileName().toString()) + "\\+0x[0-9a-f]+"), b.getKey());
                long offset = Long.parseLong(b.getKey().substring(b.getKey().indexOf("+0x") + 3), 16);
                assertTrue(offset < fileSize, b.getKey() + ": an offset in the file, not the emulator's address");
                assertEquals(offset, Long.parseLong(b.getValue().get(0).substring(0, 8), 16), "the first instruction is at the block's offset");
            }

            // the JSON of the same call: the same blocks in the same order, the same lines
            JsonNode hot = new ObjectMapper().readTree(json.out).get("hot_blocks");
            assertEquals(3, hot.size());
            int k = 0;
            for (Map.Entry<String, List<String>> b : printed.entrySet()) {
                JsonNode h = hot.get(k++);
                assertEquals(b.getKey(), h.get("block").asText());
                assertEquals(b.getKey(), so.getFileName() + "+" + h.get("address").asText());
                List<String> lines = new ArrayList<>();
                h.get("disassembly").forEach(x -> lines.add(x.asText()));
                assertEquals(b.getValue(), lines);
            }

            // the stored run, as the report shows it
            JsonNode stored = new ObjectMapper().readTree(report.out).get(0).get("hot_blocks");
            Map<String, JsonNode> byId = new HashMap<>();
            for (JsonNode h : stored) byId.put(h.get("block").asText(), h);
            for (Map.Entry<String, List<String>> b : printed.entrySet()) {
                JsonNode h = byId.get(b.getKey());
                assertNotNull(h, b.getKey() + " in the report: " + report.out);
                assertEquals(b.getKey(), so.getFileName() + "+" + h.get("address").asText());
                assertEquals(executions.get(b.getKey()), h.get("executions").asLong());
                assertEquals(String.join("\n", b.getValue()), h.get("disassembly").asText());
            }
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /**
     * The thesis' comparison of CPU organizations, end to end: the same kernel stored under the
     * Cortex-A8 and Cortex-A9 profiles, compared. Same instructions; the ratios are those of the
     * estimates each run printed.
     */
    @Test
    void compareTwoCpuProfilesOfTheSameKernel(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        JsonNode[] printed = new JsonNode[2];
        String[] cpus = {"cortex-a8", "cortex-a9"};
        for (int i = 0; i < 2; i++) {
            Cli c = Cli.run("native", LIBS + "armeabi-v7a/libkernels.so", "--call", "kernel_fft", "--arg", "64", "--arg", "2",
                    "--cpu", cpus[i], "--format", "json", "-o", dir.resolve(cpus[i] + ".db").toString());
            assertEquals(0, c.exit, c.err);
            printed[i] = new ObjectMapper().readTree(c.out);
        }
        Cli c = Cli.run("compare", dir.resolve("cortex-a8.db").toString(), dir.resolve("cortex-a9.db").toString(), "--format", "csv");
        assertEquals(0, c.exit, c.err);
        java.util.List<String> lines = Cli.lines(c.out);
        assertEquals(org.hyprof.correlate.NativeRunComparison.COLUMNS, lines.get(0));
        assertEquals(2, lines.size(), c.out);
        String[] f = lines.get(1).replace("\"libkernels.so kernel_fft(64, 2)\"", "call").split(",", -1);
        assertEquals("cortex-a8", f[1]);
        assertEquals("cortex-a9", f[2]);
        assertEquals(f[5], f[6], "the same instructions on both");
        assertEquals("1.0000", f[7]);
        double cycles = printed[1].get("cycles").asDouble() / printed[0].get("cycles").asDouble();
        assertEquals(cycles, Double.parseDouble(f[10]), 1e-4);
        double energy = printed[1].get("energy_uj").asDouble() / printed[0].get("energy_uj").asDouble();
        assertEquals(energy, Double.parseDouble(f[16]), 1e-4);
        assertTrue(cycles < 1 && energy < 1, "the A9 needs fewer cycles and less energy for the same code");
        Cli table = Cli.run("compare", dir.resolve("cortex-a8.db").toString(), dir.resolve("cortex-a9.db").toString());
        assertTrue(table.out.contains("libkernels.so kernel_fft(64, 2)") && table.out.contains("cortex-a8"), table.out);
        Cli wrong = Cli.run("compare", dir.resolve("cortex-a8.db").toString(), dir.resolve("cortex-a9.db").toString(), "--by", "method");
        assertEquals(1, wrong.exit);
        assertTrue(wrong.err.contains("empty session"), wrong.err);
    }

    @Test
    void errorsAreOneLine() {
        for (String[] args : new String[][] {
            {"native", "../samples/native/invalid/not-elf.so", "--call", "f"},
            {"native", "../samples/native/invalid/x86-64.so", "--call", "f"},
            {"native", LIBS + "arm64-v8a/libkernels.so", "--call", "nope"},
            {"native", LIBS + "arm64-v8a/libkernels.so", "--call", "uses_getpid", "--userland", "stubs"}, // no stub for getpid
            {"native", "../samples/native/invalid/missing-symbol.so", "--call", "call_missing", "--arg", "1"}, // bionic: defined nowhere
            {"native", LIBS + "arm64-v8a/libkernels.so", "--call", "count_loop", "--arg", "ten"},
            {"native", LIBS + "arm64-v8a/libkernels.so", "--call", "count_loop", "--cpu", "cortex-a8"}}) {
            Cli c = Cli.run(args);
            assertEquals(1, c.exit, String.join(" ", args) + ": " + c.err);
            assertEquals(1, Cli.lines(c.err).size(), c.err);
        }
    }

    /** Issue 20: "b ." used to hang 'hyprof native' forever; a huge memset took 2.2 GB. */
    @Test
    void nativeCodeThatNeverReturnsOrAsksTooMuchIsStoppedWithOneLine() {
        String lib = LIBS + "arm64-v8a/liblimits.so";
        String[][] cases = {
            {"--call", "spin", "--native-limit", "1m",
             "hyprof: spin did not return within 1,000,000 instructions (the limit per native call; --native-limit changes it);"
                     + " stopped at liblimits.so+0x3c0"},
            {"--call", "spin", "--native-limit", "off,300ms", null},
            {"--call", "spin", "--native-limit", "300ms",
             "hyprof: spin did not return within 0.3 s (the limit per native call; --native-limit changes it); stopped at liblimits.so+0x3c0"},
            {"--call", "fill", "--arg", "0x30000000", "--arg", "0", "--arg", "0x7ffffff0", "--native-limit", "10g,120s", "--userland", "stubs",
             "hyprof: memset(0x30000000, 0, 2147483632): 2,147,483,632 bytes from 0x30000000 run past the end of the emulated heap"
                     + " (0x30000000-0x40000000, 268,435,456 bytes)"},
            // bionic (the default): libc's own memset runs until it leaves the mapped memory
            {"--call", "fill", "--arg", "0x30000000", "--arg", "0", "--arg", "0x7ffffff0", "--native-limit", "10g,120s",
             "~hyprof: emulation stopped at 0x[0-9a-f]+: Invalid memory write \\(UC_ERR_WRITE_UNMAPPED\\) in libc\\.so!memset"}};
        for (String[] k : cases) {
            List<String> a = new ArrayList<>(List.of("native", lib));
            a.addAll(Arrays.asList(k).subList(0, k.length - 1));
            Cli c = Cli.run(a.toArray(new String[0]));
            assertEquals(k[k.length - 1] == null ? 2 : 1, c.exit, String.join(" ", a) + ": " + c.err);
            assertEquals(1, Cli.lines(c.err).size(), c.err);
            String want = k[k.length - 1];
            if (want != null && want.startsWith("~")) assertTrue(Cli.lines(c.err).get(0).matches(want.substring(1)), c.err);
            else if (want != null) assertEquals(want, Cli.lines(c.err).get(0));
            else assertTrue(c.err.startsWith("hyprof: --native-limit 'off,300ms': "), c.err);
        }
    }
}
