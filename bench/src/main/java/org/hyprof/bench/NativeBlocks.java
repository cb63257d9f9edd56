package org.hyprof.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.LibUnicornBackend;

/**
 * Cost per executed basic block of bb-tracer, side by side in one run: the same kernel
 * (int_kernel, a loop with a data-dependent branch) on each engine with block counting and
 * without any hook (libunicorn: counting in C; unidbg: counting by a Java hook), and as a static
 * executable under qemu-user (its start-up measured with a tiny run and subtracted). The block
 * count comes from the counting run. Best of three runs each.
 * Usage: {@code NativeBlocks SAMPLES_NATIVE_DIR [n]}.
 */
public final class NativeBlocks {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 3_000_000;
        for (String[] v : new String[][] {{"arm64-v8a", "bench-arm64", "qemu-aarch64"}, {"armeabi-v7a", "bench-armv7", "qemu-arm"}}) {
            Path so = dir.resolve("lib").resolve(v[0]).resolve("libkernels.so");
            String exe = dir.resolve("static").resolve(v[1]).toString();
            long qemu = Long.MAX_VALUE, start = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                start = Math.min(start, time(v[2], exe, "int_kernel", "1"));
                qemu = Math.min(qemu, time(v[2], exe, "int_kernel", Integer.toString(n)));
            }
            for (Engine engine : Engine.values()) {
                if (engine == Engine.LIBUNICORN && LibUnicornBackend.unavailableBecause() != null) {
                    System.out.printf(Locale.ROOT, "%-12s %-10s skipped: %s%n", v[0], engine.id, LibUnicornBackend.unavailableBecause());
                    continue;
                }
                long[] blocks = new long[1];
                long hooked = best(so, engine, true, n, blocks), bare = best(so, engine, false, n, null);
                double q = (qemu - start) / (double) blocks[0];
                System.out.printf(Locale.ROOT, "%-12s %-10s %,d blocks: counting %.1f ns/block, no hook %.1f ns/block (counting adds %.1f), qemu-user %.1f ns/block; counting / qemu-user = %.1fx%n",
                        v[0], engine.id, blocks[0], hooked / (double) blocks[0], bare / (double) blocks[0], (hooked - bare) / (double) blocks[0], q, hooked / (double) blocks[0] / q);
            }
        }
    }

    /** Best of three calls of int_kernel(n), in ns; {@code blocks[0]} gets the executed blocks. */
    private static long best(Path so, Engine engine, boolean count, int n, long[] blocks) {
        long best = Long.MAX_VALUE;
        try (Emulator e = Emulator.load(so, engine, count)) {
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                Emulator.Result r = e.call("int_kernel", List.of(Emulator.Arg.ofInt(n)));
                best = Math.min(best, System.nanoTime() - t0);
                if (blocks != null) blocks[0] = r.counts().executedBlocks();
            }
        }
        return best;
    }

    private static long time(String... cmd) throws Exception {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor() != 0) throw new IllegalStateException(String.join(" ", cmd) + " failed");
        return System.nanoTime() - t0;
    }
}
