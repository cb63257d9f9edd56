package org.hyprof.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.SkippedMethod;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.Stats;
import org.hyprof.runtime.chunk.CalibrationChunk;
import org.hyprof.runtime.chunk.EndChunk;
import org.hyprof.runtime.chunk.EventsChunk;
import org.hyprof.runtime.chunk.MalformedPayloadException;
import org.hyprof.runtime.chunk.NativeBlocksChunk;
import org.hyprof.runtime.chunk.NativeEpochsChunk;
import org.hyprof.runtime.chunk.NativeLibrariesChunk;
import org.hyprof.runtime.chunk.PayloadReader;
import org.hyprof.runtime.chunk.SnapshotChunk;
import org.hyprof.runtime.chunk.TextChunk;
import org.hyprof.runtime.chunk.ThreadsChunk;
import org.hyprof.runtime.chunk.TreeChunk;

/**
 * Stores one process's session chunks as they come, from a session file ({@link SessionImporter})
 * or a live agent connection. Storing is idempotent, because an agent that reconnects (to the same
 * collector or to a restarted one on the same session) sends again its manifest, calibrations,
 * errors and unacknowledged chunks, and then a full snapshot:
 * <ul>
 * <li>aggregates are cumulative, so a later snapshot of a (thread, probe) replaces the earlier row
 *     (a thread's part of a snapshot older than one of its parts already stored over the same
 *     connection is ignored; see {@link #newConnection}); a thread that no longer appears (it
 *     ended, and the runtime dropped it after writing its final figures) keeps its last rows;</li>
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
    /** Per thread: the agent time of its newest snapshot part stored over this connection (or file). */
    private final Map<Long, Long> lastSnapshotNanos = new HashMap<>();
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
        ProcessInfo p = store.process(processId); // this row only, whatever the session's size
        if (p != null) {
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
     * Stores one chunk (not HEADER: the process row exists already), decoded by its kind's codec
     * ({@code org.hyprof.runtime.chunk}). Throws {@link MalformedPayloadException} (an
     * IllegalArgumentException), IllegalStateException or ConfigException on a malformed payload,
     * having stored nothing of it.
     */
    public synchronized void accept(int type, byte[] data) {
        PayloadReader r = new PayloadReader(data);
        switch (type) {
            case SessionFormat.MANIFEST -> manifest(TextChunk.decode(r));
            case SessionFormat.CALIBRATION -> calibration(CalibrationChunk.decode(r));
            case SessionFormat.SNAPSHOT -> snapshot(SnapshotChunk.decode(r, Stats.HIST, Stats.HIST_BUCKETS));
            case SessionFormat.EVENTS -> events(EventsChunk.decode(r));
            case SessionFormat.ERROR -> {
                String m = TextChunk.decode(r);
                // the runtime's informational lines (e.g. what keep=last overwrote) say so
                if (m.startsWith(SessionFormat.INFO_PREFIX)) note("info", m.substring(SessionFormat.INFO_PREFIX.length()));
                else note("error", "runtime reported: " + m);
            }
            case SessionFormat.END -> end(EndChunk.decode(r));
            case SessionFormat.NATIVE_INFO -> nativeInfo(TextChunk.decode(r));
            case SessionFormat.NATIVE_BLOCKS -> nativeBlocks(NativeBlocksChunk.decode(r));
            case SessionFormat.NATIVE_EPOCHS -> nativeEpochs(NativeEpochsChunk.decode(r));
            case SessionFormat.NATIVE_LIBRARIES -> nativeLibraries(NativeLibrariesChunk.decode(r));
            case SessionFormat.THREADS -> {
                for (ThreadsChunk.Row t : ThreadsChunk.decode(r).rows)
                    if (t.osTid > 0) store.putOsTid(processId, t.tid, t.osTid);
            }
            case SessionFormat.TREE -> tree(TreeChunk.decode(r));
            default -> throw new IllegalStateException("unexpected chunk type " + type);
        }
    }

    /** Pieces already noted (a manifest is sent again after a reconnect). */
    private final java.util.Set<String> pieces = new java.util.HashSet<>();

    private void manifest(String tsv) {
        Manifest m = Manifest.parse(tsv, "manifest of process " + processId);
        for (Manifest.Piece p : m.pieces()) {
            if (pieces.add(p.key()))
                note("info", "instrumented piece " + p.key() + ": " + p.probes() + " probes, ids " + (p.base() + 1) + "–"
                        + (p.base() + p.probes()));
        }
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

    private void calibration(CalibrationChunk c) {
        if (calibrationsAtNanos.add(c.measuredAtNanos))
            store.addCalibration(processId, new CalibrationRecord(c.measuredAtNanos, c.innerPicos, c.perEventPicos,
                    c.perIterPicos, c.clockPicos, c.perEventSpreadPicos, c.countPicos, c.loopFlushPicos));
    }

    private void events(EventsChunk e) {
        if (store.addEventChunk(processId, e.tid, e.seq, e.baseNanos, e.records)) eventChunks++;
    }

    /** Tree nodes replace what was stored of them (cumulative), with the budget the runtime ran with. */
    private void tree(TreeChunk c) {
        List<TreeRow> rows = new ArrayList<>();
        for (TreeChunk.ThreadNodes t : c.threads)
            for (TreeChunk.Node n : t.nodes) {
                long[] f = n.fields;
                rows.add(new TreeRow(t.tid, n.index, n.parent, n.kind() == TreeRow.OTHER_PATHS ? -1 : n.probeId(),
                        Math.min(n.kind(), TreeRow.OTHER_PATHS), f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9],
                        new NativeCost(f[12], f[13], f[14], f[15], 0, 0, 0, 0),
                        c.cpuClock == 0 ? null : new CpuTime(f[10], f[11], c.cpuClock), n.histogram));
            }
        store.inTransaction(() -> {
            store.putTreeInfo(processId, c.nodeBudget, c.nodesHeld);
            store.putTree(processId, rows);
        });
    }

    private void end(EndChunk e) {
        endWallMillis = e.endWallMillis;
        endDrops = e.droppedEvents;
        ended = true;
        store.updateProcessEnd(processId, endWallMillis, "ended", Math.max(endDrops, drops()));
    }

    private void nativeBlocks(NativeBlocksChunk chunk) {
        List<NativeBlock> blocks = new ArrayList<>();
        for (NativeBlocksChunk.Block b : chunk.blocks) {
            Map<Integer, Long> byProbe = new TreeMap<>();
            for (int i = 0; i < b.probeIds.length; i++) byProbe.merge(b.probeIds[i], b.executions[i], Long::sum);
            blocks.add(new NativeBlock(b.library, b.index, b.offset, b.function, b.sizeBytes, b.instructions,
                    b.categories, b.disassembly, byProbe));
        }
        store.putNativeBlocks(processId, blocks);
    }

    private void nativeEpochs(NativeEpochsChunk chunk) {
        List<NativeEpoch> epochs = new ArrayList<>();
        for (NativeEpochsChunk.Epoch e : chunk.epochs)
            epochs.add(new NativeEpoch(e.id, e.tid, e.probeId, e.symbol, e.blocks, e.instructions, e.cycles, e.estNanos,
                    e.energyPicojoules, e.emulatorNanos));
        store.addNativeEpochs(processId, epochs);
    }

    private void nativeLibraries(NativeLibrariesChunk chunk) {
        List<NativeLibraryCost> costs = new ArrayList<>();
        for (NativeLibrariesChunk.Row x : chunk.rows)
            costs.add(new NativeLibraryCost(x.library, x.codeLibrary, x.system, x.probeId, x.blocks, x.instructions, x.cycles, x.estNanos,
                    x.energyPicojoules));
        store.putNativeLibraryCosts(processId, costs);
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

    /**
     * The agent connected again: its snapshots are ordered among those of the new connection only
     * (which begins with a full one), so a snapshot whose time was wrong, or came from another
     * connection, cannot make later genuine ones look stale. The caller drops what arrives over a
     * replaced connection.
     */
    public synchronized void newConnection() {
        lastSnapshotNanos.clear();
    }

    private void snapshot(SnapshotChunk snap) {
        // cumulative: a thread's part taken (agent's nanoTime) before its latest one stored over this
        // connection (or file) is stale: the final snapshot overtakes periodic ones still queued
        // behind it. Per thread, not per snapshot: an ended thread's final figures (written once,
        // when the runtime drops it) are in no later snapshot, and the final one may overtake them.
        List<ProbeStats> rows = new ArrayList<>();
        List<ThreadInfo> ts = new ArrayList<>();
        for (SnapshotChunk.ThreadRow t : snap.threads) {
            Long last = lastSnapshotNanos.get(t.tid);
            if (last != null && snap.atNanos < last) continue;
            lastSnapshotNanos.put(t.tid, snap.atNanos);
            ts.add(new ThreadInfo(t.tid, t.name, t.eventDrops, t.depthDrops, t.topInclNanos, t.topNativeEstNanos,
                    t.topNativeEnergyPicojoules, t.topCpuNanos >= 0 ? t.topCpuNanos : null));
            for (SnapshotChunk.ProbeRow p : t.probes) {
                if (p.id == 0) continue; // the runtime's calibration probe
                long[] f = p.fields; // at least Stats.HIST long: fields this reader does not know are kept aside
                rows.add(new ProbeStats(t.tid, p.id, f[Stats.CALLS], f[Stats.INCL_RAW], f[Stats.EXCL_RAW], f[Stats.INCL],
                        f[Stats.EXCL], f[Stats.MIN], f[Stats.MAX], f[Stats.OUTER_CALLS], f[Stats.EVENTS_INSIDE],
                        f[Stats.ITERS_INSIDE], f[Stats.CHILD_CALLS], f[Stats.DIRECT_LOOP_EVENTS], f[Stats.DIRECT_ITERS],
                        f[Stats.ITERATIONS], f[Stats.THROWS], f[Stats.SEEN], p.histogram, new NativeCost(f[Stats.NATIVE_INSTR],
                        f[Stats.NATIVE_CYCLES], f[Stats.NATIVE_EST_NS], f[Stats.NATIVE_ENERGY_PJ], f[Stats.NATIVE_INSTR_INCL],
                        f[Stats.NATIVE_CYCLES_INCL], f[Stats.NATIVE_EST_NS_INCL], f[Stats.NATIVE_ENERGY_PJ_INCL]),
                        new TimingCounts(f[Stats.COUNT_ONLY_CALLS], f[Stats.CLAMPED], f[Stats.TINY_CALLS],
                                f[Stats.COUNT_ONLY_MEDIAN_NS]), cpu(snap.fields, f), p.fine));
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

    /**
     * A probe's CPU time, or null when the writer sent none: a format-2 writer (fewer fields than
     * {@link Stats#CPU_CLOCK}) or a run whose CPU clock was off (mode 0).
     */
    private static CpuTime cpu(int fieldsSent, long[] f) {
        if (fieldsSent <= Stats.CPU_CLOCK) return null;
        int clock = (int) f[Stats.CPU_CLOCK];
        return clock == CpuTime.SAMPLED || clock == CpuTime.DUAL ? new CpuTime(f[Stats.CPU_INCL], f[Stats.CPU_EXCL], clock) : null;
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
