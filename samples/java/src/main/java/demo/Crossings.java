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
        for (int round = 0; round < 3; round++) { // the last round counts; the first two warm up
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) sink += JavaKernels.check(i);
            long java = System.nanoTime() - t0;
            t0 = System.nanoTime();
            for (int i = 0; i < n; i++) sink += NativeKernels.check(i);
            long nat = System.nanoTime() - t0;
            t0 = System.nanoTime();
            sink += NativeKernels.sumCallbacks(cb, n);
            long callbacks = System.nanoTime() - t0;
            t0 = System.nanoTime();
            sink += JavaKernels.sumCallbacks(cb, n);
            long javaCallbacks = System.nanoTime() - t0;
            if (round == 2) {
                System.out.printf("java call (JavaKernels.check)             %10.1f ns%n", java / (double) n);
                System.out.printf("native call (NativeKernels.check)         %10.1f ns%n", nat / (double) n);
                System.out.printf("callback from native code (Square.value)  %10.1f ns%n", (callbacks - javaCallbacks) / (double) n);
                System.out.printf("callback from Java code (Square.value)    %10.1f ns%n", javaCallbacks / (double) n);
            }
        }
        if (sink == 42) System.out.println();
    }
}
