package dexfixtures;

/**
 * Loops left every way there is: by {@code break}, by {@code return} from inside two loops, by an
 * exception thrown in an inner loop and caught by the caller or in the method (with and without
 * using the exception: D8 then emits the handler without {@code move-exception}), by a labelled
 * {@code continue} of the outer loop, and a loop of a recursive method open in several
 * activations at once. Each loop counts its back edges itself (in its update, the back edge's
 * source) and, for inner loops, its entries: the profiler's iteration and entry counts must equal
 * them.
 */
public final class LoopExits {
    private LoopExits() {}

    static int breakIters;
    static int retOuter, retInner, retInnerEntries;
    static int thrOuter, thrInner, thrInnerEntries;
    static int rounds, catchOuter, catchInner, catchInnerEntries, caught;
    static int roundsE, catchOuterE, catchInnerE, catchInnerEntriesE, caughtE;
    static int contOuter, contInner, contInnerEntries;
    static int recIters, recEntries;

    /** Left by break after a few iterations. */
    static int breakOut(int n) {
        int s = 0;
        for (int i = 0; i < n; i++, breakIters++) {
            if (i * i > n) break;
            s += i;
        }
        return s;
    }

    /** Left by a return from inside the inner loop (both loops open), or normally. */
    static int find(int[][] grid, int target) {
        for (int i = 0; i < grid.length; i++, retOuter++) {
            retInnerEntries++;
            for (int j = 0; j < grid[i].length; j++, retInner++) {
                if (grid[i][j] == target) return i * 100 + j;
            }
        }
        return -1;
    }

    static void check(int i, int j, int at) {
        if (i * 10 + j == at) throw new IllegalStateException("at " + at);
    }

    /** Both loops left by an exception from the inner one that the caller catches. */
    static int throwFromNested(int n, int at) {
        int s = 0;
        for (int i = 0; i < n; i++, thrOuter++) {
            thrInnerEntries++;
            for (int j = 0; j < n; j++, thrInner++) {
                check(i, j, at);
                s += j;
            }
        }
        return s;
    }

    /** Two loops left by an exception caught in the method, inside a third loop that goes on. */
    static int catchInside(int n) {
        int s = 0;
        for (int r = 0; r < 3; r++, rounds++) {
            try {
                for (int i = 0; i < n; i++, catchOuter++) {
                    catchInnerEntries++;
                    for (int j = 0; j < n; j++, catchInner++) {
                        check(i, j, r * 11);
                        s += j;
                    }
                }
            } catch (IllegalStateException ignored) {
                caught++;
            }
        }
        return s;
    }

    /** The same with the exception used: its handler starts with move-exception. */
    static int catchInsideUsed(int n) {
        int s = 0;
        for (int r = 0; r < 3; r++, roundsE++) {
            try {
                for (int i = 0; i < n; i++, catchOuterE++) {
                    catchInnerEntriesE++;
                    for (int j = 0; j < n; j++, catchInnerE++) {
                        check(i, j, 12 - r);
                        s += j;
                    }
                }
            } catch (IllegalStateException e) {
                caughtE += e.getMessage().length();
            }
        }
        return s;
    }

    /** The inner loop left by continue of the outer one. */
    static int labelledContinue(int n) {
        int s = 0;
        outer:
        for (int i = 0; i < n; i++, contOuter++) {
            contInnerEntries++;
            for (int j = 0; j < n; j++, contInner++) {
                if (j > i) continue outer;
                s += j;
            }
        }
        return s;
    }

    /** A loop open in every activation of a recursion at once. */
    static int recurse(int depth) {
        int s = 1;
        recEntries++;
        for (int i = 0; i < 3; i++, recIters++) {
            if (depth > 0 && i == 1) s += recurse(depth - 1);
            s += i;
        }
        return s;
    }

    static String run() {
        int r = breakOut(30) + breakOut(3);
        int[][] grid = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
        r += find(grid, 8) + find(grid, 10);
        try {
            r += throwFromNested(5, 23);
        } catch (IllegalStateException e) {
            r += e.getMessage().length();
        }
        r += throwFromNested(2, 99);
        r += catchInside(4) + catchInsideUsed(4) + labelledContinue(5) + recurse(4);
        return r + " breakIters=" + breakIters + " retOuter=" + retOuter + " retInner=" + retInner
                + " retInnerEntries=" + retInnerEntries + " thrOuter=" + thrOuter + " thrInner=" + thrInner
                + " thrInnerEntries=" + thrInnerEntries + " rounds=" + rounds + " catchOuter=" + catchOuter
                + " catchInner=" + catchInner + " catchInnerEntries=" + catchInnerEntries + " caught=" + caught
                + " roundsE=" + roundsE + " catchOuterE=" + catchOuterE + " catchInnerE=" + catchInnerE
                + " catchInnerEntriesE=" + catchInnerEntriesE + " caughtE=" + caughtE
                + " contOuter=" + contOuter + " contInner=" + contInner + " contInnerEntries=" + contInnerEntries
                + " recIters=" + recIters + " recEntries=" + recEntries;
    }
}
