package org.hyprof.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Encodes what the runtime records as session chunks ({@link SessionFormat}) and hands each to
 * {@link #emit}: the session file writes it with a CRC, the collector connection frames it. App
 * threads only enqueue full event buffers; encoding and I/O happen on the recorder's background
 * thread or at shutdown, never on an app thread.
 */
abstract class ChunkSink implements Sink {
    protected final ChunkBuilder chunk = new ChunkBuilder();
    private final List<Object[]> pendingEvents = new ArrayList<Object[]>();
    /** Per thread index: the SEEN counters last sent, so snapshots carry only what moved. */
    private final Map<Integer, long[]> lastSeen = new HashMap<Integer, long[]>();
    protected boolean closed;

    /** Sends or writes the chunk now in {@link #chunk}. */
    protected abstract void emit(int type);

    /** An event buffer's chunk was emitted: recycle it (or keep it until acknowledged). */
    protected void emitted(byte[] buf) {
        Recorder.recycleBuffer(buf);
    }

    /** Closes the underlying output after the final chunks. */
    protected abstract void finish();

    /** Forget what was sent: the next snapshot carries every probe (after a reconnect). */
    protected synchronized void resetSnapshots() {
        lastSeen.clear();
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
            chunk.reset().varint(t.tid).varint((Integer) e[1]).varint((Long) e[2]).varint(len)
                    .bytes(buf, 0, len);
            emit(SessionFormat.EVENTS);
            emitted(buf);
        }
    }

    @Override
    public synchronized void manifest(String tsv) {
        chunk.reset().string(tsv);
        emit(SessionFormat.MANIFEST);
    }

    @Override
    public synchronized void calibration(Calibration c) {
        chunk.reset().varint(c.measuredAtNanos).varint(c.innerPicos).varint(c.perEventPicos)
                .varint(c.perIterPicos).varint(c.clockPicos);
        emit(SessionFormat.CALIBRATION);
    }

    @Override
    public synchronized void snapshot(boolean changedOnly) {
        drainEvents();
        if (closed) return;
        ThreadState[] threads = Recorder.threads();
        chunk.reset().varint(System.nanoTime()).varint(Stats.HIST).varint(threads.length);
        for (ThreadState t : threads) {
            long[][] pages = t.pages;
            long[] seen = lastSeen.get(t.index);
            int maxId = pages.length * Stats.PAGE_PROBES;
            if (seen == null || seen.length < maxId) {
                long[] n = new long[maxId];
                if (seen != null) System.arraycopy(seen, 0, n, 0, seen.length);
                seen = n;
                lastSeen.put(t.index, seen);
            }
            int count = 0;
            for (int pi = 0; pi < pages.length; pi++) {
                long[] p = pages[pi];
                if (p == null) continue;
                for (int k = 0; k < Stats.PAGE_PROBES; k++) {
                    long s = p[k * Stats.STRIDE + Stats.SEEN];
                    if (s != 0 && (!changedOnly || s != seen[(pi << Stats.PAGE_SHIFT) + k])) count++;
                }
            }
            chunk.varint(t.tid).string(t.name).varint(t.depthDrops).varint(t.log.dropped)
                    .varint(t.topInclNanos).varint(t.topNativeEstNanos).varint(t.topNativeEnergyPicojoules).varint(count);
            for (int pi = 0; pi < pages.length; pi++) {
                long[] p = pages[pi];
                if (p == null) continue;
                for (int k = 0; k < Stats.PAGE_PROBES && count > 0; k++) {
                    int b = k * Stats.STRIDE;
                    int id = (pi << Stats.PAGE_SHIFT) + k;
                    long s = p[b + Stats.SEEN];
                    if (s == 0 || (changedOnly && s == seen[id])) continue;
                    count--;
                    seen[id] = s;
                    chunk.varint(id);
                    for (int f = 0; f < Stats.HIST; f++) {
                        long v = p[b + f];
                        if (f == Stats.MIN && v == Long.MAX_VALUE) v = 0;
                        chunk.varint(v);
                    }
                    int nonEmpty = 0;
                    for (int h = 0; h < Stats.HIST_BUCKETS; h++) if (p[b + Stats.HIST + h] != 0) nonEmpty++;
                    chunk.varint(nonEmpty);
                    for (int h = 0; h < Stats.HIST_BUCKETS; h++) {
                        long v = p[b + Stats.HIST + h];
                        if (v != 0) chunk.varint(h).varint(v);
                    }
                }
                // probes only gain SEEN between counting and writing, so the count bounds the loop
            }
        }
        emit(SessionFormat.SNAPSHOT);
    }

    @Override
    public synchronized void custom(int type, byte[] payload) {
        chunk.reset().bytes(payload, 0, payload.length);
        emit(type);
    }

    @Override
    public synchronized void error(String message) {
        chunk.reset().string(message);
        emit(SessionFormat.ERROR);
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        snapshot(true);
        drainEvents();
        chunk.reset().varint(System.currentTimeMillis()).varint(System.nanoTime())
                .varint(Recorder.totalEventDrops());
        emit(SessionFormat.END);
        closed = true;
        finish();
    }
}
