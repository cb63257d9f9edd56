package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Count-only calls find their thread's state through the thread-id table ({@link Recorder#stateByTid}):
 * threads whose ids share a slot, or that answer the same id, keep their own states and exact
 * counts, a slot a retired thread held is taken by the next thread on it, and a reset forgets the
 * table. Before the table, count-only sites try the hot thread's state ({@code Recorder.hot}): it
 * serves its own thread only, and a freed one is taken by the next thread that flushes its counts.
 */
class ThreadLookupTest {
    static final int A = 1, B = 2, TINY = 3;

    @BeforeEach
    void start() {
        RuntimeTesting.startQuiet();
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD, Hyprof.METHOD}, new boolean[] {true, true, true}, null);
        Hyprof.countOnly(TINY);
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
        // every thread stays alive until the snapshot is read: the reporter retires ended threads
        // (folding their figures into the process's) at any moment after they end
        final CountDownLatch holderRecorded = new CountDownLatch(1), release = new CountDownLatch(1);
        final CountDownLatch holderDone = new CountDownLatch(1), sharerDone = new CountDownLatch(1), finish = new CountDownLatch(1);
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
                holderDone.countDown();
                awaitQuietly(finish);
            }
        }, "holder");
        final AtomicReference<ThreadState> sharerState = new AtomicReference<ThreadState>();
        Thread sharer = sharingSlotWith(holder, new Runnable() {
            @Override
            public void run() {
                call(A, 5);
                call(B, 1);
                sharerState.set(Recorder.stateByTid());
                sharerDone.countDown();
                awaitQuietly(finish);
            }
        });
        holder.start();
        assertTrue(holderRecorded.await(30, TimeUnit.SECONDS));
        sharer.start();
        try {
            assertTrue(sharerDone.await(30, TimeUnit.SECONDS));
            release.countDown();
            assertTrue(holderDone.await(30, TimeUnit.SECONDS));
            checkSharedSlot(holder, holderState.get(), sharer, sharerState.get());
        } finally {
            release.countDown();
            finish.countDown();
            holder.join();
            sharer.join();
        }
    }

    private static void checkSharedSlot(Thread holder, ThreadState holderState, Thread sharer, ThreadState sharerState) {
        assertNotSame(holderState, sharerState, "each thread has its own state");
        assertEquals(holder.getId(), holderState.tid);
        assertTrue(Recorder.holdsSlot(holderState));
        assertFalse(Recorder.holdsSlot(sharerState), "the slot stays with the thread that took it first");
        assertEquals(sharer.getId(), sharerState.tid);
        Snapshot.ThreadData h = of(holder), s = of(sharer);
        assertEquals(5, h.get(A, Stats.CALLS), "the slot's holder: 3 calls before the other thread, 2 after");
        assertEquals(0, h.get(B, Stats.CALLS));
        assertEquals(5, s.get(A, Stats.CALLS), "the thread that found the slot taken");
        assertEquals(1, s.get(B, Stats.CALLS));
    }

    private static void awaitQuietly(CountDownLatch l) {
        try {
            l.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Thread.getId may be overridden: a thread answering another's id must not get that thread's state. */
    @Test
    void aThreadAnsweringAnotherThreadsIdKeepsItsOwnState() throws Exception {
        call(A, 1); // this thread registers and holds its slot
        final ThreadState mine = Recorder.stateByTid();
        assertTrue(Recorder.holdsSlot(mine));
        final long id = Thread.currentThread().getId();
        final AtomicReference<ThreadState> found = new AtomicReference<ThreadState>();
        final CountDownLatch liarDone = new CountDownLatch(1), finish = new CountDownLatch(1);
        Thread liar = new Thread("liar") {
            @Override
            public long getId() {
                return id;
            }

            @Override
            public void run() {
                call(A, 2);
                found.set(Recorder.stateByTid());
                liarDone.countDown();
                awaitQuietly(finish); // alive until its figures are read: ended threads are retired
            }
        };
        liar.start();
        try {
            assertTrue(liarDone.await(30, TimeUnit.SECONDS));
            assertNotSame(mine, found.get(), "the same id, another thread: another state");
            assertSame(mine, Recorder.stateByTid());
            long mineCalls = -1, liarCalls = -1;
            for (Snapshot.ThreadData d : Hyprof.snapshot().threads) {
                if (d.name.equals("liar")) liarCalls = d.get(A, Stats.CALLS);
                else if (d.name.equals(Thread.currentThread().getName())) mineCalls = d.get(A, Stats.CALLS);
            }
            assertEquals(1, mineCalls);
            assertEquals(2, liarCalls);
        } finally {
            finish.countDown();
            liar.join();
        }
    }

    /** TINY's {@code invokedynamic} site, count-only: its fast path ({@link Recorder#countFast}) first. */
    private static MethodHandle tinySite() throws Throwable {
        return ProbeSites.bootstrap(MethodHandles.lookup(), "begin", MethodType.methodType(int.class), TINY).dynamicInvoker();
    }

    /** n count-only calls through the site, under a timed activation of A (whose end flushes them). */
    private static void countedUnderA(MethodHandle tiny, int n) throws Throwable {
        int a = Probe.begin(A);
        for (int i = 0; i < n; i++) assertEquals(0, (int) tiny.invokeExact());
        Probe.end(A, a);
    }

    @Test
    void theHotStateServesOnlyItsOwnThread() throws Throwable {
        final MethodHandle tiny = tinySite();
        call(A, 1); // the first thread to take a slot
        ThreadState mine = Recorder.stateByTid();
        assertTrue(Recorder.isHot(mine), "the first slot holder is the hot thread");
        final AtomicReference<ThreadState> otherState = new AtomicReference<ThreadState>();
        final AtomicReference<Throwable> failed = new AtomicReference<Throwable>();
        final CountDownLatch otherDone = new CountDownLatch(1), finish = new CountDownLatch(1);
        Thread other = new Thread(new Runnable() {
            @Override
            public void run() {
                try {
                    countedUnderA(tiny, 1000);
                    otherState.set(Recorder.stateByTid());
                } catch (Throwable t) {
                    failed.set(t);
                }
                otherDone.countDown();
                awaitQuietly(finish); // alive until its figures are read
            }
        }, "other");
        other.start();
        try {
            assertTrue(otherDone.await(30, TimeUnit.SECONDS));
            assertNull(failed.get());
            assertNotSame(mine, otherState.get());
            assertTrue(Recorder.holdsSlot(otherState.get()), "the other thread counts through its table slot");
            assertFalse(Recorder.isHot(otherState.get()), "and does not take the hot state from a live holder");
            countedUnderA(tiny, 7);
            assertEquals(1000, of(other).get(TINY, Stats.COUNT_ONLY_CALLS), "the other thread's calls, all in its own state");
            assertEquals(7, of(Thread.currentThread()).get(TINY, Stats.COUNT_ONLY_CALLS), "the hot thread's, in its own");
            assertEquals(1, of(other).get(A, Stats.CALLS));
        } finally {
            finish.countDown();
            other.join();
        }
    }

    @Test
    void aFreedHotStateGoesToTheNextThreadThatFlushesItsCounts() throws Throwable {
        final MethodHandle tiny = tinySite();
        final AtomicReference<ThreadState> firstState = new AtomicReference<ThreadState>();
        final CountDownLatch firstRegistered = new CountDownLatch(1), release = new CountDownLatch(1);
        Thread first = new Thread(new Runnable() {
            @Override
            public void run() {
                call(A, 1);
                firstState.set(Recorder.stateByTid());
                firstRegistered.countDown();
                awaitQuietly(release); // hot, and alive, while this thread registers
            }
        }, "first");
        first.start();
        try {
            assertTrue(firstRegistered.await(30, TimeUnit.SECONDS));
            assertTrue(Recorder.isHot(firstState.get()));
            call(A, 1);
            ThreadState mine = Recorder.stateByTid();
            assertTrue(Recorder.holdsSlot(mine));
            assertFalse(Recorder.isHot(mine), "registered while another thread was hot");
            release.countDown();
            first.join();
            Recorder.retire(Recorder.deadThreads()); // unless the reporter's round came first
            assertFalse(Recorder.isHot(firstState.get()), "a retired thread's state is no longer hot");
            countedUnderA(tiny, 5); // through the table; A's end flushes them
            assertTrue(Recorder.isHot(mine), "the next thread to flush its counts takes the hot state");
            countedUnderA(tiny, 3); // and counts through it
            assertEquals(8, of(Thread.currentThread()).get(TINY, Stats.COUNT_ONLY_CALLS));
        } finally {
            release.countDown();
            first.join();
        }
    }

    @Test
    void aSlotOfARetiredThreadGoesToTheNextThreadOnIt() throws Exception {
        final AtomicReference<ThreadState> firstState = new AtomicReference<ThreadState>();
        Thread first = new Thread(new Runnable() {
            @Override
            public void run() {
                call(A, 1);
                firstState.set(Recorder.stateByTid());
            }
        }, "first");
        first.start();
        first.join();
        // retired here, unless the reporter's round came first
        Recorder.retire(Recorder.deadThreads());
        assertFalse(Recorder.holdsSlot(firstState.get()), "a retired thread's slot is freed");
        final AtomicReference<ThreadState> found = new AtomicReference<ThreadState>();
        final CountDownLatch nextDone = new CountDownLatch(1), finish = new CountDownLatch(1);
        Thread next = sharingSlotWith(first, new Runnable() {
            @Override
            public void run() {
                call(A, 4);
                found.set(Recorder.stateByTid());
                nextDone.countDown();
                awaitQuietly(finish); // alive until its figures are read
            }
        });
        next.start();
        try {
            assertTrue(nextDone.await(30, TimeUnit.SECONDS));
            assertEquals(next.getId(), found.get().tid, "the retired thread's state is not handed to the next on its slot");
            assertTrue(Recorder.holdsSlot(found.get()), "the retired thread's slot was freed");
            assertEquals(4, of(next).get(A, Stats.CALLS));
        } finally {
            finish.countDown();
            next.join();
        }
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
