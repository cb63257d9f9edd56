package org.hyprof.runtime.chunk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * SNAPSHOT: cumulative aggregates per thread and probe.
 *
 * <pre>
 * snapshot := nanoTime fieldCount F threadCount thread*
 * thread   := tid name depthDrops eventDrops topInclNanos topNativeEstNanos topNativeEnergyPicojoules [topCpuNanos] probeCount probe*
 * probe    := id field[F] nonEmptyBuckets (bucket count)*
 * </pre>
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

    /** One probe's fields (at least as many as the reader knows) and log₂ histogram. */
    public static final class ProbeRow {
        public final int id;
        public final long[] fields;
        public final long[] histogram;

        public ProbeRow(int id, long[] fields, long[] histogram) {
            this.id = id;
            this.fields = fields;
            this.histogram = histogram;
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
        w.varint(id);
        for (int f = 0; f < fields; f++) {
            long v = values[at + f];
            w.varint(f == minField && v == Long.MAX_VALUE ? 0 : v);
        }
        int nonEmpty = 0;
        for (int h = 0; h < buckets; h++) if (values[histAt + h] != 0) nonEmpty++;
        w.varint(nonEmpty);
        for (int h = 0; h < buckets; h++) {
            long v = values[histAt + h];
            if (v != 0) w.varint(h).varint(v);
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
            long topCpu = fields > org.hyprof.runtime.Stats.CPU_CLOCK ? r.varint() : -1;
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
                probes.add(new ProbeRow(id, f, hist));
            }
            threads.add(new ThreadRow(tid, name, depthDrops, eventDrops, topIncl, topNativeEst, topNativeEnergy, topCpu, probes));
        }
        return new SnapshotChunk(at, fields, threads);
    }
}
