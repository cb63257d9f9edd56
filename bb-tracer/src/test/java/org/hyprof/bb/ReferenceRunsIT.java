package org.hyprof.bb;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.bb.emu.Emulator;
import org.junit.jupiter.api.Test;

/**
 * The emulated kernels return what the same C returns natively: compiled for this host with gcc,
 * and as static ARM/AArch64 executables under qemu-user (samples/native/static).
 */
class ReferenceRunsIT {
    static final Path SRC = Path.of("../samples/native/src");

    static Map<String, String> parse(String out) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String l : out.split("\n")) {
            int eq = l.indexOf('=');
            if (eq > 0) m.put(l.substring(0, eq), l.substring(eq + 1).trim());
        }
        return m;
    }

    static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
        return out;
    }

    /** The same calls as main.c, emulated. */
    static Map<String, String> emulate(Path so) {
        Map<String, String> m = new LinkedHashMap<>();
        try (Tracer t = Tracer.open(so, null)) {
            m.put("count_loop(100)", String.valueOf(t.call("count_loop", List.of(Emulator.Arg.ofInt(100))).returnValue()));
            m.put("int_kernel(1000)", String.valueOf(t.call("int_kernel", List.of(Emulator.Arg.ofInt(1000))).returnValue()));
            m.put("add_ints(1,2,3,4,5,6)", String.valueOf(t.call("add_ints", List.of(Emulator.Arg.ofInt(1), Emulator.Arg.ofInt(2),
                    Emulator.Arg.ofInt(3), Emulator.Arg.ofInt(4), Emulator.Arg.ofInt(5), Emulator.Arg.ofInt(6))).returnValue()));
            m.put("mix_args(3,1.5,2.25,7)", g(t.call("mix_args", List.of(Emulator.Arg.ofInt(3), Emulator.Arg.ofFloat(1.5f),
                    Emulator.Arg.ofDouble(2.25), Emulator.Arg.ofLong(7))).returnDouble()));
            m.put("kernel_fft(64,2)", g(t.call("kernel_fft", List.of(Emulator.Arg.ofInt(64), Emulator.Arg.ofInt(2))).returnDouble()));
            m.put("kernel_sor(20,3)", g(t.call("kernel_sor", List.of(Emulator.Arg.ofInt(20), Emulator.Arg.ofInt(3))).returnDouble()));
            m.put("kernel_sparse(100,500,2)", g(t.call("kernel_sparse", List.of(Emulator.Arg.ofInt(100), Emulator.Arg.ofInt(500),
                    Emulator.Arg.ofInt(2))).returnDouble()));
        }
        return m;
    }

    /** Doubles compared through their value (C's %.17g and Java's shortest form differ in text). */
    static String g(double d) {
        return Double.toString(d);
    }

    static Map<String, String> normalize(Map<String, String> m) {
        Map<String, String> r = new LinkedHashMap<>();
        m.forEach((k, v) -> r.put(k, Double.toString(Double.parseDouble(v)))); // exact: every value fits a double
        return r;
    }

    @Test
    void emulatedResultsEqualTheHostBuild() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/gcc")), "gcc");
        Path exe = Path.of("target/kernels-host");
        run("gcc", "-O2", "-ffp-contract=off", "-o", exe.toString(), SRC.resolve("main.c").toString(), SRC.resolve("kernels.c").toString(), "-lm");
        Map<String, String> host = normalize(parse(run(exe.toString())));
        for (Path so : new Path[] {TracerTest.ARM, TracerTest.THUMB, TracerTest.ARM64})
            assertEquals(host, normalize(emulate(so)), so.toString());
    }

    @Test
    void emulatedResultsEqualQemuUser() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/qemu-arm")), "qemu-user is installed by .ci/run");
        Map<String, String> arm = normalize(parse(run("qemu-arm", "../samples/native/static/kernels-armv7")));
        Map<String, String> arm64 = normalize(parse(run("qemu-aarch64", "../samples/native/static/kernels-arm64")));
        assertEquals(arm, normalize(emulate(TracerTest.ARM)));
        assertEquals(arm, normalize(emulate(TracerTest.THUMB)));
        assertEquals(arm64, normalize(emulate(TracerTest.ARM64)));
    }
}
