package org.hyprof.bb.emu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.hyprof.bb.NativeException;

/**
 * The threads emulated code starts ({@code clone}, as bionic's {@code pthread_create} calls it),
 * taking turns on the one emulated CPU: cooperative and deterministic. A thread runs until it
 * waits on a futex whose value still holds, yields ({@code sched_yield}, {@code nanosleep}) while
 * another can run, or exits; then the longest-ready thread runs. Waking a waiter
 * ({@code FUTEX_WAKE}) makes it ready, the waker goes on. A new thread is ready at once and runs
 * at the first switch. When the native call returns, threads still ready run (until each waits or
 * exits) before the call counts as finished, so a thread's work is counted in the call that
 * started it (later work: in the call during which it is woken). Every block is counted into the
 * current call's epoch whichever thread runs it; each thread also keeps its own total
 * ({@link Info#blocks}) with the Java thread and call that started it.
 *
 * <p>Bounds: at most {@link #MAX_THREADS} live threads ({@code clone} answers {@code EAGAIN}),
 * at most {@link #MAX_SWITCHES} switches in one native call, and the call's instruction budget
 * and wall time ({@link Limits}) cover all threads. A timed wait that nobody can end times out at
 * once (virtual time moves on by its timeout); an untimed one is a deadlock, reported naming
 * every thread. A thread that entered a nested call (native → Java → native) is only switched
 * to inside that same call.
 *
 * <p>The kernel's part is emulated: {@code CLONE_PARENT_SETTID}/{@code CLONE_CHILD_SETTID} store
 * the new tid, {@code CLONE_SETTLS} gives the child its thread pointer, and when a thread exits
 * with {@code CLONE_CHILD_CLEARTID} (or {@code set_tid_address}) its tid word is cleared and
 * waiters on it woken — what {@code pthread_join} waits for.
 */
public final class Threads {
    /** Live emulated threads at most, the main thread included. */
    public static final int MAX_THREADS = 32;
    /** Switches between threads in one native call at most (a livelock ends as an error). */
    public static final int MAX_SWITCHES = 1_000_000;
    /** Ended threads remembered for {@link #list()}. */
    private static final int KEEP_ENDED = 64;

    private static final long CLONE_VM = 0x100, CLONE_SETTLS = 0x80000, CLONE_PARENT_SETTID = 0x100000,
            CLONE_CHILD_CLEARTID = 0x200000, CLONE_CHILD_SETTID = 0x1000000;

    /** Where a thread stands. */
    public enum State { RUNNING, READY, WAITING, RETURNED, EXITED }

    /** What a thread did, for reports and tests. */
    public record Info(int tid, State state, long blocks, long startedByJavaThread, long startedInCall) {}

    private static final class T {
        final int tid;
        final long javaThread, call;
        State state = State.READY;
        long blocks;
        /** Saved registers while not running (Backend handle; 0 when running or ended). */
        long context;
        long threadPointer;
        /** Not run yet: its first turn starts with this stack pointer and 0 in x0/r0. */
        boolean fresh;
        long freshSp;
        long futex, waitOrder;
        boolean timed;
        long timeoutNanos;
        /** x0/r0 to set when it runs again (the result of the system call it waited in). */
        boolean hasResult;
        long result;
        long clearChildTid;
        /** Depth of the nested native call this thread must return from (0: none). */
        int level;
        /** Its static TLS area ({@link StaticTls}), freed when it exits; 0: none. */
        long tlsArea;

        T(int tid, long javaThread, long call) {
            this.tid = tid;
            this.javaThread = javaThread;
            this.call = call;
        }

        Info info() {
            return new Info(tid, state, blocks, javaThread, call);
        }
    }

    private final Backend cpu;
    private final GuestMemory memory;
    private final LongSupplier executedBlocks;
    private final T main;
    private final List<T> threads = new ArrayList<>();
    private final ArrayDeque<T> ready = new ArrayDeque<>();
    private T current;
    /** The thread that yielded last: it goes after every other ready thread. */
    private T yielder;
    private boolean switchPending;
    private int nextTid = Syscalls.PID + 1, switches, depth;
    private long sliceStart, waits, idleNanos;
    /** The libraries' ELF TLS, or null: a new thread then uses the slots libc gave clone as they are. */
    private StaticTls staticTls;

    Threads(Backend cpu, GuestMemory memory, LongSupplier executedBlocks) {
        this.cpu = cpu;
        this.memory = memory;
        this.executedBlocks = executedBlocks;
        this.main = new T(Syscalls.PID, -1, 0);
        main.state = State.RUNNING;
        threads.add(main);
        current = main;
    }

    /** With ELF TLS: new threads get areas of their own, holding a copy of their slots and the blocks. */
    void staticTls(StaticTls tls) {
        this.staticTls = tls;
    }

    /** Every thread (the main thread first; at most the last {@value #KEEP_ENDED} ended ones). */
    public List<Info> list() {
        return threads.stream().map(T::info).toList();
    }

    /** The running thread's id (gettid). */
    int tid() {
        return current.tid;
    }

    /** Virtual time that passed in sleeps and timed waits that timed out (added to the clock). */
    long idleNanos() {
        return idleNanos;
    }

    // ------------------------------------------------------------------ native calls

    /**
     * A native call starts at nesting depth {@code d} (1: outermost) on the running thread; returns
     * what {@link #leaveCall} restores. The outermost always runs on the main thread.
     */
    int enterCall(int d) {
        if (d == 1) {
            if (current != main) recover();
            main.state = State.RUNNING;
            switchPending = false;
            switches = 0;
            sliceStart = executedBlocks.getAsLong();
        }
        depth = d;
        int outer = current.level;
        current.level = d;
        return outer;
    }

    /** The call at depth {@code d} ended (normally or not); {@code outer} is what {@link #enterCall} returned. */
    void leaveCall(int d, int outer) {
        current.level = outer;
        depth = d - 1;
        if (d == 1) account();
    }

    /** After an error left another thread on the CPU: the main thread takes it again, that thread is lost. */
    private void recover() {
        if (current.state == State.RUNNING) {
            current.state = State.EXITED;
            if (current.tlsArea != 0) staticTls.release(current.tlsArea);
        }
        current = main;
        cpu.threadPointer(main.threadPointer); // saved when it was switched out
        main.state = State.RUNNING;
        main.context = 0; // its registers are set afresh by the call
        switchPending = false;
    }

    private void account() {
        long now = executedBlocks.getAsLong();
        current.blocks += now - sliceStart;
        sliceStart = now;
    }

    /** Whether a switch was asked for (the run was stopped for it). */
    boolean switchPending() {
        return switchPending;
    }

    /** Whether a thread other than the caller can run once the outermost call returned. */
    boolean readyAfterReturn() {
        for (T t : ready) if (eligible(t)) return true;
        return false;
    }

    /** The outermost call returned: the main thread waits at the return trap while the ready threads run. */
    void parkCaller() {
        current.state = State.RETURNED;
        switchPending = true;
    }

    private boolean eligible(T t) {
        return t.level == 0 || t.level == depth;
    }

    /**
     * Makes the switch asked for: saves the running thread (unless it ended), restores the next
     * and returns where it goes on (odd on Thumb code); the return trap when the caller that
     * waited there is next.
     */
    long switchNow() {
        switchPending = false;
        if (++switches > MAX_SWITCHES)
            throw new NativeException(String.format(Locale.ROOT, "emulated threads switched more than %,d times in one native call (a livelock?)", MAX_SWITCHES));
        T from = current;
        account();
        if (from.state != State.EXITED) {
            from.context = cpu.save();
            from.threadPointer = cpu.threadPointer();
        }
        T to = next(from);
        current = to;
        cpu.restore(to.context);
        to.context = 0;
        cpu.threadPointer(to.threadPointer);
        if (to.fresh) {
            cpu.sp(to.freshSp);
            cpu.gpr(0, 0);
            to.fresh = false;
        }
        if (to.hasResult) {
            cpu.gpr(0, to.result);
            to.hasResult = false;
        }
        to.state = State.RUNNING; // (the caller waiting at the trap: its call ends there)
        sliceStart = executedBlocks.getAsLong();
        forget();
        return cpu.pc() | (cpu.thumb() ? 1 : 0);
    }

    /**
     * Who runs next: a ready thread (the one that yielded last, only when nobody else can run),
     * else the caller waiting at the return trap (the call ends), else the longest timed waiter
     * (timed out), else it is a deadlock.
     */
    private T next(T from) {
        T yielded = yielder;
        yielder = null;
        for (java.util.Iterator<T> i = ready.iterator(); i.hasNext(); ) {
            T t = i.next();
            if (t != yielded && eligible(t)) {
                i.remove();
                return t;
            }
        }
        // what still waits then waits for a later call
        for (T t : threads) if (t.state == State.RETURNED) return t;
        T timed = null;
        for (T t : threads) if (t.state == State.WAITING && t.timed && eligible(t) && (timed == null || t.waitOrder < timed.waitOrder)) timed = t;
        if (timed != null) {
            idleNanos += timed.timeoutNanos;
            timed.hasResult = true;
            timed.result = -Errno.ETIMEDOUT;
            return timed;
        }
        if (yielded != null && ready.remove(yielded)) return yielded;
        throw new NativeException(deadlock(from));
    }

    /** Whether a thread other than the running one could take the CPU now. */
    private boolean anotherCanRun() {
        for (T t : ready) if (t != current && eligible(t)) return true;
        for (T t : threads) {
            if (t.state == State.RETURNED) return true;
            if (t.state == State.WAITING && t.timed && eligible(t)) return true;
        }
        return false;
    }

    private String deadlock(T from) {
        StringBuilder b = new StringBuilder();
        for (T t : threads) {
            if (t.state == State.EXITED) continue;
            b.append(b.length() == 0 ? "" : ", ").append("thread ").append(t.tid);
            if (t.state == State.WAITING) b.append(" waits on 0x").append(Long.toHexString(t.futex));
            else b.append(t.level != 0 && t.level != depth ? " is inside an outer native call" : " is " + t.state.name().toLowerCase(Locale.ROOT));
        }
        String what = from.state == State.WAITING
                ? "native code waits on a futex at 0x" + Long.toHexString(from.futex) + " that no other thread can wake"
                : "no emulated thread can run";
        return what + " (a deadlock: " + b + ")";
    }

    /** Keeps at most KEEP_ENDED ended threads. */
    private void forget() {
        int ended = 0;
        for (T t : threads) if (t.state == State.EXITED) ended++;
        for (java.util.Iterator<T> i = threads.iterator(); ended > KEEP_ENDED && i.hasNext(); ) {
            if (i.next().state == State.EXITED) {
                i.remove();
                ended--;
            }
        }
    }

    private void requestSwitch() {
        switchPending = true;
        cpu.stop();
    }

    // ------------------------------------------------------------------ system calls

    /**
     * clone(flags, child_stack, parent_tid, tls, child_tid) (both ABIs pass tls fourth): a thread
     * sharing the address space, ready to run from the instruction after the svc with the given
     * stack and 0 as its result. Anything but a thread (no CLONE_VM: a new process) is ENOSYS.
     */
    long clone(long flags, long stack, long parentTid, long tls, long childTid, long javaThread, long call) {
        if ((flags & CLONE_VM) == 0) throw new Errno(Errno.ENOSYS);
        int live = 0;
        for (T t : threads) if (t.state != State.EXITED) live++;
        if (live >= MAX_THREADS) throw new Errno(Errno.EAGAIN);
        if (stack == 0 || !memory.contains(stack - 16, 16, true)) throw new Errno(Errno.EINVAL);
        long area = 0;
        if (staticTls != null && (flags & CLONE_SETTLS) != 0) {
            if (!memory.contains(tls, StaticTls.SLOTS * (cpu.arch() == Backend.Arch.ARM64 ? 8L : 4L), true)) throw new Errno(Errno.EFAULT);
            area = staticTls.allocate(tls);
            if (area == 0) throw new Errno(Errno.EAGAIN);
        }
        T t = new T(nextTid++, javaThread, call);
        t.tlsArea = area;
        if ((flags & CLONE_PARENT_SETTID) != 0) putTid(parentTid, t.tid);
        if ((flags & CLONE_CHILD_SETTID) != 0) putTid(childTid, t.tid);
        if ((flags & CLONE_CHILD_CLEARTID) != 0) t.clearChildTid = childTid;
        t.threadPointer = area != 0 ? area : (flags & CLONE_SETTLS) != 0 ? tls : cpu.threadPointer();
        t.fresh = true;
        t.freshSp = stack;
        t.context = cpu.save(); // the parent's registers, PC after the svc: the child starts there
        threads.add(t);
        ready.add(t);
        return t.tid;
    }

    private void putTid(long address, int tid) {
        if (!memory.contains(address, 4, true)) throw new Errno(Errno.EFAULT);
        cpu.write(address, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(tid).array());
    }

    /** set_tid_address: the word cleared (and woken) when the running thread exits. */
    long setTidAddress(long address) {
        current.clearChildTid = address;
        return current.tid;
    }

    /**
     * FUTEX_WAIT after the value was found to hold: the running thread waits until woken; with a
     * timeout and no other thread to go to, it times out at once (ETIMEDOUT, virtual time moves on).
     */
    long futexWait(long address, boolean timed, long timeoutNanos) {
        if (timed && !anotherCanRun()) {
            idleNanos += Math.max(0, timeoutNanos);
            return -Errno.ETIMEDOUT;
        }
        current.state = State.WAITING;
        current.futex = address;
        current.timed = timed;
        current.timeoutNanos = Math.max(0, timeoutNanos);
        current.waitOrder = ++waits;
        current.hasResult = true;
        current.result = 0;
        requestSwitch();
        return 0;
    }

    /** FUTEX_WAKE: up to {@code count} waiters on the word become ready (longest waiting first). */
    int futexWake(long address, int count) {
        int woken = 0;
        while (woken < count) {
            T first = null;
            for (T t : threads) if (t.state == State.WAITING && t.futex == address && (first == null || t.waitOrder < first.waitOrder)) first = t;
            if (first == null) break;
            first.state = State.READY;
            ready.add(first);
            woken++;
        }
        return woken;
    }

    /**
     * FUTEX_(CMP_)REQUEUE: up to {@code wake} waiters on the word become ready, up to
     * {@code requeue} more wait on {@code target} instead; returns how many were woken and moved.
     */
    int futexRequeue(long address, int wake, int requeue, long target) {
        int n = futexWake(address, wake);
        for (T t : threads) {
            if (requeue <= 0) break;
            if (t.state == State.WAITING && t.futex == address) {
                t.futex = target;
                requeue--;
                n++;
            }
        }
        return n;
    }

    /**
     * sched_yield / nanosleep: another thread runs first if one can (a ready one; the caller waiting
     * at the return trap, which ends the call; a timed waiter, which times out); virtual time moves
     * on by {@code sleepNanos}.
     */
    long yield(long sleepNanos) {
        idleNanos += Math.max(0, sleepNanos);
        if (!anotherCanRun()) return 0;
        current.state = State.READY;
        ready.add(current);
        yielder = current;
        current.hasResult = true;
        current.result = 0;
        requestSwitch();
        return 0;
    }

    /** Whether the running thread may end by {@code exit} (not the main thread, nor one inside a nested call). */
    boolean canExit() {
        return current != main && current.level == 0;
    }

    /** exit of a thread: its tid word cleared and waiters on it woken, the next thread runs. */
    void exit() {
        T t = current;
        if (t.clearChildTid != 0 && memory.contains(t.clearChildTid, 4, true)) {
            cpu.write(t.clearChildTid, new byte[4]);
            futexWake(t.clearChildTid, Integer.MAX_VALUE);
        }
        t.state = State.EXITED;
        if (t.tlsArea != 0) staticTls.release(t.tlsArea);
        requestSwitch();
    }

    /** Frees the saved registers of threads that never ran again (the emulator closes). */
    void close() {
        for (T t : threads) {
            if (t.context == 0) continue;
            long keep = cpu.save();
            cpu.restore(t.context); // restore frees the handle
            cpu.restore(keep);
            t.context = 0;
        }
    }
}
