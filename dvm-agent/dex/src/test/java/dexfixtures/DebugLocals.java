package dexfixtures;

/**
 * Parameters a debugger must still find after instrumentation: parameters reused as locals,
 * whose locals D8 (debug mode) ends and restarts in the parameter's register; wide parameters; a
 * frame of more than 16 registers where the argument copies need the 16-bit moves.
 */
public final class DebugLocals {
    private final long base;

    DebugLocals(long base) {
        this.base = base;
    }

    /** {@code n}'s local ends where the catch handler's scope begins and restarts after it. */
    static int caughtUpTo(int n) {
        int caught = 0;
        for (int i = 0; i < n; i++) {
            try {
                if (i % 3 == 2) throw new IllegalStateException("i=" + i);
            } catch (IllegalStateException e) {
                caught++;
                if (i > n + 4) throw e;
            }
        }
        return caught + n;
    }

    /** Parameters assigned to, as locals, in a loop and in both arms of a branch. */
    static String reassigned(String s, int times) {
        StringBuilder b = new StringBuilder();
        while (times-- > 0) {
            b.append(s);
            s = s.length() > 3 ? s.substring(1) : s + "x";
        }
        if (b.length() > 10) {
            String tail = b.substring(b.length() - 3);
            s = tail;
        } else {
            int len = b.length();
            s = s + len;
        }
        return s;
    }

    /** Wide parameters of an instance method, one of them reassigned. */
    double wide(long a, double b, int c, long d) {
        if (c > 2) {
            long t = a * 3;
            a = t - d;
        }
        double r = base + a * b;
        for (int i = 0; i < c; i++) {
            double step = r / (i + 1);
            r += step;
        }
        d = (long) r ^ d;
        return r + d;
    }

    /** More than 16 registers, wide parameters copied with move-wide/16 forms. */
    static long many(long a, double b, int c, long d) {
        long v0 = a + 1, v1 = a * 3, v2 = d - 7, v3 = a ^ d, v4 = a | c, v5 = d & 0xff, v6 = a << 3, v7 = d >> 2;
        double w0 = b * 2, w1 = b + a, w2 = b - d;
        long s = 0;
        for (int i = 0; i < c; i++) {
            long k = v0 + v1 + v2 + v3 + i;
            s += k + v4 + v5 + v6 + v7;
        }
        a = s + (long) (w0 + w1 + w2);
        return a + v0 * v7 + v1 * v6 + v2 * v5 + v3 * v4;
    }

    static String run() {
        return caughtUpTo(9) + " " + reassigned("abcdef", 5) + " " + reassigned("ab", 2) + " "
                + new DebugLocals(5L).wide(2L, 0.5, 3, 7L) + " " + many(12345L, 1.25, 4, 678L);
    }
}
