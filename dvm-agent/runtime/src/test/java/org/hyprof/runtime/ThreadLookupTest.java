package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Count-only calls find their thread's state through the thread-id table ({@link Recorder#stateByTid}):
 * threads whose ids share a slot, or that answer the same id, keep their own states and exact
 * counts, a slot a retired thread held is taken by the next thread on it, and a reset forgets the
 * table.
 */
class ThreadLookupTest {
    static final int A = 1, B = 2;

    @BeforeEach
    void start() {
        RuntimeTesting.startQuiet();
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD}, new boolean[] {true, true}, null);
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    private static void call(int id, int times) {
        for (int i = 0; i < times; i++) Probe.end(id, Probe.begin(id));
    }

    private static Snapshot.ThreadData of(Thread t) {
        for (Snapshot.ThreadData d : Hyprof.snapshot().threads) if (d.tid == t.getId()) return d;
        throw new AssertionError("no data for " + t.getName());
    }

    /** A thread not started yet whose id shares {@code other}'s slot (ids are given out at construction). */
    private static Thread sharingSlotWith(Thread other, Runnable r) {
        for (int made = 0; made <= Recorder.TID_SLOTS; made++) {
            Thread t = new Thread(r, "sharer");
            if ((t.getId() - other.getId()) % Recorder.TID_SLOTS == 0) return t;
        }
        throw new AssertionError("no thread id in the slot of " + other.getId());
    }

    @Test
    void threadsWhoseIdsShareASlotKeepTheirOwnStatesAndExactCounts() throws Exception {
        final CountDownLatch holderRecorded = new CountDownLatch(1), release = new CountDownLatch(1);
        final AtomicReference<ThreadState> holderState = new AtomicReference<ThreadState>();
        Thread holder = new Thread(new Runnable() {
            @Override
            public void run() {
                call(A, 3);
                holderState.set(Recorder.stateByTid());
                holderRecorded.countDown();
                try {
                    release.await(); // alive, and holding its slot, while the other records
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                call(A, 2);
            }
        }, "holder");
        final AtomicReference<ThreadState> sharerState = new AtomicReference<ThreadState>();
        Thread sharer = sharingSlotWith(holder, new Runnable() {
            @Override
            public void run() {
                call(A, 5);
                call(B, 1);
                sharerState.set(Recorder.stateByTid());
            }
        });
        holder.start();
        assertTrue(holderRecorded.await(30, java.util.concurrent.TimeUnit.SECONDS));
        sharer.start();
        sharer.join();
        release.countDown();
        holder.join();

        assertNotSame(holderState.get(), sharerState.get(), "each thread has its own state");
        assertEquals(holder.getId(), holderState.get().tid);
        assertTrue(Recorder.holdsSlot(holderState.get()));
        assertFalse(Recorder.holdsSlot(sharerState.get()), "the slot stays with the thread that took it first");
        assertEquals(sharer.getId(), sharerState.get().tid);
        Snapshot.ThreadData h = of(holder), s = of(sharer);
        assertEquals(5, h.get(A, Stats.CALLS), "the slot's holder: 3 calls before the other thread, 2 after");
        assertEquals(0, h.get(B, Stats.CALLS));
        assertEquals(5, s.get(A, Stats.CALLS), "the thread that found the slot taken");
        assertEquals(1, s.get(B, Stats.CALLS));
    }

    /** Thread.getId may be overridden: a thread answering another's id must not get that thread's state. */
    @Test
    void aThreadAnsweringAnotherThreadsIdKeepsItsOwnState() throws Exception {
        call(A, 1); // this thread registers and holds its slot
        final ThreadState mine = Recorder.stateByTid();
        assertTrue(Recorder.holdsSlot(mine));
        final long id = Thread.currentThread().getId();
        final AtomicReference<ThreadState> found = new AtomicReference<ThreadState>();
        Thread liar = new Thread("liar") {
            @Override
            public long getId() {
                return id;
            }

            @Override
            public void run() {
                call(A, 2);
                found.set(Recorder.stateByTid());
            }
        };
        liar.start();
        liar.join();
        assertNotSame(mine, found.get(), "the same id, another thread: another state");
        assertSame(mine, Recorder.stateByTid());
        long mineCalls = -1, liarCalls = -1;
        for (Snapshot.ThreadData d : Hyprof.snapshot().threads) {
            if (d.name.equals("liar")) liarCalls = d.get(A, Stats.CALLS);
            else if (d.name.equals(Thread.currentThread().getName())) mineCalls = d.get(A, Stats.CALLS);
        }
        assertEquals(1, mineCalls);
        assertEquals(2, liarCalls);
    }

    @Test
    void aSlotOfARetiredThreadGoesToTheNextThreadOnIt() throws Exception {
        Thread first = new Thread(new Runnable() {
            @Override
            public void run() {
                call(A, 1);
            }
        }, "first");
        first.start();
        first.join();
        ThreadState[] dead = Recorder.deadThreads();
        assertEquals(1, dead.length);
        Recorder.retire(dead);
        final AtomicReference<ThreadState> found = new AtomicReference<ThreadState>();
        Thread next = sharingSlotWith(first, new Runnable() {
            @Override
            public void run() {
                call(A, 4);
                found.set(Recorder.stateByTid());
            }
        });
        next.start();
        next.join();
        assertEquals(next.getId(), found.get().tid, "the retired thread's state is not handed to the next on its slot");
        assertTrue(Recorder.holdsSlot(found.get()), "the retired thread's slot was freed");
        assertEquals(4, of(next).get(A, Stats.CALLS));
    }

    @Test
    void aResetForgetsEveryThreadsState() {
        call(A, 2);
        ThreadState before = Recorder.stateByTid();
        RuntimeTesting.startQuiet();
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD}, new boolean[] {true, true}, null);
        ThreadState after = Recorder.stateByTid();
        assertNotSame(before, after);
        call(A, 1);
        assertEquals(1, of(Thread.currentThread()).get(A, Stats.CALLS), "counts start again after a reset");
    }
}
