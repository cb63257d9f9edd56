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
        private final long[][] pages, nat;
        private final int[][] carry;
        /** Probe id → its row ({@link Stats} fields). */
        private final java.util.SortedMap<Integer, long[]> rows = new java.util.TreeMap<Integer, long[]>();

        ThreadData(ThreadState t) {
            this.tid = t.tid;
            this.name = t.name;
            this.eventDrops = t.log.dropped;
            this.depthDrops = t.depthDrops;
            this.statsDrops = t.statsDrops;
            this.pages = copy(t.pages);
            this.nat = copy(t.natPages);
            int[][] c = t.carryPages;
            if (c == null) this.carry = null;
            else {
                this.carry = new int[c.length][];
                for (int i = 0; i < c.length; i++) if (c[i] != null) carry[i] = c[i].clone();
            }
            // rows as a snapshot chunk has them: with the calls the thread's tree nodes hold
            HeldCalls held = new HeldCalls();
            held.collect(t.tree, 1000);
            int[] pendingId = new int[2];
            long[] pendingCalls = new long[2];
            int pendings = t.pendingCountOnly(pendingId, pendingCalls);
            int[] ids = pageIds();
            for (int i = 0; i < pendings; i++) {
                if (java.util.Arrays.binarySearch(ids, pendingId[i]) >= 0) continue;
                ids = java.util.Arrays.copyOf(ids, ids.length + 1); // calls not flushed yet only
                ids[ids.length - 1] = pendingId[i];
                java.util.Arrays.sort(ids);
            }
            for (int id : ids) {
                long[] row = new long[Stats.STRIDE];
                Stats.copy(pages, nat, carry, id, row);
                held.addTo(id, row, null);
                for (int i = 0; i < pendings; i++) {
                    if (pendingId[i] != id) continue;
                    row[Stats.SEEN] += pendingCalls[i];
                    row[Stats.COUNT_ONLY_CALLS] += pendingCalls[i];
                }
                rows.put(id, row);
            }
        }

        private static long[][] copy(long[][] src) {
            if (src == null) return null;
            long[][] r = new long[src.length][];
            for (int i = 0; i < src.length; i++) if (src[i] != null) r[i] = src[i].clone();
            return r;
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

        private int[] pageIds() {
            int n = 0;
            for (int pi = 0; pi < pages.length; pi++) {
                if (pages[pi] == null) continue;
                for (int k = 0; k < Stats.PAGE_PROBES; k++) if (pages[pi][k * Stats.REC + Stats.SEEN] != 0) n++;
            }
            int[] r = new int[n];
            n = 0;
            for (int pi = 0; pi < pages.length; pi++) {
                if (pages[pi] == null) continue;
                for (int k = 0; k < Stats.PAGE_PROBES; k++)
                    if (pages[pi][k * Stats.REC + Stats.SEEN] != 0) r[n++] = (pi << Stats.PAGE_SHIFT) + k;
            }
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
