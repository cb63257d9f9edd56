package org.hyprof.tui;

import com.googlecode.lanterna.SGR;
import com.googlecode.lanterna.TerminalSize;
import com.googlecode.lanterna.TextColor;
import com.googlecode.lanterna.graphics.TextGraphics;
import com.googlecode.lanterna.screen.Screen;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hyprof.config.MethodNames;
import org.hyprof.config.ProbeInfo;
import org.hyprof.correlate.Units;
import org.hyprof.tui.UiState.View;

/**
 * Draws one frame on the Lanterna screen: the title line, the current view (a table from
 * {@link TableView}, or the text of {@link DetailView}, {@link EnergyView} or {@link HelpView}),
 * the message or prompt line and the status line. It keeps the cursor and the text scroll within
 * what the view has, which only the drawing knows (rows and screen size).
 */
final class Painter {
    private final Screen screen;
    private final Source source;
    private final CallGraphs graphs;

    Painter(Screen screen, Source source, CallGraphs graphs) {
        this.screen = screen;
        this.source = source;
        this.graphs = graphs;
    }

    /** Draws {@code s}; a table view's rows become {@code s.rows}, what the keys then act on. */
    void paint(UiState s) throws IOException {
        screen.clear();
        TextGraphics g = screen.newTextGraphics();
        TerminalSize size = screen.getTerminalSize();
        int w = size.getColumns(), h = size.getRows();
        if (w < 40 || h < 8) {
            g.putString(0, 0, Text.fit("terminal too small: " + w + "x" + h + " (need 40x8)", w));
            screen.refresh();
            return;
        }
        if (s.data == null) {
            g.putString(0, 0, Text.fit("hyprof: " + s.message, w));
            g.putString(0, 2, Text.fit("press q to quit", w));
            screen.refresh();
            return;
        }
        TableView.Table table = null;
        List<String> text = null;
        switch (s.view) {
            case TREE -> table = TableView.tree(s);
            case HOTSPOTS -> table = TableView.hotspots(s);
            case DETAIL -> text = DetailView.lines(s, graphs);
            case ENERGY -> text = EnergyView.lines(s.data);
            case HELP -> text = HelpView.lines();
            case CALLTREE, BUTTERFLY -> {
                try {
                    TableView.Row before = s.selected(); // a row of the tree drawn last: select it again in the new one
                    if (CallTreeView.refresh(s, source, System.currentTimeMillis()) && s.keep == null && before != null && before.key() != null) s.keep = before;
                } catch (RuntimeException e) {
                    s.message = "cannot read the calling-context tree: " + Text.oneLine(e);
                }
                table = s.view == View.CALLTREE ? CallTreeView.tree(s) : CallTreeView.butterfly(s);
            }
        }
        s.rows = table == null ? List.of() : table.rows();
        g.enableModifiers(SGR.BOLD);
        g.putString(0, 0, Text.fit("hyprof  " + title(s), w));
        g.disableModifiers(SGR.BOLD);
        int body = h - 4;
        if (table != null) table(g, s, table.header(), w, body);
        else text(g, s, text, w, body);
        String msg = s.promptText != null ? s.promptLabel + s.promptText : s.message;
        if (s.promptText == null && !s.filter.isEmpty() && msg.isEmpty()) msg = "search: " + s.filter + "  (Esc clears)";
        g.setForegroundColor(TextColor.ANSI.YELLOW);
        g.putString(0, h - 2, Text.fit(msg, w));
        g.setForegroundColor(TextColor.ANSI.DEFAULT);
        g.enableModifiers(SGR.REVERSE);
        g.putString(0, h - 1, Text.pad(Text.fit(status(s), w), w));
        g.disableModifiers(SGR.REVERSE);
        screen.refresh();
    }

    /** The header and the rows that fit, scrolled to show the cursor's row, reversed. */
    private static void table(TextGraphics g, UiState s, String[] header, int w, int body) {
        List<TableView.Row> rows = s.rows;
        if (s.keep != null) s.keepSelection(s.keep);
        s.keep = null;
        s.cursor = Math.max(0, Math.min(s.cursor, rows.size() - 1));
        if (s.cursor < s.scroll) s.scroll = s.cursor;
        if (s.cursor >= s.scroll + body) s.scroll = s.cursor - body + 1;
        List<String[]> cells = new ArrayList<>();
        cells.add(header);
        for (TableView.Row r : rows) cells.add(r.cells());
        int[] widths = Text.widths(cells);
        // narrow terminals: figures give way (right to left) so the names stay readable
        int longest = 0;
        boolean[] blank = new boolean[header.length];
        java.util.Arrays.fill(blank, true);
        for (TableView.Row r : rows) {
            longest = Math.max(longest, r.cells()[r.cells().length - 1].length());
            for (int c = 0; c < r.cells().length; c++) if (!r.cells()[c].isBlank()) blank[c] = false;
        }
        int[] shown = Text.columnsFor(widths, blank, longest, w);
        int nameWidth = Text.nameWidth(widths, shown, w);
        g.enableModifiers(SGR.UNDERLINE);
        g.putString(0, 1, Text.fit(Text.line(Text.pick(header, shown), Text.pick(widths, shown)), w));
        g.disableModifiers(SGR.UNDERLINE);
        for (int i = 0; i < body && s.scroll + i < rows.size(); i++) {
            TableView.Row r = rows.get(s.scroll + i);
            boolean sel = s.scroll + i == s.cursor;
            if (sel) g.enableModifiers(SGR.REVERSE);
            String[] c = Text.pick(r.cells(), shown);
            c[c.length - 1] = abbreviate(c[c.length - 1], nameWidth);
            g.putString(0, 2 + i, Text.pad(Text.fit(Text.line(c, Text.pick(widths, shown)), w), w));
            if (sel) g.disableModifiers(SGR.REVERSE);
        }
        if (rows.isEmpty()) g.putString(0, 2, Text.fit(s.filter.isEmpty() ? "(nothing recorded here yet)" : "(no match for '" + s.filter + "')", w));
    }

    /**
     * A name cell at the width left for it: the call tree's indentation and marks (and the
     * butterfly's arrows) stay, the name after them is abbreviated as the method table does.
     */
    static String abbreviate(String cell, int width) {
        int k = 0;
        while (k < cell.length() && " +-<>*".indexOf(cell.charAt(k)) >= 0) k++;
        if (k == 0 || k >= width) return MethodNames.abbreviate(cell, width);
        return cell.substring(0, k) + MethodNames.abbreviate(cell.substring(k), width - k);
    }

    /** The text lines that fit from the scroll position; when more follow, the last row says so. */
    private static void text(TextGraphics g, UiState s, List<String> text, int w, int body) {
        s.textLines = text.size();
        s.textScroll = Math.max(0, Math.min(s.textScroll, text.size() - (body + 1)));
        boolean cut = text.size() - s.textScroll > body + 1; // the last row then says what is below
        for (int i = 0; i < body + 1 && s.textScroll + i < text.size(); i++) {
            int more = text.size() - s.textScroll - body;
            String l = cut && i == body ? "-- " + more + " more lines: Down, PgDn --" : text.get(s.textScroll + i);
            g.putString(0, 1 + i, Text.fit(l, w));
        }
    }

    /** The view's name and, zoomed into a process, the process and the zoom path. */
    private static String title(UiState s) {
        String v = s.view.name().toLowerCase(Locale.ROOT);
        if (s.view != View.TREE || s.currentProcess == null) return v + (s.view == View.TREE ? ": processes" : "");
        SessionView.Proc p = s.proc(s.currentProcess);
        if (p == null) return v;
        StringBuilder b = new StringBuilder(v + ": " + p.info().name() + " (pid " + p.info().pid() + ")");
        for (int t : s.scope(p).targets()) {
            ProbeInfo i = p.probe(t);
            b.append(" > ").append(i == null ? "#" + t : i.className().substring(i.className().lastIndexOf('.') + 1) + "." + i.methodName());
        }
        return b.toString();
    }

    private String status(UiState s) {
        String cal = s.data.calibration == null ? "uncalibrated" : "probe " + Units.nanosOfPicos(s.data.calibration.perEventPicos()) + " ns";
        return " " + source.describe() + " | " + cal + " | dropped " + s.data.eventDrops() + " | sort " + s.sortLabel() + " | ? help  q quit";
    }
}
