package org.hyprof.runtime;

/**
 * A sparse histogram of durations in {@link Buckets}: an open-addressing table of (bucket, count),
 * grown on demand, so a probe that sees a few distinct durations costs a few longs rather than the
 * 2,688 counters a dense table of the full scheme would take. Used by the runtime per (thread,
 * probe) and by hosts to merge and read them; meant for any other per-call distribution (a
 * calling-context tree node) as well.
 *
 * <p>The table is bounded ({@code maxSlots}): when it is full at that size, {@link #coarsen}
 * halves the resolution (s → s-1, see {@link Buckets}), which merges neighbouring buckets and makes
 * room; {@link #subBits} says the resolution the figures have.
 *
 * <p>Threads: one writer; a reader on another thread (a snapshot) reads the table reference once
 * (volatile: a grown or coarsened table is published whole, its resolution inside it) and may see
 * counts a little behind. Not thread-safe for several writers.
 */
public final class DurationHistogram {
    /** Slots of a new table: a probe seen in a few duration buckets. */
    public static final int MIN_SLOTS = 4;
    /** Largest table the runtime keeps per (thread, probe): 8 KiB, 768 distinct buckets (12 powers of two at full resolution). */
    public static final int RUNTIME_MAX_SLOTS = 1024;
    /** A table big enough for every bucket of the full scheme (hosts merging many threads never coarsen). */
    public static final int HOST_MAX_SLOTS = 4096;

    // slot layout: (bucket + 1) << COUNT_BITS | count; 0 is an empty slot. table[0] holds subBits.
    private static final int COUNT_BITS = 48;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;

    private volatile long[] table;
    /** Occupied slots (writer only). */
    private int used;
    private final int maxSlots;

    /** An empty histogram at full resolution, of at most {@code maxSlots} slots (a power of two ≥ {@link #MIN_SLOTS}). */
    public DurationHistogram(int maxSlots) {
        // ≥ 64: a table coarsened to log₂ (48 buckets) always has room
        if (maxSlots < 64 || Integer.bitCount(maxSlots) != 1) throw new IllegalArgumentException("maxSlots " + maxSlots);
        this.maxSlots = maxSlots;
        this.table = newTable(MIN_SLOTS, Buckets.SUB_BITS);
    }

    private static long[] newTable(int slots, int subBits) {
        long[] t = new long[slots + 1];
        t[0] = subBits;
        return t;
    }

    /** Bytes a table of {@code slots} slots takes (array header included), for budgets. */
    public static long tableBytes(int slots) {
        return 16 + 8L * (slots + 1);
    }

    /** Bytes this histogram holds now (object and table). */
    public long bytes() {
        return 24 + tableBytes(table.length - 1);
    }

    /** The resolution of the counts: {@link Buckets#SUB_BITS} unless coarsened. */
    public int subBits() {
        return (int) table[0];
    }

    /** Slots of the table now. */
    public int slots() {
        return table.length - 1;
    }

    /** Slots a {@link #grow} would give, or 0 when the table is at its bound. */
    public int nextSlots() {
        int n = table.length - 1;
        return n >= maxSlots ? 0 : n << 1;
    }

    /**
     * Counts one duration. Returns false, counting nothing, when the table has no room for a new
     * bucket: the caller then {@link #grow}s it (having the bytes) or {@link #coarsen}s it, and
     * records again. Allocates nothing.
     */
    public boolean record(long nanos) {
        long[] t = table;
        return add(t, Buckets.index(nanos, (int) t[0]), 1);
    }

    /**
     * Counts one duration when the table may not grow (its budget refused the bytes) and may not
     * coarsen (already log₂): in its own bucket if that is there, else in the occupied bucket
     * nearest to it, so the count stays exact and only this call's duration is approximated.
     * Returns whether it was approximated. Why: a table of a few slots at log₂ holds three powers of
     * two; without this, the record-grow-coarsen loop of a caller whose budget is spent never ends
     * (seen: a JUnit suite's thread hung in it once the tree's histogram budget ran out).
     */
    public boolean recordNearest(long nanos) {
        long[] t = table;
        int index = Buckets.index(nanos, (int) t[0]);
        if (add(t, index, 1)) return false;
        int best = -1, bestDistance = Integer.MAX_VALUE;
        for (int i = 1; i < t.length; i++) {
            long s = t[i];
            if (s == 0) continue;
            int d = Math.abs((int) (s >>> COUNT_BITS) - 1 - index);
            if (d < bestDistance) {
                bestDistance = d;
                best = i;
            }
        }
        if (best > 0) t[best]++; // a full table has an occupied slot; its count stays below COUNT_MASK in any run
        return true;
    }

    /** Where a table's growth takes its bytes from ({@link #recordWithin}). */
    public interface Budget {
        /** Takes {@code bytes}; false, taking nothing, when that much is not left. */
        boolean take(long bytes);
    }

    /**
     * Counts one duration, making room when the table is full: it grows while {@code budget}
     * grants the bytes (up to its bound), else coarsens; when it may do neither (no bytes, already
     * log₂) the call is counted in the nearest occupied bucket ({@link #recordNearest}), so every
     * call is counted and the loop always ends. Returns the bytes taken from the budget. The one
     * way the runtime's callers record past a full table (a thread's fine histograms, the tree's
     * nodes), so none of them can loop forever once its budget is spent.
     */
    public long recordWithin(long nanos, Budget budget) {
        long taken = 0;
        while (!record(nanos)) {
            int next = nextSlots();
            long more = next == 0 ? 0 : tableBytes(next) - tableBytes(slots());
            if (next != 0 && budget.take(more)) {
                taken += more;
                grow();
            } else if (!coarsen()) {
                recordNearest(nanos);
                break;
            }
        }
        return taken;
    }

    /** Adds {@code count} to bucket {@code index} of this histogram's current scheme; false when there is no room (as {@link #record}). */
    public boolean add(int index, long count) {
        long[] t = table;
        if (index < 0 || index >= Buckets.count((int) t[0]) || count < 0 || count > COUNT_MASK)
            throw new IllegalArgumentException("bucket " + index + " count " + count + " outside scheme " + t[0]);
        return add(t, index, count);
    }

    private boolean add(long[] t, int index, long count) {
        int mask = t.length - 2; // slots - 1
        long key = (long) (index + 1) << COUNT_BITS;
        int i = (index * 0x9E3779B1 >>> 16) & mask; // Fibonacci hash: neighbouring buckets spread
        for (;;) {
            long s = t[i + 1];
            if ((s & ~COUNT_MASK) == key) {
                t[i + 1] = s + count;
                return true;
            }
            if (s == 0) {
                if ((used + 1) * 4 > (mask + 1) * 3) return false; // load ≤ 3/4 keeps probes short
                t[i + 1] = key | count;
                used++;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    /** Doubles the table (the caller checked {@link #nextSlots} and has the bytes). */
    public void grow() {
        int n = nextSlots();
        if (n == 0) throw new IllegalStateException("histogram at its bound");
        rehash(n, subBits());
    }

    /** Halves the resolution (merging neighbouring buckets); false when already at log₂ (0 sub-bucket bits). */
    public boolean coarsen() {
        int s = subBits();
        if (s == 0) return false;
        rehash(table.length - 1, s - 1);
        return true;
    }

    private void rehash(int slots, int subBits) {
        long[] old = table, t = newTable(slots, subBits);
        int from = (int) old[0];
        used = 0;
        for (int i = 1; i < old.length; i++) {
            long s = old[i];
            if (s != 0) add(t, Buckets.coarsen((int) (s >>> COUNT_BITS) - 1, from, subBits), s & COUNT_MASK);
        }
        table = t; // published whole: a reader sees the old table or the new one
    }

    /**
     * Records a duration, growing the table (within its bound) or else coarsening it as needed;
     * for hosts and tests, which have no budget to ask.
     */
    public void recordAnyway(long nanos) {
        while (!record(nanos)) makeRoom();
    }

    /** Adds another histogram's counts (at the coarser of the two resolutions), growing or coarsening as needed. */
    public void merge(DurationHistogram other) {
        long[] o = other.table;
        int os = (int) o[0];
        while (subBits() > os) coarsen();
        for (int i = 1; i < o.length; i++) {
            long s = o[i];
            if (s == 0) continue;
            int b = (int) (s >>> COUNT_BITS) - 1;
            while (!add(Buckets.coarsen(b, os, subBits()), s & COUNT_MASK)) makeRoom();
        }
    }

    /** {@link #add}, growing or coarsening as needed ({@code index} in the scheme in force on entry). */
    public void addAnyway(int index, long count) {
        int s = subBits();
        while (!add(Buckets.coarsen(index, s, subBits()), count)) makeRoom();
    }

    private void makeRoom() {
        if (nextSlots() != 0) grow();
        else if (!coarsen()) throw new IllegalStateException("a log₂ table cannot be full"); // 48 buckets fit any bound ≥ 64
    }

    /** Receives non-empty buckets. */
    public interface Visitor {
        void bucket(int index, long count);
    }

    /**
     * Visits the non-empty buckets, in no particular order, and returns the resolution they are in
     * (read with them: a concurrent coarsening cannot mix the two).
     */
    public int forEach(Visitor v) {
        long[] t = table;
        for (int i = 1; i < t.length; i++) {
            long s = t[i];
            if (s != 0) v.bucket((int) (s >>> COUNT_BITS) - 1, s & COUNT_MASK);
        }
        return (int) t[0];
    }

    /**
     * Adds the counts to power-of-two buckets {@code into[at + b]}: bucket b holds [2<sup>b−1</sup>,
     * 2<sup>b</sup>) (0 holds 0), the last of {@code buckets} everything above. Exact at any
     * resolution: a bucket never straddles a power of two.
     */
    public void addLog2(long[] into, int at, int buckets) {
        long[] t = table;
        int s = (int) t[0];
        for (int i = 1; i < t.length; i++) {
            long v = t[i];
            if (v == 0) continue;
            int b = 64 - Long.numberOfLeadingZeros(Buckets.lowNanos((int) (v >>> COUNT_BITS) - 1, s));
            into[at + Math.min(b, buckets - 1)] += v & COUNT_MASK;
        }
    }

    /** Non-empty buckets now. */
    public int nonEmpty() {
        long[] t = table;
        int n = 0;
        for (int i = 1; i < t.length; i++) if (t[i] != 0) n++;
        return n;
    }

    /** Σ counts. */
    public long total() {
        long[] t = table;
        long n = 0;
        for (int i = 1; i < t.length; i++) n += t[i] & COUNT_MASK;
        return n;
    }

    /** A copy (same resolution and bound), for a snapshot that must not change under it. */
    public DurationHistogram copy() {
        DurationHistogram c = new DurationHistogram(maxSlots);
        long[] t = table.clone();
        c.table = t;
        int n = 0;
        for (int i = 1; i < t.length; i++) if (t[i] != 0) n++;
        c.used = n; // recounted: the writer's count may be ahead of the table read
        return c;
    }

    /**
     * The dense counts, bucket by bucket, in this histogram's scheme ({@link Buckets#count} long),
     * sorted the way percentiles need them. For hosts: it allocates.
     */
    public long[] dense() {
        long[] t = table;
        long[] d = new long[Buckets.count((int) t[0])];
        for (int i = 1; i < t.length; i++) {
            long s = t[i];
            if (s != 0) d[(int) (s >>> COUNT_BITS) - 1] += s & COUNT_MASK;
        }
        return d;
    }
}
