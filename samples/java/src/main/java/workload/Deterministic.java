package workload;

/**
 * A workload whose probe counts are known exactly (tests assert them):
 * <ul>
 * <li>{@code main} once; {@code leaf} 1000 times (10 × {@code middle}, each calling it 100 times);</li>
 * <li>{@code fib(12)}: 465 calls, 1 outermost;</li>
 * <li>{@code loops()}: outer loop 20 iterations, inner loop entered 20 times with 7 iterations each;</li>
 * <li>{@code thrower(3)}: 4 activations, all ended by the exception; {@code catcher} catches it;</li>
 * <li>{@code Worker.run} on a second thread named "worker", calling {@code leaf} 50 times.</li>
 * </ul>
 */
public final class Deterministic {
    static long sink;

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 10; i++) middle();
        sink += fib(12);
        sink += loops();
        sink += catcher();
        Thread t = new Thread(new Worker(), "worker");
        t.start();
        t.join();
        System.out.println("deterministic " + sink);
    }

    static void middle() {
        for (int i = 0; i < 100; i++) sink += leaf(i);
    }

    static int leaf(int x) {
        return x * 31 + 7;
    }

    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static int loops() {
        int s = 0;
        for (int i = 0; i < 20; i++) {
            for (int j = 0; j < 7; j++) s += i ^ j;
        }
        return s;
    }

    static void thrower(int n) {
        if (n == 0) throw new IllegalStateException("bottom");
        thrower(n - 1);
    }

    static int catcher() {
        try {
            thrower(3);
            return 0;
        } catch (IllegalStateException e) {
            return 1;
        }
    }

    static final class Worker implements Runnable {
        @Override
        public void run() {
            for (int i = 0; i < 50; i++) sink += leaf(i);
        }
    }
}
