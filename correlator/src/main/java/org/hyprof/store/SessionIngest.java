package org.hyprof.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.SkippedMethod;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.Stats;

/**
 * Stores one process's session chunks as they come, from a session file ({@link SessionImporter})
 * or a live agent connection. Storing is idempotent, because an agent that reconnects (to the same
 * collector or to a restarted one on the same session) sends again its manifest, calibrations,
 * errors and unacknowledged chunks, and then a full snapshot:
 * <ul>
 * <li>aggregates are cumulative, so a later snapshot of a (thread, probe) replaces the earlier row
 *     (a snapshot older than one already stored, from a connection that has been replaced, is
 *     ignored);</li>
 * <li>event chunks are keyed by (thread, sequence), so a chunk sent again is stored once;</li>
 * <li>probes, skipped methods, calibrations and error notes already stored are not added again.</li>
 * </ul>
 */
public final class SessionIngest {
    private final Store store;
    private final long processId;
    private final Manifest manifest = new Manifest();
    private final Map<Integer, ProbeInfo> probesById = new HashMap<>();
    private final Set<SkippedMethod> skipped = new HashSet<>();
    private final Set<Long> calibrationsAtNanos = new HashSet<>();
    private final Set<String> notes = new HashSet<>();
    private final Map<Long, ThreadInfo> threads = new HashMap<>();
    /** Threads with at least one method row (what reports count as the process's threads). */
    private final Set<Long> methodThreads = new HashSet<>();
    private long lastSnapshotNanos = Long.MIN_VALUE;
    private long eventChunks;
    private boolean ended;
    private Long endWallMillis;
    private long endDrops = -1;

    /** Ingests into a process row that has nothing yet. */
    public SessionIngest(Store store, long processId) {
        this.store = store;
        this.processId = processId;
    }

    /**
     * Ingests into a process row that may hold data already (a collector restarted on a session
     * resumes its agents' rows): what is stored is read first, so resent chunks are recognised.
     */
    public static SessionIngest resume(Store store, long processId) {
        SessionIngest in = new SessionIngest(store, processId);
        in.load();
        return in;
    }

    private synchronized void load() {
        for (ProbeInfo p : store.probes(processId)) {
            manifest.add(p);
            probesById.put(p.id(), p);
        }
        for (SkippedMethod m : store.skipped(processId)) {
            if (skipped.add(m)) manifest.addSkipped(m);
        }
        for (CalibrationRecord c : store.calibrations(processId)) calibrationsAtNanos.add(c.measuredAtNanos());
        notes.addAll(store.notes(processId));
        for (ThreadInfo t : store.threads(processId)) threads.put(t.tid(), t);
        for (ProbeStats s : store.stats(processId)) if (isMethod(s.probeId())) methodThreads.add(s.tid());
        eventChunks = store.eventChunkCount(processId);
        for (ProcessInfo p : store.processes()) {
            if (p.id() != processId) continue;
            ended = p.status().equals(ProcessInfo.ENDED);
            endWallMillis = p.endWallMillis();
            if (ended) endDrops = p.eventDrops();
        }
    }

    private boolean isMethod(int probeId) {
        ProbeInfo i = probesById.get(probeId);
        return i == null || !i.loop(); // an unknown id counts as a method, as in reports
    }

    private void note(String severity, String message) {
        if (notes.add(severity + ": " + message)) store.addNote(processId, severity, message);
    }

    public long processId() {
        return processId;
    }

    /** Probes and skipped methods received so far. */
    public synchronized Manifest manifest() {
        Manifest m = new Manifest();
        m.addAll(manifest);
        return m;
    }

    /**
     * Stores one chunk (not HEADER: the process row exists already). Throws
     * IllegalStateException or ConfigException on a malformed payload.
     */
    public synchronized void accept(int type, byte[] data) {
        SessionReader.Payload p = new SessionReader.Payload(data);
        switch (type) {
            case SessionFormat.MANIFEST -> {
                Manifest m = Manifest.parse(p.string(), "manifest of process " + processId);
                List<ProbeInfo> newProbes = new ArrayList<>();
                for (ProbeInfo i : m.probes()) if (!i.equals(probesById.get(i.id()))) newProbes.add(i);
                List<SkippedMethod> newSkipped = new ArrayList<>();
                for (SkippedMethod k : m.skipped()) if (!skipped.contains(k)) newSkipped.add(k);
                if (newProbes.isEmpty() && newSkipped.isEmpty()) return; // sent again after a reconnect
                store.inTransaction(() -> {
                    store.addProbes(processId, newProbes);
                    store.addSkipped(processId, newSkipped);
                });
                for (ProbeInfo i : newProbes) {
                    if (probesById.put(i.id(), i) == null) manifest.add(i);
                }
                for (SkippedMethod k : newSkipped) if (skipped.add(k)) manifest.addSkipped(k);
            }
            case SessionFormat.CALIBRATION -> {
                CalibrationRecord c = new CalibrationRecord(p.varint(), p.varint(), p.varint(), p.varint(), p.varint());
                if (calibrationsAtNanos.add(c.measuredAtNanos())) store.addCalibration(processId, c);
            }
            case SessionFormat.SNAPSHOT -> snapshot(p);
            case SessionFormat.EVENTS -> {
                long tid = p.varint(), seq = p.varint(), base = p.varint();
                int len = (int) p.varint();
                if (store.addEventChunk(processId, tid, seq, base, p.bytes(len))) eventChunks++;
            }
            case SessionFormat.ERROR -> note("error", "runtime reported: " + p.string());
            case SessionFormat.END -> {
                endWallMillis = p.varint();
                p.varint();
                endDrops = p.varint();
                ended = true;
                store.updateProcessEnd(processId, endWallMillis, "ended", Math.max(endDrops, drops()));
            }
            case SessionFormat.NATIVE_INFO -> nativeInfo(p.string());
            case SessionFormat.NATIVE_BLOCKS -> {
                long n = p.varint();
                List<NativeBlock> blocks = new ArrayList<>();
                for (long i = 0; i < n; i++) {
                    String lib = p.string();
                    int index = (int) p.varint();
                    long address = p.varint();
                    String function = p.string();
                    int size = (int) p.varint();
                    long instructions = p.varint();
                    String categories = p.string(), disassembly = p.string();
                    long k = p.varint();
                    Map<Integer, Long> byProbe = new java.util.TreeMap<>();
                    for (long c = 0; c < k; c++) byProbe.merge((int) p.varint(), p.varint(), Long::sum);
                    blocks.add(new NativeBlock(lib, index, address, function.isEmpty() ? null : function, size, instructions,
                            categories, disassembly, byProbe));
                }
                store.putNativeBlocks(processId, blocks);
            }
            case SessionFormat.NATIVE_EPOCHS -> {
                long n = p.varint();
                List<NativeEpoch> epochs = new ArrayList<>();
                for (long i = 0; i < n; i++)
                    epochs.add(new NativeEpoch(p.varint(), p.varint(), (int) p.varint(), p.string(), p.varint(), p.varint(),
                            p.varint(), p.varint(), p.varint(), p.varint()));
                store.addNativeEpochs(processId, epochs);
            }
            default -> throw new IllegalStateException("unexpected chunk type " + type);
        }
    }

    /** A hybrid run's settings (stored per process); {@code error.N} keys become error notes. */
    private void nativeInfo(String text) {
        java.util.Properties props = new java.util.Properties();
        try {
            props.load(new java.io.StringReader(text));
        } catch (java.io.IOException | IllegalArgumentException e) {
            throw new IllegalStateException("native info: " + e.getMessage());
        }
        store.inTransaction(() -> {
            for (String k : new java.util.TreeSet<>(props.stringPropertyNames())) {
                if (k.startsWith("error.")) note("error", "native code: " + props.getProperty(k));
                else store.putNativeInfo(processId, k, props.getProperty(k));
            }
        });
    }

    private void snapshot(SessionReader.Payload p) {
        long atNanos = p.varint(); // the agent's nanoTime when it took the snapshot
        // cumulative: one taken before the latest stored is stale (it came late over a
        // connection the agent has since replaced, whose successor began with a full snapshot)
        if (atNanos < lastSnapshotNanos) return;
        lastSnapshotNanos = atNanos;
        int fields = (int) p.varint();
        if (fields > 256) throw new IllegalStateException("snapshot with " + fields + " fields per probe");
        long nThreads = p.varint();
        List<ProbeStats> rows = new ArrayList<>();
        List<ThreadInfo> ts = new ArrayList<>();
        for (long t = 0; t < nThreads; t++) {
            long tid = p.varint();
            String name = p.string();
            long depthDrops = p.varint();
            long eventDrops = p.varint();
            long topIncl = p.varint(), topNativeEst = p.varint(), topNativeEnergy = p.varint();
            ts.add(new ThreadInfo(tid, name, eventDrops, depthDrops, topIncl, topNativeEst, topNativeEnergy));
            long count = p.varint();
            for (long k = 0; k < count; k++) {
                int id = (int) p.varint();
                long[] f = new long[Math.max(fields, Stats.HIST)];
                for (int i = 0; i < fields; i++) f[i] = p.varint(); // fields this reader does not know are kept aside
                long[] hist = new long[Stats.HIST_BUCKETS];
                long nonEmpty = p.varint();
                for (long h = 0; h < nonEmpty; h++) {
                    int b = (int) p.varint();
                    long v = p.varint();
                    if (b >= 0 && b < hist.length) hist[b] = v;
                }
                if (id == 0) continue; // the runtime's calibration probe
                rows.add(new ProbeStats(tid, id, f[Stats.CALLS], f[Stats.INCL_RAW], f[Stats.EXCL_RAW], f[Stats.INCL],
                        f[Stats.EXCL], f[Stats.MIN], f[Stats.MAX], f[Stats.OUTER_CALLS], f[Stats.EVENTS_INSIDE],
                        f[Stats.ITERS_INSIDE], f[Stats.CHILD_CALLS], f[Stats.DIRECT_LOOP_EVENTS], f[Stats.DIRECT_ITERS],
                        f[Stats.ITERATIONS], f[Stats.THROWS], f[Stats.SEEN], hist, new NativeCost(f[Stats.NATIVE_INSTR],
                        f[Stats.NATIVE_CYCLES], f[Stats.NATIVE_EST_NS], f[Stats.NATIVE_ENERGY_PJ], f[Stats.NATIVE_INSTR_INCL],
                        f[Stats.NATIVE_CYCLES_INCL], f[Stats.NATIVE_EST_NS_INCL], f[Stats.NATIVE_ENERGY_PJ_INCL])));
            }
        }
        store.inTransaction(() -> {
            for (ThreadInfo t : ts) {
                threads.put(t.tid(), t);
                store.putThread(processId, t);
            }
            store.putStats(processId, rows);
            store.updateProcessDrops(processId, drops());
        });
        for (ProbeStats r : rows) if (isMethod(r.probeId())) methodThreads.add(r.tid());
    }

    /** Events dropped over all threads, as last reported. */
    public synchronized long drops() {
        long n = 0;
        for (ThreadInfo t : threads.values()) n += t.eventDrops();
        return Math.max(n, endDrops);
    }

    public synchronized boolean ended() {
        return ended;
    }

    /**
     * Threads that recorded at least one method (entered or called), as reports count them; the
     * runtime's own calibration thread, which only runs the calibration probe, is not one.
     */
    public synchronized int threadCount() {
        return methodThreads.size();
    }

    /** Event chunks stored (each thread's chunk once, however often it was sent). */
    public synchronized long eventChunks() {
        return eventChunks;
    }

    public synchronized int probeCount() {
        return manifest.probes().size();
    }
}
