package org.hyprof.bench;

import java.util.concurrent.TimeUnit;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Probe;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Cost of the probes themselves, against the clock reads they need. Targets: a recording
 * enter+exit pair ≤ 1.10 × two {@code System.nanoTime()} calls; a probe that is off ≈ free.
 * {@code mode=events} adds the event log (with a budget large enough never to drop).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProbeBench {
    static final int ON = 1, OFF = 2;

    @Param({"aggregate", "events"})
    public String mode;

    @Setup(Level.Trial)
    public void start() {
        Hyprof.reset();
        Options o = new Options();
        o.calibrate = true;
        o.events = mode.equals("events");
        o.budgetBytes = 8L << 30;
        Hyprof.start(o);
        Hyprof.defineProbes(ON, new byte[] {Hyprof.METHOD, Hyprof.METHOD}, new boolean[] {true, false}, null);
    }

    @TearDown(Level.Trial)
    public void stop() {
        Hyprof.reset();
    }

    /** One clock read (the pair needs two). */
    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }

    /** Two clock reads: the floor for a timed enter+exit pair. */
    @Benchmark
    public long nanoTimeTwice() {
        return System.nanoTime() + System.nanoTime();
    }

    /** An enter+exit pair of a probe that is off. */
    @Benchmark
    public void pairOff() {
        Probe.enter(OFF);
        Probe.exit(OFF);
    }

    /** An enter+exit pair that records (aggregate or events mode). */
    @Benchmark
    public void pairOn() {
        Probe.enter(ON);
        Probe.exit(ON);
    }

    /** A loop iteration probe inside an open loop frame. */
    @Benchmark
    public void loopIterOn(LoopState s) {
        Probe.loopIter(s.loop);
    }

    /** A loop with its frame open for the whole trial. */
    @State(Scope.Thread)
    public static class LoopState {
        final int loop = 3;

        @Setup(Level.Iteration)
        public void open() {
            Hyprof.defineProbes(loop, new byte[] {Hyprof.LOOP}, new boolean[] {true}, null);
            Probe.loopEnter(loop);
        }

        @TearDown(Level.Iteration)
        public void close() {
            Probe.loopExit(loop);
        }
    }
}
