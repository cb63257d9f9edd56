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
 *
 * <p>A chunk of a flight-recorder log ({@code keep=last}) starts with the frames open at its
 * start ({@link EventRecords#OPEN}): those already open here (the previous chunk was replayed)
 * are kept; when chunks before it were overwritten, what is open here and not there closes at the
 * last timestamp seen (marked closed at the end) and the chunk's open frames open where the chunk
 * starts — so calls stay well nested across the cut, and no call takes the overwritten part as
 * its own time.
 *
 * <p>Records of format 5 carry the thread's CPU clock ({@link EventRecords.Cursor#cpuNanos}): each
 * activation's start and end keep the CPU time that goes with their wall time (-1 without one),
 * by the same rules (a close at the last timestamp takes the last CPU time seen).
 */
public abstract class EventReplay {
    private int size;
    private int[] ids = new int[64];
    private boolean[] loops = new boolean[64];
    private long[] starts = new long[64];
    /** Entry times as recorded (a reconstructed activation's start is moved to the cut, its entry is not). */
    private long[] entries = new long[64];
    /** The thread's CPU time at each start (-1: the records carry none). */
    private long[] startCpus = new long[64];
    private int[] slots = new int[64];
    private long lastNanos;
    /** The CPU time of the latest record (the runtime's CPU values never go back), or -1. */
    private long lastCpu = -1;

    /**
     * An activation opens, at wall time {@code startNanos} and thread CPU time
     * {@code startCpuNanos} (-1 when the records carry none). Returns a number kept with it and
     * handed back to {@link #closed} (e.g. its index in a list kept in start order).
     */
    protected abstract int opened(int probeId, boolean loop, long startNanos, long startCpuNanos);

    /** An activation closes; {@code call.depth()} activations are still open around it. */
    protected abstract void closed(Timeline.Call call, int slot);

    /** Replays one chunk of this thread's records (chunks in sequence order). */
    final void add(EventChunk c) {
        EventRecords.Cursor r = new EventRecords.Cursor(c.data(), c.baseNanos());
        int prefix = 0; // OPEN records at the chunk's start, not yet reconciled; -1 once past them
        while (r.next()) { // a record cut by the end of the chunk (thread mid-write at shutdown) ends it
            long t = r.nanos(), cpu = r.cpuNanos();
            int kind = r.kind();
            int id = r.id();
            if (kind == EventRecords.OPEN || kind == EventRecords.OPEN_LOOP) {
                if (prefix >= 0) addPrefix(prefix++, id, kind == EventRecords.OPEN_LOOP, t, cpu);
                continue; // anywhere else (a damaged chunk): ignored
            }
            if (prefix > 0) reconcile(prefix, t, cpu);
            prefix = -1;
            lastNanos = Math.max(lastNanos, t);
            lastCpu = Math.max(lastCpu, cpu);
            switch (kind) {
                case EventRecords.ENTER, EventRecords.LOOP_ENTER -> {
                    boolean loop = kind == EventRecords.LOOP_ENTER;
                    int slot = opened(id, loop, t, cpu);
                    push(id, loop, t, cpu, slot);
                }
                case EventRecords.EXIT, EventRecords.THROW, EventRecords.LOOP_EXIT -> {
                    boolean loop = kind == EventRecords.LOOP_EXIT;
                    int i = size - 1;
                    while (i >= 0 && (ids[i] != id || loops[i] != loop)) i--;
                    if (i < 0) break; // exit without enter
                    for (int j = size - 1; j > i; j--) closeTop(t, cpu, true, false, 0); // left open inside it
                    closeTop(t, cpu, kind == EventRecords.THROW, false, r.iterations());
                }
                default -> { }
            }
        }
        if (prefix > 0) reconcile(prefix, Long.MIN_VALUE, -1); // a chunk of open frames only
    }

    private int[] preIds = new int[16];
    private boolean[] preLoops = new boolean[16];
    private long[] preStarts = new long[16];
    private long[] preCpus = new long[16];

    private void addPrefix(int i, int id, boolean loop, long start, long startCpu) {
        if (i == preIds.length) {
            preIds = Arrays.copyOf(preIds, i * 2);
            preLoops = Arrays.copyOf(preLoops, i * 2);
            preStarts = Arrays.copyOf(preStarts, i * 2);
            preCpus = Arrays.copyOf(preCpus, i * 2);
        }
        preIds[i] = id;
        preLoops[i] = loop;
        preStarts[i] = start;
        preCpus[i] = startCpu;
    }

    /**
     * The chunk's first {@code n} records named the frames open at its start: keep the open
     * activations they share from the outermost, close the rest at the last timestamp seen, open
     * the chunk's others at {@code cutNanos}, the chunk's first record (or their entry, if later):
     * what they did before it was overwritten, so their calls start where the log does rather
     * than taking the lost part as their own time. Each start keeps the CPU time that goes with
     * the wall time it takes ({@code cutCpu} with the cut's).
     */
    private void reconcile(int n, long cutNanos, long cutCpu) {
        int common = 0;
        while (common < n && common < size && ids[common] == preIds[common] && loops[common] == preLoops[common]
                && entries[common] == preStarts[common]) common++;
        while (size > common) closeTop(lastNanos, lastCpu, false, true, 0);
        for (int i = common; i < n; i++) {
            long t = preStarts[i], cpu = preCpus[i];
            if (cutNanos > t) { t = cutNanos; cpu = cutCpu; }
            // never before what is already open: a damaged chunk must not unorder the stack
            if (size > 0 && starts[size - 1] > t) { t = starts[size - 1]; cpu = startCpus[size - 1]; }
            int slot = opened(preIds[i], preLoops[i], t, cpu);
            push(preIds[i], preLoops[i], t, cpu, slot);
            entries[size - 1] = preStarts[i];
            lastNanos = Math.max(lastNanos, t);
            lastCpu = Math.max(lastCpu, cpu);
        }
    }

    /** Closes every activation still open, at the last timestamp seen, marked closed at the end. */
    final void closeAll() {
        while (size > 0) closeTop(lastNanos, lastCpu, false, true, 0);
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

    private void push(int id, boolean loop, long start, long startCpu, int slot) {
        if (size == ids.length) {
            int n = size * 2;
            ids = Arrays.copyOf(ids, n);
            loops = Arrays.copyOf(loops, n);
            starts = Arrays.copyOf(starts, n);
            entries = Arrays.copyOf(entries, n);
            startCpus = Arrays.copyOf(startCpus, n);
            slots = Arrays.copyOf(slots, n);
        }
        ids[size] = id;
        loops[size] = loop;
        starts[size] = start;
        entries[size] = start;
        startCpus[size] = startCpu;
        slots[size] = slot;
        size++;
    }

    private void closeTop(long end, long endCpu, boolean thrown, boolean atEnd, long iterations) {
        int i = --size;
        closed(new Timeline.Call(ids[i], loops[i], starts[i], end, i, thrown, atEnd, iterations, startCpus[i], endCpu), slots[i]);
    }

    /**
     * Complete records in one chunk of a thread's event log (what the runtime recorded; a record
     * cut by the end of the chunk does not count).
     */
    public static long records(byte[] chunk) {
        return EventRecords.count(chunk);
    }
}
