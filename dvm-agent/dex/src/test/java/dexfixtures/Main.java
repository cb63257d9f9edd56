package dexfixtures;

/**
 * The Java DEX fixtures, compiled by javac (test sources) and then by D8 (see the test class
 * {@code org.hyprof.instrument.dex.Fixtures}). Every run prints the same lines, so instrumented
 * and original output can be compared; the printed counters are the oracle for the profiler's
 * call and loop-iteration counts (each loop counts its back edges itself).
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        System.out.println("loops " + Loops.run());
        System.out.println("loop exits " + LoopExits.run());
        System.out.println("exceptions " + Exceptions.run());
        System.out.println("sync " + Sync.run());
        System.out.println("ctors " + Ctors.run());
        System.out.println("wide " + Wide.run());
        System.out.println("switches " + Switches.run());
        System.out.println("recursion " + Recursion.run());
        System.out.println("registers " + Registers.run());
        System.out.println("threads " + Threads.run());
        System.out.println("debug locals " + DebugLocals.run());
    }
}
