package org.hyprof.analysis;

import org.hyprof.runtime.chunk.EventRecords;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.MethodNames;
import org.hyprof.config.ProbeInfo;
import org.hyprof.correlate.EnergyModel;
import org.hyprof.runtime.chunk.EventRecords;
import org.hyprof.store.EventChunk;
import org.hyprof.store.NativeEpoch;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;

/**
 * The calls of one events-mode process as a stream, for exports of any size: each thread's log
 * is read from the store a chunk at a time and replayed by {@link EventReplay} (the same rules as
 * {@link Timeline}), and every call is handed to a {@link Visitor} as it opens and closes, then
 * forgotten. Memory: one chunk, the open activations, and the thread's native epochs (hybrid
 * runs) — never the session's calls. {@link #replay} goes thread after thread;
 * {@link #cursor} follows one thread at a pull, so that several can be merged by time.
 *
 * <p>The store must stay open while a stream is read.
 */
public final class CallStream {
    /** What a replay hands over, thread after thread (threads by id). */
    public interface Visitor {
        /** A thread's log begins. */
        default void thread(ThreadRef thread) {}

        /** A call or loop opens, inside {@code depth} open activations. */
        void open(int probeId, boolean loop, long startNanos, int depth);

        /**
         * A call or loop opens, when the thread's CPU clock read {@code startCpuNanos} (-1 when
         * the records carry none; see {@link Timeline.Call#startCpuNanos}). What a replay calls;
         * by default the open without the CPU time.
         */
        default void open(int probeId, boolean loop, long startNanos, long startCpuNanos, int depth) {
            open(probeId, loop, startNanos, depth);
        }

        /**
         * The innermost open activation closes. {@code selfEnergyMicrojoules} is what it spent in
         * itself, as {@link Timeline#selfEnergyMicrojoules} counts it; {@code epoch} the native
         * call it made when it is a native method's bridge in a hybrid run, else null.
         */
        void close(Timeline.Call call, double selfEnergyMicrojoules, NativeEpoch epoch);

        /** A thread's log ended (everything it opened is closed). */
        default void threadEnd(ThreadRef thread) {}
    }

    /** A thread with an event log: its id, name and whether a hybrid run recorded native calls on it. */
    /**
     * A thread with events: its Java id, name, whether native calls ran on it, and its OS thread
     * id (0 when the session has none: recorded before hyprof stored them, or not readable there).
     */
    public record ThreadRef(long tid, String name, boolean hasNativeEpochs, long osTid) {
        /** The id a system trace knows the thread by: the OS's when recorded, else the Java id. */
        public long traceTid() {
            return osTid > 0 ? osTid : tid;
        }
    }

    public final ProcessInfo process;
    public final Map<Integer, ProbeInfo> probes;
    public final long eventDrops;
    /** How Java energy is estimated (the session's setting). */
    public final EnergyModel energy;
    /** The threads with an event log (filtered by name when asked), by thread id. */
    public final List<ThreadRef> threads;

    private final Store store;
    private final Map<Long, List<NativeEpoch>> epochsByThread;
    private final String[] names; // by probe id: an array, as exports look a name up per call
    private long firstNanos = Long.MIN_VALUE; // MIN: not scanned yet

    private CallStream(Store store, ProcessInfo process, Map<Integer, ProbeInfo> probes, List<ThreadRef> threads,
                       Map<Long, List<NativeEpoch>> epochsByThread, MethodNames.Style style) {
        this.store = store;
        this.process = process;
        this.probes = probes;
        this.threads = threads;
        this.epochsByThread = epochsByThread;
        this.eventDrops = process.eventDrops();
        this.energy = EnergyModel.load(store);
        int max = 0;
        for (int id : probes.keySet()) max = Math.max(max, id);
        this.names = new String[max + 1];
        MethodNames.names(probes.values(), style).forEach((id, n) -> { if (id >= 0) names[id] = n; });
    }

    /** The stream of a process, names in Java's spelling; {@code threadName} (nullable) keeps only threads with that name. */
    public static CallStream of(Store store, ProcessInfo process, String threadName) {
        return of(store, process, threadName, MethodNames.Style.JAVA);
    }

    /**
     * The stream of a process with probes named in {@code style} (see {@link MethodNames});
     * {@code threadName} (nullable) keeps only threads with that name.
     */
    public static CallStream of(Store store, ProcessInfo process, String threadName, MethodNames.Style style) {
        Map<Integer, ProbeInfo> probes = new LinkedHashMap<>();
        for (ProbeInfo p : store.probes(process.id())) probes.put(p.id(), p);
        Map<Long, String> named = new HashMap<>();
        for (ThreadInfo t : store.threads(process.id())) named.put(t.tid(), t.name());
        Map<Long, List<NativeEpoch>> epochs = new HashMap<>();
        for (NativeEpoch e : store.nativeEpochs(process.id())) epochs.computeIfAbsent(e.tid(), k -> new ArrayList<>()).add(e);
        Map<Long, Long> osTids = store.osTids(process.id());
        List<ThreadRef> threads = new ArrayList<>();
        for (long tid : store.eventThreads(process.id())) {
            String name = named.getOrDefault(tid, "thread-" + tid);
            if (threadName == null || threadName.equals(name))
                threads.add(new ThreadRef(tid, name, epochs.containsKey(tid), osTids.getOrDefault(tid, 0L)));
        }
        epochs.keySet().retainAll(threads.stream().map(ThreadRef::tid).toList());
        return new CallStream(store, process, probes, threads, epochs, style);
    }

    /** A probe's name in exports: its display name, or {@code probe#ID} when the manifest lacks it. */
    public String name(int probeId) {
        String n = probeId >= 0 && probeId < names.length ? names[probeId] : null;
        return n != null ? n : "probe#" + probeId;
    }

    /**
     * The earliest call start over the threads ({@link Timeline#firstNanos}), or
     * {@code Long.MAX_VALUE} when no call was recorded. Reads each thread's log only up to its
     * first enter.
     */
    public long firstNanos() {
        if (firstNanos != Long.MIN_VALUE) return firstNanos;
        long first = Long.MAX_VALUE;
        for (ThreadRef t : threads) {
            long seq = Long.MIN_VALUE;
            scan:
            for (EventChunk c; (c = store.nextEventChunk(process.id(), t.tid(), seq)) != null; seq = c.seq()) {
                EventRecords.Cursor r = new EventRecords.Cursor(c.data(), c.baseNanos());
                boolean reopened = false; // a flight-recorder chunk: its open frames start at its first record (EventReplay)
                while (r.next()) {
                    int k = r.kind();
                    if (k == EventRecords.OPEN || k == EventRecords.OPEN_LOOP) {
                        reopened = true;
                    } else if (reopened || k == EventRecords.ENTER || k == EventRecords.LOOP_ENTER) {
                        first = Math.min(first, r.nanos());
                        break scan;
                    }
                }
            }
        }
        return firstNanos = first;
    }

    /** Whether no call at all was recorded on the threads. */
    public boolean isEmpty() {
        return firstNanos() == Long.MAX_VALUE;
    }

    /** Replays every thread's log, thread after thread. */
    public void replay(Visitor v) {
        for (ThreadRef t : threads) {
            v.thread(t);
            ThreadReplay r = new ThreadReplay(t, v);
            long seq = Long.MIN_VALUE;
            for (EventChunk c; (c = store.nextEventChunk(process.id(), t.tid(), seq)) != null; seq = c.seq()) r.add(c);
            r.closeAll();
            v.threadEnd(t);
        }
    }

    /** One thread's opens and closes at a pull, a chunk read ahead at most. */
    public Cursor cursor(ThreadRef t) {
        return new Cursor(t);
    }

    /** Replays one thread, handing each activation to the visitor with its energy. */
    private final class ThreadReplay extends EventReplay {
        private final Visitor v;
        private final Map<Integer, ArrayDeque<NativeEpoch>> epochs = new HashMap<>();
        private long[] childNanos = new long[64];

        ThreadReplay(ThreadRef t, Visitor v) {
            this.v = v;
            for (NativeEpoch e : epochsByThread.getOrDefault(t.tid(), List.of()))
                epochs.computeIfAbsent(e.probeId(), k -> new ArrayDeque<>()).add(e);
        }

        @Override
        protected int opened(int probeId, boolean loop, long startNanos, long startCpuNanos) {
            int depth = openCount();
            if (depth == childNanos.length) childNanos = Arrays.copyOf(childNanos, depth * 2);
            childNanos[depth] = 0;
            v.open(probeId, loop, startNanos, startCpuNanos, depth);
            return 0;
        }

        @Override
        protected void closed(Timeline.Call c, int slot) {
            int d = c.depth();
            long dur = c.endNanos() - c.startNanos();
            long self = dur - childNanos[d];
            if (d > 0) childNanos[d - 1] += dur;
            // bridge calls take their thread's epochs of the same method in the order both ended
            NativeEpoch e = null;
            if (!c.loop() && !epochs.isEmpty()) {
                ArrayDeque<NativeEpoch> q = epochs.get(c.probeId());
                if (q != null) e = q.poll();
            }
            long nativeNanos = e == null ? 0 : e.estNanos();
            long nativePicojoules = e == null ? 0 : e.energyPicojoules();
            v.close(c, energy.microjoules(Math.max(nativeNanos, self), nativeNanos, nativePicojoules), e);
        }
    }

    /**
     * One thread's activations at a pull, in the order a replay hands them over: {@link #next}
     * moves to the next open or close. A chunk is replayed when the previous one is used up.
     */
    public final class Cursor {
        private final ThreadRef thread;
        private final Buffer buffer;
        private long seq = Long.MIN_VALUE;
        private boolean ended;
        private int at = -1;

        Cursor(ThreadRef thread) {
            this.thread = thread;
            this.buffer = new Buffer();
        }

        /** Moves to the next open or close; false after the thread's last. */
        public boolean next() {
            while (++at >= buffer.size) {
                buffer.size = 0;
                at = -1;
                if (ended) return false;
                EventChunk c = store.nextEventChunk(process.id(), thread.tid(), seq);
                if (c == null) {
                    ended = true;
                    buffer.replay.closeAll();
                } else {
                    seq = c.seq();
                    buffer.replay.add(c);
                }
            }
            return true;
        }

        public boolean isOpen() {
            return buffer.open[at];
        }

        public int probeId() {
            return buffer.probe[at];
        }

        public boolean loop() {
            return buffer.loop[at];
        }

        /** The start of an open, the end of a close. */
        public long nanos() {
            return buffer.nanos[at];
        }

        /** The thread's CPU clock at {@link #nanos} (not deducted), or -1 when its records carry none. */
        public long cpuNanos() {
            return buffer.cpu[at];
        }

        /** A close by exception (or of an activation left open inside one that exited). */
        public boolean thrown() {
            return buffer.thrown[at];
        }

        private final class Buffer implements Visitor {
            final ThreadReplay replay = new ThreadReplay(thread, this);
            int size;
            boolean[] open = new boolean[1024], loop = new boolean[1024], thrown = new boolean[1024];
            int[] probe = new int[1024];
            long[] nanos = new long[1024], cpu = new long[1024];

            @Override
            public void open(int probeId, boolean isLoop, long startNanos, int depth) {
                add(true, probeId, isLoop, startNanos, -1, false);
            }

            @Override
            public void open(int probeId, boolean isLoop, long startNanos, long startCpuNanos, int depth) {
                add(true, probeId, isLoop, startNanos, startCpuNanos, false);
            }

            @Override
            public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
                add(false, c.probeId(), c.loop(), c.endNanos(), c.endCpuNanos(), c.thrown());
            }

            private void add(boolean isOpen, int id, boolean isLoop, long t, long cpuNanos, boolean isThrown) {
                if (size == open.length) {
                    int n = size * 2;
                    open = Arrays.copyOf(open, n);
                    loop = Arrays.copyOf(loop, n);
                    thrown = Arrays.copyOf(thrown, n);
                    probe = Arrays.copyOf(probe, n);
                    nanos = Arrays.copyOf(nanos, n);
                    cpu = Arrays.copyOf(cpu, n);
                }
                open[size] = isOpen;
                loop[size] = isLoop;
                thrown[size] = isThrown;
                probe[size] = id;
                nanos[size] = t;
                cpu[size] = cpuNanos;
                size++;
            }
        }
    }
}
