package workload;

/**
 * Call paths that explode: a random walk through four mutually recursive methods, up to 24 deep,
 * gives millions of distinct paths over the run (every path is a distinct node of a
 * calling-context tree). Deterministic (a fixed seed); prints the calls it made of each method as
 * {@code name calls} lines to the file named by the first argument, for the tree's budget test.
 */
public final class PathStorm {
    static final long[] CALLS = new long[4];
    static long seed = 42;
    static volatile long sink;

    static int next() {
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        return (int) (seed >>> 33);
    }

    static void a(int depth) { CALLS[0]++; step(depth); }
    static void b(int depth) { CALLS[1]++; step(depth); }
    static void c(int depth) { CALLS[2]++; step(depth); }
    static void d(int depth) { CALLS[3]++; step(depth); }

    static void step(int depth) {
        sink += depth;
        if (depth >= 24) return;
        int r = next();
        int fanout = 1 + (r & 1);
        for (int k = 0; k < fanout && depth < 24; k++) {
            int which = (next() >>> 4) & 3;
            if (which == 0) a(depth + 1);
            else if (which == 1) b(depth + 1);
            else if (which == 2) c(depth + 1);
            else d(depth + 1);
            if ((next() & 7) == 0) break;
        }
    }

    public static void main(String[] args) throws Exception {
        int walks = args.length > 1 ? Integer.parseInt(args[1]) : 3000;
        for (int i = 0; i < walks; i++) a(0);
        try (java.io.PrintWriter w = new java.io.PrintWriter(args[0], "UTF-8")) {
            String[] names = {"a", "b", "c", "d"};
            for (int i = 0; i < 4; i++) w.println(names[i] + " " + CALLS[i]);
        }
    }

    private PathStorm() {}
}
