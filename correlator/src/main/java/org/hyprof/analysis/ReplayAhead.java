package org.hyprof.analysis;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.hyprof.store.NativeEpoch;

/**
 * {@link CallStream#replay} on a second core: a thread of its own reads and replays the session
 * (SQLite, decoding, {@link EventReplay}, energy) into batches of a few thousand opens and closes,
 * while the calling thread hands them to the visitor (an export formatting and writing them). The
 * visitor sees exactly the calls, in exactly the order, {@link CallStream#replay} gives; each runs
 * on one thread, so neither needs to be thread-safe, but the visitor must not use the store (the
 * replaying thread does). Why: an export of 10⁸ events spends its time about evenly between the
 * two, and a machine with two cores can do both at once. Memory: {@value #BATCHES} batches of
 * {@value #BATCH} calls (about 3 MB), whatever the session's size. With one core, it is
 * {@link CallStream#replay} itself.
 */
public final class ReplayAhead {
    private ReplayAhead() {}

    static final int BATCH = 4096, BATCHES = 6;
    private static final byte THREAD = 0, OPEN = 1, CLOSE = 2, THREAD_END = 3;
    private static final byte LOOP = 1, THROWN = 2, CLOSED_AT_END = 4;

    /** A run of the replay's calls to the visitor, as primitive columns (reused). */
    private static final class Batch {
        final byte[] kind = new byte[BATCH], flags = new byte[BATCH];
        final int[] probe = new int[BATCH], depth = new int[BATCH];
        final long[] start = new long[BATCH], end = new long[BATCH], startCpu = new long[BATCH], endCpu = new long[BATCH],
                iterations = new long[BATCH];
        final double[] energy = new double[BATCH];
        final Object[] ref = new Object[BATCH]; // the thread (THREAD, THREAD_END) or the native epoch (CLOSE)
        int size;
        boolean last;
        Throwable failure;
    }

    /** Replays {@code stream} into {@code v} as {@link CallStream#replay} does, reading ahead on another thread. */
    public static void replay(CallStream stream, CallStream.Visitor v) {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            stream.replay(v);
            return;
        }
        BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES), full = new ArrayBlockingQueue<>(BATCHES);
        for (int i = 0; i < BATCHES; i++) free.add(new Batch());
        Producer p = new Producer(stream, free, full);
        Thread t = new Thread(p, "hyprof-replay-ahead");
        t.setDaemon(true);
        t.start();
        boolean done = false;
        try {
            while (true) {
                Batch b = take(full);
                deliver(b, v);
                if (b.failure != null) rethrow(b.failure);
                if (b.last) break;
                b.size = 0;
                java.util.Arrays.fill(b.ref, null); // no epoch or thread kept beyond its batch
                free.add(b);
            }
            done = true;
        } finally {
            if (!done) { // the visitor failed (e.g. a full disk): stop the replay too
                p.cancelled = true;
                t.interrupt();
            }
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void deliver(Batch b, CallStream.Visitor v) {
        for (int i = 0; i < b.size; i++) {
            switch (b.kind[i]) {
                case THREAD -> v.thread((CallStream.ThreadRef) b.ref[i]);
                case OPEN -> v.open(b.probe[i], (b.flags[i] & LOOP) != 0, b.start[i], b.startCpu[i], b.depth[i]);
                case CLOSE -> {
                    byte f = b.flags[i];
                    v.close(new Timeline.Call(b.probe[i], (f & LOOP) != 0, b.start[i], b.end[i], b.depth[i], (f & THROWN) != 0,
                            (f & CLOSED_AT_END) != 0, b.iterations[i], b.startCpu[i], b.endCpu[i]), b.energy[i], (NativeEpoch) b.ref[i]);
                }
                default -> v.threadEnd((CallStream.ThreadRef) b.ref[i]);
            }
        }
    }

    private static Batch take(BlockingQueue<Batch> q) {
        try {
            return q.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while exporting", e);
        }
    }

    private static void rethrow(Throwable t) {
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        throw new IllegalStateException(t);
    }

    /** The replaying thread: fills batches from {@link CallStream#replay}. */
    private static final class Producer implements Runnable, CallStream.Visitor {
        private final CallStream stream;
        private final BlockingQueue<Batch> free, full;
        volatile boolean cancelled;
        private Batch b;

        Producer(CallStream stream, BlockingQueue<Batch> free, BlockingQueue<Batch> full) {
            this.stream = stream;
            this.free = free;
            this.full = full;
        }

        @Override
        public void run() {
            try {
                b = free.take();
                stream.replay(this);
                b.last = true;
            } catch (Cancelled e) {
                return;
            } catch (InterruptedException e) {
                return; // cancelled while waiting for a free batch
            } catch (Throwable e) {
                if (b == null) return;
                b.failure = e; // handed over after the calls before it
                b.last = true;
            }
            full.add(b); // never blocks: at most BATCHES batches exist
        }

        /** The next free slot of the batch being filled; hands it over when full. */
        private int slot() {
            if (b.size == BATCH) {
                if (cancelled) throw new Cancelled();
                full.add(b);
                try {
                    Batch next;
                    while ((next = free.poll(100, TimeUnit.MILLISECONDS)) == null) if (cancelled) throw new Cancelled();
                    b = next;
                } catch (InterruptedException e) {
                    throw new Cancelled();
                }
            }
            return b.size++;
        }

        @Override
        public void thread(CallStream.ThreadRef thread) {
            int i = slot();
            b.kind[i] = THREAD;
            b.ref[i] = thread;
        }

        @Override
        public void open(int probeId, boolean loop, long startNanos, int depth) {
            open(probeId, loop, startNanos, -1, depth);
        }

        @Override
        public void open(int probeId, boolean loop, long startNanos, long startCpuNanos, int depth) {
            int i = slot();
            b.kind[i] = OPEN;
            b.probe[i] = probeId;
            b.flags[i] = loop ? LOOP : 0;
            b.start[i] = startNanos;
            b.startCpu[i] = startCpuNanos;
            b.depth[i] = depth;
        }

        @Override
        public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
            int i = slot();
            b.kind[i] = CLOSE;
            b.probe[i] = c.probeId();
            b.flags[i] = (byte) ((c.loop() ? LOOP : 0) | (c.thrown() ? THROWN : 0) | (c.closedAtEnd() ? CLOSED_AT_END : 0));
            b.start[i] = c.startNanos();
            b.end[i] = c.endNanos();
            b.depth[i] = c.depth();
            b.iterations[i] = c.iterations();
            b.startCpu[i] = c.startCpuNanos();
            b.endCpu[i] = c.endCpuNanos();
            b.energy[i] = selfEnergyMicrojoules;
            b.ref[i] = epoch;
        }

        @Override
        public void threadEnd(CallStream.ThreadRef thread) {
            int i = slot();
            b.kind[i] = THREAD_END;
            b.ref[i] = thread;
        }
    }

    /** The visitor gave up: the replay stops at its next hand-over. */
    private static final class Cancelled extends RuntimeException {
        Cancelled() {
            super(null, null, false, false);
        }
    }
}
