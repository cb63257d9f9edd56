package org.hyprof.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * Start-up settings of the runtime, parsed from {@code key=value} pairs (agent argument,
 * {@code META-INF/hyprof/runtime.properties} of an instrumented jar, or an APK asset).
 *
 * <p>Keys: {@code out} (session file), {@code mode} ({@code aggregate}|{@code events}),
 * {@code budget} (event-log bytes, suffix k/m/g), {@code keep} ({@code first}|{@code last}: which
 * events the budget keeps), {@code maxAge} (with {@code keep=last}: events older than this are not
 * kept, e.g. {@code 10s}), {@code statsBudget} (bytes of per-thread
 * aggregate pages over all live threads, suffix k/m/g, default 32m), {@code treeNodes} (nodes of the
 * calling-context tree over all live threads, 0 = none, default 80000), {@code snapshotMillis},
 * {@code recalibrateMillis} (0 = only at start), {@code calibrate} (true|false),
 * {@code process} (name shown in reports), {@code minDuration} (ns, or with unit ns/us/ms/s),
 * {@code minCalls}, {@code maxDepth}, {@code roots} (probe ids separated by {@code :}),
 * {@code resolutions} (which probes start on: process, thread, method, loop, separated by
 * {@code :}), {@code connect} (collector {@code HOST:PORT}), {@code token} (collector token),
 * {@code tokenFile} (a file holding it, e.g. {@code S.db.token} beside the collector's session;
 * read when connecting, so the token is not on the command line). Without either the environment
 * variable {@code HYPROF_TOKEN} is used if set. {@code exitGraceMillis} (default 3000): at exit,
 * how long to keep trying to reach a collector that is away (retrying every 100 ms meanwhile);
 * {@code spillDir}: where what the collector has not acknowledged by then is written as a
 * session file ({@code hyprof-spill-PID.hyprof}; default the working directory, on Android the
 * app's files directory). Unknown keys and bad values are errors, reported
 * as one line by {@link #parse}.
 */
public final class Options {
    public String out;
    public boolean events;
    public long budgetBytes = 64L << 20;
    /**
     * Events mode keeps the last events within the budget, overwriting the oldest ({@code keep=last},
     * a flight recorder), rather than the first ({@code keep=first}, the default).
     */
    public boolean keepLast;
    /** With {@link #keepLast}: events older than this are not kept (ns; 0 = no age limit). */
    public long maxAgeNanos;
    /**
     * Bytes of per-thread stats pages all live threads may hold together ({@code statsBudget},
     * default 32m): past it, an activation that needs a new page is dropped and counted.
     */
    public long statsBudgetBytes = Recorder.DEFAULT_STATS_BUDGET;
    /**
     * Nodes the calling-context tree may keep over all live threads ({@code treeNodes}, 0 = no
     * tree): past it, calls on new paths are counted in an {@code (other paths)} node under the
     * deepest kept one. The default keeps the tree within 64 MB at worst ({@link #DEFAULT_TREE_NODES}).
     */
    public long treeNodes = DEFAULT_TREE_NODES;
    /**
     * 80,000 nodes: a node takes {@code PathTree.NODE_BYTES} (172) bytes, at most twice that
     * while its thread's arrays grow, twice again with the overflow nodes (one per kept node at
     * most): 688 bytes per node, 55.0 MB; with the nodes' histograms ({@code PathTree.HIST_BUDGET_BYTES},
     * 8 MB) the tree stays within 64 MB.
     */
    public static final long DEFAULT_TREE_NODES = 80000;
    /** The largest {@code treeNodes} accepted. */
    public static final long MAX_TREE_NODES = 50000000;
    public long snapshotMillis = 2000;
    public long recalibrateMillis = 30000;
    public boolean calibrate = true;
    public String process;
    public long minDurationNanos;
    public int minCalls;
    public int maxDepth;
    public int[] roots = new int[0];
    /** Resolutions whose probes start on; null = all. */
    public String[] resolutions;
    /** Collector to stream to, {@code HOST:PORT}; null = none. */
    public String connect;
    /** Token the collector requires, if any. */
    public String token;
    /** File holding the token (its first line), if any. */
    public String tokenFile;
    /**
     * At exit, how long the agent keeps trying to reach a collector that is away before it writes
     * what the collector has not acknowledged to a spill file (ms). Bounds the shutdown hook.
     */
    public long exitGraceMillis = 3000;
    /** Directory of the spill file; null = the working directory (an Android app's files directory). */
    public String spillDir;
    /**
     * Keep timing every probe: no probe goes count-only, however short its calls ({@code timeAll},
     * the CLI's {@code --time-all}).
     */
    public boolean timeAll;
    /**
     * How thread CPU time is measured ({@code cpuClock}): {@code sampled} (default: a sampler
     * thread reads each thread's CPU clock every {@link #cpuSampleMicros}, probes read no clock
     * of their own), {@code dual} (every probe event reads its thread's CPU clock beside the wall
     * clock) or {@code off}.
     */
    public int cpuClock = CpuClock.SAMPLED;
    /** Period of the CPU sampler, µs ({@code cpuSampleMicros}, 100 … 1,000,000; default 2000). */
    public long cpuSampleMicros = 2000;

    /** Parses one {@code key=value} setting into these options. */
    public void set(String key, String value) {
        String k = key.trim();
        String v = value.trim();
        if (k.equals("out")) out = v;
        else if (k.equals("mode")) {
            if (v.equals("events")) events = true;
            else if (v.equals("aggregate")) events = false;
            else throw new IllegalArgumentException("mode must be aggregate or events, not '" + v + "'");
        } else if (k.equals("budget")) budgetBytes = parseSize(v);
        else if (k.equals("keep")) {
            if (v.equals("last")) keepLast = true;
            else if (v.equals("first")) keepLast = false;
            else throw new IllegalArgumentException("keep must be first or last, not '" + v + "'");
        } else if (k.equals("maxAge")) maxAgeNanos = parseDurationNanos(v);
        else if (k.equals("statsBudget")) statsBudgetBytes = parseSize(v);
        else if (k.equals("treeNodes")) {
            treeNodes = parseLong(k, v, 0);
            // node indexes are ints per thread, and a tree past this would not fit a phone anyway
            if (treeNodes > MAX_TREE_NODES) throw new IllegalArgumentException(k + " must be at most " + MAX_TREE_NODES + ", not '" + v + "'");
        }
        else if (k.equals("snapshotMillis")) snapshotMillis = parseLong(k, v, 10);
        else if (k.equals("recalibrateMillis")) recalibrateMillis = parseLong(k, v, 0);
        else if (k.equals("calibrate")) calibrate = parseBoolean(k, v);
        else if (k.equals("process")) process = v;
        else if (k.equals("minDuration")) minDurationNanos = parseDurationNanos(v);
        else if (k.equals("minCalls")) minCalls = (int) parseLong(k, v, 0);
        else if (k.equals("maxDepth")) maxDepth = (int) parseLong(k, v, 0);
        else if (k.equals("roots")) roots = parseIds(k, v);
        else if (k.equals("resolutions")) resolutions = v.isEmpty() ? new String[0] : v.split(":");
        else if (k.equals("connect")) {
            int colon = v.lastIndexOf(':');
            if (colon <= 0) throw new IllegalArgumentException("connect must be HOST:PORT, not '" + v + "'");
            parseLong(k, v.substring(colon + 1), 1);
            connect = v;
        } else if (k.equals("token")) token = v;
        else if (k.equals("tokenFile")) tokenFile = v;
        else if (k.equals("exitGraceMillis")) exitGraceMillis = parseLong(k, v, 0);
        else if (k.equals("spillDir")) spillDir = v;
        else if (k.equals("timeAll")) timeAll = parseBoolean(k, v);
        else if (k.equals("cpuClock")) {
            if (v.equals("sampled")) cpuClock = CpuClock.SAMPLED;
            else if (v.equals("dual")) cpuClock = CpuClock.DUAL;
            else if (v.equals("off")) cpuClock = CpuClock.OFF;
            else throw new IllegalArgumentException("cpuClock must be sampled, dual or off, not '" + v + "'");
        } else if (k.equals("cpuSampleMicros")) {
            cpuSampleMicros = parseLong(k, v, 100);
            if (cpuSampleMicros > 1000000) throw new IllegalArgumentException("cpuSampleMicros must be at most 1000000, not '" + v + "'");
        }
        else throw new IllegalArgumentException("unknown runtime option '" + k + "'");
    }

    /**
     * The collector token: {@code token}, else the first line of {@code tokenFile}, else
     * {@code HYPROF_TOKEN}, else none (empty). Throws IOException when the token file cannot be read.
     */
    public String resolveToken() throws java.io.IOException {
        if (token != null) return token;
        if (tokenFile != null) {
            java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(
                    new java.io.FileInputStream(tokenFile), "UTF-8"));
            try {
                String line = r.readLine();
                return line == null ? "" : line.trim();
            } finally {
                r.close();
            }
        }
        String env = System.getenv("HYPROF_TOKEN");
        return env == null ? "" : env.trim();
    }

    /** Parses {@code k=v,k=v,...}; throws IllegalArgumentException with a one-line message. */
    public static Options parse(String args) {
        Options o = new Options();
        if (args == null || args.trim().isEmpty()) return o;
        for (String part : args.split(",")) {
            if (part.trim().isEmpty()) continue;
            int eq = part.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("expected key=value, got '" + part + "'");
            o.set(part.substring(0, eq), part.substring(eq + 1));
        }
        return o;
    }

    /** Sizes like 4096, 64k, 64m, 1g (binary units). */
    public static long parseSize(String v) {
        String s = v.trim().toLowerCase();
        long mul = 1;
        if (s.endsWith("b")) s = s.substring(0, s.length() - 1);
        if (s.endsWith("k")) mul = 1L << 10;
        else if (s.endsWith("m")) mul = 1L << 20;
        else if (s.endsWith("g")) mul = 1L << 30;
        if (mul != 1) s = s.substring(0, s.length() - 1);
        try {
            long n = Long.parseLong(s.trim());
            if (n < 0) throw new NumberFormatException();
            return n * mul;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad size '" + v + "' (examples: 4096, 64k, 16m, 1g)");
        }
    }

    /** Durations like 500 (ns), 10us, 5ms, 1s. */
    public static long parseDurationNanos(String v) {
        String s = v.trim().toLowerCase();
        long mul = 1;
        String num = s;
        if (s.endsWith("ns")) num = s.substring(0, s.length() - 2);
        else if (s.endsWith("us")) { mul = 1000; num = s.substring(0, s.length() - 2); }
        else if (s.endsWith("ms")) { mul = 1000_000; num = s.substring(0, s.length() - 2); }
        else if (s.endsWith("s")) { mul = 1000_000_000; num = s.substring(0, s.length() - 1); }
        try {
            double d = Double.parseDouble(num.trim());
            if (d < 0 || Double.isNaN(d)) throw new NumberFormatException();
            return (long) (d * mul);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad duration '" + v + "' (examples: 500ns, 10us, 5ms, 1s)");
        }
    }

    private static long parseLong(String k, String v, long min) {
        try {
            long n = Long.parseLong(v);
            if (n < min) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(k + " must be an integer ≥ " + min + ", not '" + v + "'");
        }
    }

    private static boolean parseBoolean(String k, String v) {
        if (v.equals("true")) return true;
        if (v.equals("false")) return false;
        throw new IllegalArgumentException(k + " must be true or false, not '" + v + "'");
    }

    private static int[] parseIds(String k, String v) {
        if (v.isEmpty()) return new int[0];
        List<Integer> ids = new ArrayList<Integer>();
        for (String p : v.split(":")) ids.add((int) parseLong(k, p.trim(), 0));
        int[] r = new int[ids.size()];
        for (int i = 0; i < r.length; i++) r[i] = ids.get(i);
        return r;
    }

    /** True when probes of this resolution start on. */
    public boolean resolutionOn(String resolution) {
        if (resolutions == null) return true;
        for (String r : resolutions) if (r.trim().equals(resolution)) return true;
        return false;
    }
}
