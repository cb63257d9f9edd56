package dexfixtures;

/** long and double parameters in static and instance methods. */
public final class Wide {
    private final long base;

    Wide(long base, double scale) {
        this.base = base + (long) scale;
    }

    static long mix(long a, double b, int c, long d) {
        return a + (long) (b * c) + d;
    }

    double inst(long a, double b, int c, float f) {
        return base + a * b + c + f;
    }

    static double sum(long n, double step) {
        double s = 0;
        for (long i = 0; i < n; i++) s += step;
        return s;
    }

    static String run() {
        Wide w = new Wide(10L, 2.5);
        return mix(1L << 40, 1.5, 3, -7L) + " " + w.inst(3L, 0.5, 4, 0.25f) + " " + sum(8, 0.125);
    }
}
