package demo;

/**
 * The Java twins of {@link NativeKernels}: the same algorithms as {@code hyprofdemo.c} and
 * {@code kernels.c}, operation for operation, so results are bit-identical to the emulated C
 * code (IEEE doubles, the same random sequence, unsigned arithmetic written out).
 */
public final class JavaKernels {
    private JavaKernels() {}

    private static int lcgState;

    private static double lcgNext() {
        lcgState = lcgState * 1664525 + 1013904223;
        return (lcgState >>> 8) / 16777216.0;
    }

    private static void fftTransform(double[] data, int n, int direction) {
        int j = 0;
        for (int i = 0; i < n - 1; i++) { // bit reversal
            int k = n >> 1;
            if (i < j) {
                double tr = data[2 * i], ti = data[2 * i + 1];
                data[2 * i] = data[2 * j];
                data[2 * i + 1] = data[2 * j + 1];
                data[2 * j] = tr;
                data[2 * j + 1] = ti;
            }
            while (k <= j) {
                j -= k;
                k >>= 1;
            }
            j += k;
        }
        for (int dual = 1; dual < n; dual *= 2) {
            double theta = direction * 3.141592653589793 / dual;
            double s = Math.sin(theta), t = Math.sin(theta / 2), s2 = 2.0 * t * t;
            double wr = 1.0, wi = 0.0;
            for (int a = 0; a < dual; a++) {
                for (int b = a; b < n; b += 2 * dual) {
                    int p = 2 * b, q = 2 * (b + dual);
                    double zr = wr * data[q] - wi * data[q + 1];
                    double zi = wr * data[q + 1] + wi * data[q];
                    data[q] = data[p] - zr;
                    data[q + 1] = data[p + 1] - zi;
                    data[p] += zr;
                    data[p + 1] += zi;
                }
                double tmp = wr - s * wi - s2 * wr;
                wi = wi + s * wr - s2 * wi;
                wr = tmp;
            }
        }
    }

    public static double fft(int n, int cycles) {
        double[] d = new double[2 * n];
        lcgState = 113;
        for (int i = 0; i < 2 * n; i++) d[i] = lcgNext();
        double check = 0;
        for (int c = 0; c < cycles; c++) {
            fftTransform(d, n, -1);
            check += d[2] + d[3];
            fftTransform(d, n, 1);
            for (int i = 0; i < 2 * n; i++) d[i] /= n;
        }
        double sum = 0;
        for (int i = 0; i < 2 * n; i++) sum += d[i];
        return sum + check * 1e-6;
    }

    public static double sparse(int m, int nz, int cycles) {
        int per = nz / m;
        int total = per * m;
        double[] val = new double[total], x = new double[m], y = new double[m];
        int[] col = new int[total], row = new int[m + 1];
        lcgState = 99;
        for (int i = 0; i < m; i++) x[i] = lcgNext();
        for (int r = 0; r < m; r++) {
            int step = r / per;
            if (step < 1) step = 1;
            row[r + 1] = row[r] + per;
            for (int k = 0; k < per; k++) {
                col[row[r] + k] = (k * step) % m;
                val[row[r] + k] = lcgNext();
            }
        }
        for (int c = 0; c < cycles; c++) {
            for (int r = 0; r < m; r++) {
                double s = 0;
                for (int i = row[r]; i < row[r + 1]; i++) s += x[col[i]] * val[i];
                y[r] = s;
            }
        }
        double sum = 0;
        for (int i = 0; i < m; i++) sum += y[i];
        return Math.sqrt(sum * sum);
    }

    public static double sor(double[] g, int n, int cycles) {
        double omega = 1.25, o4 = omega * 0.25, o1 = 1.0 - omega;
        for (int p = 0; p < cycles; p++)
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++)
                    g[i * n + j] = o4 * (g[(i - 1) * n + j] + g[(i + 1) * n + j] + g[i * n + j - 1] + g[i * n + j + 1])
                            + o1 * g[i * n + j];
        double sum = 0;
        for (int i = 0; i < n * n; i++) sum += g[i];
        return sum;
    }

    /** The grid both SOR variants start from (SciMark-style random values). */
    public static double[] sorGrid(int n) {
        double[] g = new double[n * n];
        lcgState = 7;
        for (int i = 0; i < n * n; i++) g[i] = lcgNext();
        return g;
    }

    public static int intKernel(int n) {
        int x = 12345, acc = 0;
        for (int i = 0; i < n; i++) {
            x = x * 1103515245 + 12345;
            if ((x & 0x10000) != 0) acc += x >>> 7;
            else acc ^= x;
        }
        return acc & 0x7fffffff;
    }

    public static long checksum(byte[] data) {
        long h = 0xcbf29ce484222325L;
        for (byte b : data) {
            h ^= b & 0xff;
            h *= 1099511628211L;
        }
        return h;
    }

    public static String describe(String name, int n) {
        return name + "#" + n;
    }

    public static double mix(int i, long l, float f, double d, short s, byte b, char c, boolean z) {
        return i * 3.0 + (double) l * 0.5 + f * 2.0f + d - s + b * 7 + c * 11 + (z ? 1000.0 : -1000.0);
    }

    public static int sumCallbacks(Callback cb, int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) sum += cb.value(i);
        return sum;
    }

    public static int nested(int depth) {
        return depth <= 0 ? 1 : (nested(depth - 1) + 1) * 2;
    }

    public static int[] histogram(int[] values, int buckets) {
        int[] h = new int[buckets];
        for (int v : values) {
            int b = v % buckets;
            h[b < 0 ? b + buckets : b]++;
        }
        return h;
    }

    public static void translate(Point p, int dx, int dy) {
        p.x += dx;
        p.y += dy;
    }

    public static int check(int x) {
        if (x < 0) throw new IllegalArgumentException("negative value from native code");
        return x;
    }
}
