package org.hyprof.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Userland;

/**
 * One native call's fixed cost in bb-tracer — entering the emulator, the call's epoch and its
 * accounting — and the cost per counted block, for one ABI and userland, in one JVM (issue 16 item
 * 5; {@code bench/crossing.sh} runs it for every variant, alternating, several times, and takes
 * medians). The call: {@code count_loop(0)} of {@code samples/native}'s {@code libkernels.so}, two
 * blocks that do nothing; per block: {@code (t(int_kernel(n)) − t(int_kernel(1))) / blocks}. Both
 * with block counting and without any hook; thread CPU time; each figure the median of
 * {@code ROUNDS} batches after {@code WARM_UP} batches (with one, the JIT had not settled on a
 * loaded machine: the no-hook figure of one build came out twice the other's, not so when run alone).
 *
 * <p>Uses only bb-tracer API that older builds have too ({@link Emulator#load}, {@link Emulator#call},
 * {@code Result.counts().executedBlocks()}), so the same class measures a build from before a
 * change: put that build's {@code hyprof-bb.jar} before this module's classes on the class path.
 *
 * <pre>java -cp HYPROF_BB_JAR:bench/target/classes org.hyprof.bench.Crossing SAMPLES_NATIVE ABI USERLAND [ENGINE]</pre>
 * Prints one line: {@code call_ns=… call_nohook_ns=… block_ns=… block_nohook_ns=… blocks_known=…}.
 */
public final class Crossing {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int WARM_UP = 3, ROUNDS = 7, CALLS = 20_000, LOOP = 200_000;

    public static void main(String[] args) {
        Path so = Path.of(args[0]).resolve("lib").resolve(args[1]).resolve("libkernels.so");
        Userland userland = Userland.named(args[2]);
        Engine engine = args.length > 3 ? Engine.named(args[3]) : Engine.LIBUNICORN;
        try (Emulator counting = Emulator.load(so, engine, true, userland);
             Emulator bare = Emulator.load(so, engine, false, userland)) {
            List<Emulator.Arg> zero = List.of(Emulator.Arg.ofInt(0)), one = List.of(Emulator.Arg.ofInt(1)),
                    many = List.of(Emulator.Arg.ofInt(LOOP));
            long blocks = counting.call("int_kernel", many).counts().executedBlocks()
                    - counting.call("int_kernel", one).counts().executedBlocks();
            long[] call = new long[ROUNDS], callBare = new long[ROUNDS];
            double[] block = new double[ROUNDS], blockBare = new double[ROUNDS];
            for (int r = -WARM_UP; r < ROUNDS; r++) { // rounds below 0 warm up (JIT, translated code)
                long c = calls(counting, zero), b = calls(bare, zero);
                double k = perBlock(counting, one, many, blocks), kb = perBlock(bare, one, many, blocks);
                if (r < 0) continue;
                call[r] = c;
                callBare[r] = b;
                block[r] = k;
                blockBare[r] = kb;
            }
            System.out.printf(Locale.ROOT, "call_ns=%d call_nohook_ns=%d block_ns=%.2f block_nohook_ns=%.2f blocks_known=%d%n",
                    median(call), median(callBare), median(block), median(blockBare), counting.counter.blockCount());
        }
    }

    /** CPU ns per call of a batch of {@link #CALLS} calls of count_loop(0). */
    private static long calls(Emulator e, List<Emulator.Arg> args) {
        long t0 = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < CALLS; i++) e.call("count_loop", args);
        return (THREADS.getCurrentThreadCpuTime() - t0) / CALLS;
    }

    /** CPU ns per block: a long int_kernel less a minimal one, best of three each. */
    private static double perBlock(Emulator e, List<Emulator.Arg> small, List<Emulator.Arg> large, long blocks) {
        long s = Long.MAX_VALUE, l = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long t0 = THREADS.getCurrentThreadCpuTime();
            e.call("int_kernel", small);
            long t1 = THREADS.getCurrentThreadCpuTime();
            e.call("int_kernel", large);
            long t2 = THREADS.getCurrentThreadCpuTime();
            s = Math.min(s, t1 - t0);
            l = Math.min(l, t2 - t1);
        }
        return (l - s) / (double) blocks;
    }

    private static long median(long[] v) {
        long[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    private static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }
}
