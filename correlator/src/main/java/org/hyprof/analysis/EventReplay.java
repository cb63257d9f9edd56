package org.hyprof.analysis;

import java.util.Arrays;
import org.hyprof.runtime.chunk.EventRecords;
import org.hyprof.store.EventChunk;

/**
 * Replays one thread's event records (the runtime's EventLog format), chunk after chunk, as
 * activations that open and close: each enter matched with its exit. The one reconstruction of
 * call trees from events; {@link Timeline} keeps every call, {@link CallGraph} only sums.
 *
 * <p>Rules: a record cut at the end of a chunk ends that chunk (a thread mid-write at shutdown);
 * an exit without its enter (events dropped by the budget, a probe switched on in between) is
 * skipped; activations left open above an exit (a probe switched off in between, an exception
 * through code without probes) close with it, as thrown; {@link #closeAll} closes what is still
 * open at the thread's last timestamp. Activations always close innermost first, so when
 * {@link #closed} is called the activations around the closed one are exactly those on the stack
 * ({@link #openCount}, {@link #openProbe}, {@link #openLoop}).
 */
public abstract class EventReplay {
    private int size;
    private int[] ids = new int[64];
    private boolean[] loops = new boolean[64];
    private long[] starts = new long[64];
    private int[] slots = new int[64];
    private long lastNanos;

    /**
     * An activation opens. Returns a number kept with it and handed back to {@link #closed}
     * (e.g. its index in a list kept in start order).
     */
    protected abstract int opened(int probeId, boolean loop, long startNanos);

    /** An activation closes; {@code call.depth()} activations are still open around it. */
    protected abstract void closed(Timeline.Call call, int slot);

    /** Replays one chunk of this thread's records (chunks in sequence order). */
    final void add(EventChunk c) {
        EventRecords.Cursor r = new EventRecords.Cursor(c.data(), c.baseNanos());
        while (r.next()) { // a record cut by the end of the chunk (thread mid-write at shutdown) ends it
            long t = r.nanos();
            lastNanos = Math.max(lastNanos, t);
            int kind = r.kind();
            int id = r.id();
            switch (kind) {
                case EventRecords.ENTER, EventRecords.LOOP_ENTER -> {
                    boolean loop = kind == EventRecords.LOOP_ENTER;
                    int slot = opened(id, loop, t);
                    push(id, loop, t, slot);
                }
                case EventRecords.EXIT, EventRecords.THROW, EventRecords.LOOP_EXIT -> {
                    boolean loop = kind == EventRecords.LOOP_EXIT;
                    int i = size - 1;
                    while (i >= 0 && (ids[i] != id || loops[i] != loop)) i--;
                    if (i < 0) break; // exit without enter
                    for (int j = size - 1; j > i; j--) closeTop(t, true, false, 0); // left open inside it
                    closeTop(t, kind == EventRecords.THROW, false, r.iterations());
                }
                default -> { }
            }
        }
    }

    /** Closes every activation still open, at the last timestamp seen, marked closed at the end. */
    final void closeAll() {
        while (size > 0) closeTop(lastNanos, false, true, 0);
    }

    /** Activations open now (outermost at 0). */
    final int openCount() {
        return size;
    }

    final int openProbe(int i) {
        return ids[i];
    }

    final boolean openLoop(int i) {
        return loops[i];
    }

    final long openStartNanos(int i) {
        return starts[i];
    }

    /** The latest timestamp replayed so far (0 before any record). */
    final long lastNanos() {
        return lastNanos;
    }

    private void push(int id, boolean loop, long start, int slot) {
        if (size == ids.length) {
            int n = size * 2;
            ids = Arrays.copyOf(ids, n);
            loops = Arrays.copyOf(loops, n);
            starts = Arrays.copyOf(starts, n);
            slots = Arrays.copyOf(slots, n);
        }
        ids[size] = id;
        loops[size] = loop;
        starts[size] = start;
        slots[size] = slot;
        size++;
    }

    private void closeTop(long end, boolean thrown, boolean atEnd, long iterations) {
        int i = --size;
        closed(new Timeline.Call(ids[i], loops[i], starts[i], end, i, thrown, atEnd, iterations), slots[i]);
    }

    /**
     * Complete records in one chunk of a thread's event log (what the runtime recorded; a record
     * cut by the end of the chunk does not count).
     */
    public static long records(byte[] chunk) {
        return EventRecords.count(chunk);
    }
}
