package org.hyprof.tui;

import java.util.ArrayList;
import java.util.List;
import org.hyprof.analysis.CallTree;
import org.hyprof.correlate.TreeWriter;
import org.hyprof.correlate.Units;

/**
 * The call-tree view (the session's calling-context tree, expanded and collapsed node by node) and
 * the butterfly view (one method's callers above it, its callees below), as tables for
 * {@link Painter}. The tree is loaded on first use and, for a live session, again at most every
 * {@link #RELOAD_MILLIS}: building it reads every path of the store, too much for every refresh.
 * Expanded nodes and the selection are kept by path, so they survive a reload that reorders siblings.
 */
final class CallTreeView {
    private CallTreeView() {}

    /** A live session's tree is loaded again at most this often. */
    static final long RELOAD_MILLIS = 2000;

    /**
     * Loads the tree when there is none yet, and for a live session when the last load is older than
     * {@link #RELOAD_MILLIS}; returns whether it loaded.
     */
    static boolean refresh(UiState s, Source source, long nowMillis) {
        if (s.tree != null && (!source.live() || nowMillis - s.treeLoadedMillis < RELOAD_MILLIS)) return false;
        boolean first = s.tree == null;
        s.tree = CallTree.load(source.store(), source.style());
        s.treeLoadedMillis = nowMillis;
        s.treeKeys = keys(s.tree, s.pathIds);
        if (first) for (CallTree.Node r : s.tree.threads()) s.expanded.add(s.treeKeys[r.index()]);
        return true;
    }

    /**
     * Each node's key: a number standing for its process, thread and path, the same in every reload
     * ({@code ids} keeps the numbers given so far: a path is its parent's number and its frame's name,
     * so keys take memory per node, not per node × depth as spelled-out paths would in a deep recursion).
     */
    static String[] keys(CallTree t, java.util.Map<String, Integer> ids) {
        String[] k = new String[t.nodes().size()];
        for (CallTree.Node n : t.nodes()) {
            String at = n.parent() < 0 ? "thread " + n.processId() + "/" + n.tid() : k[n.parent()] + "\u0000" + n.kind() + " " + n.name();
            Integer id = ids.get(at);
            if (id == null) ids.put(at, id = ids.size());
            k[n.index()] = "#" + id;
        }
        return k;
    }

    private static final String[] TREE_HEADER = {"calls", "incl ms", "excl ms", "uJ", "uJ incl", "call tree"};

    /** The visible nodes: the threads, and the children of every expanded node. */
    static TableView.Table tree(UiState s) {
        List<TableView.Row> rows = new ArrayList<>();
        CallTree t = s.tree;
        String[] header = TREE_HEADER.clone();
        if (t == null || t.source() == CallTree.Source.NONE) {
            rows.add(new TableView.Row(new String[] {"", "", "", "", "", TreeWriter.NO_TREE}, -1, -1));
            return new TableView.Table(header, rows);
        }
        header[header.length - 1] = "call tree (" + (t.source() == CallTree.Source.RECORDED
                ? "recorded; " + t.overflowCalls() + " calls in " + CallTree.OTHER_PATHS : "from the event log, raw times") + ")";
        boolean[] keep = s.filter.isEmpty() ? null : matching(t, s.filter);
        for (CallTree.Node r : t.threads()) if (keep == null || keep[r.index()]) add(s, t, r, rows, keep);
        return new TableView.Table(header, rows);
    }

    /**
     * Search ({@code /}): the nodes whose name contains {@code filter} (any case) and their ancestors.
     * Children come after their parents, so one backward pass marks every path to a match.
     */
    static boolean[] matching(CallTree t, String filter) {
        String f = filter.toLowerCase(java.util.Locale.ROOT);
        List<CallTree.Node> nodes = t.nodes();
        boolean[] keep = new boolean[nodes.size()];
        for (int i = nodes.size() - 1; i >= 0; i--) {
            CallTree.Node n = nodes.get(i);
            if (n.kind() != CallTree.Kind.THREAD && n.name().toLowerCase(java.util.Locale.ROOT).contains(f)) keep[i] = true;
            if (keep[i] && n.parent() >= 0) keep[n.parent()] = true;
        }
        return keep;
    }

    /**
     * The visible rows under {@code top} in preorder, without recursion (deep recursion in the program
     * makes a deep tree). While searching ({@code keep} not null) the paths to the matches are shown
     * open and nothing else.
     */
    private static void add(UiState s, CallTree t, CallTree.Node top, List<TableView.Row> rows, boolean[] keep) {
        java.util.ArrayDeque<CallTree.Node> todo = new java.util.ArrayDeque<>();
        todo.push(top);
        while (!todo.isEmpty()) {
            CallTree.Node n = todo.pop();
            String key = s.treeKeys[n.index()];
            int[] kids = t.children(n.index());
            boolean root = n.kind() == CallTree.Kind.THREAD;
            boolean open = keep != null ? hasKept(kids, keep) : s.expanded.contains(key);
            String mark = kids.length == 0 ? "  " : open ? "- " : "+ ";
            String name = "  ".repeat(n.depth()) + mark + (root ? "thread " + n.name() : n.name());
            rows.add(new TableView.Row(new String[] {Long.toString(n.calls()), Units.millis(n.inclNanos()),
                root ? "" : Units.millis(n.exclNanos()), root ? "" : Units.microjoules(n.energyMicrojoules()),
                Units.microjoules(n.energyInclMicrojoules()), name}, n.processId(), n.probeId(), key));
            if (open) for (int i = kids.length - 1; i >= 0; i--) if (keep == null || keep[kids[i]]) todo.push(t.nodes().get(kids[i]));
        }
    }

    private static boolean hasKept(int[] kids, boolean[] keep) {
        for (int k : kids) if (keep[k]) return true;
        return false;
    }

    /** The node a row stands for, or null. */
    static CallTree.Node node(UiState s, TableView.Row r) {
        if (s.tree == null || r == null || r.key() == null) return null;
        for (int i = 0; i < s.treeKeys.length; i++) if (s.treeKeys[i].equals(r.key())) return s.tree.nodes().get(i);
        return null;
    }

    /** Expands ({@code open}) or collapses the selected node; collapsing a closed node or a leaf selects its parent. */
    static void expand(UiState s, boolean open) {
        CallTree.Node n = node(s, s.selected());
        if (n == null) return;
        String key = s.treeKeys[n.index()];
        if (open) {
            if (s.tree.children(n.index()).length > 0) s.expanded.add(key);
        } else if (!s.expanded.remove(key) && n.parent() >= 0) {
            String parent = s.treeKeys[n.parent()];
            for (int i = 0; i < s.rows.size(); i++) if (parent.equals(s.rows.get(i).key())) s.cursor = i;
        }
    }

    /** Enter: opens a closed node, closes an open one. */
    static void toggle(UiState s) {
        CallTree.Node n = node(s, s.selected());
        if (n == null) return;
        String key = s.treeKeys[n.index()];
        if (!s.expanded.remove(key) && s.tree.children(n.index()).length > 0) s.expanded.add(key);
    }

    /** The butterfly of {@code s.butterflyMethod}: its callers, itself, its callees. */
    static TableView.Table butterfly(UiState s) {
        List<TableView.Row> rows = new ArrayList<>();
        String m = s.butterflyMethod;
        String[] header = {"calls", "incl ms", "share %", "paths", "butterfly: callers, " + (m == null ? "" : m) + ", callees"};
        CallTree t = s.tree;
        if (t == null || t.source() == CallTree.Source.NONE) {
            rows.add(new TableView.Row(new String[] {"", "", "", "", TreeWriter.NO_TREE}, -1, -1));
            return new TableView.Table(header, rows);
        }
        TreeWriter.Totals tot = TreeWriter.totals(t, m);
        for (CallTree.Edge e : t.callers(m)) rows.add(edge("<- ", e, tot));
        rows.add(new TableView.Row(new String[] {Long.toString(tot.calls()), Units.millis(tot.inclNanos()), "100.0",
            Long.toString(tot.paths()), "** " + m}, -1, -1, m));
        for (CallTree.Edge e : t.callees(m)) rows.add(edge("-> ", e, tot));
        return new TableView.Table(header, rows);
    }

    private static TableView.Row edge(String arrow, CallTree.Edge e, TreeWriter.Totals tot) {
        boolean frame = !e.name().startsWith("(");  // "(thread main)", "(other paths)": not methods to follow
        return new TableView.Row(new String[] {Long.toString(e.calls()), Units.millis(e.inclNanos()),
            Units.percent(TreeWriter.share(e, tot)), Long.toString(e.paths()), arrow + e.name()}, -1, -1, frame ? e.name() : null);
    }

    /** The method name a row of the call tree stands for (null for threads and overflow frames). */
    static String method(UiState s, TableView.Row r) {
        CallTree.Node n = node(s, r);
        return n == null || n.kind() == CallTree.Kind.THREAD || n.kind() == CallTree.Kind.OTHER_PATHS ? null : n.name();
    }
}
