package dexlambdas;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Thread entries written as lambdas and a method reference (classified thread), beside a Supplier
 * used in place and a Function (classified method). Lambda bodies are numbered by javac in source
 * order: lambda$startAll$0..6.
 */
public final class LambdaThreads {
    private volatile int worked;

    public static void main(String[] args) throws Exception {
        System.out.println(new LambdaThreads().startAll());
    }

    public int startAll() throws Exception {
        Thread a = new Thread(() -> spin(1));                                  // 0: Runnable
        Thread b = new Thread(this::work);                                     // method reference: work()
        ExecutorService ex = Executors.newSingleThreadExecutor();
        try {
            a.start();
            b.start();
            Future<Integer> c = ex.submit(() -> spin(3));                       // 1: Callable
            Future<?> d = ex.submit(() -> { spin(4); });                        // 2: Runnable
            CompletableFuture<Integer> e = CompletableFuture.supplyAsync(() -> spin(5), ex); // 3: Supplier run async
            Supplier<Integer> lazy = () -> spin(6);                             // 4: Supplier used in place
            int orElse = Optional.<Integer>empty().orElseGet(() -> spin(7));    // 5: Supplier used in place
            Function<Integer, Integer> f = x -> x + 1;                          // 6: Function
            a.join();
            b.join();
            d.get();
            return c.get() + e.get() + lazy.get() + orElse + f.apply(worked);
        } finally {
            ex.shutdown();
        }
    }

    static int spin(int n) {
        int s = 0;
        for (int i = 0; i < 1000 * n; i++) s += i % 7;
        return n + (s < 0 ? 1 : 0);
    }

    void work() {
        worked = spin(2);
    }
}
