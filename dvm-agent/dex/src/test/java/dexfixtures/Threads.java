package dexfixtures;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Thread entry points: Runnable.run, a Thread subclass, Callable.call, a lambda. */
public final class Threads {
    private Threads() {}

    static final class Worker implements Runnable {
        final int[] box;

        Worker(int[] box) {
            this.box = box;
        }

        @Override
        public void run() {
            for (int i = 0; i < 5; i++) box[0] += i;
        }
    }

    static final class Spinner extends Thread {
        int result;

        Spinner() {
            super("fixture-spinner");
        }

        @Override
        public void run() {
            result = Recursion.fib(10);
        }
    }

    static final class Task implements Callable<Integer> {
        @Override
        public Integer call() {
            return 42;
        }
    }

    static String run() throws Exception {
        int[] box = new int[1];
        Thread t = new Thread(new Worker(box), "fixture-worker");
        t.start();
        t.join();
        Spinner s = new Spinner();
        s.start();
        s.join();
        ExecutorService ex = Executors.newSingleThreadExecutor();
        int c = ex.submit(new Task()).get();
        int[] lambda = new int[1];
        ex.submit(() -> { lambda[0] = 9; }).get();
        ex.shutdown();
        return box[0] + " " + s.result + " " + c + " " + lambda[0];
    }
}
