package org.hyprof.correlate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.hyprof.analysis.CallTree;
import org.hyprof.store.CpuTime;

/**
 * Renders a session's {@link CallTree}: {@code report --by tree} (an indented table, or one CSV/JSON
 * row per call path) and {@code report --callers M / --callees M} (a butterfly of one method).
 *
 * <p>CSV contract for {@code --by tree}: a header row, then one row per call path (thread roots are
 * not rows: their figures are the sums of their top-level paths) with columns {@value #TREE_COLUMNS}:
 * the thread, the path (frames from the top-level one down, joined by {@code ;}, each named exactly
 * as {@code --by method} names it), its depth (1 = top-level), then every column of the method table
 * ({@link ReportWriter#METHOD_COLUMNS}) for this path alone. {@code method} is the path's last frame;
 * {@code kind} is {@code method}, {@code loop}, {@code native} or {@code other_paths}. Columns the
 * tree does not keep per path are empty: {@code resolution}, {@code native_cycles},
 * {@code count_only_reason}, {@code clamped}, {@code probe_warning}, and {@code p50_ns}/{@code p99_ns}
 * where the path kept no distribution (a tree rebuilt from an event log, or a node past the
 * runtime's histogram budget; a node with one timed call has that call's time as both).
 */
public final class TreeWriter {
    /** The columns of {@code report --by tree --format csv}. */
    public static final String TREE_COLUMNS = "thread,path,depth," + ReportWriter.METHOD_COLUMNS;
    /** The same with native and energy columns inclusive ({@code --inclusive}). */
    public static final String TREE_COLUMNS_INCLUSIVE = "thread,path,depth," + ReportWriter.METHOD_COLUMNS_INCLUSIVE;
    /** The columns of a butterfly in CSV. */
    public static final String BUTTERFLY_COLUMNS = "method,side,name,calls,incl_ns,share,paths";

    /** What the header says of a session without a tree (an aggregate session recorded before hyprof kept one). */
    public static final String NO_TREE = "this session has no calling-context tree (recorded before hyprof kept one;"
            + " record it again, or use --mode events)";

    /**
     * Which nodes to show.
     *
     * @param maxDepth    deepest frame shown (1 = top-level frames only); 0 = no limit
     * @param minShare    hide paths whose inclusive time is below this share (0..1) of their thread's
     * @param topChildren show at most this many children of each node (the first in sibling order); 0 = all
     */
    public record Limits(int maxDepth, double minShare, int topChildren) {
        public static final Limits NONE = new Limits(0, 0, 0);
    }

    private final CallTree tree;
    private final Profile.Sort sort;
    private final Limits limits;
    private final boolean raw, inclusive;
    private final int cpuClock;

    /**
     * @param sort      sibling order (null: the tree's own, most inclusive time first)
     * @param raw       the table shows raw times (CSV and JSON always have both)
     * @param inclusive native and energy figures inclusive of callees
     * @param cpuClock  how CPU time was measured ({@link CpuTime#SAMPLED}, {@link CpuTime#DUAL}; 0 unknown)
     */
    public TreeWriter(CallTree tree, Profile.Sort sort, Limits limits, boolean raw, boolean inclusive, int cpuClock) {
        this.tree = tree;
        this.sort = sort;
        this.limits = limits;
        this.raw = raw;
        this.inclusive = inclusive;
        this.cpuClock = cpuClock;
    }

    /** One line on where the tree came from, for headers (report, TUI). */
    public static String describe(CallTree tree) {
        return switch (tree.source()) {
            case RECORDED -> "recorded by the runtime (times deducted), node budget " + tree.nodeBudget()
                    + ", " + tree.overflowCalls() + " calls in " + CallTree.OTHER_PATHS;
            case EVENTS -> "rebuilt from the event log (raw times: the probes' own cost is not deducted)";
            case NONE -> "none: " + NO_TREE;
        };
    }

    /** The nodes shown, in preorder (thread roots included), siblings in the chosen order, within the limits. */
    public List<CallTree.Node> shown() {
        List<CallTree.Node> out = new ArrayList<>();
        for (CallTree.Node t : tree.threads()) visit(t, out);
        return out;
    }

    /** How many nodes (paths) the limits hide. */
    public int hidden() {
        int paths = 0;
        for (CallTree.Node n : tree.nodes()) if (n.kind() != CallTree.Kind.THREAD) paths++;
        int shown = 0;
        for (CallTree.Node n : shown()) if (n.kind() != CallTree.Kind.THREAD) shown++;
        return paths - shown;
    }

    /** Preorder under a thread's root, without recursion (a deep recursion in the program makes a deep tree). */
    private void visit(CallTree.Node thread, List<CallTree.Node> out) {
        java.util.ArrayDeque<CallTree.Node> todo = new java.util.ArrayDeque<>();
        todo.push(thread);
        while (!todo.isEmpty()) {
            CallTree.Node n = todo.pop();
            out.add(n);
            if (limits.maxDepth() > 0 && n.depth() >= limits.maxDepth()) continue;
            List<CallTree.Node> kids = new ArrayList<>();
            for (int c : tree.children(n.index())) {
                CallTree.Node k = tree.nodes().get(c);
                if (limits.minShare() > 0 && thread.inclNanos() > 0 && k.inclNanos() < limits.minShare() * thread.inclNanos()) continue;
                kids.add(k);
            }
            if (sort != null) kids.sort(order(sort, inclusive));
            if (limits.topChildren() > 0 && kids.size() > limits.topChildren()) kids = kids.subList(0, limits.topChildren());
            for (int i = kids.size() - 1; i >= 0; i--) todo.push(kids.get(i));
        }
    }

    /** Sibling order for a sort key, largest first (then name, so equal figures keep one order). */
    public static Comparator<CallTree.Node> order(Profile.Sort sort, boolean inclusive) {
        Comparator<CallTree.Node> c = switch (sort) {
            case INCL -> Comparator.comparingLong(CallTree.Node::inclNanos);
            case EXCL -> Comparator.comparingLong(CallTree.Node::exclNanos);
            case CALLS -> Comparator.comparingLong(CallTree.Node::calls);
            case ENERGY -> Comparator.comparingDouble(n -> inclusive ? n.energyInclMicrojoules() : n.energyMicrojoules());
        };
        return c.reversed().thenComparing(CallTree.Node::name);
    }

    /** Writes the tree: an indented table under its header lines, or one CSV/JSON row per path shown. */
    public void write(ReportWriter.Format format, PrintWriter out) {
        format.write(out, this::table, this::csv, this::json);
    }

    private static double probeShare(CallTree.Node n) {
        return n.inclRawNanos() > 0 ? Math.min(1, Math.max(0, (n.inclRawNanos() - n.inclNanos()) / (double) n.inclRawNanos())) : 0;
    }

    /** Per-call min and max: none for a thread (not a call) or a native frame (its calls are not timed apart). */
    private static Long min(CallTree.Node n) {
        return n.kind() == CallTree.Kind.THREAD || n.kind() == CallTree.Kind.NATIVE ? null : n.minNanos();
    }

    private static Long max(CallTree.Node n) {
        return n.kind() == CallTree.Kind.THREAD || n.kind() == CallTree.Kind.NATIVE ? null : n.maxNanos();
    }

    private static Long p(CallTree.Node n, double q) {
        return n.percentile(q);
    }

    private static Long wait(long wall, Long cpu) {
        return cpu == null ? null : Math.max(0, wall - cpu);
    }

    private static String kind(CallTree.Node n) {
        return n.kind().name().toLowerCase(Locale.ROOT);
    }

    private long nInstr(CallTree.Node n) { return inclusive ? n.nativeInstructionsIncl() : n.nativeInstructions(); }
    private long nNanos(CallTree.Node n) { return inclusive ? n.nativeEstInclNanos() : n.nativeEstNanos(); }
    private double energy(CallTree.Node n) { return inclusive ? n.energyInclMicrojoules() : n.energyMicrojoules(); }

    private String clock(CallTree.Node n) {
        return n.cpuInclNanos() == null || cpuClock == 0 ? "" : CpuTime.clockName(cpuClock);
    }

    private void csv(PrintWriter out) {
        out.println(inclusive ? TREE_COLUMNS_INCLUSIVE : TREE_COLUMNS);
        for (CallTree.Node n : shown()) {
            if (n.kind() == CallTree.Kind.THREAD) continue;
            out.println(String.join(",", ReportWriter.csvField(n.thread()), ReportWriter.csvField(tree.path(n.index())),
                    n(n.depth()), ReportWriter.csvField(n.name()), kind(n), "", n(n.calls()), n(n.inclNanos()),
                    n(n.exclNanos()), n(n.inclRawNanos()), n(n.exclRawNanos()), n(min(n)), n(max(n)),
                    n(p(n, 0.5)), n(p(n, 0.99)), n(n.iterations()), n(n.throwsCount()), n(nInstr(n)), "", n(nNanos(n)),
                    Units.microjoulesFine(energy(n)), n(n.countOnlyCalls()), "", Units.share(probeShare(n)), "", "",
                    n(n.cpuInclNanos()), n(n.cpuExclNanos()), n(wait(n.inclNanos(), n.cpuInclNanos())),
                    n(wait(n.exclNanos(), n.cpuExclNanos())), clock(n)));
        }
    }

    private void json(PrintWriter out) {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = m.createObjectNode();
        root.put("source", tree.source().name().toLowerCase(Locale.ROOT)).put("times_deducted", tree.timesDeducted())
                .put("node_budget", tree.nodeBudget()).put("other_paths_calls", tree.overflowCalls());
        if (tree.source() == CallTree.Source.NONE) root.put("note", NO_TREE);
        root.put("hidden_paths", hidden());
        ArrayNode rows = root.putArray("rows");
        for (CallTree.Node n : shown()) {
            if (n.kind() == CallTree.Kind.THREAD) continue;
            ObjectNode o = rows.addObject();
            o.put("thread", n.thread()).put("path", tree.path(n.index())).put("depth", n.depth())
                    .put("method", n.name()).put("kind", kind(n)).putNull("resolution");
            o.put("calls", n.calls()).put("incl_ns", n.inclNanos()).put("excl_ns", n.exclNanos())
                    .put("incl_raw_ns", n.inclRawNanos()).put("excl_raw_ns", n.exclRawNanos())
                    .put("min_ns", min(n)).put("max_ns", max(n)).put("p50_ns", p(n, 0.5))
                    .put("p99_ns", p(n, 0.99)).put("iterations", n.iterations()).put("throws", n.throwsCount())
                    .put("native_instr", n.nativeInstructions()).putNull("native_cycles")
                    .put("native_est_ns", n.nativeEstNanos()).put("energy_uj", n.energyMicrojoules())
                    .put("native_instr_incl", n.nativeInstructionsIncl()).putNull("native_cycles_incl")
                    .put("native_est_ns_incl", n.nativeEstInclNanos()).put("energy_uj_incl", n.energyInclMicrojoules())
                    .put("count_only_calls", n.countOnlyCalls()).putNull("count_only_reason")
                    .put("probe_share", probeShare(n)).putNull("clamped").putNull("probe_warning");
            o.put("cpu_incl_ns", n.cpuInclNanos()).put("cpu_excl_ns", n.cpuExclNanos())
                    .put("wait_incl_ns", wait(n.inclNanos(), n.cpuInclNanos()))
                    .put("wait_excl_ns", wait(n.exclNanos(), n.cpuExclNanos()));
            String c = clock(n);
            if (c.isEmpty()) o.putNull("cpu_clock");
            else o.put("cpu_clock", c);
        }
        print(m, root, out);
    }

    private static void print(ObjectMapper m, ObjectNode root, PrintWriter out) {
        try {
            out.println(m.writeValueAsString(root));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private void table(PrintWriter out) {
        out.println("tree: " + describe(tree));
        if (tree.source() == CallTree.Source.NONE) return;
        List<CallTree.Node> shown = shown();
        boolean cpu = false, nat = false;
        for (CallTree.Node n : tree.nodes()) {
            cpu |= n.cpuInclNanos() != null;
            nat |= n.nativeEstInclNanos() > 0;
        }
        out.println();
        List<String[]> cells = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("calls", raw ? "incl ms raw" : "incl ms", raw ? "excl ms raw" : "excl ms"));
        if (cpu) head.addAll(List.of("cpu ms", "wait ms"));
        if (nat) head.add(inclusive ? "native ms incl" : "native ms");
        head.addAll(List.of(inclusive ? "energy uJ incl" : "energy uJ", "min us", "max us", "iter", "path"));
        cells.add(head.toArray(new String[0]));
        for (CallTree.Node n : shown) {
            boolean root = n.kind() == CallTree.Kind.THREAD;
            List<String> c = new ArrayList<>(List.of(n(n.calls()), Units.millis(raw ? n.inclRawNanos() : n.inclNanos()),
                    root ? "" : Units.millis(raw ? n.exclRawNanos() : n.exclNanos())));
            if (cpu) c.addAll(List.of(root || n.cpuExclNanos() == null ? "" : Units.millis(n.cpuExclNanos()),
                    root || n.cpuExclNanos() == null ? "" : Units.millis(wait(n.exclNanos(), n.cpuExclNanos()))));
            if (nat) c.add(root && !inclusive ? "" : Units.millis(nNanos(n)));
            c.addAll(List.of(root && !inclusive ? "" : Units.microjoules(energy(n)), min(n) == null ? "" : Units.micros(min(n)),
                    max(n) == null ? "" : Units.micros(max(n)), n.kind() == CallTree.Kind.LOOP ? n(n.iterations()) : "",
                    root ? "thread " + Printable.of(n.name()) : "  ".repeat(n.depth() - 1) + Printable.of(n.name())));
            cells.add(c.toArray(new String[0]));
        }
        ReportWriter.aligned(out, cells);
        out.println();
        int hidden = hidden();
        if (hidden > 0) out.println(hidden + " paths not shown (--depth, --min-share, --top)");
        out.println("depth by indentation; siblings by " + (sort == null ? "inclusive time" : sort.name().toLowerCase(Locale.ROOT))
                + "; excl, energy" + (nat ? ", native" : "") + " of the path's own frame" + (inclusive ? " (energy, native: with its callees)" : ""));
    }

    // ------------------------------------------------------------------ butterfly

    /**
     * The frame name {@code pattern} stands for: an exact name of a method, loop or native frame of
     * the tree, else the one name containing it (any case), or matching it as a glob when it holds
     * {@code *} or {@code ?}. Throws IllegalArgumentException naming the candidates when none or
     * several match.
     */
    public static String resolve(CallTree tree, String pattern) {
        TreeSet<String> names = new TreeSet<>();
        for (CallTree.Node n : tree.nodes())
            if (n.kind() == CallTree.Kind.METHOD || n.kind() == CallTree.Kind.LOOP || n.kind() == CallTree.Kind.NATIVE) names.add(n.name());
        if (names.contains(pattern)) return pattern;
        boolean glob = pattern.indexOf('*') >= 0 || pattern.indexOf('?') >= 0;
        java.util.regex.Pattern re = glob ? java.util.regex.Pattern.compile(globRegex(pattern)) : null;
        List<String> hits = new ArrayList<>();
        String lower = pattern.toLowerCase(Locale.ROOT);
        for (String s : names)
            if (glob ? re.matcher(s).matches() : s.toLowerCase(Locale.ROOT).contains(lower)) hits.add(s);
        if (hits.size() == 1) return hits.get(0);
        if (hits.isEmpty()) throw new IllegalArgumentException("'" + pattern + "' names no frame of the calling-context tree");
        StringBuilder b = new StringBuilder("'" + pattern + "' is ambiguous: " + hits.size() + " frames match: ");
        for (int i = 0; i < Math.min(10, hits.size()); i++) b.append(i > 0 ? ", " : "").append(hits.get(i));
        if (hits.size() > 10) b.append(", … (").append(hits.size() - 10).append(" more)");
        throw new IllegalArgumentException(b.toString());
    }

    private static String globRegex(String glob) {
        StringBuilder b = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*') b.append(".*");
            else if (c == '?') b.append('.');
            else b.append(java.util.regex.Pattern.quote(String.valueOf(c)));
        }
        return b.toString();
    }

    /**
     * A method's figures over every path it is on: calls, inclusive time (each path's; a recursive
     * method's nested paths count again), exclusive time, and how many paths.
     */
    public record Totals(long calls, long inclNanos, long exclNanos, long paths) {}

    /** {@link Totals} of the frames named {@code method}. */
    public static Totals totals(CallTree tree, String method) {
        long calls = 0, incl = 0, excl = 0, paths = 0;
        for (CallTree.Node n : tree.nodes()) {
            if (n.kind() == CallTree.Kind.THREAD || !n.name().equals(method)) continue;
            calls += n.calls();
            incl += n.inclNanos();
            excl += n.exclNanos();
            paths++;
        }
        return new Totals(calls, incl, excl, paths);
    }

    /** An edge's share of the method's inclusive time (0 when it has none). */
    public static double share(CallTree.Edge e, Totals t) {
        return t.inclNanos() > 0 ? (double) e.inclNanos() / t.inclNanos() : 0;
    }

    /** {@code report --callers M} and/or {@code --callees M}: who called {@code method}, and what it called. */
    public static void butterfly(CallTree tree, String method, boolean callers, boolean callees, ReportWriter.Format format,
                                 PrintWriter out) {
        Totals t = totals(tree, method);
        List<CallTree.Edge> up = callers ? tree.callers(method) : List.of(), down = callees ? tree.callees(method) : List.of();
        switch (format) {
            case CSV -> {
                out.println(BUTTERFLY_COLUMNS);
                for (CallTree.Edge e : up) out.println(edgeCsv(method, "caller", e, t));
                for (CallTree.Edge e : down) out.println(edgeCsv(method, "callee", e, t));
            }
            case JSON -> {
                ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
                ObjectNode root = m.createObjectNode();
                root.put("method", method).put("source", tree.source().name().toLowerCase(Locale.ROOT))
                        .put("calls", t.calls()).put("incl_ns", t.inclNanos()).put("excl_ns", t.exclNanos()).put("paths", t.paths());
                if (callers) edgesJson(root.putArray("callers"), up, t);
                if (callees) edgesJson(root.putArray("callees"), down, t);
                print(m, root, out);
            }
            case TABLE -> {
                out.println("tree: " + describe(tree));
                out.printf(Locale.ROOT, "%s: %d calls, incl %s ms, excl %s ms, on %d paths%n", Printable.of(method), t.calls(),
                        Units.millis(t.inclNanos()), Units.millis(t.exclNanos()), t.paths());
                if (callers) edgeTable(out, "callers", up, t);
                if (callees) edgeTable(out, "callees", down, t);
                out.println();
                out.println("share = the edge's inclusive time / the method's (over its paths; the callees' shares"
                        + " leave out its own time, " + Units.millis(t.exclNanos()) + " ms)");
            }
        }
        out.flush();
    }

    private static String edgeCsv(String method, String side, CallTree.Edge e, Totals t) {
        return String.join(",", ReportWriter.csvField(method), side, ReportWriter.csvField(e.name()), n(e.calls()),
                n(e.inclNanos()), Units.share(share(e, t)), n(e.paths()));
    }

    private static void edgesJson(ArrayNode a, List<CallTree.Edge> edges, Totals t) {
        for (CallTree.Edge e : edges)
            a.addObject().put("name", e.name()).put("calls", e.calls()).put("incl_ns", e.inclNanos())
                    .put("share", share(e, t)).put("paths", e.paths());
    }

    private static void edgeTable(PrintWriter out, String title, List<CallTree.Edge> edges, Totals t) {
        out.println();
        out.println(title + (edges.isEmpty() ? ": none" : ":"));
        if (edges.isEmpty()) return;
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"calls", "incl ms", "share %", "paths", title.equals("callers") ? "caller" : "callee"});
        for (CallTree.Edge e : edges)
            cells.add(new String[] {n(e.calls()), Units.millis(e.inclNanos()), Units.percent(share(e, t)), n(e.paths()),
                Printable.of(e.name())});
        ReportWriter.aligned(out, cells);
    }

    private static String n(long v) {
        return Long.toString(v);
    }

    private static String n(Long v) {
        return v == null ? "" : Long.toString(v);
    }
}
