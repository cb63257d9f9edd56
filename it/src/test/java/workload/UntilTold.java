package workload;

import java.io.IOException;

/**
 * Threads "Ta" and "Tb" call {@code m1} and {@code m2} until a line arrives on stdin (so a test
 * decides when the program exits, instead of guessing with a duration). Then it prints how often
 * each thread called them ({@code until-told done Ta=N Tb=M}) and exits.
 */
public final class UntilTold {
    static volatile long sink;
    static volatile boolean stop;
    static long callsA, callsB;

    public static void main(String[] args) throws Exception {
        Thread a = new Thread(() -> callsA = work(), "Ta");
        Thread b = new Thread(() -> callsB = work(), "Tb");
        a.start();
        b.start();
        System.out.println("until-told running");
        System.out.flush();
        try {
            System.in.read();
        } catch (IOException e) {
            // stdin closed: stop as well
        }
        stop = true;
        a.join();
        b.join();
        System.out.println("until-told done Ta=" + callsA + " Tb=" + callsB);
    }

    static long work() {
        long n = 0;
        while (!stop) {
            m1();
            m2();
            if ((++n & 255) == 0) pause(); // a few hundred thousand calls a second: events within a modest budget
        }
        return n;
    }

    static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void m1() {
        long s = 0;
        for (int i = 0; i < 20; i++) s += i * 7;
        sink += s;
    }

    static void m2() {
        sink += System.identityHashCode(sink) & 7;
    }
}
