package demo;

/**
 * What a crossing between Java and emulated native code costs (bench/bridge.sh runs it under
 * {@code hyprof profile --native-libs}): the time per call of a native method doing almost
 * nothing ({@link NativeKernels#check}), per call back from native code into Java
 * ({@link NativeKernels#sumCallbacks}), and the same work in Java. Prints one line per figure,
 * in ns, measured with System.nanoTime (the program's own clock, which hyprof leaves alone).
 *
 * <pre>java demo.Crossings [CALLS]   (default 20000)</pre>
 */
public final class Crossings {
    private static long sink;

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        Square cb = new Square();
        // five rounds; the first warms up, each figure is the fastest of the other four (a round
        // the JIT recompiles in, or the collector stops, is only ever slower)
        long java = Long.MAX_VALUE, nat = Long.MAX_VALUE, callbacks = Long.MAX_VALUE, javaCallbacks = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) sink += JavaKernels.check(i);
            long j = System.nanoTime() - t0;
            t0 = System.nanoTime();
            for (int i = 0; i < n; i++) sink += NativeKernels.check(i);
            long k = System.nanoTime() - t0;
            t0 = System.nanoTime();
            sink += NativeKernels.sumCallbacks(cb, n);
            long c = System.nanoTime() - t0;
            t0 = System.nanoTime();
            sink += JavaKernels.sumCallbacks(cb, n);
            long jc = System.nanoTime() - t0;
            if (round == 0) continue;
            java = Math.min(java, j);
            nat = Math.min(nat, k);
            callbacks = Math.min(callbacks, c);
            javaCallbacks = Math.min(javaCallbacks, jc);
        }
        System.out.printf("java call (JavaKernels.check)             %10.1f ns%n", java / (double) n);
        System.out.printf("native call (NativeKernels.check)         %10.1f ns%n", nat / (double) n);
        System.out.printf("callback from native code (Square.value)  %10.1f ns%n", (callbacks - javaCallbacks) / (double) n);
        System.out.printf("callback from Java code (Square.value)    %10.1f ns%n", javaCallbacks / (double) n);
        if (sink == 42) System.out.println();
    }
}
