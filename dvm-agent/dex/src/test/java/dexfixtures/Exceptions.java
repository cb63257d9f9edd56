package dexfixtures;

import java.io.IOException;

/** Nested try/catch/finally and exceptions through several frames. */
public final class Exceptions {
    private Exceptions() {}

    /** Throws at depth 0: an exception through depth + 1 frames of this method. */
    static int thrower(int depth) {
        if (depth == 0) throw new IllegalStateException("deep");
        return thrower(depth - 1) + 1;
    }

    static int catcher() {
        try {
            return thrower(3);
        } catch (IllegalStateException e) {
            return -1;
        }
    }

    static int nested(int x) {
        int r = 0;
        try {
            try {
                if (x > 1) throw new IOException("io");
                r += 1;
            } catch (IOException e) {
                r += 10;
                throw new RuntimeException(e);
            } finally {
                r += 100;
            }
        } catch (RuntimeException e) {
            r += 1000;
        } finally {
            r += 10000;
        }
        return r;
    }

    @SuppressWarnings("finally")
    static int finallyReturns() {
        try {
            throw new IllegalArgumentException("swallowed");
        } finally {
            return 7;
        }
    }

    /** Rethrows from a catch block in a loop: the loop is left by an exception. */
    static int loopRethrow(int n) {
        int caught = 0;
        for (int i = 0; i < n; i++) {
            try {
                if (i % 3 == 2) throw new UnsupportedOperationException("i=" + i);
            } catch (UnsupportedOperationException e) {
                caught++;
                if (i > 4) throw e;
            }
        }
        return caught;
    }

    static String run() {
        int a = catcher();
        int b = nested(1) + nested(2);
        int c = finallyReturns();
        int d;
        try {
            d = loopRethrow(10);
        } catch (UnsupportedOperationException e) {
            d = -2;
        }
        return a + " " + b + " " + c + " " + d;
    }
}
