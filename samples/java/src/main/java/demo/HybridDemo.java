package demo;

import java.util.Arrays;

/**
 * hyprof's hybrid demo: SciMark-like kernels and JNI calls, each run in Java ({@link JavaKernels})
 * and in C through JNI ({@link NativeKernels}), results compared. Prints one line per pair and
 * exits with 3 if any pair differs.
 *
 * <pre>
 * java demo.HybridDemo [ROUNDS]     ROUNDS times every pair (default 3)
 * java demo.HybridDemo unsupported  calls a JNI function the emulator does not have
 * </pre>
 * Run it with {@code hyprof profile --native-libs samples/native/lib -o s.db -- java -cp ... demo.HybridDemo}.
 */
public final class HybridDemo {
    private static int mismatches;

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("unsupported")) {
            System.out.println("unsupported: " + Unsupported.directBuffer());
            return;
        }
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        for (int r = 0; r < rounds; r++) round(r == rounds - 1);
        if (mismatches > 0) {
            System.out.println("hybrid demo: " + mismatches + " results differ between Java and native code");
            System.exit(3);
        }
        System.out.println("hybrid demo: all native results equal their Java twins");
    }

    private static void round(boolean print) {
        same(print, "fft", JavaKernels.fft(512, 4), NativeKernels.fft(512, 4));
        same(print, "sparse", JavaKernels.sparse(500, 5000, 4), NativeKernels.sparse(500, 5000, 4));
        double[] gj = JavaKernels.sorGrid(48), gn = JavaKernels.sorGrid(48);
        same(print, "sor", JavaKernels.sor(gj, 48, 8), NativeKernels.sor(gn, 48, 8));
        same(print, "sor grid", Arrays.hashCode(gj), Arrays.hashCode(gn));
        same(print, "intKernel", JavaKernels.intKernel(50000), NativeKernels.intKernel(50000));
        byte[] data = new byte[1000];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 37);
        same(print, "checksum", JavaKernels.checksum(data), new NativeKernels().checksum(data));
        same(print, "describe", JavaKernels.describe("kernel-é", -42), NativeKernels.describe("kernel-é", -42));
        same(print, "mix", JavaKernels.mix(7, 1L << 40, 1.5f, 0.25, (short) -3, (byte) 9, 'x', true),
                NativeKernels.mix(7, 1L << 40, 1.5f, 0.25, (short) -3, (byte) 9, 'x', true));
        same(print, "callbacks", JavaKernels.sumCallbacks(new Square(), 50), NativeKernels.sumCallbacks(new Square(), 50));
        same(print, "nested", JavaKernels.nested(3), NativeKernels.nested(3));
        int[] values = new int[300];
        for (int i = 0; i < values.length; i++) values[i] = i * 7 - 100;
        same(print, "histogram", Arrays.toString(JavaKernels.histogram(values, 8)),
                Arrays.toString(NativeKernels.histogram(values, 8)));
        Point pj = new Point(1, 2), pn = new Point(1, 2);
        JavaKernels.translate(pj, 10, -5);
        NativeKernels.translate(pn, 10, -5);
        same(print, "translate", pj.toString(), pn.toString());
        same(print, "exception", thrown(() -> JavaKernels.check(-1)), thrown(() -> NativeKernels.check(-1)));
    }

    private static String thrown(Runnable r) {
        try {
            r.run();
            return "no exception";
        } catch (IllegalArgumentException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static void same(boolean print, String what, Object java, Object nat) {
        boolean eq = java.equals(nat);
        if (!eq) mismatches++;
        if (print || !eq) System.out.println(what + ": java " + java + ", native " + nat + (eq ? "  (equal)" : "  DIFFERENT"));
    }
}
