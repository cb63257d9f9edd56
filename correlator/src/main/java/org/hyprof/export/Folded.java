package org.hyprof.export;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
        final Map<Long, Node> children = new HashMap<>(4);
        long selfNanos;
        double selfMicrojoules;

        Node(Node parent, int probeId, boolean loop) {
            this.parent = parent;
            this.probeId = probeId;
            this.loop = loop;
        }

        Node child(int id, boolean isLoop) {
            return children.computeIfAbsent(((long) id << 1) | (isLoop ? 1 : 0), k -> new Node(this, id, isLoop));
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
            List<Node> kids = new ArrayList<>(n.children.values());
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
