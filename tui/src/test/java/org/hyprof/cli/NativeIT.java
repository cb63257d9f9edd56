package org.hyprof.cli;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

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

    @Test
    void floatingPointResultsAndTable() {
        Cli c = Cli.run("native", LIBS + "arm64-v8a/libkernels.so", "--call", "mix_args", "--arg", "3", "--arg", "1.5f",
                "--arg", "2.25", "--arg", "7L");
        assertEquals(0, c.exit, c.err);
        assertTrue(c.out.contains("as double 2.0"), c.out);
        assertTrue(c.out.contains("hottest blocks:"), c.out);
    }

    @Test
    void errorsAreOneLine() {
        for (String[] args : new String[][] {
            {"native", "../samples/native/invalid/not-elf.so", "--call", "f"},
            {"native", "../samples/native/invalid/x86-64.so", "--call", "f"},
            {"native", LIBS + "arm64-v8a/libkernels.so", "--call", "nope"},
            {"native", LIBS + "arm64-v8a/libkernels.so", "--call", "uses_getpid"},
            {"native", LIBS + "arm64-v8a/libkernels.so", "--call", "count_loop", "--arg", "ten"},
            {"native", LIBS + "arm64-v8a/libkernels.so", "--call", "count_loop", "--cpu", "cortex-a8"}}) {
            Cli c = Cli.run(args);
            assertEquals(1, c.exit, String.join(" ", args) + ": " + c.err);
            assertEquals(1, Cli.lines(c.err).size(), c.err);
        }
    }
}
