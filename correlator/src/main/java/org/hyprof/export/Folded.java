package org.hyprof.export;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hyprof.analysis.CallStream;
import org.hyprof.analysis.Timeline;
import org.hyprof.store.NativeEpoch;

/**
 * Folded stacks ({@code frame;frame;leaf weight}, one line per distinct stack), what
 * flamegraph.pl, speedscope and Perfetto read. The weight is what the leaf frame spent itself:
 * time (µs) or energy (µJ, see {@link Timeline#selfEnergyMicrojoules}), summed per stack and
 * rounded; thread names are the root frames. Loops appear as frames of their own.
 *
 * <p>The calls stream out of the store ({@link CallStream}) into a tree of the distinct stacks of
 * each thread: memory grows with the number of distinct stacks, not with the calls.
 */
public final class Folded {
    private Folded() {}

    /** Time weights (µs). */
    public static void write(List<CallStream> streams, PrintWriter out) {
        write(streams, out, false);
    }

    /** Time (µs) or, with {@code energy}, energy (µJ) weights. */
    public static void write(List<CallStream> streams, PrintWriter out, boolean energy) {
        Map<String, double[]> weights = new TreeMap<>();
        for (CallStream t : streams) {
            Stacks s = new Stacks(t, energy, weights);
            t.replay(s);
        }
        for (Map.Entry<String, double[]> e : weights.entrySet()) {
            long w = Math.round(e.getValue()[0]);
            if (w > 0) out.println(e.getKey() + " " + w);
        }
        out.flush();
    }

    /** A frame of one thread's stack tree: the self weight of every call that had this stack. */
    private static final class Node {
        final Node parent;
        final int probeId;
        final boolean loop;
        final long key;
        /** Children in an open-addressing table by key (no boxed key, no lambda per call); the last one asked for first. */
        private Node[] children;
        private int size;
        private Node last;
        long selfNanos;
        double selfMicrojoules;

        Node(Node parent, int probeId, boolean loop) {
            this.parent = parent;
            this.probeId = probeId;
            this.loop = loop;
            this.key = ((long) probeId << 1) | (loop ? 1 : 0);
        }

        Node child(int id, boolean isLoop) {
            long k = ((long) id << 1) | (isLoop ? 1 : 0);
            Node l = last;
            if (l != null && l.key == k) return l;
            if (children == null) children = new Node[4];
            int mask = children.length - 1;
            int i = slot(k, mask);
            for (Node c; (c = children[i]) != null; i = (i + 1) & mask)
                if (c.key == k) return last = c;
            Node c = new Node(this, id, isLoop);
            children[i] = c;
            if (++size * 2 > children.length) rehash();
            return last = c;
        }

        private static int slot(long k, int mask) {
            long h = k * 0x9E3779B97F4A7C15L;
            return (int) (h >>> 40) & mask;
        }

        private void rehash() {
            Node[] old = children;
            children = new Node[old.length * 2];
            int mask = children.length - 1;
            for (Node c : old) {
                if (c == null) continue;
                int i = slot(c.key, mask);
                while (children[i] != null) i = (i + 1) & mask;
                children[i] = c;
            }
        }

        List<Node> children() {
            List<Node> l = new ArrayList<>(size);
            if (children != null) for (Node c : children) if (c != null) l.add(c);
            return l;
        }
    }

    /** Builds each thread's stack tree as its calls open and close, then folds it into the weights. */
    private static final class Stacks implements CallStream.Visitor {
        private final CallStream t;
        private final boolean energy;
        private final Map<String, double[]> weights;
        private Node root, at;
        private long[] childNanos = new long[64];

        Stacks(CallStream t, boolean energy, Map<String, double[]> weights) {
            this.t = t;
            this.energy = energy;
            this.weights = weights;
        }

        @Override
        public void thread(CallStream.ThreadRef th) {
            root = at = new Node(null, -1, false);
        }

        @Override
        public void open(int probeId, boolean loop, long startNanos, int depth) {
            at = at.child(probeId, loop);
            if (depth == childNanos.length) childNanos = Arrays.copyOf(childNanos, depth * 2);
            childNanos[depth] = 0;
        }

        @Override
        public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
            int d = c.depth();
            long dur = c.endNanos() - c.startNanos();
            at.selfNanos += dur - childNanos[d];
            at.selfMicrojoules += selfEnergyMicrojoules;
            if (d > 0) childNanos[d - 1] += dur;
            at = at.parent;
        }

        @Override
        public void threadEnd(CallStream.ThreadRef th) {
            fold(root, new StringBuilder(th.name().replace(';', ':').replace(' ', '_')));
            root = at = null;
        }

        private void fold(Node n, StringBuilder path) {
            List<Node> kids = n.children();
            for (Node k : kids) {
                int len = path.length();
                path.append(';').append(t.name(k.probeId).replace(';', ':').replace(' ', '_'));
                weights.computeIfAbsent(path.toString(), x -> new double[1])[0] += energy ? k.selfMicrojoules : k.selfNanos / 1000.0;
                fold(k, path);
                path.setLength(len);
            }
        }
    }
}
