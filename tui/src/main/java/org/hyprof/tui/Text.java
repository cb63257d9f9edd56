package org.hyprof.tui;

import java.util.List;

/**
 * Fitting text into terminal cells: cutting to a width, padding, aligning table columns, and an
 * exception as one line for the message line. Numbers and units are {@link org.hyprof.correlate.Units}'.
 */
final class Text {
    private Text() {}

    /** {@code s} cut to {@code w} characters, the last one then {@code ~}. */
    static String fit(String raw, int w) {
        String s = org.hyprof.correlate.Printable.of(raw); // names from agents: no control characters on the screen
        if (s.length() <= w) return s;
        return w <= 1 ? s.substring(0, w) : s.substring(0, w - 1) + "~";
    }

    /** {@code s} padded with spaces to {@code w} characters (a selected row is reversed to the edge). */
    static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }

    /** The width of each column: its widest cell. */
    static int[] widths(List<String[]> cells) {
        int[] w = new int[cells.get(0).length];
        for (String[] r : cells) for (int i = 0; i < r.length; i++) w[i] = Math.max(w[i], r[i].length());
        return w;
    }

    /** A table line: every cell but the last right-aligned to its column, two spaces apart. */
    static String line(String[] cells, int[] w) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.length - 1; i++) b.append(" ".repeat(w[i] - cells[i].length())).append(cells[i]).append("  ");
        return b.append(cells[cells.length - 1]).toString();
    }

    /** An exception's message, first line only (its class when it has none). */
    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl >= 0 ? m.substring(0, nl) : m;
    }
}
