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

    /**
     * The room a name (the last column) gets before figures give way: enough for
     * {@code d.HybridDemo.round(boolean)} (27); longer names are abbreviated into it.
     */
    static final int NAME_MIN = 28;

    /**
     * Which columns a table line of {@code w} characters shows, {@code longestName} the widest
     * name of the rows (the header's title does not count) and {@code blank} the columns with no
     * text in any row: all when they fit; otherwise blank columns go first (a stored session's
     * state), then figures from the right (calls, the first, stay longest) until the name has
     * {@link #NAME_MIN} columns or its full width.
     */
    static int[] columnsFor(int[] widths, boolean[] blank, int longestName, int w) {
        int n = widths.length;
        int want = Math.min(longestName, NAME_MIN);
        boolean[] keep = new boolean[n];
        java.util.Arrays.fill(keep, true);
        for (int i = 0; i < n - 1 && w - before(widths, keep) < want; i++) if (blank[i]) keep[i] = false;
        for (int drop = n - 2; drop >= 0 && w - before(widths, keep) < want; drop--) {
            if (!keep[drop]) continue;
            int left = 0;
            for (int i = 0; i < n - 1; i++) if (keep[i]) left++;
            if (left <= 1) break; // one figure stays beside the name
            keep[drop] = false;
        }
        int k = 0;
        for (boolean b : keep) if (b) k++;
        int[] out = new int[k];
        for (int i = 0, j = 0; i < n; i++) if (keep[i]) out[j++] = i;
        return out;
    }

    /** Columns taken before the last kept one: each kept figure's width and its two spaces. */
    private static int before(int[] widths, boolean[] keep) {
        int used = 0;
        for (int i = 0; i < widths.length - 1; i++) if (keep[i]) used += widths[i] + 2;
        return used;
    }

    /** Room left for the name (last column) once the shown figures are drawn, at least 1. */
    static int nameWidth(int[] widths, int[] shown, int w) {
        int used = 0;
        for (int i = 0; i < shown.length - 1; i++) used += widths[shown[i]] + 2;
        return Math.max(1, w - used);
    }

    /** The elements of {@code a} at {@code idx}. */
    static String[] pick(String[] a, int[] idx) {
        String[] out = new String[idx.length];
        for (int i = 0; i < idx.length; i++) out[i] = a[idx[i]];
        return out;
    }

    /** The elements of {@code a} at {@code idx}. */
    static int[] pick(int[] a, int[] idx) {
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) out[i] = a[idx[i]];
        return out;
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
