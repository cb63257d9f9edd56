package org.hyprof.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.store.Store;

/**
 * Who called whom in an events-mode session: for each (caller, callee) pair of methods, the
 * number of calls and the callee's inclusive time, summed while the process's event log is
 * replayed ({@link EventReplay}, the same reconstruction the exports use). Calls are never held,
 * so a log of millions of calls needs little memory; a session recorded in aggregate mode has no
 * event log, and so no call graph.
 *
 * <ul>
 * <li>The caller of a call is the nearest method activation around it in the log. Loops are not
 *     callers: a call made inside a loop is its method's call. A call with no method around it (a
 *     thread's first method, or one whose callers' probes were off) has caller {@link #ROOT}.</li>
 * <li>Times are raw, from the log's timestamps: the probes' own cost is not deducted.</li>
 * <li>A recursive call (its method already active further out on the same thread) counts as a
 *     call and as a {@link Edge#recursiveCalls recursive call}, but adds no time: inclusive time
 *     counts the outermost activation only, so the times of a method's callers add up to its
 *     inclusive time.</li>
 * <li>Calls still open at the end of the log count as if they ended at their thread's last
 *     timestamp (as the exports close them).</li>
 * </ul>
 *
 * <p>A graph is immutable; a {@link Builder} makes them, and can follow a live session's log as
 * it grows.
 */
public final class CallGraph {
    /** The caller id of calls with no method activation around them in the log. */
    public static final int ROOT = -1;

    /**
     * Calls from {@code callerId} (or {@link #ROOT}) to {@code calleeId}: how many, how many of
     * those were recursive, and the callee's inclusive time over them (raw ns; recursive calls
     * add none).
     */
    public record Edge(int callerId, int calleeId, long calls, long recursiveCalls, long inclRawNanos) {}

    private final List<Edge> edges;
    private final long calls;
    private final long chunks;

    private CallGraph(List<Edge> edges, long calls, long chunks) {
        this.edges = edges;
        this.calls = calls;
        this.chunks = chunks;
    }

    /** Replays the whole event log of a process (reads every chunk once). */
    public static CallGraph load(Store store, long processId) {
        return new Builder(processId).update(store).build();
    }

    /** Event chunks replayed; 0 means there was no event log (yet). */
    public long chunks() {
        return chunks;
    }

    /** Method calls replayed (finished or still open). */
    public long calls() {
        return calls;
    }

    /** Who called method {@code probeId}, most time first. */
    public List<Edge> callers(int probeId) {
        return select(probeId, false);
    }

    /** What method {@code probeId} called, most time first. */
    public List<Edge> callees(int probeId) {
        return select(probeId, true);
    }

    private List<Edge> select(int probeId, boolean byCaller) {
        List<Edge> out = new ArrayList<>();
        for (Edge e : edges) if ((byCaller ? e.callerId() : e.calleeId()) == probeId) out.add(e);
        out.sort(Comparator.comparingLong(Edge::inclRawNanos).thenComparingLong(Edge::calls).reversed()
                .thenComparingInt(byCaller ? Edge::calleeId : Edge::callerId));
        return out;
    }

    /**
     * Replays a process's event log and keeps the sums; {@link #update} replays the chunks stored
     * since the last update, so a live session's graph follows the log as it grows. Not
     * thread-safe: one thread updates and builds, the graphs it builds can be shared.
     */
    public static final class Builder {
        private final long processId;
        private final Map<Long, Replay> threads = new HashMap<>();
        /** (caller, callee) → calls, recursive calls, raw ns; over closed calls only. */
        private final EdgeSums closed = new EdgeSums();
        private long chunks;
        private long closedCalls;

        public Builder(long processId) {
            this.processId = processId;
        }

        /**
         * Replays the chunks stored since the last update (per thread, those with a higher
         * sequence number than any replayed).
         */
        public Builder update(Store store) {
            store.eventChunks(processId, c -> {
                Replay r = threads.computeIfAbsent(c.tid(), t -> new Replay(closed));
                if (c.seq() <= r.lastSeq) return;
                r.lastSeq = c.seq();
                r.add(c);
                chunks++;
            });
            return this;
        }

        /** Event chunks replayed so far. */
        public long chunks() {
            return chunks;
        }

        /** The graph so far: the closed calls' sums plus the calls still open, as if they ended now. */
        public CallGraph build() {
            EdgeSums all = closed.copy();
            long calls = 0;
            for (Replay r : threads.values()) {
                calls += r.closedCalls;
                for (int i = 0; i < r.openCount(); i++) {
                    if (r.openLoop(i)) continue;
                    int id = r.openProbe(i);
                    boolean recursive = false;
                    for (int j = 0; j < i && !recursive; j++) recursive = !r.openLoop(j) && r.openProbe(j) == id;
                    count(all, r.caller(i), id, recursive, r.lastNanos() - r.openStartNanos(i));
                    calls++;
                }
            }
            List<Edge> edges = new ArrayList<>(all.size);
            for (int i = 0; i < all.size; i++)
                edges.add(new Edge((int) (all.keys[i] >> 32), (int) all.keys[i], all.sums[3 * i], all.sums[3 * i + 1],
                        all.sums[3 * i + 2]));
            return new CallGraph(List.copyOf(edges), calls, chunks);
        }
    }

    /** One thread's replay: method activations open per probe id tell recursion apart. */
    private static final class Replay extends EventReplay {
        final EdgeSums sums;
        long lastSeq = -1;
        long closedCalls;
        int[] active = new int[256];

        Replay(EdgeSums sums) {
            this.sums = sums;
        }

        @Override
        protected int opened(int probeId, boolean loop, long startNanos, long startCpuNanos) {
            if (!loop && probeId >= 0) {
                if (probeId >= active.length) active = Arrays.copyOf(active, Math.max(probeId + 1, active.length * 2));
                active[probeId]++;
            }
            return 0;
        }

        @Override
        protected void closed(Timeline.Call c, int slot) {
            if (c.loop() || c.probeId() < 0) return;
            boolean recursive = --active[c.probeId()] > 0;
            count(sums, caller(c.depth()), c.probeId(), recursive, c.endNanos() - c.startNanos());
            closedCalls++;
        }

        /** The nearest method activation outside stack slot {@code depth}. */
        int caller(int depth) {
            for (int k = depth - 1; k >= 0; k--) if (!openLoop(k)) return openProbe(k);
            return ROOT;
        }
    }

    private static void count(EdgeSums m, int caller, int callee, boolean recursive, long nanos) {
        int i = 3 * m.index(((long) caller << 32) | (callee & 0xffffffffL));
        m.sums[i]++;
        if (recursive) m.sums[i + 1]++;
        else m.sums[i + 2] += nanos;
    }

    /**
     * (caller, callee) keys, in order of first use, with three sums each; an open-addressing index
     * finds a key without boxing (the replay counts every call: 10^7 lookups for a 64 MB log).
     */
    private static final class EdgeSums {
        long[] keys = new long[64];
        long[] sums = new long[3 * 64];
        int size;
        int[] table = new int[256]; // index + 1 into keys; 0 = free
        long lastKey = Long.MIN_VALUE;
        int lastIndex;

        int index(long key) {
            if (key == lastKey) return lastIndex;
            int mask = table.length - 1;
            int h = Long.hashCode(key * 0x9E3779B97F4A7C15L) & mask;
            while (table[h] != 0) {
                int i = table[h] - 1;
                if (keys[i] == key) return remember(key, i);
                h = (h + 1) & mask;
            }
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                sums = Arrays.copyOf(sums, 3 * size * 2);
            }
            keys[size] = key;
            table[h] = ++size;
            if (size * 2 > table.length) rehash();
            return remember(key, size - 1);
        }

        private int remember(long key, int i) {
            lastKey = key;
            lastIndex = i;
            return i;
        }

        private void rehash() {
            table = new int[table.length * 2];
            int mask = table.length - 1;
            for (int i = 0; i < size; i++) {
                int h = Long.hashCode(keys[i] * 0x9E3779B97F4A7C15L) & mask;
                while (table[h] != 0) h = (h + 1) & mask;
                table[h] = i + 1;
            }
        }

        EdgeSums copy() {
            EdgeSums c = new EdgeSums();
            c.keys = keys.clone();
            c.sums = sums.clone();
            c.size = size;
            c.table = table.clone();
            return c;
        }
    }
}
