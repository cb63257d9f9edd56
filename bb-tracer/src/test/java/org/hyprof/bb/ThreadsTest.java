package org.hyprof.bb;

import static org.hyprof.bb.SandboxTest.call;
import static org.hyprof.bb.SandboxTest.callInt;
import static org.hyprof.bb.SandboxTest.i;
import static org.hyprof.bb.SandboxTest.library;
import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Syscalls;
import org.hyprof.bb.emu.Threads;
import org.hyprof.bb.emu.Userland;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Emulated threads (issue 16, userland bionic): bionic's own pthread_create, pthread_join,
 * mutexes and condition variables on clone and futex, taking turns on the one emulated CPU
 * (fixture samples/native/src/userland.c). Both ABIs, both engines.
 */
class ThreadsTest {
    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void threadsRunAreJoinedAndCountedForTheCallThatStartedThem(String abi) {
        int n = 4, count = 1000;
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC)) {
                long mainBefore = t.emulator.syscalls.threads().get(0).blocks(); // libc's init ran on it
                NativeRun r = t.call("threads_sum", List.of(i(n), i(count)));
                long v = t.emulator.cpu.arch() == org.hyprof.bb.emu.Backend.Arch.ARM ? (int) r.returnValue() : r.returnValue();
                assertEquals((long) n * count * (count + 1) / 2 + (long) n * count, v, engine.id);
                List<Threads.Info> threads = t.emulator.syscalls.threads();
                assertEquals(n + 1, threads.size(), engine.id + ": " + threads);
                assertEquals(Syscalls.PID, threads.get(0).tid());
                long childBlocks = 0;
                for (Threads.Info c : threads.subList(1, threads.size())) {
                    assertEquals(Threads.State.EXITED, c.state(), engine.id);
                    assertEquals(Thread.currentThread().getId(), c.startedByJavaThread(), engine.id);
                    assertEquals(r.result().counts().epochId(), c.startedInCall(), engine.id);
                    assertTrue(c.blocks() > count, engine.id + ": " + c);
                    childBlocks += c.blocks();
                }
                // every thread's blocks are in the call's epoch, and nothing else is
                assertEquals(r.blocks(), childBlocks + threads.get(0).blocks() - mainBefore, engine.id);
                assertEquals(java.util.Map.of(), t.emulator.syscalls.unknown(), engine.id);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void aConditionVariablePingPong(String abi) {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC)) {
                assertEquals(200, callInt(t, "condvar_pingpong", i(200)), engine.id);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void threadsAreBoundedAndPthreadCreateSaysEagain(String abi) {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC)) {
                assertEquals((Threads.MAX_THREADS - 1) * 100 + 11, callInt(t, "start_until_failure"), engine.id);
                // all joined: the limit is on live threads
                assertEquals(2 * 55 + 20, call(t, "threads_sum", i(2), i(10)), engine.id);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void aDeadlockIsAnErrorNamingTheThreadsAndTheEmulatorGoesOn(String abi) {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC)) {
                NativeException e = assertThrows(NativeException.class, () -> t.call("lock_twice", List.of()));
                assertTrue(e.getMessage().matches("native code waits on a futex at 0x[0-9a-f]+ that no other thread can wake "
                        + "\\(a deadlock: thread 4242 waits on 0x[0-9a-f]+\\)"), engine.id + ": " + e.getMessage());
                assertEquals(2 * 55 + 20, call(t, "threads_sum", i(2), i(10)), engine.id);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void aThreadLeftRunningFinishesBeforeItsCallEnds(String abi) {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC)) {
                NativeRun r = t.call("start_detached_work", List.of());
                assertEquals(0, (int) r.returnValue(), engine.id);
                assertEquals(500_500, call(t, "background_value"), engine.id);
                Threads.Info worker = t.emulator.syscalls.threads().get(1);
                assertEquals(Threads.State.EXITED, worker.state(), engine.id);
                assertEquals(r.result().counts().epochId(), worker.startedInCall(), engine.id);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void theInstructionBudgetCoversEveryThread(String abi) {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC)) {
                t.emulator.limits(new org.hyprof.bb.emu.Limits(200_000, 0));
                NativeException e = assertThrows(NativeException.class, () -> t.call("threads_sum", List.of(i(4), i(20_000))));
                assertTrue(e.getMessage().startsWith("threads_sum did not return within 200,000 instructions"), engine.id + ": " + e.getMessage());
                // the threads left ready finish their work at the end of the next call
                t.emulator.limits(org.hyprof.bb.emu.Limits.DEFAULT);
                callInt(t, "errno_value");
                for (Threads.Info c : t.emulator.syscalls.threads()) assertNotEquals(Threads.State.READY, c.state(), engine.id + ": " + c);
            }
        }
    }
}
