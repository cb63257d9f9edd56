package dexfixtures;

/** synchronized methods and blocks, with a loop inside and an exception through the monitor. */
public final class Sync {
    private final Object lock = new Object();
    static int blockIters, arrayIters;

    static synchronized int syncMethod(int x) {
        return x + 1;
    }

    /**
     * Nothing in the block can throw, so the compiler leaves it without a catch-all: the loop
     * cannot take probes (they could throw while the monitor is held) and is listed as skipped.
     */
    int syncBlock(int n) {
        int s = 0;
        synchronized (lock) {
            for (int i = 0; i < n; i++, blockIters++) s += i;
        }
        return s;
    }

    /** The array accesses can throw, so the compiler puts the block under a catch-all: the loop gets probes. */
    int syncArray(int[] a) {
        int s = 0;
        synchronized (lock) {
            for (int i = 0; i < a.length; i++, arrayIters++) s += a[i];
        }
        return s;
    }

    int syncThrow() {
        try {
            synchronized (lock) {
                throw new IllegalStateException("inside the monitor");
            }
        } catch (IllegalStateException e) {
            return 1;
        }
    }

    synchronized int syncInstance(int x) {
        if (x < 0) throw new IllegalArgumentException("negative");
        return x * 2;
    }

    static String run() {
        Sync s = new Sync();
        int r = syncMethod(1) + s.syncBlock(6) + s.syncArray(new int[] {3, 4, 5}) + s.syncThrow() + s.syncInstance(4);
        try {
            s.syncInstance(-1);
        } catch (IllegalArgumentException e) {
            r += 100;
        }
        return r + " blockIters=" + blockIters + " arrayIters=" + arrayIters;
    }
}
