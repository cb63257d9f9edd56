package org.hyprof.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A copy of the aggregates recorded so far, per thread. Values are cumulative since start; field
 * indexes are the constants in {@link Stats}.
 */
public final class Snapshot {
    /** One thread's aggregates. */
    public static final class ThreadData {
        public final long tid;
        public final String name;
        /** Events dropped because the log budget was used up. */
        public final long eventDrops;
        /** Activations not recorded because the shadow stack was full. */
        public final long depthDrops;
        /** Activations not recorded because a new stats page would have gone past the stats budget. */
        public final long statsDrops;
        /** Probe id → its row ({@link Stats} fields). */
        private final java.util.SortedMap<Integer, long[]> rows = new java.util.TreeMap<Integer, long[]>();

        ThreadData(ThreadState t) {
            this.tid = t.tid;
            this.name = t.name;
            this.eventDrops = t.log.dropped;
            this.depthDrops = t.depthDrops;
            this.statsDrops = t.statsDrops;
            // rows as a snapshot chunk has them (read once here, as the snapshot thread reads them):
            // with the calls the thread's tree nodes hold and the count-only calls not flushed yet
            long[][] pages = t.pages;
            HeldCalls held = new HeldCalls();
            held.pendingOf(t);
            held.collect(t.tree, 1000);
            java.util.SortedSet<Integer> ids = new java.util.TreeSet<Integer>();
            for (int pi = 0; pi < pages.length; pi++) {
                if (pages[pi] == null) continue;
                for (int k = 0; k < Stats.PAGE_PROBES; k++)
                    if (pages[pi][k * Stats.REC + Stats.SEEN] != 0) ids.add((pi << Stats.PAGE_SHIFT) + k);
            }
            for (int id : held.pendingIds()) ids.add(id);
            for (int id : ids) {
                long[] row = new long[Stats.STRIDE];
                Stats.copy(pages, t.natPages, t.carryPages, id, row);
                held.addTo(id, row, null);
                rows.put(id, row);
            }
        }

        /** A field of probe {@code id} ({@link Stats#CALLS}, …, {@code Stats.HIST + b}); 0 when never recorded. */
        public long get(int id, int field) {
            if (id < 0 || field < 0 || field >= Stats.STRIDE) return 0;
            long[] row = rows.get(id);
            long v = row == null ? (field == Stats.MIN ? Long.MAX_VALUE : 0) : row[field];
            return field == Stats.MIN && v == Long.MAX_VALUE ? 0 : v;
        }

        /** Ids of probes seen on this thread, ascending. */
        public int[] ids() {
            int[] r = new int[rows.size()];
            int i = 0;
            for (int id : rows.keySet()) r[i++] = id;
            return r;
        }
    }

    public final List<ThreadData> threads;
    public final Calibration calibration;

    Snapshot(ThreadState[] states, Calibration calibration) {
        List<ThreadData> list = new ArrayList<ThreadData>(states.length);
        for (ThreadState t : states) list.add(new ThreadData(t));
        this.threads = Collections.unmodifiableList(list);
        this.calibration = calibration;
    }

    /** Σ over threads of one field of one probe (MIN and MAX are combined as min and max). */
    public long total(int id, int field) {
        long v = field == Stats.MIN ? Long.MAX_VALUE : 0;
        for (ThreadData t : threads) {
            long x = t.get(id, field);
            if (field == Stats.MIN) { if (t.get(id, Stats.CALLS) > 0) v = Math.min(v, x); }
            else if (field == Stats.MAX) v = Math.max(v, x);
            else v += x;
        }
        return field == Stats.MIN && v == Long.MAX_VALUE ? 0 : v;
    }
}
