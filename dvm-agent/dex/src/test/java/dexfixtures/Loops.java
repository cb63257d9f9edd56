package dexfixtures;

/** Nested loops with break and continue; each loop counts its own back edges. */
public final class Loops {
    private Loops() {}

    static int outerIters, innerIters, innerEntries, whileIters, doIters;

    /** Outer runs n times; the inner loop skips j == 3 (continue) and stops at j == 7 (break). */
    static int nested(int n) {
        int s = 0;
        for (int i = 0; i < n; i++, outerIters++) {
            innerEntries++;
            for (int j = 0; j < i; j++, innerIters++) {
                if (j == 3) continue;
                if (j == 7) break;
                s += j;
            }
        }
        return s;
    }

    /** A while loop whose continue jumps straight back to the condition. */
    static int whileContinue(int n) {
        int i = 0, s = 0;
        while (i < n) {
            i++;
            whileIters++;
            if ((i & 1) == 0) continue;
            s += i;
        }
        return s;
    }

    /** do/while and a labelled break out of two loops. */
    static int doAndLabel(int n) {
        int k = 0, s = 0;
        do {
            s += k;
            k++;
            if (k < n) doIters++;
        } while (k < n);
        outer:
        for (int a = 0; a < 10; a++) {
            for (int b = 0; b < 10; b++) {
                if (a * b == 12) break outer;
                s++;
            }
        }
        return s;
    }

    static String run() {
        int r = nested(10) + whileContinue(9) + doAndLabel(5);
        return r + " outer=" + outerIters + " inner=" + innerIters + " innerEntries=" + innerEntries
                + " while=" + whileIters + " do=" + doIters;
    }
}
