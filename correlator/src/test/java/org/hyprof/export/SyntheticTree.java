package org.hyprof.export;

import java.util.ArrayList;
import java.util.List;
import org.hyprof.store.NativeCost;
import org.hyprof.store.TreeRow;

/** Recorded calling-context trees of any size, for the HTML report's size tests and its scale figure (HtmlScaleIT). */
public final class SyntheticTree {
    private SyntheticTree() {}

    /**
     * A recorded tree of {@code n} nodes on one thread, a wide and fairly deep shape with
     * decreasing times (node k's children are 4k+1 … 4k+4), as a real program's tree is.
     */
    public static List<TreeRow> rows(long tid, int n) {
        List<TreeRow> rows = new ArrayList<>(n);
        long[] incl = new long[n + 1], self = new long[n + 1];
        for (int k = n; k >= 1; k--) {
            self[k] = 1_000 + (k * 7919L) % 50_000;
            incl[k] += self[k];
            int parent = k <= 4 ? 0 : (k - 1) / 4;
            if (parent > 0) incl[parent] += incl[k];
        }
        for (int k = 1; k <= n; k++) {
            int parent = k <= 4 ? 0 : (k - 1) / 4;
            rows.add(new TreeRow(tid, k, parent, 1 + k % 100, TreeRow.METHOD, 1 + k % 5, 0, incl[k], self[k], incl[k], self[k],
                    incl[k], incl[k], 0, 0, NativeCost.NONE, null, null));
        }
        return rows;
    }
}
