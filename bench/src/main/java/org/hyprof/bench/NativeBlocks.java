package org.hyprof.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.LibUnicornBackend;

/**
 * Host time per executed basic block of bb-tracer, side by side in one run (issue 17): four
 * kernels (an integer loop, SOR, sparse mat-vec, FFT; samples/native) on both ABIs, each engine
 * with block counting and without any hook, and the same C as a static executable under
 * qemu-user. Times are CPU time (the emulating thread's; qemu-user's process), so that a machine
 * loaded by other work disturbs them less than wall-clock time. Every figure is
 * {@code (t(n) − t(0)) / (blocks(n) − blocks(0))}: a large and a
 * minimal workload (the minimal one pays set-up, allocation and, for qemu-user, process start),
 * best of three each; blocks as the counting engine counts them (the program's blocks, equal to
 * qemu-user's: BlockBoundaryTest). Prints a Markdown table for bench/README.md.
 * Usage: {@code NativeBlocks SAMPLES_NATIVE_DIR [scale]} (scale multiplies the large workloads).
 */
public final class NativeBlocks {
    /** A kernel with its minimal and its large arguments. */
    record Kernel(String label, String symbol, int[] small, int[] large) {}

    static List<Kernel> kernels(double scale) {
        int s = (int) Math.max(1, Math.round(scale * 100));
        return List.of(
                new Kernel("integer loop", "int_kernel", new int[] {1}, new int[] {30_000 * s}),
                new Kernel("SOR (double)", "kernel_sor", new int[] {100, 0}, new int[] {100, 3 * s}),
                new Kernel("sparse mat-vec", "kernel_sparse", new int[] {1000, 5000, 0}, new int[] {1000, 5000, 3 * s}),
                new Kernel("FFT (double)", "kernel_fft", new int[] {1024, 0}, new int[] {1024, s}));
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        double scale = args.length > 1 ? Double.parseDouble(args[1]) : 1;
        String libunicorn = LibUnicornBackend.unicornVersion();
        System.out.println("fast engine: " + (libunicorn != null ? Engine.LIBUNICORN.description() : "not built: " + LibUnicornBackend.unavailableBecause()));
        System.out.println();
        System.out.println("| ABI | kernel | blocks | libunicorn counting | no hook | counting adds | qemu-user | **counting / qemu-user** | unidbg counting | unidbg no hook |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        List<Double> ratios = new ArrayList<>();
        for (String[] v : new String[][] {{"arm64-v8a", "bench-arm64", "qemu-aarch64"}, {"armeabi-v7a", "bench-armv7", "qemu-arm"}}) {
            Path so = dir.resolve("lib").resolve(v[0]).resolve("libkernels.so");
            String exe = dir.resolve("static").resolve(v[1]).toString();
            for (Kernel k : kernels(scale)) {
                long blocks = blocks(so, k);
                double qemu = (bestProcess(v[2], exe, k.symbol(), k.large()) - bestProcess(v[2], exe, k.symbol(), k.small())) / (double) blocks;
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %s | %s | %,d |", v[0], k.label(), blocks));
                for (Engine engine : new Engine[] {Engine.LIBUNICORN, Engine.UNIDBG}) {
                    if (engine == Engine.LIBUNICORN && libunicorn == null) {
                        row.append(" – | – | – | ").append(String.format(Locale.ROOT, "%.1f", qemu)).append(" | – |");
                        continue;
                    }
                    double counting = perBlock(so, engine, true, k, blocks), bare = perBlock(so, engine, false, k, blocks);
                    if (engine == Engine.LIBUNICORN) {
                        ratios.add(counting / qemu);
                        row.append(String.format(Locale.ROOT, " %.1f | %.1f | %.1f | %.1f | **%.1f×** |", counting, bare, counting - bare, qemu, counting / qemu));
                    } else {
                        row.append(String.format(Locale.ROOT, " %.1f | %.1f |", counting, bare));
                    }
                }
                System.out.println(row);
            }
        }
        double g = 0;
        for (double r : ratios) g += Math.log(r);
        if (!ratios.isEmpty())
            System.out.printf(Locale.ROOT, "%nfast engine counting / qemu-user: geometric mean %.2f×, max %.2f× (ns per executed block)%n",
                    Math.exp(g / ratios.size()), ratios.stream().mapToDouble(Double::doubleValue).max().orElse(0));
    }

    /** blocks(n) − blocks(0) on the unidbg engine (both engines count the same: EnginesAgreeTest). */
    private static long blocks(Path so, Kernel k) {
        try (Emulator e = Emulator.load(so, Engine.UNIDBG, true)) {
            long small = e.call(k.symbol(), args(k.small())).counts().executedBlocks();
            return e.call(k.symbol(), args(k.large())).counts().executedBlocks() - small;
        }
    }

    /** (t(n) − t(0)) / blocks, each time the best of three calls in one loaded emulator, in ns. */
    private static double perBlock(Path so, Engine engine, boolean count, Kernel k, long blocks) {
        try (Emulator e = Emulator.load(so, engine, count)) {
            long small = Long.MAX_VALUE, large = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                small = Math.min(small, time(e, k.symbol(), k.small()));
                large = Math.min(large, time(e, k.symbol(), k.large()));
            }
            return (large - small) / (double) blocks;
        }
    }

    /** CPU time of one call on this thread, in ns (the emulator runs on the calling thread). */
    private static long time(Emulator e, String symbol, int[] a) {
        List<Emulator.Arg> args = args(a);
        long t0 = THREADS.getCurrentThreadCpuTime();
        e.call(symbol, args);
        return THREADS.getCurrentThreadCpuTime() - t0;
    }

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    private static List<Emulator.Arg> args(int[] a) {
        List<Emulator.Arg> l = new ArrayList<>();
        for (int x : a) l.add(Emulator.Arg.ofInt(x));
        return l;
    }

    /**
     * Best of three runs of the static executable under qemu-user: its CPU time (user + system, as
     * bash's {@code time} reports it, 1 ms resolution), in ns.
     */
    private static long bestProcess(String qemu, String exe, String symbol, int[] a) throws Exception {
        StringBuilder cmd = new StringBuilder("TIMEFORMAT='%3U %3S'; time " + qemu + " " + exe + " " + symbol);
        for (int x : a) cmd.append(' ').append(x);
        cmd.append(" >/dev/null");
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            Process p = new ProcessBuilder("bash", "-c", cmd.toString()).start();
            String[] t = new String(p.getErrorStream().readAllBytes()).trim().split("\\s+");
            if (p.waitFor() != 0 || t.length != 2) throw new IllegalStateException(cmd + " failed: " + String.join(" ", t));
            best = Math.min(best, Math.round((Double.parseDouble(t[0]) + Double.parseDouble(t[1])) * 1e9));
        }
        return best;
    }
}
