package org.hyprof.bench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Probe;
import org.hyprof.runtime.ProbeSites;
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
 *
 * <p>{@code pair*} and {@code loopIterOn} measure the id-only API of earlier rewriters;
 * {@code token*} the token API the class-file rewriter emits now: {@code begin}/{@code end}, as a
 * static call ({@code Probe.begin}) or through an invokedynamic site of {@link ProbeSites} (a
 * {@code static final} dynamic invoker of its call site stands in for the {@code invokedynamic}
 * instruction: both inline the site's current target), and a loop's entry and exit.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProbeBench {
    static final int ON = 1, OFF = 2, LOOP = 4, ON2 = 5, CALLER = 6;

    /** The call sites an {@code invokedynamic begin ()I} of probe ON / OFF links to. */
    static final MethodHandle BEGIN_ON = site("begin", ON), BEGIN_OFF = site("begin", OFF);

    private static MethodHandle site(String name, int id) {
        return ProbeSites.bootstrap(MethodHandles.lookup(), name, MethodType.methodType(int.class), id).dynamicInvoker();
    }

    @Param({"aggregate", "events"})
    public String mode;

    /**
     * Every probe stays timed. With {@code -p timeAll=false} a probe whose calls are shorter than
     * the tiny-call threshold goes count-only after a few thousand calls, as in a real run: then
     * the token pairs that "record" measure the count-only path.
     */
    @Param({"true"})
    public boolean timeAll;

    /**
     * How thread CPU time is measured (runtime option {@code cpuClock}): {@code sampled} (the
     * default: probes read the sampler's last reading, a volatile read), {@code dual} (each probe
     * event reads its thread's CPU clock) or {@code off}. {@code -p cpuClock=off,sampled,dual}
     * compares them.
     */
    @Param({"sampled"})
    public String cpuClock;

    /**
     * Nodes of the calling-context tree (runtime option {@code treeNodes}; 0 = no tree):
     * {@code -p treeNodes=0,100000} gives a pair's cost without and with the tree, same run.
     */
    @Param({"100000"})
    public long treeNodes;

    /**
     * With {@code true}, every measured call happens inside an open timed activation (probe
     * CALLER, opened for each iteration), as an app's calls are inside their caller's: with a
     * calling-context tree, count-only calls are added up per path under it. With {@code false}
     * they are top-level calls, which the tree counts one by one.
     */
    @Param({"false"})
    public boolean caller;

    private int callerToken;

    @Setup(Level.Iteration)
    public void openCaller() {
        if (caller) callerToken = Probe.begin(CALLER);
    }

    @TearDown(Level.Iteration)
    public void closeCaller() {
        if (caller) Probe.end(CALLER, callerToken);
    }

    @Setup(Level.Trial)
    public void start() {
        Hyprof.reset();
        Options o = new Options();
        o.calibrate = true;
        o.events = mode.equals("events");
        o.budgetBytes = 8L << 30;
        o.timeAll = timeAll;
        o.set("cpuClock", cpuClock);
        o.treeNodes = treeNodes;
        Hyprof.start(o);
        Hyprof.defineProbes(ON, new byte[] {Hyprof.METHOD, Hyprof.METHOD}, new boolean[] {true, false}, null);
        Hyprof.defineProbes(LOOP, new byte[] {Hyprof.LOOP}, new boolean[] {true}, null);
        Hyprof.defineProbes(ON2, new byte[] {Hyprof.METHOD, Hyprof.METHOD}, new boolean[] {true, true}, null);
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

    /** Token API, static calls: a begin+end pair of a probe that is off (a flag test, then a token test). */
    @Benchmark
    public void tokenPairOffStatic() {
        Probe.end(OFF, Probe.begin(OFF));
    }

    /** Token API, invokedynamic site: a pair of a probe that is off (the site is the constant 0). */
    @Benchmark
    public void tokenPairOffIndy() throws Throwable {
        Probe.end(OFF, (int) BEGIN_OFF.invokeExact());
    }

    /** Token API, static calls: a begin+end pair that records. */
    @Benchmark
    public void tokenPairOnStatic() {
        Probe.end(ON, Probe.begin(ON));
    }

    /** Token API, invokedynamic site: a pair that records. */
    @Benchmark
    public void tokenPairOnIndy() throws Throwable {
        Probe.end(ON, (int) BEGIN_ON.invokeExact());
    }

    /**
     * Token API, static calls: a method calling another, both recording (two pairs per operation).
     * Every entry is under another parent than the one before, so the calling-context tree finds
     * each node by its hash (the last-node shortcut the single pair above always takes misses).
     */
    @Benchmark
    public void tokenNestedPairsOnStatic() {
        int outer = Probe.begin(ON);
        Probe.end(ON2, Probe.begin(ON2));
        Probe.end(ON, outer);
    }

    /** Token API: a loop entered and left after one iteration (counted in the code, handed over at the end). */
    @Benchmark
    public void tokenLoopOn() {
        Probe.loopEnd(LOOP, Probe.loopBegin(LOOP), 1);
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
