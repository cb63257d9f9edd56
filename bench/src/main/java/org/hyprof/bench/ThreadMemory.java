package org.hyprof.bench;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Probe;

/**
 * Issue 23 item 1: the runtime's live heap under many threads and probes. {@code shortThreads}
 * threads (at most {@code concurrent} at a time) each call {@code probes} probes once through the
 * token API, and end; then {@code longThreads} threads do the same and stay alive. After each
 * phase: the heap used after full GCs, minus the same before recording started. The session goes
 * to a file (the file sink), as in a real run. Never asserts.
 *
 * <p>Usage: {@code java -Xmx512m -cp bench/target/benchmarks.jar org.hyprof.bench.ThreadMemory
 * [shortThreads] [longThreads] [probes] [concurrent]} (defaults 1000 10 5000 4). Put an older
 * runtime's jar first on the class path to measure it (what it lacks is reported as n/a).
 */
public final class ThreadMemory {
    public static void main(String[] args) throws Exception {
        int shortThreads = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int longThreads = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        final int probes = args.length > 2 ? Integer.parseInt(args[2]) : 5000;
        int concurrent = args.length > 3 ? Integer.parseInt(args[3]) : 4;

        long before = usedAfterGc();
        File out = File.createTempFile("hyprof-threadmemory", ".hyprof");
        Options o = Options.parse("calibrate=false,out=" + out.getPath());
        if (!Hyprof.start(o)) throw new IllegalStateException("could not start");
        byte[] kinds = new byte[probes];
        boolean[] on = new boolean[probes];
        Arrays.fill(kinds, Hyprof.METHOD);
        Arrays.fill(on, true);
        Hyprof.defineProbes(1, kinds, on, null);
        long defined = usedAfterGc();

        final Runnable work = new Runnable() {
            @Override
            public void run() {
                for (int id = 1; id <= probes; id++) Probe.end(id, Probe.begin(id));
            }
        };
        long t0 = System.nanoTime();
        ArrayDeque<Thread> running = new ArrayDeque<Thread>();
        for (int i = 0; i < shortThreads; i++) {
            if (running.size() >= concurrent) running.poll().join();
            Thread t = new Thread(work, "short-" + i);
            t.start();
            running.add(t);
        }
        for (Thread t : running) t.join();
        long shortMillis = (System.nanoTime() - t0) / 1000_000;
        // the recorder thread drops ended threads within a round (50 ms): wait for their pages to
        // be given back (a runtime without statsBytes keeps them: nothing to wait for)
        long until = System.currentTimeMillis() + 30_000;
        while (statsBytes() > 0 && System.currentTimeMillis() < until) Thread.sleep(10);
        String leftAfterShort = states();
        long afterShort = usedAfterGc();
        String statsAfterShort = call("statsBytes");
        String dropsAfterShort = call("statsDrops");

        final CountDownLatch done = new CountDownLatch(longThreads);
        final CountDownLatch release = new CountDownLatch(1);
        Thread[] longs = new Thread[longThreads];
        for (int i = 0; i < longThreads; i++) {
            longs[i] = new Thread(new Runnable() {
                @Override
                public void run() {
                    work.run();
                    done.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }, "long-" + i);
            longs[i].start();
        }
        done.await();
        long afterLong = usedAfterGc();
        String liveStates = states();
        String statsAfterLong = call("statsBytes");
        release.countDown();
        for (Thread t : longs) t.join();
        String drops = call("statsDrops");
        Hyprof.stop();

        System.out.printf(Locale.ROOT, "threads: %d short-lived (%d at a time, %d ms), then %d long-lived; %d probes each%n",
                shortThreads, concurrent, shortMillis, longThreads, probes);
        System.out.printf(Locale.ROOT, "runtime live heap after defineProbes:            %7.1f MB%n", mb(defined - before));
        System.out.printf(Locale.ROOT, "runtime live heap after the short-lived threads: %7.1f MB (thread states left: %s; stats pages: %s)%n",
                mb(afterShort - before), leftAfterShort, statsAfterShort);
        System.out.printf(Locale.ROOT, "runtime live heap with the long-lived threads:   %7.1f MB (thread states: %s; stats pages: %s)%n",
                mb(afterLong - before), liveStates, statsAfterLong);
        System.out.printf(Locale.ROOT, "activations dropped past the stats budget: %s by the short-lived threads, %s in all;"
                + " session file: %.1f MB%n", dropsAfterShort, drops, mb(out.length()));
        if (!out.delete()) out.deleteOnExit();
    }

    /** Heap in use after full collections (a few: finalizers and reference processing settle). */
    private static long usedAfterGc() throws InterruptedException {
        MemoryMXBean m = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
            used = Math.min(used, m.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    /**
     * Thread states the runtime holds; n/a for a runtime without statsBytes, whose snapshot of
     * every page of every thread ever would not fit beside them.
     */
    private static String states() {
        try {
            Hyprof.class.getMethod("statsBytes");
            return String.valueOf(Hyprof.snapshot().threads.size());
        } catch (NoSuchMethodException e) {
            return "n/a";
        }
    }

    /** {@code Hyprof.statsBytes()}, or 0 when this runtime lacks it. */
    private static long statsBytes() {
        try {
            return (Long) Hyprof.class.getMethod("statsBytes").invoke(null);
        } catch (ReflectiveOperationException e) {
            return 0;
        }
    }

    /** A figure of the runtime's own ({@code Hyprof.NAME()}), or n/a when this runtime lacks it. */
    private static String call(String name) {
        try {
            Method m = Hyprof.class.getMethod(name);
            Object v = m.invoke(null);
            return name.endsWith("Bytes") ? String.format(Locale.ROOT, "%.1f MB", mb((Long) v)) : String.valueOf(v);
        } catch (ReflectiveOperationException e) {
            return "n/a";
        }
    }

    private static double mb(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
