package workload;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Threads that wait and threads that compute, for thread CPU time (issue 18): a method that
 * sleeps, one blocked on a lock that a spinning thread holds, one waiting in {@code Future.get}
 * while a pool thread computes, and spinning workers started by lambdas. At most one thread
 * spins at a time (the phases follow one another), so that on a machine of few cores a spinner
 * is not kept off a CPU by the workload's own other spinners.
 * <ul>
 * <li>phase 1: {@code sleeper} in {@link #sleepy} ({@code Thread.sleep(200)}); {@code holder} in
 *     {@link #holdAndSpin} (spins 250 ms holding {@link #LOCK}); {@code blocked} in {@link #blocked},
 *     waiting for the lock meanwhile;</li>
 * <li>phase 2: {@code waiter} in {@link #awaitResult}, in {@code Future.get} while {@code pool-1}
 *     spins 200 ms in {@link #compute};</li>
 * <li>phase 3: {@code spinner-1}, then {@code spinner-2}, each in {@link #spinWorker} (150 ms).</li>
 * </ul>
 * With a file name as argument it writes there, per spin, the thread's name, the CPU time the
 * JVM's own thread clock saw it use and its wall time ({@code name cpuNanos wallNanos}): what
 * the machine actually gave it (on a loaded machine a spinning thread waits for a core too), to
 * check the profiler's figures against.
 */
public final class Waits {
    static final Object LOCK = new Object();
    static volatile long sink;
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    static final ConcurrentLinkedQueue<String> SPINS = new ConcurrentLinkedQueue<>();

    public static void main(String[] args) throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        Thread sleeper = new Thread(() -> sleepy(), "sleeper");
        Thread holder = new Thread(() -> holdAndSpin(held), "holder");
        Thread blocked = new Thread(() -> blocked(), "blocked");
        sleeper.start();
        holder.start();
        held.await(); // the lock is taken: the blocked thread will wait for it
        blocked.start();
        sleeper.join();
        holder.join();
        blocked.join();

        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "pool-1"));
        try {
            Thread waiter = new Thread(() -> awaitResult(pool), "waiter");
            waiter.start();
            waiter.join();
        } finally {
            pool.shutdown();
        }

        for (String name : new String[] {"spinner-1", "spinner-2"}) {
            Thread s = new Thread(() -> spinWorker(), name);
            s.start();
            s.join();
        }
        if (args.length > 0) Files.write(Paths.get(args[0]), SPINS, StandardCharsets.UTF_8);
        System.out.println("waits " + sink);
    }

    static void sleepy() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void holdAndSpin(CountDownLatch held) {
        synchronized (LOCK) {
            held.countDown();
            sink += measuredSpin(250_000_000L);
        }
    }

    static void blocked() {
        synchronized (LOCK) {
            sink++;
        }
    }

    static void awaitResult(ExecutorService pool) {
        try {
            Future<Long> f = pool.submit(() -> compute());
            sink += f.get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static long compute() {
        return measuredSpin(200_000_000L);
    }

    static void spinWorker() {
        sink += measuredSpin(150_000_000L);
    }

    /** {@link #spinFor}, noting the CPU and wall time the thread had for it. */
    static long measuredSpin(long nanos) {
        long c0 = MX.getCurrentThreadCpuTime(), w0 = System.nanoTime();
        long s = spinFor(nanos);
        SPINS.add(Thread.currentThread().getName() + " " + (MX.getCurrentThreadCpuTime() - c0) + " " + (System.nanoTime() - w0));
        return s;
    }

    /** Computes until {@code nanos} of wall time have passed. */
    static long spinFor(long nanos) {
        long end = System.nanoTime() + nanos, s = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) s += i % 7;
        }
        return s;
    }
}
