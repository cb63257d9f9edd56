package org.hyprof.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.hyprof.bb.emu.Emulator;

/**
 * Cost per executed basic block of bb-tracer, side by side in one run: the same kernel
 * (int_kernel, a loop with a data-dependent branch) in Unicorn with the counting block hook, in
 * Unicorn without any hook, and as a static executable under qemu-user (its start-up measured
 * with a tiny run and subtracted). The block count comes from the counting run.
 * Usage: {@code NativeBlocks SAMPLES_NATIVE_DIR [n]}.
 */
public final class NativeBlocks {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 3_000_000;
        for (String[] v : new String[][] {{"arm64-v8a", "bench-arm64", "qemu-aarch64"}, {"armeabi-v7a", "bench-armv7", "qemu-arm"}}) {
            Path so = dir.resolve("lib").resolve(v[0]).resolve("libkernels.so");
            long blocks;
            long hooked = Long.MAX_VALUE, bare = Long.MAX_VALUE;
            try (Emulator e = Emulator.load(so, true)) {
                blocks = 0;
                for (int i = 0; i < 3; i++) {
                    long t0 = System.nanoTime();
                    Emulator.Result r = e.call("int_kernel", List.of(Emulator.Arg.ofInt(n)));
                    hooked = Math.min(hooked, System.nanoTime() - t0);
                    blocks = r.counts().executedBlocks();
                }
            }
            try (Emulator e = Emulator.load(so, false)) {
                for (int i = 0; i < 3; i++) {
                    long t0 = System.nanoTime();
                    e.call("int_kernel", List.of(Emulator.Arg.ofInt(n)));
                    bare = Math.min(bare, System.nanoTime() - t0);
                }
            }
            String exe = dir.resolve("static").resolve(v[1]).toString();
            long qemu = Long.MAX_VALUE, start = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                start = Math.min(start, time(v[2], exe, "int_kernel", "1"));
                qemu = Math.min(qemu, time(v[2], exe, "int_kernel", Integer.toString(n)));
            }
            double q = (qemu - start) / (double) blocks;
            System.out.printf(Locale.ROOT, "%-12s %,d blocks: counting %.1f ns/block, no hook %.1f ns/block (hook adds %.1f), qemu-user %.1f ns/block; counting / qemu-user = %.1fx%n",
                    v[0], blocks, hooked / (double) blocks, bare / (double) blocks, (hooked - bare) / (double) blocks, q, hooked / (double) blocks / q);
        }
    }

    private static long time(String... cmd) throws Exception {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor() != 0) throw new IllegalStateException(String.join(" ", cmd) + " failed");
        return System.nanoTime() - t0;
    }
}
