package org.hyprof.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.MethodNames;
import org.hyprof.config.ProbeInfo;
import org.hyprof.correlate.EnergyModel;
import org.hyprof.store.CpuTime;
import org.hyprof.store.NativeBlock;
import org.hyprof.store.NativeEpoch;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;
import org.hyprof.store.TreeRow;
import org.hyprof.runtime.DurationHistogram;

/**
 * A session's calling-context tree: per thread, every distinct call path (methods and loops as
 * they nested, recursion as it happened) with the figures of the method table. Where it comes from:
 * <ul>
 * <li>{@link Source#RECORDED}: the runtime built it while the program ran (aggregate and events
 *     mode), within a node budget: calls on paths past it sit in an {@code (other paths)}
 *     pseudo-frame under the deepest kept node ({@link #overflowCalls}). Times are deducted.</li>
 * <li>{@link Source#EVENTS}: rebuilt from the event log of an events-mode session that has no
 *     recorded tree (sessions of schema 7 and older). Times are the log's raw times: the deducted
 *     fields hold them too, and {@link #timesDeducted} is false.</li>
 * <li>{@link Source#NONE}: an aggregate session recorded before hyprof kept trees.</li>
 * </ul>
 * A hybrid run's native work appears as {@code libNAME.so!function} frames under the Java method
 * that ran it: split by the instructions each function of the library executed for that method
 * (exact when the method is reached along one path; shared in proportion otherwise), or one
 * {@code libNAME.so!JNI symbol} frame when the blocks name no function.
 *
 * <p>Nodes are in preorder (a parent before its children, siblings by inclusive time, most first);
 * node 0 … are the threads' roots ({@link Kind#THREAD}), whose figures sum their top-level frames.
 */
public final class CallTree {
    /** What a node stands for. */
    public enum Kind { THREAD, METHOD, LOOP, NATIVE, OTHER_PATHS }

    /** Where the tree came from (see the class comment). */
    public enum Source { RECORDED, EVENTS, NONE }

    private static final long[] NO_HIST = new long[0];

    /** The name of the pseudo-frame that holds calls on paths past the node budget. */
    public static final String OTHER_PATHS = "(other paths)";

    /**
     * One node: a call path. Times in ns (deducted unless named raw) over every activation at the
     * node; {@code native*} and energy exclusive (the node's own) and inclusive (its subtree).
     *
     * @param index   position in {@link #nodes()}
     * @param parent  index of the parent, -1 for a thread's root
     * @param depth   0 for a thread's root, 1 for top-level frames
     * @param probeId the method's or loop's probe id; -1 for threads, native and overflow frames
     * @param name    as in {@code report --by method} ({@link MethodNames}); a thread's name for its root
     * @param calls   every call, timed and count-only ({@code countOnlyCalls} of them)
     * @param cpuInclNanos thread CPU time, or null when the session recorded none
     * @param hist    a log₂ histogram of per-call times (none today: kept for trees built otherwise)
     * @param fine    per-call deducted inclusive times in log-linear buckets (p50/p99 within 1 %),
     *                null when the node kept none (fewer than two timed calls, or the budget for them was used)
     */
    public record Node(int index, int parent, int depth, Kind kind, int probeId, String name, long processId, long tid,
                       String thread, long calls, long countOnlyCalls, long inclNanos, long exclNanos, long inclRawNanos,
                       long exclRawNanos, long minNanos, long maxNanos, long iterations, long throwsCount,
                       Long cpuInclNanos, Long cpuExclNanos, long nativeEstNanos, long nativeEstInclNanos,
                       long nativeInstructions, long nativeInstructionsIncl, double energyMicrojoules,
                       double energyInclMicrojoules, long[] hist, DurationHistogram fine) {
        /** The per-call percentile {@code q} (0 … 1) of deducted inclusive time, or null when the node kept no distribution. */
        public Long percentile(double q) {
            if (fine != null) return org.hyprof.correlate.Histogram.percentile(fine, q, minNanos, maxNanos);
            if (calls - countOnlyCalls == 1 && kind != Kind.NATIVE && kind != Kind.THREAD) return minNanos;
            long total = 0;
            for (long c : hist) total += c;
            return total == 0 ? null : org.hyprof.correlate.Histogram.percentile(hist, q, minNanos, maxNanos);
        }
    }

    private final List<Node> nodes;
    private final int[][] children;
    private final Source source;
    private final long nodeBudget, overflowCalls;

    private CallTree(List<Node> nodes, int[][] children, Source source, long nodeBudget, long overflowCalls) {
        this.nodes = nodes;
        this.children = children;
        this.source = source;
        this.nodeBudget = nodeBudget;
        this.overflowCalls = overflowCalls;
    }

    /** Every node, in preorder. */
    public List<Node> nodes() {
        return nodes;
    }

    /** Indexes of the children of node {@code index}, most inclusive time first. */
    public int[] children(int index) {
        return children[index];
    }

    /** The roots: one per (process, thread). */
    public List<Node> threads() {
        List<Node> r = new ArrayList<>();
        for (Node n : nodes) if (n.parent < 0) r.add(n);
        return r;
    }

    public Source source() {
        return source;
    }

    /** Whether the times are deducted (a recorded tree) or the event log's raw times. */
    public boolean timesDeducted() {
        return source == Source.RECORDED;
    }

    /** The node budget the runtime ran with (Σ over processes); 0 when the tree was not recorded. */
    public long nodeBudget() {
        return nodeBudget;
    }

    /** Calls made on paths past the node budget, counted in {@code (other paths)} frames. */
    public long overflowCalls() {
        return overflowCalls;
    }

    /** Whether there is nothing to show. */
    public boolean isEmpty() {
        return nodes.isEmpty();
    }

    /**
     * The path of a node: its frames from the top-level one down, joined by {@code ;} (the thread
     * is not part of it: it is the node's {@code thread}).
     */
    public String path(int index) {
        List<String> names = new ArrayList<>();
        for (int i = index; i >= 0 && nodes.get(i).kind != Kind.THREAD; i = nodes.get(i).parent) names.add(nodes.get(i).name);
        Collections.reverse(names);
        return String.join(";", names);
    }

    /** One side of a butterfly: a caller or callee of a method, summed over the paths it is on. */
    public record Edge(String name, long calls, long inclNanos, long paths) {}

    /** Who called frames named {@code method}: parents' names (a thread's root for top-level calls), most time first. */
    public List<Edge> callers(String method) {
        Map<String, long[]> acc = new LinkedHashMap<>();
        for (Node n : nodes) {
            if (!n.name.equals(method) || n.parent < 0) continue;
            Node p = nodes.get(n.parent);
            String name = p.kind == Kind.THREAD ? "(thread " + p.name + ")" : p.name;
            long[] a = acc.computeIfAbsent(name, k -> new long[3]);
            a[0] += n.calls;
            a[1] += n.inclNanos;
            a[2]++;
        }
        return edges(acc);
    }

    /** What frames named {@code method} called: children's names, most time first. */
    public List<Edge> callees(String method) {
        Map<String, long[]> acc = new LinkedHashMap<>();
        for (Node n : nodes) {
            if (!n.name.equals(method) || n.kind == Kind.THREAD) continue;
            for (int c : children[n.index]) {
                Node k = nodes.get(c);
                long[] a = acc.computeIfAbsent(k.name, x -> new long[3]);
                a[0] += k.calls;
                a[1] += k.inclNanos;
                a[2]++;
            }
        }
        return edges(acc);
    }

    private static List<Edge> edges(Map<String, long[]> acc) {
        List<Edge> r = new ArrayList<>();
        acc.forEach((k, a) -> r.add(new Edge(k, a[0], a[1], a[2])));
        r.sort(Comparator.comparingLong(Edge::inclNanos).reversed().thenComparing(Edge::name));
        return r;
    }

    // ------------------------------------------------------------------ loading

    /** The session's tree, names in Java's spelling. */
    public static CallTree load(Store store) {
        return load(store, MethodNames.Style.JAVA);
    }

    /**
     * The session's tree over all its processes: the recorded one where a process has it, else
     * rebuilt from its event log, else none. A session mixing sources reports the weakest.
     */
    public static CallTree load(Store store, MethodNames.Style style) {
        return load(store, style, EnergyModel.load(store));
    }

    /** As {@link #load(Store, MethodNames.Style)}, Java energy from {@code energy} (e.g. a power profile the user chose). */
    public static CallTree load(Store store, MethodNames.Style style, EnergyModel energy) {
        Builder b = new Builder(energy);
        Source source = null;
        List<ProcessInfo> procs = store.processes();
        for (ProcessInfo p : procs) {
            Source s = b.addProcess(store, p, style, procs.size() > 1);
            if (s == null) continue;
            if (source == null || s.ordinal() > source.ordinal()) source = s;
        }
        return b.build(source == null ? Source.NONE : source);
    }

    /** Builds a tree node by node (parents first), then orders and freezes it. */
    private static final class Builder {
        private final EnergyModel energy;
        private final List<long[]> figs = new ArrayList<>();   // per node, see F_*
        private final List<Object[]> meta = new ArrayList<>(); // per node: Kind, name, probeId, processId, tid, thread, parent, cpu?, hist
        private long nodeBudget, overflowCalls;

        // figure slots
        static final int CALLS = 0, CO = 1, INCL = 2, EXCL = 3, IRAW = 4, ERAW = 5, MIN = 6, MAX = 7, ITER = 8, THR = 9,
                CPUI = 10, CPUE = 11, NEST = 12, NINS = 13, NPJ = 14, N = 15;

        Builder(EnergyModel energy) {
            this.energy = energy;
        }

        int add(Kind kind, String name, int probeId, long processId, long tid, String thread, int parent, boolean cpu, DurationHistogram hist) {
            long[] f = new long[N];
            f[MIN] = Long.MAX_VALUE;
            figs.add(f);
            meta.add(new Object[] {kind, name, probeId, processId, tid, thread, parent, cpu, hist});
            return figs.size() - 1;
        }

        Source addProcess(Store store, ProcessInfo p, MethodNames.Style style, boolean manyProcesses) {
            Map<Integer, ProbeInfo> probes = new HashMap<>();
            for (ProbeInfo pi : store.probes(p.id())) probes.put(pi.id(), pi);
            Map<Integer, String> names = MethodNames.names(probes.values(), style);
            Map<Long, String> threadNames = new HashMap<>();
            for (ThreadInfo t : store.threads(p.id())) threadNames.put(t.tid(), t.name());
            long[] info = store.treeInfo(p.id());
            if (info != null) {
                nodeBudget += info[0];
                addRecorded(store, p, probes, names, threadNames, manyProcesses);
                return Source.RECORDED;
            }
            if (store.eventChunkCount(p.id()) > 0) {
                addFromEvents(store, p, style, manyProcesses);
                return Source.EVENTS;
            }
            return null;
        }

        private static String threadLabel(String name, ProcessInfo p, boolean manyProcesses) {
            return manyProcesses ? p.name() + " " + p.pid() + "/" + name : name;
        }

        private void addRecorded(Store store, ProcessInfo p, Map<Integer, ProbeInfo> probes, Map<Integer, String> names,
                                 Map<Long, String> threadNames, boolean manyProcesses) {
            NativeSplit split = new NativeSplit(store.nativeBlocks(p.id()), store.nativeEpochs(p.id()));
            List<Integer> withNative = new ArrayList<>();
            Map<Integer, List<Integer>> kids = new HashMap<>();
            Map<Integer, Long> callsByProbe = new HashMap<>();
            Map<Integer, Integer> at = new HashMap<>(); // the thread's node → builder index
            java.util.Set<Integer> nativeParents = new java.util.HashSet<>();
            long[] tid = {Long.MIN_VALUE};
            String[] thread = {null};
            // rows are read one at a time (a tree of a million nodes is never held twice)
            store.tree(p.id(), r -> {
                if (r.tid() != tid[0]) {
                    tid[0] = r.tid();
                    thread[0] = threadLabel(threadNames.getOrDefault(tid[0], "thread-" + tid[0]), p, manyProcesses);
                    at.clear();
                    at.put(0, add(Kind.THREAD, thread[0], -1, p.id(), tid[0], thread[0], -1, false, null));
                }
                Integer parent = at.get(r.parent());
                if (parent == null) return; // its parent was not stored (a damaged or partial file)
                Kind kind = r.kind() == TreeRow.LOOP ? Kind.LOOP : r.kind() == TreeRow.OTHER_PATHS ? Kind.OTHER_PATHS : Kind.METHOD;
                String name = kind == Kind.OTHER_PATHS ? OTHER_PATHS : names.getOrDefault(r.probeId(), "probe#" + r.probeId());
                int i = add(kind, name, kind == Kind.OTHER_PATHS ? -1 : r.probeId(), p.id(), tid[0], thread[0], parent, r.cpu() != null, r.fine());
                at.put(r.node(), i);
                // children are kept only where native work may be handed down to them (a parent comes first)
                if (nativeParents.contains(parent)) kids.computeIfAbsent(parent, k -> new ArrayList<>()).add(i);
                if (kind == Kind.METHOD) callsByProbe.merge(r.probeId(), r.allCalls(), Long::sum);
                long[] f = figs.get(i);
                f[CALLS] = r.allCalls();
                f[CO] = r.countOnlyCalls();
                f[INCL] = r.inclNanos();
                f[EXCL] = r.exclNanos();
                f[IRAW] = r.inclRawNanos();
                f[ERAW] = r.exclRawNanos();
                f[MIN] = r.calls() > 0 ? r.minNanos() : Long.MAX_VALUE;
                f[MAX] = r.maxNanos();
                f[ITER] = r.iterations();
                f[THR] = r.throwsCount();
                if (r.cpu() != null) {
                    f[CPUI] = r.cpu().inclNanos();
                    f[CPUE] = r.cpu().exclNanos();
                }
                f[NEST] = r.nativeCost().estNanos();
                f[NINS] = r.nativeCost().instructions();
                f[NPJ] = r.nativeCost().energyPicojoules();
                if (kind == Kind.OTHER_PATHS) overflowCalls += f[CALLS];
                if (f[NINS] > 0 || f[NEST] > 0) {
                    withNative.add(i);
                    nativeParents.add(i);
                }
            });
            for (int i : withNative) {
                long[] f = figs.get(i);
                int probe = (Integer) meta.get(i)[2];
                if (split.ran(probe)) {
                    split.addFrames(this, i, i, probe, f[NINS], f[NEST], f[NPJ]);
                    continue;
                }
                // A native method that went count-only has no frame: its native work was charged to
                // its caller. Give it back to the callee nodes that ran native code, in proportion to
                // the work their calls from here would have done (their share of the method's calls ×
                // its instructions over the run).
                List<Integer> natives = new ArrayList<>();
                double total = 0;
                for (int c : kids.getOrDefault(i, List.of())) {
                    int q = (Integer) meta.get(c)[2];
                    if (meta.get(c)[0] == Kind.METHOD && split.ran(q)) {
                        natives.add(c);
                        total += weight(c, q, split, callsByProbe);
                    }
                }
                if (natives.isEmpty() || total <= 0) {
                    // no native callee recorded here (their probes were off then): the work goes to
                    // the library functions of every native method, by what each ran over the run
                    split.addSpread(this, i, f[NINS], f[NEST], f[NPJ]);
                    continue;
                }
                long ins = f[NINS], ns = f[NEST], pj = f[NPJ];
                for (int k = 0; k < natives.size(); k++) {
                    int c = natives.get(k);
                    boolean last = k == natives.size() - 1;
                    double share = weight(c, (Integer) meta.get(c)[2], split, callsByProbe) / total;
                    long cIns = last ? ins : Math.round(f[NINS] * share), cNs = last ? ns : Math.round(f[NEST] * share);
                    long cPj = last ? pj : Math.round(f[NPJ] * share);
                    ins -= cIns;
                    ns -= cNs;
                    pj -= cPj;
                    long[] cf = figs.get(c);
                    cf[INCL] += cNs; // the callee's node now holds the time its native code took
                    cf[IRAW] += cNs;
                    split.addFrames(this, c, i, (Integer) meta.get(c)[2], cIns, cNs, cPj);
                }
            }
        }

        /** Native instructions expected of the calls at node c of native method q. */
        private double weight(int c, int q, NativeSplit split, Map<Integer, Long> callsByProbe) {
            long all = callsByProbe.getOrDefault(q, 0L);
            return all == 0 ? 0 : (double) figs.get(c)[CALLS] / all * Math.max(1, split.instructions(q));
        }

        private void addFromEvents(Store store, ProcessInfo p, MethodNames.Style style, boolean manyProcesses) {
            CallStream stream = CallStream.of(store, p, null, style);
            Map<Long, Integer> child = new HashMap<>();
            stream.replay(new CallStream.Visitor() {
                final List<Integer> stack = new ArrayList<>();
                String thread;

                @Override
                public void thread(CallStream.ThreadRef t) {
                    thread = threadLabel(t.name(), p, manyProcesses);
                    stack.clear();
                    stack.add(add(Kind.THREAD, thread, -1, p.id(), t.tid(), thread, -1, false, null));
                }

                @Override
                public void open(int probeId, boolean loop, long startNanos, int depth) {
                    int parent = stack.get(stack.size() - 1);
                    long key = ((long) parent << 32) | ((long) probeId << 1) | (loop ? 1 : 0);
                    Integer i = child.get(key);
                    if (i == null) {
                        i = add(loop ? Kind.LOOP : Kind.METHOD, stream.name(probeId), probeId, p.id(),
                                (Long) meta.get(parent)[4], thread, parent, false, null);
                        child.put(key, i);
                    }
                    stack.add(i);
                }

                @Override
                public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
                    int i = stack.remove(stack.size() - 1);
                    long[] f = figs.get(i);
                    long d = Math.max(0, c.endNanos() - c.startNanos());
                    f[CALLS]++;
                    f[INCL] += d;
                    f[IRAW] += d;
                    f[MIN] = Math.min(f[MIN], d);
                    f[MAX] = Math.max(f[MAX], d);
                    f[ITER] += c.iterations();
                    if (c.thrown()) f[THR]++;
                    if (epoch != null) {
                        f[NEST] += epoch.estNanos();
                        f[NINS] += epoch.instructions();
                        f[NPJ] += epoch.energyPicojoules();
                    }
                }
            });
            // exclusive = inclusive less the children's, once all calls are in
            for (int i = 0; i < figs.size(); i++) {
                Object[] m = meta.get(i);
                if ((Long) m[3] != p.id() || m[0] == Kind.THREAD) continue;
                figs.get(i)[EXCL] += figs.get(i)[INCL];
                figs.get(i)[ERAW] += figs.get(i)[IRAW];
                int parent = (Integer) m[6];
                if (meta.get(parent)[0] != Kind.THREAD) {
                    figs.get(parent)[EXCL] -= figs.get(i)[INCL];
                    figs.get(parent)[ERAW] -= figs.get(i)[IRAW];
                }
            }
        }

        CallTree build(Source source) {
            int n = figs.size();
            // inclusive native and energy by subtree; thread roots sum their children. Children
            // come after their parents, so one backward pass adds each node into its parent.
            long[] nestIncl = new long[n], ninsIncl = new long[n];
            double[] eExcl = new double[n], eIncl = new double[n];
            List<List<Integer>> kids = new ArrayList<>();
            for (int i = 0; i < n; i++) kids.add(new ArrayList<>());
            for (int i = 0; i < n; i++) {
                long[] f = figs.get(i);
                Object[] m = meta.get(i);
                boolean cpu = (Boolean) m[7];
                Kind k = (Kind) m[0];
                if (k == Kind.NATIVE) eExcl[i] = f[NPJ] / 1e6;
                else if (k != Kind.THREAD)
                    eExcl[i] = Math.max(0, energy.microjoules(cpu ? f[CPUE] : f[EXCL], f[NEST], f[NPJ]));
                nestIncl[i] = k == Kind.NATIVE ? 0 : f[NEST];
                ninsIncl[i] = k == Kind.NATIVE ? 0 : f[NINS];
                eIncl[i] = eExcl[i];
                int parent = (Integer) m[6];
                if (parent >= 0) kids.get(parent).add(i);
            }
            for (int i = n - 1; i >= 0; i--) {
                int parent = (Integer) meta.get(i)[6];
                if (parent < 0) continue;
                nestIncl[parent] += nestIncl[i];
                ninsIncl[parent] += ninsIncl[i];
                eIncl[parent] += eIncl[i];
                if (meta.get(parent)[0] == Kind.THREAD) {
                    long[] pf = figs.get(parent), f = figs.get(i);
                    pf[CALLS] += f[CALLS];
                    pf[INCL] += f[INCL];
                    pf[IRAW] += f[IRAW];
                    pf[CPUI] += f[CPUI];
                    if ((Boolean) meta.get(i)[7]) meta.get(parent)[7] = true;
                }
            }
            // preorder, siblings by inclusive time (then name, so equal figures keep one order)
            Comparator<Integer> order = Comparator.<Integer>comparingLong(i -> -figs.get(i)[INCL])
                    .thenComparing(i -> (String) meta.get(i)[1]);
            int[] newIndex = new int[n];
            int[] sequence = new int[n];
            int count = 0;
            java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>();
            for (int i = n - 1; i >= 0; i--) if ((Integer) meta.get(i)[6] < 0) todo.push(i);
            while (!todo.isEmpty()) {
                int i = todo.pop();
                newIndex[i] = count;
                sequence[count++] = i;
                List<Integer> ks = kids.get(i);
                ks.sort(order);
                for (int k = ks.size() - 1; k >= 0; k--) todo.push(ks.get(k));
            }
            List<Node> out = new ArrayList<>(count);
            int[][] children = new int[count][];
            int[] depth = new int[n];
            for (int s = 0; s < count; s++) {
                int i = sequence[s];
                long[] f = figs.get(i);
                Object[] m = meta.get(i);
                int parent = (Integer) m[6];
                depth[i] = parent < 0 ? 0 : depth[parent] + 1;
                boolean cpu = (Boolean) m[7];
                Kind k = (Kind) m[0];
                DurationHistogram fine = (DurationHistogram) m[8];
                out.add(new Node(s, parent < 0 ? -1 : newIndex[parent], depth[i], k, (Integer) m[2], (String) m[1],
                        (Long) m[3], (Long) m[4], (String) m[5], f[CALLS], f[CO], f[INCL], f[EXCL], f[IRAW], f[ERAW],
                        f[MIN] == Long.MAX_VALUE ? 0 : f[MIN], f[MAX], f[ITER], f[THR], cpu ? (Long) f[CPUI] : null,
                        cpu ? (Long) f[CPUE] : null, f[NEST], nestIncl[i] + (k == Kind.NATIVE ? f[NEST] : 0), f[NINS],
                        ninsIncl[i] + (k == Kind.NATIVE ? f[NINS] : 0), eExcl[i], eIncl[i],
                        NO_HIST, fine));
                List<Integer> ks = kids.get(i);
                int[] c = new int[ks.size()];
                for (int j = 0; j < c.length; j++) c[j] = newIndex[ks.get(j)];
                children[s] = c;
                // a node's building figures are not read again (its parent came before it): let them
                // go as the nodes are made, so the peak is one form of the tree rather than both
                figs.set(i, null);
                meta.set(i, null);
                kids.set(i, null);
            }
            return new CallTree(Collections.unmodifiableList(out), children, source, nodeBudget, overflowCalls);
        }
    }

    /**
     * How a Java method's native work splits into the library functions it ran: per probe, the
     * instructions each (library, function) executed for that method's calls, from the blocks'
     * per-method execution counts.
     */
    private static final class NativeSplit {
        private final Map<Integer, Map<String, Long>> byProbe = new HashMap<>();
        private final Map<Integer, String> entry = new HashMap<>();
        private final Map<Integer, Long> instructions = new HashMap<>();

        NativeSplit(List<NativeBlock> blocks, List<NativeEpoch> epochs) {
            for (NativeBlock b : blocks) {
                String lib = b.library().substring(b.library().lastIndexOf('/') + 1);
                if (b.function() == null || b.function().isEmpty()) continue;
                // a system library's blocks are stored under "libfoo.so:libc.so" and their functions already
                // name it ("libc.so!memcpy"): the frame is that name, not "libfoo.so:libc.so!libc.so!memcpy"
                String system = lib.substring(lib.indexOf(':') + 1);
                String frame = b.function().startsWith(system + "!") ? b.function() : lib + "!" + b.function();
                b.executionsByProbe().forEach((probe, ex) ->
                        byProbe.computeIfAbsent(probe, k -> new LinkedHashMap<>()).merge(frame, ex * b.instructions(), Long::sum));
            }
            for (NativeEpoch e : epochs) {
                entry.putIfAbsent(e.probeId(), e.symbol());
                instructions.merge(e.probeId(), e.instructions(), Long::sum);
            }
        }

        /** Whether native method {@code probeId} ran native code (its blocks or its calls were recorded). */
        boolean ran(int probeId) {
            return byProbe.containsKey(probeId) || entry.containsKey(probeId);
        }

        /** Instructions native method {@code probeId}'s calls ran over the run (0 when unknown). */
        long instructions(int probeId) {
            return instructions.getOrDefault(probeId, 0L);
        }

        /** Native frames made so far, by parent node and name: a frame is added to, never repeated. */
        private final Map<String, Integer> frames = new HashMap<>();

        /**
         * Native work charged to node {@code at} whose native method is not known (no native callee
         * of it was recorded): frames of every native method's functions, each by its share of the
         * instructions the run's native calls executed.
         */
        void addSpread(Builder b, int at, long instructions, long estNanos, long picojoules) {
            long all = 0;
            for (long v : this.instructions.values()) all += v;
            if (all == 0) {
                addFrames(b, at, at, Integer.MIN_VALUE, instructions, estNanos, picojoules);
                return;
            }
            List<Map.Entry<Integer, Long>> qs = new ArrayList<>(this.instructions.entrySet());
            qs.sort(Map.Entry.comparingByKey());
            long ins = instructions, ns = estNanos, pj = picojoules;
            for (int k = 0; k < qs.size(); k++) {
                boolean last = k == qs.size() - 1;
                double share = (double) qs.get(k).getValue() / all;
                long qi = last ? ins : Math.round(instructions * share), qn = last ? ns : Math.round(estNanos * share);
                long qp = last ? pj : Math.round(picojoules * share);
                ins -= qi;
                ns -= qn;
                pj -= qp;
                if (qi != 0 || qn != 0 || qp != 0) addFrames(b, at, at, qs.get(k).getKey(), qi, qn, qp);
            }
        }

        /**
         * Adds native frames under node {@code at} (native method {@code probeId}) holding the given
         * native work, taken from node {@code owner}'s own figures (at itself, or the caller it was
         * charged to while the native method was count-only).
         */
        void addFrames(Builder b, int at, int owner, int probeId, long instructions, long estNanos, long picojoules) {
            Map<String, Long> fns = byProbe.get(probeId);
            Object[] m = b.meta.get(at);
            long processId = (Long) m[3], tid = (Long) m[4];
            String thread = (String) m[5];
            if (fns == null || fns.isEmpty()) {
                String sym = entry.get(probeId);
                fns = Map.of(sym == null ? "(native code)" : sym, 1L);
            }
            long total = 0;
            for (long v : fns.values()) total += v;
            long leftIns = instructions, leftNs = estNanos, leftPj = picojoules;
            List<Map.Entry<String, Long>> list = new ArrayList<>(fns.entrySet());
            list.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
            for (int j = 0; j < list.size(); j++) {
                boolean last = j == list.size() - 1;
                double share = total == 0 ? 0 : (double) list.get(j).getValue() / total;
                long ins = last ? leftIns : Math.round(instructions * share);
                long ns = last ? leftNs : Math.round(estNanos * share);
                long pj = last ? leftPj : Math.round(picojoules * share);
                leftIns -= ins;
                leftNs -= ns;
                leftPj -= pj;
                if (ins == 0 && ns == 0 && pj == 0) continue; // a share too small to show
                String name = list.get(j).getKey();
                Integer i = frames.get(at + "\u0000" + name);
                if (i == null) {
                    i = b.add(Kind.NATIVE, name, -1, processId, tid, thread, at, false, null);
                    frames.put(at + "\u0000" + name, i);
                    b.figs.get(i)[Builder.CALLS] = b.figs.get(at)[Builder.CALLS]; // the calls of the frame above
                }
                long[] f = b.figs.get(i);
                f[Builder.INCL] += ns;
                f[Builder.EXCL] += ns;
                f[Builder.IRAW] += ns;
                f[Builder.ERAW] += ns;
                f[Builder.NEST] += ns;
                f[Builder.NINS] += ins;
                f[Builder.NPJ] += pj;
            }
            // the Java frame it was charged to keeps its own time less the native time now shown below
            long[] f = b.figs.get(owner);
            f[Builder.EXCL] = Math.max(0, f[Builder.EXCL] - estNanos);
            f[Builder.ERAW] = Math.max(0, f[Builder.ERAW] - estNanos);
            f[Builder.NEST] -= estNanos;
            f[Builder.NINS] -= instructions;
            f[Builder.NPJ] -= picojoules;
            f[Builder.CPUE] = Math.max(0, f[Builder.CPUE] - estNanos); // as the method table charges it
        }
    }

    @Override
    public String toString() {
        return "CallTree[" + nodes.size() + " nodes, " + source + "]";
    }
}
