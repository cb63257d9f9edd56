package workload;

/**
 * A long-running workload for live control: threads "Ta" and "Tb" (RMP's Figure 3) both call
 * {@code m1} and {@code m2} until {@code seconds} pass; {@code m1} has a loop. Argument:
 * {@code [seconds]} (default 10), or {@code -} to run until a line or the end of standard input
 * (a test then ends it when its scenario is done, however slowly the machine runs it). At the end
 * it prints how often each thread called them ({@code live done true Ta=N Tb=M}), so a profile of
 * it can be checked exactly.
 */
public final class Live {
    static volatile long sink;
    static volatile boolean stop;
    /** Calls of m1 (and of m2) per thread; each written once, by its thread, before it ends. */
    static long callsA, callsB;

    public static void main(String[] args) throws Exception {
        String until = args.length > 0 ? args[0] : "10";
        Thread a = new Thread(new TaskA(), "Ta");
        Thread b = new Thread(new TaskB(), "Tb");
        a.start();
        b.start();
        if (until.equals("-")) {
            int c;
            do c = System.in.read(); while (c >= 0 && c != '\n');
        } else {
            Thread.sleep(Long.parseLong(until) * 1000);
        }
        stop = true;
        a.join();
        b.join();
        System.out.println("live done " + (sink != 0) + " Ta=" + callsA + " Tb=" + callsB);
    }

    static void m1() {
        long s = 0;
        for (int i = 0; i < 200; i++) s += i * 7;
        sink += s;
    }

    static void m2() {
        sink += System.identityHashCode(sink) & 7;
    }

    static void pause() {
        try {
            Thread.sleep(0, 200_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static final class TaskA implements Runnable {
        @Override
        public void run() {
            long n = 0;
            while (!stop) { m1(); m2(); pause(); n++; }
            callsA = n; // seen by main after join
        }
    }

    static final class TaskB implements Runnable {
        @Override
        public void run() {
            long n = 0;
            while (!stop) { m1(); m2(); pause(); n++; }
            callsB = n;
        }
    }
}
