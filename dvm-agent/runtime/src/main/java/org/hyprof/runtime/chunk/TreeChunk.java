package org.hyprof.runtime.chunk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * TREE: nodes of the threads' calling-context trees that are new or changed since the last TREE
 * chunk (cumulative values: a later row of a (thread, node) replaces an earlier one).
 *
 * <pre>
 * tree   := nanoTime fieldCount F nodeBudget nodesHeld cpuClock threadCount thread*
 * thread := tid nodeCount node*
 * node   := index parent key field[F] histogram
 * </pre>
 * Node 0 is the thread and is never sent; a node's parent is sent before it or in an earlier chunk
 * (every node is sent when first seen, changed or not). {@code key} is the probe id shifted left
 * by 2 with the kind in the low bits (0 method, 1 loop, 2 the {@code (other paths)} node of calls
 * past the node budget). Fields in the runtime's {@code PathTree} record order: calls, count-only
 * calls, inclusive raw, exclusive raw, inclusive, exclusive (ns, deducted), min, max, iterations,
 * throws, CPU inclusive, CPU exclusive, native instructions, cycles, estimated ns, energy pJ;
 * {@code min} is 0 until a call is timed. A reader keeps the fields it knows and gives 0 for
 * those an older writer did not send. {@code cpuClock} as {@code Stats.CPU_CLOCK}: 0 = no CPU time.
 * {@code histogram}: the node's per-call deducted inclusive times as a snapshot's fine histogram
 * ({@code SnapshotChunk.writeFine}: resolution + 1, then (bucket, count) pairs; {@code 0 0} for a node
 * with fewer than two timed calls, or none kept).
 */
public final class TreeChunk {
    /** Field counts beyond this are refused. */
    public static final int MAX_FIELDS = 64;
    /** Fields this build writes and knows. */
    public static final int FIELDS = 16;

    public final long atNanos;
    public final long nodeBudget;
    public final long nodesHeld;
    public final int cpuClock;
    public final List<ThreadNodes> threads;

    public TreeChunk(long atNanos, long nodeBudget, long nodesHeld, int cpuClock, List<ThreadNodes> threads) {
        this.atNanos = atNanos;
        this.nodeBudget = nodeBudget;
        this.nodesHeld = nodesHeld;
        this.cpuClock = cpuClock;
        this.threads = Collections.unmodifiableList(threads);
    }

    /** One thread's nodes. */
    public static final class ThreadNodes {
        public final long tid;
        public final List<Node> nodes;

        public ThreadNodes(long tid, List<Node> nodes) {
            this.tid = tid;
            this.nodes = Collections.unmodifiableList(nodes);
        }
    }

    /** One node: its index, parent, key and {@link #FIELDS} fields (at least). */
    public static final class Node {
        public final int index;
        public final int parent;
        public final int key;
        public final long[] fields;
        /** Per-call deducted inclusive times, or null (fewer than two timed calls, or none kept). */
        public final org.hyprof.runtime.DurationHistogram histogram;

        public Node(int index, int parent, int key, long[] fields, org.hyprof.runtime.DurationHistogram histogram) {
            this.index = index;
            this.parent = parent;
            this.key = key;
            this.fields = fields;
            this.histogram = histogram;
        }

        public int probeId() {
            return key >>> 2;
        }

        public int kind() {
            return key & 3;
        }
    }

    // ------------------------------------------------------------------ encoding (runtime)

    public static void begin(PayloadWriter w, long atNanos, long nodeBudget, long nodesHeld, int cpuClock, int threadCount) {
        w.varint(atNanos).varint(FIELDS).varint(nodeBudget).varint(Math.max(0, nodesHeld)).varint(cpuClock).varint(threadCount);
    }

    public static void thread(PayloadWriter w, long tid, int nodeCount) {
        w.varint(tid).varint(nodeCount);
    }

    /** Node {@code index} from {@code rec[at .. at + FIELDS)}; field 6 (min) holds Long.MAX_VALUE until timed, written as 0. */
    public static void node(PayloadWriter w, int index, int parent, int key, long[] rec, int at,
                            org.hyprof.runtime.DurationHistogram histogram) {
        w.varint(index).varint(parent).varint(key & 0xffffffffL);
        for (int f = 0; f < FIELDS; f++) {
            long v = rec[at + f];
            w.varint(f == 6 && v == Long.MAX_VALUE ? 0 : v);
        }
        SnapshotChunk.writeFine(w, histogram);
    }

    // ------------------------------------------------------------------ decoding (host)

    public static TreeChunk decode(PayloadReader r) {
        long at = r.varint();
        int fields = r.varintAtMost(MAX_FIELDS, "fields per tree node");
        long budget = r.varint(), held = r.varint();
        int cpuClock = r.varintAtMost(2, "CPU clock");
        int nThreads = r.count(2); // a thread takes at least 2 bytes
        List<ThreadNodes> threads = new ArrayList<ThreadNodes>(nThreads);
        for (int t = 0; t < nThreads; t++) {
            long tid = r.varint();
            int n = r.count(5 + fields);
            List<Node> nodes = new ArrayList<Node>(n);
            for (int k = 0; k < n; k++) {
                int index = r.varintAtMost(Integer.MAX_VALUE, "tree node");
                int parent = r.varintAtMost(Integer.MAX_VALUE, "tree node parent");
                long kv = r.varint();
                if (kv < 0 || kv > 0xffffffffL) throw new MalformedPayloadException("tree node key " + kv + " over 32 bits");
                int key = (int) kv;
                long[] f = new long[Math.max(fields, FIELDS)];
                for (int i = 0; i < fields; i++) f[i] = r.varint();
                if (index == 0 || parent >= index)
                    throw new MalformedPayloadException("tree node " + index + " has parent " + parent);
                nodes.add(new Node(index, parent, key, f, SnapshotChunk.readFine(r)));
            }
            threads.add(new ThreadNodes(tid, nodes));
        }
        return new TreeChunk(at, budget, held, cpuClock, threads);
    }
}
