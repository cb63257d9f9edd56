package demo;

/**
 * The native half of the hybrid demo: every method runs C code of {@code libhyprofdemo.so}
 * ({@code samples/native/src/hyprofdemo.c}). On a host JVM the library (ARM/AArch64) cannot load;
 * {@code hyprof profile --native-libs samples/native/lib} runs it in bb-tracer's emulator. Each
 * method has a twin in {@link JavaKernels} that computes the same result in Java.
 */
public final class NativeKernels {
    static {
        System.loadLibrary("hyprofdemo");
    }

    /** SciMark FFT of n points (a power of two), forward and inverse, {@code cycles} times. */
    public static native double fft(int n, int cycles);

    /** SciMark sparse matrix-vector product: m rows, nz non-zeros, {@code cycles} times. */
    public static native double sparse(int m, int nz, int cycles);

    /** SciMark SOR on {@code grid} (n × n, row-major), in place; returns the grid's sum. */
    public static native double sor(double[] grid, int n, int cycles);

    /** Integer work with data-dependent branches (bound through RegisterNatives). */
    public static native int intKernel(int n);

    /** FNV-1a hash of the bytes (an instance method). */
    public native long checksum(byte[] data);

    /** {@code name + "#" + n}, built in C from modified UTF-8. */
    public static native String describe(String name, int n);

    /** One argument of every primitive type. */
    public static native double mix(int i, long l, float f, double d, short s, byte b, char c, boolean z);

    /** Σ cb.value(k) for k &lt; n: native code calls back into Java n times. */
    public static native int sumCallbacks(Callback cb, int n);

    /** native → Java ({@link #nestedJava}) → native, {@code depth} levels. */
    public static native int nested(int depth);

    /** The Java step of {@link #nested}. */
    public static int nestedJava(int depth) {
        return nested(depth) + 1;
    }

    /** Counts of {@code values[i] mod buckets}, in a new array. */
    public static native int[] histogram(int[] values, int buckets);

    /** Moves a point: fields read and written from C. */
    public static native void translate(Point p, int dx, int dy);

    /** Returns x; throws IllegalArgumentException from native code when x &lt; 0. */
    public static native int check(int x);
}
