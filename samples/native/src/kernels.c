/*
 * Native kernels for hyprof's bb-tracer tests, benchmarks and the hybrid demo: SciMark-like FFT,
 * SOR and sparse matrix-vector product, a counted integer loop, and a function mixing argument
 * types to check calling conventions. Pure C; libc/libm functions used: malloc, free, sin, cos,
 * sqrt (resolved to bb-tracer's stubs when emulated). Build: ../build.sh
 */
/* declared here rather than through libc headers: the armeabi-v7a build uses the softfp ABI,
   for which Debian's armhf headers have no variant */
typedef __SIZE_TYPE__ size_t;
void *malloc(size_t size);
void free(void *p);
double sin(double x);
double sqrt(double x);

/* Counted loop: the loop body is one basic block (tests derive block and instruction counts). */
int count_loop(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += i;
    return s;
}

/* Integer work with data-dependent branches. */
int int_kernel(int n) {
    unsigned x = 12345u, acc = 0;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        if (x & 0x10000u) acc += x >> 7; else acc ^= x;
    }
    return (int) (acc & 0x7fffffff);
}

/* Argument passing: int, float, double, long long (softfp on armeabi-v7a, registers on arm64). */
double mix_args(int a, float b, double c, long long d) {
    return a * 2.0 + b * 0.5 + c - (double) d;
}

int add_ints(int a, int b, int c, int d, int e, int f) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f; /* e, f go on the stack on 32-bit ARM */
}

static unsigned lcg_state;
static double lcg_next(void) {
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (lcg_state >> 8) / 16777216.0;
}

/* SciMark FFT: in-place complex transform of n (power of 2) points, interleaved re/im. */
static void fft_transform(double *data, int n, int direction) {
    int i, j = 0;
    for (i = 0; i < n - 1; i++) { /* bit reversal */
        int k = n >> 1;
        if (i < j) {
            double tr = data[2 * i], ti = data[2 * i + 1];
            data[2 * i] = data[2 * j]; data[2 * i + 1] = data[2 * j + 1];
            data[2 * j] = tr; data[2 * j + 1] = ti;
        }
        while (k <= j) { j -= k; k >>= 1; }
        j += k;
    }
    for (int dual = 1; dual < n; dual *= 2) {
        double theta = direction * 3.141592653589793 / dual;
        double s = sin(theta), t = sin(theta / 2), s2 = 2.0 * t * t;
        double wr = 1.0, wi = 0.0;
        for (int a = 0; a < dual; a++) {
            for (int b = a; b < n; b += 2 * dual) {
                int p = 2 * b, q = 2 * (b + dual);
                double zr = wr * data[q] - wi * data[q + 1];
                double zi = wr * data[q + 1] + wi * data[q];
                data[q] = data[p] - zr; data[q + 1] = data[p + 1] - zi;
                data[p] += zr; data[p + 1] += zi;
            }
            double tmp = wr - s * wi - s2 * wr;
            wi = wi + s * wr - s2 * wi;
            wr = tmp;
        }
    }
}

/* FFT kernel: forward + inverse transforms, returns the RMS error times 1e12 plus a checksum. */
double kernel_fft(int n, int cycles) {
    double *d = malloc(sizeof(double) * 2 * n);
    lcg_state = 113;
    for (int i = 0; i < 2 * n; i++) d[i] = lcg_next();
    double check = 0;
    for (int c = 0; c < cycles; c++) {
        fft_transform(d, n, -1);
        check += d[2] + d[3];
        fft_transform(d, n, 1);
        for (int i = 0; i < 2 * n; i++) d[i] /= n;
    }
    double sum = 0;
    for (int i = 0; i < 2 * n; i++) sum += d[i];
    free(d);
    return sum + check * 1e-6;
}

/* SciMark SOR on an n x n grid (flat, row-major). */
double kernel_sor(int n, int cycles) {
    double *g = malloc(sizeof(double) * n * n);
    lcg_state = 7;
    for (int i = 0; i < n * n; i++) g[i] = lcg_next();
    double omega = 1.25, o4 = omega * 0.25, o1 = 1.0 - omega;
    for (int p = 0; p < cycles; p++)
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                g[i * n + j] = o4 * (g[(i - 1) * n + j] + g[(i + 1) * n + j] + g[i * n + j - 1] + g[i * n + j + 1])
                        + o1 * g[i * n + j];
    double sum = 0;
    for (int i = 0; i < n * n; i++) sum += g[i];
    free(g);
    return sum;
}

/* SciMark sparse mat-vec: m rows, nz non-zeros spread over them, compressed rows. */
double kernel_sparse(int m, int nz, int cycles) {
    int per = nz / m;
    int total = per * m;
    double *val = malloc(sizeof(double) * total), *x = malloc(sizeof(double) * m), *y = malloc(sizeof(double) * m);
    int *col = malloc(sizeof(int) * total), *row = malloc(sizeof(int) * (m + 1));
    lcg_state = 99;
    for (int i = 0; i < m; i++) x[i] = lcg_next();
    row[0] = 0;
    for (int r = 0; r < m; r++) {
        int step = r / per; if (step < 1) step = 1;
        row[r + 1] = row[r] + per;
        for (int k = 0; k < per; k++) { col[row[r] + k] = (k * step) % m; val[row[r] + k] = lcg_next(); }
    }
    for (int c = 0; c < cycles; c++)
        for (int r = 0; r < m; r++) {
            double s = 0;
            for (int i = row[r]; i < row[r + 1]; i++) s += x[col[i]] * val[i];
            y[r] = s;
        }
    double sum = 0;
    for (int i = 0; i < m; i++) sum += y[i];
    free(val); free(x); free(y); free(col); free(row);
    return sqrt(sum * sum);
}

/* Calls an import bb-tracer has no stub for: the emulated call must fail naming it. */
int getpid(void);
int uses_getpid(void) {
    return getpid() + 1;
}
