package org.hyprof.runtime.chunk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.hyprof.runtime.Buckets;
import org.hyprof.runtime.DurationHistogram;
import org.hyprof.runtime.Stats;

/**
 * SNAPSHOT: cumulative aggregates per thread and probe.
 *
 * <pre>
 * snapshot := nanoTime fieldCount F threadCount thread*
 * thread   := tid name depthDrops eventDrops topInclNanos topNativeEstNanos topNativeEnergyPicojoules [topCpuNanos] probeCount probe*
 * probe    := id field[F] nonEmptyBuckets (bucket count)* [fineBuckets (bucket count)*]
 * </pre>
 *
 * The fine histogram ({@code org.hyprof.runtime.Buckets} at the resolution field
 * {@code Stats.FINE_HIST} gives, less one) is there when F is above {@code Stats.FINE_HIST}
 * (format 4); with that field 0 its pair count is 0 and the probe's percentiles are log₂ ones.
 *
 * {@code topCpuNanos} (the thread CPU time of its top-level activations) is there when F is above
 * {@code Stats.CPU_CLOCK}: format 3 writes it, format 2 wrote fewer fields and no such value.
 * Fields are in the runtime's {@code Stats} index order; a reader keeps fields it does not know
 * aside and gives 0 for fields an older writer did not send. A later snapshot of the same thread
 * and probe replaces an earlier one. A large snapshot is written as several chunks with the same
 * time, a thread's probes split among them (each part with the thread's header). The runtime writes it with {@link #begin}, {@link #thread}
 * and {@link #probe} straight from its aggregate pages (no copy); hosts {@link #decode} it.
 */
public final class SnapshotChunk {
    /** Field counts beyond this are refused: a writer has a few dozen. */
    public static final int MAX_FIELDS = 256;
    /** A fine bucket's count at or above this is skipped: sums over many threads must still fit the table's 48 bits. */
    static final long MAX_FINE_COUNT = 1L << 40;

    public final long atNanos;
    public final int fields;
    public final List<ThreadRow> threads;

    public SnapshotChunk(long atNanos, int fields, List<ThreadRow> threads) {
        this.atNanos = atNanos;
        this.fields = fields;
        this.threads = Collections.unmodifiableList(threads);
    }

    /** One thread's totals and probes. */
    public static final class ThreadRow {
        public final long tid;
        public final String name;
        public final long depthDrops;
        public final long eventDrops;
        /** Deducted inclusive time of the thread's top-level activations. */
        public final long topInclNanos;
        public final long topNativeEstNanos;
        public final long topNativeEnergyPicojoules;
        /** Thread CPU time of the top-level activations, ns; -1 when the writer sent none (format 2). */
        public final long topCpuNanos;
        public final List<ProbeRow> probes;

        public ThreadRow(long tid, String name, long depthDrops, long eventDrops, long topInclNanos,
                         long topNativeEstNanos, long topNativeEnergyPicojoules, long topCpuNanos, List<ProbeRow> probes) {
            this.topCpuNanos = topCpuNanos;
            this.tid = tid;
            this.name = name;
            this.depthDrops = depthDrops;
            this.eventDrops = eventDrops;
            this.topInclNanos = topInclNanos;
            this.topNativeEstNanos = topNativeEstNanos;
            this.topNativeEnergyPicojoules = topNativeEnergyPicojoules;
            this.probes = Collections.unmodifiableList(probes);
        }
    }

    /** One probe's fields (at least as many as the reader knows), log₂ histogram and fine histogram. */
    public static final class ProbeRow {
        public final int id;
        public final long[] fields;
        public final long[] histogram;
        /** Per-call durations in {@code Buckets} (its own resolution), or null: an older writer, or none kept. */
        public final DurationHistogram fine;

        public ProbeRow(int id, long[] fields, long[] histogram) {
            this(id, fields, histogram, null);
        }

        public ProbeRow(int id, long[] fields, long[] histogram, DurationHistogram fine) {
            this.id = id;
            this.fields = fields;
            this.histogram = histogram;
            this.fine = fine;
        }
    }

    // ------------------------------------------------------------------ encoding (runtime)

    public static void begin(PayloadWriter w, long atNanos, int fields, int threadCount) {
        w.varint(atNanos).varint(fields).varint(threadCount);
    }

    /** A thread's header, in a snapshot begun with more than {@code Stats.CPU_CLOCK} fields (format 3). */
    public static void thread(PayloadWriter w, long tid, String name, long depthDrops, long eventDrops, long topInclNanos,
                              long topNativeEstNanos, long topNativeEnergyPicojoules, long topCpuNanos, int probeCount) {
        w.varint(tid).string(name).varint(depthDrops).varint(eventDrops).varint(topInclNanos).varint(topNativeEstNanos)
                .varint(topNativeEnergyPicojoules).varint(topCpuNanos).varint(probeCount);
    }

    /**
     * One probe from {@code values[at .. at+fields)} and histogram {@code values[histAt .. histAt+buckets)};
     * field {@code minField} holds {@code Long.MAX_VALUE} until something is recorded, written as 0.
     */
    public static void probe(PayloadWriter w, int id, long[] values, int at, int fields, int minField, int histAt, int buckets) {
        probe(w, id, values, at, fields, minField, histAt, buckets, null);
    }

    /**
     * One probe as {@link #probe(PayloadWriter, int, long[], int, int, int, int, int)}, then (when
     * {@code fields} is above {@code Stats.FINE_HIST}) its fine histogram: {@code fine}'s buckets,
     * or, when {@code fine} is null and the probe has exactly one call, that call's bucket (its
     * time is the minimum); else none. Field {@code FINE_HIST} is written from what is sent, not
     * from {@code values}.
     */
    public static void probe(PayloadWriter w, int id, long[] values, int at, int fields, int minField, int histAt, int buckets,
                             DurationHistogram fine) {
        final int fineField = Stats.FINE_HIST;
        int fineBits = -1;
        long onlyCall = -1;
        if (fields > fineField) {
            if (fine != null) fineBits = fine.subBits();
            else if (values[at + Stats.CALLS] == 1 && values[at + minField] != Long.MAX_VALUE) { // not mid-update
                fineBits = Buckets.SUB_BITS;
                onlyCall = values[at + minField];
            }
        }
        w.varint(id);
        for (int f = 0; f < fields; f++) {
            long v = values[at + f];
            if (f == fineField) v = fineBits + 1;
            w.varint(f == minField && v == Long.MAX_VALUE ? 0 : v);
        }
        int nonEmpty = 0;
        for (int h = 0; h < buckets; h++) if (values[histAt + h] != 0) nonEmpty++;
        w.varint(nonEmpty);
        for (int h = 0; h < buckets; h++) {
            long v = values[histAt + h];
            if (v != 0) w.varint(h).varint(v);
        }
        if (fields <= fineField) return;
        if (fineBits < 0) w.varint(0);
        else if (fine == null) w.varint(1).varint(Buckets.index(onlyCall, fineBits)).varint(1);
        else {
            // counted and written from one copy: the owning thread may add buckets meanwhile
            DurationHistogram c = fine.copy();
            w.varint(c.nonEmpty());
            c.forEach(new PairWriter(w)); // the snapshot thread's allocation, not the app's
        }
    }

    /**
     * A histogram as {@code resolution+1 pairCount (bucket count)*}, {@code 0 0} when there is none
     * (written from one copy: the owning thread may add buckets meanwhile); read by {@link #readFine}.
     */
    public static void writeFine(PayloadWriter w, DurationHistogram h) {
        if (h == null) {
            w.varint(0).varint(0);
            return;
        }
        DurationHistogram c = h.copy();
        w.varint(c.subBits() + 1).varint(c.nonEmpty());
        c.forEach(new PairWriter(w));
    }

    /** A histogram {@link #writeFine} wrote, checked as a snapshot's fine histogram is; null when none. */
    public static DurationHistogram readFine(PayloadReader r) {
        return fine(r, r.varint());
    }

    /** Writes (bucket, count) pairs (a class, not a lambda: the runtime targets Java 8 bytecode for Android). */
    private static final class PairWriter implements DurationHistogram.Visitor {
        private final PayloadWriter w;

        PairWriter(PayloadWriter w) {
            this.w = w;
        }

        @Override
        public void bucket(int index, long count) {
            w.varint(index).varint(count);
        }
    }

    // ------------------------------------------------------------------ decoding (host)

    /**
     * @param knownFields the fields the reader knows: each row has at least this many (0 where the
     *                    writer sent fewer)
     * @param buckets     histogram buckets the reader keeps; buckets beyond are ignored
     */
    public static SnapshotChunk decode(PayloadReader r, int knownFields, int buckets) {
        long at = r.varint();
        int fields = r.varintAtMost(MAX_FIELDS, "fields per probe");
        int nThreads = r.count(8); // a thread takes at least 8 bytes
        List<ThreadRow> threads = new ArrayList<ThreadRow>(nThreads);
        for (int t = 0; t < nThreads; t++) {
            long tid = r.varint();
            String name = r.string();
            long depthDrops = r.varint(), eventDrops = r.varint();
            long topIncl = r.varint(), topNativeEst = r.varint(), topNativeEnergy = r.varint();
            long topCpu = fields > Stats.CPU_CLOCK ? r.varint() : -1;
            int nProbes = r.count(2 + fields);
            List<ProbeRow> probes = new ArrayList<ProbeRow>(nProbes);
            for (int k = 0; k < nProbes; k++) {
                int id = r.varintAtMost(Integer.MAX_VALUE, "probe id");
                long[] f = new long[Math.max(fields, knownFields)];
                for (int i = 0; i < fields; i++) f[i] = r.varint();
                long[] hist = new long[buckets];
                int nonEmpty = r.count(2);
                for (int h = 0; h < nonEmpty; h++) {
                    long b = r.varint();
                    long v = r.varint();
                    if (b >= 0 && b < buckets) hist[(int) b] = v;
                }
                DurationHistogram fine = fields > Stats.FINE_HIST ? fine(r, f[Stats.FINE_HIST]) : null;
                probes.add(new ProbeRow(id, f, hist, fine));
            }
            threads.add(new ThreadRow(tid, name, depthDrops, eventDrops, topIncl, topNativeEst, topNativeEnergy, topCpu, probes));
        }
        return new SnapshotChunk(at, fields, threads);
    }

    /**
     * A fine histogram's pairs, at resolution {@code bitsPlusOne - 1}: null when that is 0 (none
     * kept). A resolution outside the scheme is refused; a bucket outside it, or a count too large
     * to add up, is skipped (as log₂ buckets beyond the reader's are). The table grows with the
     * distinct valid buckets only, never with a count read.
     */
    private static DurationHistogram fine(PayloadReader r, long bitsPlusOne) {
        if (bitsPlusOne < 0 || bitsPlusOne > Buckets.SUB_BITS + 1)
            throw new MalformedPayloadException("fine histogram resolution " + (bitsPlusOne - 1) + " (0 … " + Buckets.SUB_BITS + " known)");
        int n = r.count(2);
        if (bitsPlusOne == 0) {
            for (int i = 0; i < n; i++) { r.varint(); r.varint(); }
            return null;
        }
        int bits = (int) bitsPlusOne - 1, limit = Buckets.count(bits);
        DurationHistogram h = new DurationHistogram(DurationHistogram.HOST_MAX_SLOTS);
        while (h.subBits() > bits) h.coarsen();
        for (int i = 0; i < n; i++) {
            long b = r.varint(), c = r.varint();
            if (b < 0 || b >= limit || c <= 0 || c >= MAX_FINE_COUNT) continue;
            h.addAnyway((int) b, c);
        }
        return h;
    }
}
