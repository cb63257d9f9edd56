package org.hyprof.runtime;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the session file ({@link SessionFormat}). App threads only enqueue full event buffers;
 * all file I/O happens on the recorder's background thread or at shutdown, never on an app thread.
 */
final class SessionWriter implements Sink {
    private final File file;
    private final FileOutputStream out;
    private final ChunkBuilder chunk = new ChunkBuilder();
    private final List<Object[]> pendingEvents = new ArrayList<Object[]>();
    /** Per thread index: the SEEN counters last written, so snapshots carry only what moved. */
    private final Map<Integer, long[]> lastSeen = new HashMap<Integer, long[]>();
    private boolean closed;
    private IOException ioFailure;

    SessionWriter(File file, String header) throws IOException {
        this.file = file;
        File parent = file.getAbsoluteFile().getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs())
            throw new IOException("cannot create directory " + parent);
        this.out = new FileOutputStream(file);
        out.write(SessionFormat.MAGIC);
        chunk.reset().string(header).writeTo(SessionFormat.HEADER, out);
    }

    File file() {
        return file;
    }

    @Override
    public void events(ThreadState thread, int seq, long baseNanos, byte[] buf, int len) {
        synchronized (pendingEvents) {
            pendingEvents.add(new Object[] {thread, seq, baseNanos, buf, len});
            if (pendingEvents.size() >= 4) pendingEvents.notifyAll();
        }
    }

    /** Blocks the background thread until event chunks are waiting or the timeout passes. */
    void awaitWork(long millis) throws InterruptedException {
        synchronized (pendingEvents) {
            if (pendingEvents.size() < 4) pendingEvents.wait(millis);
        }
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
            write(SessionFormat.EVENTS);
            Recorder.recycleBuffer(buf);
        }
    }

    @Override
    public synchronized void manifest(String tsv) {
        chunk.reset().string(tsv);
        write(SessionFormat.MANIFEST);
    }

    @Override
    public synchronized void calibration(Calibration c) {
        chunk.reset().varint(c.measuredAtNanos).varint(c.innerPicos).varint(c.perEventPicos)
                .varint(c.perIterPicos).varint(c.clockPicos);
        write(SessionFormat.CALIBRATION);
    }

    @Override
    public synchronized void snapshot(boolean changedOnly) {
        drainEvents();
        if (closed) return;
        ThreadState[] threads = Recorder.threads();
        chunk.reset().varint(System.nanoTime()).varint(threads.length);
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
            chunk.varint(t.tid).string(t.name).varint(t.depthDrops).varint(t.log.dropped).varint(count);
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
        write(SessionFormat.SNAPSHOT);
    }

    @Override
    public synchronized void error(String message) {
        chunk.reset().string(message);
        write(SessionFormat.ERROR);
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        drainEvents();
        snapshot(true);
        chunk.reset().varint(System.currentTimeMillis()).varint(System.nanoTime())
                .varint(Recorder.totalEventDrops());
        write(SessionFormat.END);
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            ioFailure = e;
        }
    }

    IOException ioFailure() {
        return ioFailure;
    }

    private void write(int type) {
        if (closed || ioFailure != null) return;
        try {
            chunk.writeTo(type, out);
        } catch (IOException e) {
            ioFailure = e; // reported once by the recorder; the app goes on
            Recorder.report("cannot write session file " + file + ": " + e.getMessage());
        }
    }
}
