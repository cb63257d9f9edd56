package dexfixtures;

/** synchronized methods and blocks, with a loop inside and an exception through the monitor. */
public final class Sync {
    private final Object lock = new Object();
    static int blockIters;

    static synchronized int syncMethod(int x) {
        return x + 1;
    }

    int syncBlock(int n) {
        int s = 0;
        synchronized (lock) {
            for (int i = 0; i < n; i++, blockIters++) s += i;
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
        int r = syncMethod(1) + s.syncBlock(6) + s.syncThrow() + s.syncInstance(4);
        try {
            s.syncInstance(-1);
        } catch (IllegalArgumentException e) {
            r += 100;
        }
        return r + " blockIters=" + blockIters;
    }
}
