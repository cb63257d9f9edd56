package org.hyprof.tui;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import org.hyprof.analysis.CallTree;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Zoom;

/**
 * Where the UI is and what it shows: the session's data, the view, the cursor and scroll
 * positions, the search filter, the message line, an open prompt, and the zoom of stored sessions.
 * Key actions change it, the views read it; it draws nothing and talks to no session. Used on the
 * UI thread only.
 */
final class UiState {
    /**
     * The views: zoom tree, hotspots, call tree and butterfly are tables; detail, energy and help are text.
     */
    enum View { TREE, HOTSPOTS, DETAIL, ENERGY, HELP, CALLTREE, BUTTERFLY }

    /** What the tables sort by, largest first. */
    enum Sort { EXCL, INCL, CALLS, ENERGY }

    /** The session as last loaded; null until a load succeeded. */
    SessionView data;
    View view = View.TREE;
    /** The view that Backspace or Esc returns to from detail, energy or help. */
    View back = View.TREE;
    Sort sort = Sort.EXCL;
    /** The selected table row, and the first row shown. */
    int cursor, scroll;
    String filter = "";
    String message = "";
    /** The process zoomed into, or null at the list of processes. */
    Long currentProcess;
    /** Zoom of stored (or disconnected) processes, which have no agent to keep it. */
    final Map<Long, Zoom.Scope> storedScopes = new HashMap<>();
    int detailProbe = -1;
    long detailProcess = -1;
    /** An open prompt (rule, search): its label, the text typed so far (null: no prompt), what Enter does. */
    String promptLabel;
    StringBuilder promptText;
    Consumer<String> promptAction;
    boolean running = true;
    /** The rows of the table last drawn: what the cursor moves over and key actions act on. */
    List<TableView.Row> rows = List.of();
    /** First line shown of a text view (detail, energy, help), and how many lines it has. */
    int textScroll, textLines;
    /** The row selected before a live refresh, to select again once the rows are rebuilt. */
    TableView.Row keep;
    /** The calling-context tree as last loaded (null until the call-tree or butterfly view is first shown), and when. */
    CallTree tree;
    long treeLoadedMillis;
    /** Each node's key (process, thread and path; see {@link CallTreeView#keys}), by node index. */
    String[] treeKeys = new String[0];
    /** The numbers given to call paths so far (see {@link CallTreeView#keys}). */
    final Map<String, Integer> pathIds = new HashMap<>();
    /** Keys of the expanded call-tree nodes: by path, so they stay expanded across reloads of a live tree. */
    final Set<String> expanded = new HashSet<>();
    /** The method the butterfly view shows. */
    String butterflyMethod;
    /** The row selected in the view the butterfly was opened from: selected again on the way back. */
    TableView.Row backRow;

    /** The loaded process with this store id, or null. */
    SessionView.Proc proc(Long id) {
        if (data == null || id == null) return null;
        for (SessionView.Proc p : data.processes) if (p.info().id() == id) return p;
        return null;
    }

    /** A process's zoom: the agent's while it is connected, else the one navigated here. */
    Zoom.Scope scope(SessionView.Proc p) {
        if (p == null) return Zoom.start();
        if (p.scope() != null && p.connected()) return p.scope();
        return storedScopes.getOrDefault(p.info().id(), p.scope() != null ? p.scope() : Zoom.start());
    }

    TableView.Row selected() {
        return cursor >= 0 && cursor < rows.size() ? rows.get(cursor) : null;
    }

    /**
     * Keeps the cursor on the same process or probe when a live refresh rebuilt the rows: the
     * table re-sorts as counts change, and a key press must act on the row the user saw selected.
     */
    void keepSelection(TableView.Row before) {
        if (before == null) return;
        for (int i = 0; i < rows.size(); i++) {
            TableView.Row r = rows.get(i);
            if (before.key() != null ? before.key().equals(r.key())
                    : r.processId() == before.processId() && r.probeId() == before.probeId()) {
                cursor = i;
                return;
            }
        }
    }

    /** Whether a probe's name (as shown in {@code p}) contains the search filter (any case). */
    boolean matches(SessionView.Proc p, ProbeInfo i) {
        return filter.isEmpty() || p.name(i).toLowerCase(Locale.ROOT).contains(filter.toLowerCase(Locale.ROOT));
    }

    String sortLabel() {
        return sort.name().toLowerCase(Locale.ROOT);
    }
}
