package perturb;

import java.util.Locale;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Stats;

/**
 * How long a loop switched on takes to record when the agent started with loops off (its
 * default: the loop's code is placed then, by retransforming its class; issue 15). Run under the
 * agent by {@code bench/place-loops.sh}: a worker thread calls {@link #work} (one loop, about
 * 10 µs a call) over and over; once it is warm, the main thread switches every probe on through
 * the runtime's API (as a {@code ctl on} reaching the agent does) and waits for the first loop
 * iteration in a snapshot. Prints {@code place-loops placed_ms=T calls_before=N}. Its package is
 * not {@code org.hyprof.*} because the agent never instruments hyprof's own classes.
 */
public final class PlaceLoops {
    static volatile boolean stop;
    static volatile long sink;
    static volatile long calls;

    static long work(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) s += i * 31L ^ (s >>> 7);
        return s;
    }

    public static void main(String[] args) throws InterruptedException {
        if (!Hyprof.isStarted()) {
            System.err.println("PlaceLoops: run it under the agent (bench/place-loops.sh)");
            System.exit(2);
        }
        Thread worker = new Thread(() -> {
            while (!stop) {
                sink += work(10_000);
                calls++;
            }
        }, "worker");
        worker.setDaemon(true);
        worker.start();
        while (calls < 20_000) Thread.sleep(1); // warm: work is compiled by now
        if (iterations() != 0) {
            System.err.println("PlaceLoops: loops recorded before they were switched on (start the agent without the loop resolution)");
            System.exit(1);
        }
        long before = calls;
        long t0 = System.nanoTime();
        for (int id = 1; id < Hyprof.probeCount(); id++) Hyprof.setOn(id, true);
        long deadline = t0 + 10_000_000_000L;
        while (iterations() == 0) {
            if (System.nanoTime() - deadline > 0) {
                System.err.println("PlaceLoops: no loop recorded 10 s after switching them on");
                System.exit(1);
            }
            Thread.onSpinWait();
        }
        long t1 = System.nanoTime();
        stop = true;
        System.out.printf(Locale.ROOT, "place-loops placed_ms=%.3f calls_before=%d%n", (t1 - t0) / 1e6, before);
    }

    /** Loop iterations recorded so far, every probe, every thread. */
    private static long iterations() {
        long n = 0;
        var s = Hyprof.snapshot();
        for (int id = 1; id < Hyprof.probeCount(); id++) n += s.total(id, Stats.ITERATIONS);
        return n;
    }
}
