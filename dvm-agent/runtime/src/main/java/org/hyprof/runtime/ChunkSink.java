package org.hyprof.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.runtime.chunk.CalibrationChunk;
import org.hyprof.runtime.chunk.EndChunk;
import org.hyprof.runtime.chunk.EventsChunk;
import org.hyprof.runtime.chunk.PayloadWriter;
import org.hyprof.runtime.chunk.SnapshotChunk;
import org.hyprof.runtime.chunk.TextChunk;
import org.hyprof.runtime.chunk.ThreadsChunk;
import org.hyprof.runtime.chunk.TreeChunk;

/**
 * Encodes what the runtime records as session chunks ({@link SessionFormat}, each kind with its
 * codec in {@code org.hyprof.runtime.chunk}) and hands each to {@link #emit}: the session file writes it with a CRC, the collector connection frames it. App
 * threads only enqueue full event buffers; encoding and I/O happen on the recorder's background
 * thread or at shutdown, never on an app thread.
 */
abstract class ChunkSink implements Sink {
    protected final PayloadWriter chunk = new PayloadWriter();
    private final List<Object[]> pendingEvents = new ArrayList<Object[]>();
    /** Per thread index: the SEEN counters last sent, so snapshots carry only what moved. */
    private final Map<Integer, long[]> lastSeen = new HashMap<Integer, long[]>();
    protected boolean closed;
    /**
     * The chunk being emitted must not be lost (a retired thread's final figures): a connection
     * keeps it until acknowledged, although periodic snapshots are not kept.
     */
    protected boolean mustKeep;
    /** One probe's record in snapshot order, filled under this sink's lock for writing. */
    private final long[] record = new long[Stats.STRIDE];

    /** Sends or writes the chunk now in {@link #chunk}. */
    protected abstract void emit(int type);

    /** An event buffer's chunk was emitted: recycle it (or keep it until acknowledged). */
    protected void emitted(byte[] buf) {
        Recorder.recycleBuffer(buf);
    }

    /** Closes the underlying output after the final chunks. */
    protected abstract void finish();

    /**
     * Per thread index: the tree nodes last sent (their count) and each one's calls + count-only
     * calls + iterations then, so a TREE chunk carries only new and changed nodes.
     */
    private final Map<Integer, long[]> treeSent = new HashMap<Integer, long[]>();
    /**
     * The final snapshot is being written: trees go whole. A node is marked sent by its calls, so
     * a periodic snapshot that read a node while its thread was adding a call (calls counted, the
     * times not yet) would otherwise leave that call's times out for good if no call follows.
     */
    private boolean closing;

    /** Forget what was sent: the next snapshot carries every probe (after a reconnect). */
    protected synchronized void resetSnapshots() {
        lastSeen.clear();
        treeSent.clear();
    }

    @Override
    public void events(ThreadState thread, int seq, long baseNanos, byte[] buf, int len) {
        synchronized (pendingEvents) {
            pendingEvents.add(new Object[] {thread, seq, baseNanos, buf, len});
        }
    }

    @Override
    public void drain() {
        drainEvents();
    }

    synchronized void drainEvents() {
        List<Object[]> batch;
        synchronized (pendingEvents) {
            if (pendingEvents.isEmpty()) return;
            batch = new ArrayList<Object[]>(pendingEvents);
            pendingEvents.clear();
        }
        for (Object[] e : batch) {
            ThreadState t = (ThreadState) e[0];
            byte[] buf = (byte[]) e[3];
            int len = (Integer) e[4];
            EventsChunk.encode(chunk.reset(), t.tid, (Integer) e[1], (Long) e[2], buf, len);
            emit(SessionFormat.EVENTS);
            emitted(buf);
        }
    }

    @Override
    public synchronized void manifest(String tsv) {
        TextChunk.encode(chunk.reset(), tsv);
        emit(SessionFormat.MANIFEST);
        chunk.release(2 * SNAPSHOT_CHUNK_BYTES); // a large program's manifest is megabytes
    }

    @Override
    public synchronized void calibration(Calibration c) {
        new CalibrationChunk(c.measuredAtNanos, c.innerPicos, c.perEventPicos, c.perIterPicos, c.clockPicos,
                c.perEventSpreadPicos, c.countPicos, c.loopFlushPicos).encode(chunk.reset());
        emit(SessionFormat.CALIBRATION);
    }

    @Override
    public synchronized void snapshot(boolean changedOnly) {
        drainEvents();
        if (closed) return;
        ThreadState[] threads = Recorder.threads();
        // the final snapshot writes every row: a periodic one may have read a row mid-update
        // (with a tree, its calls are counted in the probe's record and its node, read apart)
        writeSnapshot(threads, changedOnly && !closing);
        writeTrees(threads, changedOnly && !closing);
        if (lastSeen.size() > threads.length || treeSent.size() > threads.length) { // states dropped without retire (calibration threads)
            java.util.Set<Integer> held = new java.util.HashSet<Integer>();
            for (ThreadState t : threads) held.add(t.index);
            lastSeen.keySet().retainAll(held);
            treeSent.keySet().retainAll(held);
        }
    }

    @Override
    public synchronized void retire(ThreadState[] ended) {
        drainEvents();
        if (closed || ended.length == 0) return;
        // every probe: periodic snapshots before it may have been lost (a collector connection)
        mustKeep = true;
        try {
            writeSnapshot(ended, false);
            writeTrees(ended, false);
        } finally {
            mustKeep = false;
        }
        for (ThreadState t : ended) {
            lastSeen.remove(t.index);
            treeSent.remove(t.index);
        }
    }

    /**
     * A snapshot chunk is cut after about this many payload bytes ({@link #snapshotChunkBytes}):
     * a thread's rows go into as many chunks as they need (each with the thread's header and part
     * of its probes, all at one time; the host keeps a (thread, probe) row from any of them as from
     * one chunk), so that a program with many threads and probes is not encoded into one buffer of
     * its whole size, nor into a chunk beyond what readers accept ({@link SessionFormat#MAX_PAYLOAD}).
     */
    static final int SNAPSHOT_CHUNK_BYTES = 1 << 20;

    /** Where this sink cuts snapshot chunks (payload bytes). */
    protected int snapshotChunkBytes() {
        return SNAPSHOT_CHUNK_BYTES;
    }

    /** The calls each thread's tree holds, added back to its probe rows. */
    private final HeldCalls heldCalls = new HeldCalls();

    /** Thread parts of the snapshot chunk being built, after its header. */
    private final PayloadWriter parts = new PayloadWriter();
    private final PayloadWriter part = new PayloadWriter();

    private void writeSnapshot(ThreadState[] threads, boolean changedOnly) {
        announceThreads(threads);
        long at = System.nanoTime();
        int partsInChunk = 0;
        boolean emitted = false;
        parts.reset();
        for (ThreadState t : threads) {
            long[][] pages = t.pages, nat = t.natPages;
            int[][] carry = t.carryPages;
            DurationHistogram[][] fp = t.finePages;
            long[] seen = lastSeen.get(t.index);
            int maxId = pages.length * Stats.PAGE_PROBES;
            if (seen == null || seen.length < maxId) {
                long[] n = new long[maxId];
                if (seen != null) System.arraycopy(seen, 0, n, 0, seen.length);
                seen = n;
                lastSeen.put(t.index, seen);
            }
            heldCalls.pendingOf(t); // count-only calls added up and not flushed yet: their rows are written
            int count = 0;
            for (int pi = 0; pi < pages.length; pi++) {
                long[] p = pages[pi];
                if (p == null) continue;
                for (int k = 0; k < Stats.PAGE_PROBES; k++) {
                    long s = p[k * Stats.REC + Stats.SEEN];
                    int id = (pi << Stats.PAGE_SHIFT) + k;
                    if ((s != 0 && (!changedOnly || s != seen[id])) || heldCalls.isPending(id)) count++;
                }
            }
            if (count > 0 && !heldCalls.collect(t.tree, 1000)) continue; // its tree kept growing: next time
            // probes only gain SEEN between counting and writing, so the count bounds the loop
            int inPart = 0;
            part.reset();
            boolean headerDone = false;
            for (int pi = 0; pi < pages.length && count > 0; pi++) {
                long[] p = pages[pi];
                if (p == null) continue;
                for (int k = 0; k < Stats.PAGE_PROBES && count > 0; k++) {
                    int id = (pi << Stats.PAGE_SHIFT) + k;
                    long s = p[k * Stats.REC + Stats.SEEN];
                    if ((s == 0 || (changedOnly && s == seen[id])) && !heldCalls.isPending(id)) continue;
                    count--;
                    seen[id] = s;
                    Stats.copy(pages, nat, carry, id, record);
                    DurationHistogram fine = heldCalls.addTo(id, record, fine(fp, id));
                    SnapshotChunk.probe(part, id, record, 0, Stats.HIST, Stats.MIN, Stats.HIST, Stats.HIST_BUCKETS, fine);
                    inPart++;
                    if (parts.size() + part.size() >= snapshotChunkBytes()) {
                        threadPart(t, inPart);
                        emitSnapshot(at, ++partsInChunk);
                        partsInChunk = 0;
                        emitted = true;
                        inPart = 0;
                        headerDone = true;
                    }
                }
            }
            if (inPart > 0 || !headerDone) {
                threadPart(t, inPart);
                partsInChunk++;
            }
        }
        if (partsInChunk > 0 || !emitted) emitSnapshot(at, partsInChunk);
        parts.release(2 * SNAPSHOT_CHUNK_BYTES);
        part.release(2 * SNAPSHOT_CHUNK_BYTES);
    }

    /**
     * TREE chunks of the threads' calling-context trees: nodes new since the last one, and (with
     * {@code changedOnly}) those whose calls, count-only calls or iterations moved; else every node.
     * Cut like snapshots, a thread's nodes spread over as many chunks as they need.
     */
    private void writeTrees(ThreadState[] threads, boolean changedOnly) {
        if (PathTree.budget() <= 0) return;
        long at = System.nanoTime();
        int threadParts = 0;
        parts.reset();
        for (ThreadState t : threads) {
            PathTree tr = t.tree;
            if (tr == null) continue;
            int size = tr.size; // volatile read first: the nodes below it are complete
            int[] parent = tr.parent, key = tr.key;
            long[] rec = tr.rec;
            DurationHistogram[] hists = tr.hists;
            if (parent.length < size || rec.length < size * PathTree.NREC) continue; // grown under us: next time
            long[] sent = treeSent.get(t.index);
            if (sent == null || sent.length < size) {
                long[] n = new long[Math.max(size, sent == null ? 16 : sent.length * 2)];
                if (sent != null) System.arraycopy(sent, 0, n, 0, sent.length);
                java.util.Arrays.fill(n, sent == null ? 0 : sent.length, n.length, -1);
                sent = n;
                treeSent.put(t.index, sent);
            }
            int inPart = 0;
            part.reset();
            for (int i = 1; i < size; i++) {
                int b = i * PathTree.NREC;
                long mark = rec[b + PathTree.CALLS] + rec[b + PathTree.COUNT_ONLY] + rec[b + PathTree.ITERATIONS];
                if (changedOnly && sent[i] == mark) continue;
                sent[i] = mark;
                TreeChunk.node(part, i, parent[i], key[i], rec, b, i < hists.length ? hists[i] : null);
                inPart++;
                if (parts.size() + part.size() >= snapshotChunkBytes()) {
                    TreeChunk.thread(parts, t.tid, inPart);
                    parts.append(part);
                    part.reset();
                    emitTree(at, ++threadParts);
                    threadParts = 0;
                    inPart = 0;
                }
            }
            if (inPart > 0) {
                TreeChunk.thread(parts, t.tid, inPart);
                parts.append(part);
                part.reset();
                threadParts++;
            }
        }
        if (threadParts > 0) emitTree(at, threadParts);
        parts.reset();
        parts.release(2 * SNAPSHOT_CHUNK_BYTES);
        part.release(2 * SNAPSHOT_CHUNK_BYTES);
    }

    private void emitTree(long at, int threadParts) {
        TreeChunk.begin(chunk.reset(), at, PathTree.budget(), PathTree.nodesHeld(), Recorder.cpuMode, threadParts);
        chunk.append(parts);
        parts.reset();
        emit(SessionFormat.TREE);
        chunk.release(2 * SNAPSHOT_CHUNK_BYTES);
    }

    /** Probe id's fine histogram in a thread's fine pages, or null. */
    private static DurationHistogram fine(DurationHistogram[][] fp, int id) {
        int pi = id >>> Stats.PAGE_SHIFT;
        if (fp == null || pi >= fp.length || fp[pi] == null) return null;
        return fp[pi][id & (Stats.PAGE_PROBES - 1)];
    }

    /** Threads this sink writes for the first time (or again after a reconnect): their OS ids first. */
    private void announceThreads(ThreadState[] threads) {
        int fresh = 0;
        for (ThreadState t : threads) if (!lastSeen.containsKey(t.index)) fresh++;
        if (fresh == 0) return;
        ThreadsChunk.begin(chunk.reset(), fresh);
        for (ThreadState t : threads) if (!lastSeen.containsKey(t.index)) ThreadsChunk.row(chunk, t.tid, t.osTid);
        emit(SessionFormat.THREADS);
    }

    /** Adds a thread's header and the {@code probes} rows in {@link #part} to the chunk being built. */
    private void threadPart(ThreadState t, int probes) {
        SnapshotChunk.thread(parts, t.tid, t.name, t.depthDrops, t.log.dropped, t.topInclNanos, t.topNativeEstNanos,
                t.topNativeEnergyPicojoules, t.topCpuNanos, probes);
        parts.append(part);
        part.reset();
    }

    private void emitSnapshot(long at, int threadParts) {
        SnapshotChunk.begin(chunk.reset(), at, Stats.HIST, threadParts);
        chunk.append(parts);
        parts.reset();
        emit(SessionFormat.SNAPSHOT);
        chunk.release(2 * SNAPSHOT_CHUNK_BYTES);
    }

    @Override
    public synchronized void custom(int type, byte[] payload) {
        chunk.reset().bytes(payload, 0, payload.length);
        emit(type);
    }

    @Override
    public synchronized void error(String message) {
        TextChunk.encode(chunk.reset(), message);
        emit(SessionFormat.ERROR);
    }

    @Override
    public void close() {
        if (closeChunks()) finish();
    }

    /**
     * Emits the final snapshot and END and stops accepting chunks; false when closed already.
     * {@link #finish} runs after it without this sink's lock, so that it may wait (for a collector)
     * while other threads still get the lock (a reconnect's snapshot request finds it closed).
     */
    protected synchronized boolean closeChunks() {
        if (closed) return false;
        closing = true; // the final snapshot: every tree node, whatever was sent before
        snapshot(true);
        drainEvents();
        new EndChunk(System.currentTimeMillis(), System.nanoTime(), Recorder.totalEventDrops()).encode(chunk.reset());
        emit(SessionFormat.END);
        closed = true;
        return true;
    }
}
