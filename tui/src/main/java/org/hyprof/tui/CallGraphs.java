package org.hyprof.tui;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.hyprof.analysis.CallGraph;
import org.hyprof.store.Store;

/**
 * The call graphs (callers and callees) of a session's processes, for method detail. A graph is
 * built from the process's event log when detail first asks for it, on a worker thread so the UI
 * keeps answering keys while a long log is replayed (about a second for 10^7 calls); a live
 * session's graph is brought up to date with the chunks stored since, whenever asked again. The
 * first screen never reads the event log.
 */
final class CallGraphs implements AutoCloseable {
    /**
     * What detail can show for a process now: {@code graph} (null while the first replay runs or
     * when there is no event log), whether a replay is running, and the last failure (or null).
     */
    record State(CallGraph graph, boolean busy, String error, boolean noEventLog) {}

    private static final State NO_LOG = new State(null, false, null, true);

    private final Store store;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "hyprof-tui-callgraph");
        t.setDaemon(true);
        return t;
    });
    private final Map<Long, Entry> byProcess = new HashMap<>();
    private volatile boolean changed;

    private static final class Entry {
        final CallGraph.Builder builder;
        volatile CallGraph graph;
        volatile boolean busy;
        volatile String error;
        long chunksSeen = -1;

        Entry(long processId) {
            builder = new CallGraph.Builder(processId);
        }
    }

    CallGraphs(Store store) {
        this.store = store;
    }

    /**
     * The graph of a process as far as built; starts a replay when the process has event chunks
     * not replayed yet (and none is running). Asking costs one count query.
     */
    synchronized State get(long processId) {
        Entry e = byProcess.get(processId);
        long chunks = store.eventChunkCount(processId);
        if (e == null) {
            if (chunks == 0) return NO_LOG;
            e = new Entry(processId);
            byProcess.put(processId, e);
        }
        if (!e.busy && chunks != e.chunksSeen) {
            e.chunksSeen = chunks;
            e.busy = true;
            Entry job = e;
            worker.execute(() -> replay(job));
        }
        return new State(e.graph, e.busy, e.error, false);
    }

    private void replay(Entry e) {
        try {
            e.graph = e.builder.update(store).build();
            e.error = null;
        } catch (RuntimeException x) {
            e.error = x.getMessage() == null ? x.toString() : x.getMessage();
        } finally {
            e.busy = false;
            changed = true;
        }
    }

    /** Whether a replay finished since the last call (the screen should be drawn again). */
    boolean takeChanged() {
        boolean c = changed;
        changed = false;
        return c;
    }

    /** Waits until no replay is running (tests, and before the store closes). */
    void awaitIdle(long timeoutMillis) throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < end) {
            boolean busy = false;
            synchronized (this) {
                for (Entry e : byProcess.values()) busy |= e.busy;
            }
            if (!busy) return;
            Thread.sleep(5);
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
        try {
            worker.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
