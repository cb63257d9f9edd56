package workload;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Five worker threads started the way modern code starts them (tests assert that thread-level
 * zoom, {@code --resolution process,thread}, records every one):
 * <ul>
 * <li>{@code lambda-1}, {@code lambda-2}: {@code new Thread(() -> …, name)};</li>
 * <li>{@code method-ref}: {@code new Thread(this::work, name)};</li>
 * <li>{@code pool-1}, {@code pool-2}: {@code executor.submit(() -> …)} (a {@code Runnable} and a
 *     {@code Callable}) on a pool of two threads, which starts one thread per task.</li>
 * </ul>
 */
public final class LambdaThreads {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        new LambdaThreads().run();
        System.out.println("lambda threads " + sink);
    }

    void run() throws Exception {
        Thread a = new Thread(() -> sink += spin(20_000), "lambda-1");
        Thread b = new Thread(() -> sink += spin(30_000), "lambda-2");
        Thread c = new Thread(this::work, "method-ref");
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, "pool-" + n.incrementAndGet()));
        try {
            a.start();
            b.start();
            c.start();
            Future<?> d = pool.submit(() -> { sink += spin(40_000); });
            Future<Long> e = pool.submit(() -> spin(50_000));
            a.join();
            b.join();
            c.join();
            d.get();
            sink += e.get();
        } finally {
            pool.shutdown();
        }
    }

    void work() {
        sink += spin(10_000);
    }

    static long spin(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) s += i % 7;
        return s;
    }
}
