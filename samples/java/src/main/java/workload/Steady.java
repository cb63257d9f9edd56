package workload;

/**
 * A steady stream of calls for load tests (bench's {@code LiveLoad}): {@code threads} threads call
 * {@code m1} and {@code m2} for {@code seconds}, pausing 1 ms every 256 iterations (a few hundred
 * thousand calls per second per thread when it has a core). Arguments: {@code [seconds] [threads]}
 * (default 60, 2). At the end it prints the calls it made of each method, summed over its
 * threads ({@code steady done calls=N}), so a profile of it can be checked exactly.
 */
public final class Steady {
    static volatile long sink;
    static volatile boolean stop;

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        final long[] calls = new long[n];
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            final int k = i;
            ts[i] = new Thread(new Runnable() {
                @Override
                public void run() {
                    calls[k] = work(); // read by main after join
                }
            }, "T" + i);
            ts[i].start();
        }
        Thread.sleep(seconds * 1000);
        stop = true;
        long total = 0;
        for (int i = 0; i < n; i++) {
            ts[i].join();
            total += calls[i];
        }
        System.out.println("steady done calls=" + total);
    }

    static long work() {
        long n = 0;
        while (!stop) {
            m1();
            m2();
            if ((++n & 255) == 0) pause();
        }
        return n;
    }

    static void m1() {
        long s = 0;
        for (int i = 0; i < 20; i++) s += i * 7;
        sink += s;
    }

    static void m2() {
        sink += System.identityHashCode(sink) & 7;
    }

    static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
