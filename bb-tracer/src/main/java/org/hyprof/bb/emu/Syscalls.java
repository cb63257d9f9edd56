package org.hyprof.bb.emu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import org.hyprof.bb.NativeException;

/**
 * The Linux system calls Android's system libraries make ({@link Userland#BIONIC}). An
 * {@code svc} raises interrupt 2; the number is in x8 (AArch64) or r7 (ARM EABI), arguments in
 * x0–x5 / r0–r6 (on ARM a 64-bit argument takes an even/odd register pair), and the result (or
 * {@code -errno}) goes back in x0 / r0. Deterministic: time is virtual (derived from the executed
 * blocks, plus what sleeps and timed-out waits let pass), {@code getrandom} is a seeded sequence,
 * ids are fixed.
 *
 * <p>Memory: anonymous {@code mmap} hands out pages of one region mapped at start-up (its size
 * caps what emulated code can get; past it, {@code ENOMEM}), {@code munmap} returns them for
 * reuse (zeroed when handed out again); a file can be mapped too ({@link SandboxFiles}). Files:
 * everything under one sandbox directory ({@link Sandbox}, {@link SandboxFiles}); writes to fd 1
 * and 2 are kept (the last 2 KiB) for error messages. Threads: {@code clone}, {@code futex},
 * {@code exit} and the rest of what {@code pthread_create}/{@code pthread_join} need
 * ({@link Threads}). A call not listed here returns {@code ENOSYS} and is counted by name with the
 * function that made it ({@link #unknown}).
 */
public final class Syscalls {
    /** A fixed process id (and the main thread's id). */
    public static final int PID = 4242;
    static final int UID = 10042;

    private final Backend cpu;
    private final boolean arm64;
    private final Stubs stubs;
    private final GuestMemory memory;
    private final LongSupplier virtualNanos;
    private final LongFunction<String> placeOf;
    private final LongSupplier callId;
    private final long mmapBase, mmapSize;
    private long mmapTop;
    /** Returned page ranges: start → length. */
    private final TreeMap<Long, Long> free = new TreeMap<>();
    private final Map<String, Long> unknown = new TreeMap<>();
    private String lastUnknown;
    private final StringBuilder output = new StringBuilder();
    private final SplittableRandom random = new SplittableRandom(0x6879_7072_6f66L);
    private static final byte[] ZEROS = new byte[64 << 10];
    final SandboxFiles files;
    final Threads threads;

    Syscalls(Backend cpu, Stubs stubs, GuestMemory memory, LongSupplier executedBlocks, long mmapBase, long mmapSize,
             Sandbox sandbox, LongFunction<String> placeOf, LongSupplier callId) {
        this.cpu = cpu;
        this.arm64 = cpu.arch() == Backend.Arch.ARM64;
        this.stubs = stubs;
        this.memory = memory;
        this.placeOf = placeOf;
        this.callId = callId;
        this.mmapBase = mmapBase;
        this.mmapSize = mmapSize;
        this.mmapTop = mmapBase;
        this.threads = new Threads(cpu, memory, executedBlocks);
        this.virtualNanos = () -> executedBlocks.getAsLong() * 4 + threads.idleNanos(); // ~4 ns per block: deterministic
        this.files = new SandboxFiles(sandbox, cpu, memory, this::keep, virtualNanos);
        memory.map("mmap area", mmapBase, mmapSize, true, true, true);
        cpu.onInterrupt(this::interrupt);
    }

    /** System calls answered ENOSYS so far, by name (or number), with how often. */
    public Map<String, Long> unknown() {
        return unknown;
    }

    /** Bytes of the mmap area in use (high-water mark). */
    public long mmapBytes() {
        return mmapTop - mmapBase;
    }

    /** What native code wrote to stdout/stderr (the last 2 KiB). */
    public String output() {
        return output.toString();
    }

    /** The directory native code's files are in. */
    public Sandbox sandbox() {
        return files.sandbox();
    }

    /** Every emulated thread: the main thread and those native code started. */
    public List<Threads.Info> threads() {
        return threads.list();
    }

    /** A native call starts at nesting depth {@code d} (1: outermost); see {@link Threads#enterCall}. */
    int enterCall(int d) {
        if (d == 1) lastUnknown = null; // error messages name what this call was refused
        return threads.enterCall(d);
    }

    void leaveCall(int d, int outer) {
        threads.leaveCall(d, outer);
    }

    /** Writes every shared file mapping back to its file (the files stay open). */
    public void flushFiles() {
        files.flush();
    }

    /** Writes back every shared file mapping, closes every file (the emulator closes). */
    void close() {
        files.close();
        threads.close();
    }

    private void interrupt(int intno) {
        if (intno != 2) {
            String fn = placeOf.apply(cpu.pc());
            stubs.fail("native code raised CPU exception " + intno + " at 0x" + Long.toHexString(cpu.pc()) + (fn != null ? " in " + fn : "")
                    + (intno == 1 ? " (undefined instruction)" : intno == 7 ? " (breakpoint)" : "") + context());
            return;
        }
        long nr = arm64 ? cpu.gpr(8) : cpu.gpr(7);
        try {
            long r = call(nr);
            cpu.gpr(0, r);
        } catch (NativeException e) {
            stubs.fail(e.getMessage());
        } catch (RuntimeException e) {
            stubs.fail("system call " + name(nr) + " failed: " + e);
        }
    }

    private long arg(int i) {
        return cpu.gpr(i);
    }

    /** A signed 32-bit argument (ARM registers hold it zero-extended). */
    private long sarg(int i) {
        return arm64 ? cpu.gpr(i) : (int) cpu.gpr(i);
    }

    /** A 64-bit argument: x{i} on AArch64; the register pair r{i} (low), r{i+1} (high) on ARM. */
    private long arg64(int i) {
        return arm64 ? cpu.gpr(i) : (cpu.gpr(i + 1) << 32) | (cpu.gpr(i) & 0xffffffffL);
    }

    private long call(long nr) {
        String n = name(nr);
        try {
            return answer(n);
        } catch (Errno e) {
            if (e.errno == Errno.ENOSYS) noted(n.equals("clone") ? "clone (a new process)" : n);
            return -e.errno;
        }
    }

    private long answer(String n) {
        SandboxFiles f = files;
        switch (n) {
            case "getpid": return PID;
            case "gettid": return threads.tid();
            case "set_tid_address": return threads.setTidAddress(arg(0));
            case "getppid": return 1;
            case "getuid", "geteuid", "getgid", "getegid": return UID;
            case "brk": return 0;
            case "mprotect", "madvise", "prctl", "sigaltstack", "cacheflush": return 0;
            case "sched_yield": return threads.yield(0);
            case "nanosleep": return threads.yield(readTime(arg(0)));
            case "clock_nanosleep": {
                long t = readTime(arg(2));
                return threads.yield((arg(1) & 1) != 0 ? t - now() : t); // TIMER_ABSTIME
            }
            case "rt_sigaction": return sigaction(arg(2));
            case "rt_sigprocmask": return sigprocmask(arg(2));
            case "set_tls": cpu.threadPointer(arg(0)); return 0;
            case "mmap": return mmap(arg(0), arg(1), arg(2), arg(3), sarg(4), arg(5));
            case "mmap2": return mmap(arg(0), arg(1), arg(2), arg(3), sarg(4), arg(5) << 12);
            case "munmap": return munmap(arg(0), arg(1));
            case "msync": return f.msync(arg(0), arg(1));
            case "futex": return futex(arg(0), (int) arg(1), (int) arg(2), arg(3), arg(4), (int) arg(5));
            case "clock_gettime": return clockGettime(arg(1));
            case "gettimeofday": return gettimeofday(arg(0));
            case "getrandom": return getrandom(arg(0), arg(1));
            case "clone": return threads.clone(arg(0), arg(1), arg(2), arg(3), arg(4), Thread.currentThread().getId(), callId.getAsLong());
            // files (SandboxFiles): fds, paths below the sandbox's root
            case "openat": return f.openat(sarg(0), arg(1), (int) arg(2), (int) arg(3));
            case "open": return f.openat(SandboxFiles.AT_FDCWD, arg(0), (int) arg(1), (int) arg(2));
            case "close": return f.close(sarg(0));
            case "read": return f.read(sarg(0), arg(1), arg(2), -1);
            case "write": return f.write(sarg(0), arg(1), arg(2), -1);
            case "pread64": return f.read(sarg(0), arg(1), arg(2), arm64 ? arg(3) : arg64(4));
            case "pwrite64": return f.write(sarg(0), arg(1), arg(2), arm64 ? arg(3) : arg64(4));
            case "readv": return vector(true, sarg(0), arg(1), arg(2));
            case "writev": return vector(false, sarg(0), arg(1), arg(2));
            case "lseek": return f.lseek(sarg(0), sarg(1), (int) arg(2));
            case "_llseek": return llseek((int) arg(0), (arg(1) << 32) | (arg(2) & 0xffffffffL), arg(3), (int) arg(4));
            case "fstat", "fstat64": return f.fstat(sarg(0), arg(1));
            case "newfstatat", "fstatat64": return f.fstatat(sarg(0), arg(1), arg(2), (int) arg(3));
            case "faccessat": return f.faccessat(sarg(0), arg(1));
            case "readlinkat": return f.readlinkat(sarg(0), arg(1));
            case "mkdirat": return f.mkdirat(sarg(0), arg(1), (int) arg(2));
            case "unlinkat": return f.unlinkat(sarg(0), arg(1), (int) arg(2));
            case "renameat": return f.renameat(sarg(0), arg(1), sarg(2), arg(3), 0);
            case "renameat2": return f.renameat(sarg(0), arg(1), sarg(2), arg(3), (int) arg(4));
            case "ftruncate": return f.ftruncate(sarg(0), sarg(1));
            case "ftruncate64": return f.ftruncate(sarg(0), arg64(2));
            case "fallocate": return f.fallocate(sarg(0), (int) arg(1), arm64 ? arg(2) : arg64(2), arm64 ? arg(3) : arg64(4));
            case "fsync", "fdatasync": return f.fsync(sarg(0));
            case "flock": return f.flock(sarg(0));
            case "fcntl", "fcntl64": return f.fcntl(sarg(0), (int) arg(1), arg(2));
            case "getdents64": return f.getdents64(sarg(0), arg(1), arg(2));
            case "getcwd": return f.getcwd(arg(0), arg(1));
            case "dup": return f.dup(sarg(0), 0, -1, false);
            case "dup3": return f.dup(sarg(0), 0, sarg(1), (arg(2) & SandboxFiles.O_CLOEXEC) != 0);
            case "ioctl": return -Errno.ENOTTY;
            case "statfs", "statfs64": return -Errno.ENOENT;
            case "uname": return uname(arg(0));
            case "exit":
                if (threads.canExit()) {
                    threads.exit();
                    return 0;
                }
                throw new NativeException("native code called exit(" + (int) arg(0) + ")" + context());
            case "exit_group":
                throw new NativeException("native code called exit_group(" + (int) arg(0) + ")" + context());
            case "tgkill", "tkill", "kill": {
                int sig = (int) (n.equals("tgkill") ? arg(2) : arg(1));
                throw new NativeException("native code raised signal " + sig + (sig == 6 ? " (SIGABRT: abort)" : "") + context());
            }
            default:
                throw new Errno(Errno.ENOSYS);
        }
    }

    /** An ENOSYS answer, counted by name; the last one is named in later error messages. */
    private void noted(String call) {
        unknown.merge(call, 1L, Long::sum);
        String by = placeOf.apply(cpu.lr());
        lastUnknown = call + (by != null ? " (from " + by + ")" : "");
    }

    /** For an error message of the current call: the last system call it was refused and what native code printed ("" if neither). */
    String context() {
        StringBuilder b = new StringBuilder();
        if (lastUnknown != null) b.append("; before that it got ENOSYS for ").append(lastUnknown);
        String o = output.toString().strip();
        if (o.isEmpty()) return b.toString();
        o = o.replace('\n', ' ');
        return b.append("; it wrote: ").append(o.length() > 300 ? "…" + o.substring(o.length() - 300) : o).toString();
    }

    private long sigaction(long oldAct) {
        if (oldAct != 0) zero(oldAct, arm64 ? 32 : 20, "rt_sigaction");
        return 0;
    }

    private long sigprocmask(long oldSet) {
        if (oldSet != 0) zero(oldSet, 8, "rt_sigprocmask");
        return 0;
    }

    private void zero(long address, long length, String what) {
        memory.check(address, length, true, what + "(0x" + Long.toHexString(address) + ", " + length + ")");
        for (long done = 0; done < length; ) {
            int n = (int) Math.min(ZEROS.length, length - done);
            cpu.write(address + done, n == ZEROS.length ? ZEROS : new byte[n]);
            done += n;
        }
    }

    private static final long MAP_SHARED = 0x01, MAP_FIXED = 0x10, MAP_ANONYMOUS = 0x20, PROT_WRITE = 0x2;

    private long mmap(long addr, long length, long prot, long flags, long fd, long offset) {
        if (length <= 0) return -Errno.EINVAL;
        if (length > mmapSize) return -Errno.ENOMEM; // also keeps the rounding below from overflowing
        boolean file = (flags & MAP_ANONYMOUS) == 0, shared = (flags & MAP_SHARED) != 0;
        if (file) files.checkMappable(fd, offset, shared, (prot & PROT_WRITE) != 0);
        long len = (length + 0xfff) & ~0xfffL;
        long at = -1;
        if ((flags & MAP_FIXED) != 0) {
            if (addr < mmapBase || addr > mmapBase + mmapSize || len > mmapBase + mmapSize - addr || (addr & 0xfff) != 0) return -Errno.ENOMEM;
            files.unmapped(addr, len);
            take(addr, len);
            if (addr + len > mmapTop) mmapTop = addr + len;
            zero(addr, len, "mmap");
            at = addr;
        } else {
            for (Map.Entry<Long, Long> e : free.entrySet()) {
                if (e.getValue() >= len) {
                    at = e.getKey();
                    take(at, len);
                    zero(at, len, "mmap");
                    break;
                }
            }
            if (at < 0) {
                if (len > mmapBase + mmapSize - mmapTop) return -Errno.ENOMEM;
                at = mmapTop; // never handed out before: still zero
                mmapTop += len;
            }
        }
        if (file) files.map(at, length, fd, offset, shared);
        return at;
    }

    /** Removes [at, at + len) from the free ranges. */
    private void take(long at, long len) {
        Map.Entry<Long, Long> e = free.floorEntry(at + len - 1);
        while (e != null && e.getKey() + e.getValue() > at) {
            long s = e.getKey(), l = e.getValue();
            free.remove(s);
            if (s < at) free.put(s, at - s);
            if (s + l > at + len) free.put(at + len, s + l - at - len);
            e = free.floorEntry(at + len - 1);
        }
    }

    private long munmap(long addr, long length) {
        if ((addr & 0xfff) != 0 || length <= 0 || length > mmapSize) return -Errno.EINVAL;
        long len = (length + 0xfff) & ~0xfffL;
        if (addr < mmapBase || addr > mmapTop || len > mmapTop - addr) return 0; // not ours: nothing to give back
        files.unmapped(addr, len);
        take(addr, len);
        free.put(addr, len);
        return 0;
    }

    private long futex(long uaddr, int op, int val, long timeout, long uaddr2, int val3) {
        int cmd = op & 0x7f; // without FUTEX_PRIVATE_FLAG and FUTEX_CLOCK_REALTIME
        switch (cmd) {
            case 1, 10: return threads.futexWake(uaddr, val);         // FUTEX_WAKE(_BITSET)
            case 0, 9: {                                              // FUTEX_WAIT(_BITSET)
                if (peekInt(uaddr) != val) return -Errno.EAGAIN;
                if (timeout == 0) return threads.futexWait(uaddr, false, 0);
                long t = readTime(timeout);                           // FUTEX_WAIT: relative; _BITSET: absolute
                return threads.futexWait(uaddr, true, cmd == 0 ? t : t - now());
            }
            case 3, 4: {                                              // FUTEX_REQUEUE, FUTEX_CMP_REQUEUE
                if (cmd == 4 && peekInt(uaddr) != val3) return -Errno.EAGAIN;
                return threads.futexRequeue(uaddr, val, (int) timeout, uaddr2);
            }
            default:
                noted("futex op " + cmd);
                return -Errno.ENOSYS;
        }
    }

    private int peekInt(long address) {
        if (!memory.contains(address, 4, false)) throw new Errno(Errno.EFAULT);
        return ByteBuffer.wrap(cpu.read(address, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    private long now() {
        return virtualNanos.getAsLong();
    }

    /** A struct timespec in nanoseconds (EFAULT if not mapped, EINVAL if malformed). */
    private long readTime(long address) {
        int w = arm64 ? 8 : 4;
        if (!memory.contains(address, 2L * w, false)) throw new Errno(Errno.EFAULT);
        ByteBuffer b = ByteBuffer.wrap(cpu.read(address, 2 * w)).order(ByteOrder.LITTLE_ENDIAN);
        long sec = arm64 ? b.getLong() : b.getInt(), nsec = arm64 ? b.getLong() : b.getInt();
        if (sec < 0 || nsec < 0 || nsec >= 1_000_000_000L) throw new Errno(Errno.EINVAL);
        return sec > Long.MAX_VALUE / 1_000_000_000L - 1 ? Long.MAX_VALUE / 2 : sec * 1_000_000_000L + nsec;
    }

    private void putTime(long address, long seconds, long fraction, String what) {
        int w = arm64 ? 8 : 4;
        memory.check(address, 2L * w, true, what);
        ByteBuffer b = ByteBuffer.allocate(2 * w).order(ByteOrder.LITTLE_ENDIAN);
        if (arm64) b.putLong(seconds).putLong(fraction); else b.putInt((int) seconds).putInt((int) fraction);
        cpu.write(address, b.array());
    }

    private long clockGettime(long ts) {
        long t = now();
        putTime(ts, t / 1_000_000_000L, t % 1_000_000_000L, "clock_gettime");
        return 0;
    }

    private long gettimeofday(long tv) {
        if (tv == 0) return 0;
        long t = now();
        putTime(tv, t / 1_000_000_000L, t % 1_000_000_000L / 1000, "gettimeofday");
        return 0;
    }

    private long getrandom(long buf, long length) {
        if (length < 0) return -Errno.EINVAL;
        long n = Math.min(length, 1 << 16); // a short read, as the kernel may give
        memory.check(buf, n, true, "getrandom(0x" + Long.toHexString(buf) + ", " + length + ")");
        byte[] b = new byte[(int) n];
        random.nextBytes(b);
        cpu.write(buf, b);
        return n;
    }

    /** _llseek(fd, offset_high, offset_low, loff_t *result, whence) (ARM). */
    private long llseek(int fd, long offset, long result, int whence) {
        long at = files.lseek(fd, offset, whence);
        if (!memory.contains(result, 8, true)) throw new Errno(Errno.EFAULT);
        cpu.write(result, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(at).array());
        return 0;
    }

    /** readv / writev: each iovec in turn, stopping at a short transfer. */
    private long vector(boolean read, long fd, long iov, long count) {
        if (count < 0 || count > 1024) return -Errno.EINVAL;
        int w = arm64 ? 8 : 4;
        if (!memory.contains(iov, count * 2 * w, false)) throw new Errno(Errno.EFAULT);
        ByteBuffer v = ByteBuffer.wrap(cpu.read(iov, (int) (count * 2 * w))).order(ByteOrder.LITTLE_ENDIAN);
        long total = 0;
        for (int i = 0; i < count; i++) {
            long base = arm64 ? v.getLong() : v.getInt() & 0xffffffffL, len = arm64 ? v.getLong() : v.getInt() & 0xffffffffL;
            if (len == 0) continue;
            long r = read ? files.read(fd, base, len, -1) : files.write(fd, base, len, -1);
            total += r;
            if (r < len) break;
        }
        return total;
    }

    /** Text native code wrote to stdout or stderr: the last 2 KiB are kept. */
    private void keep(String s) {
        output.append(s);
        if (output.length() > 2048) output.delete(0, output.length() - 2048);
    }

    private long uname(long buf) {
        memory.check(buf, 6 * 65, true, "uname");
        byte[] b = new byte[6 * 65];
        String[] f = {"Linux", "localhost", "3.18.0-hyprof", "#1 SMP", arm64 ? "aarch64" : "armv7l", "localdomain"};
        for (int i = 0; i < f.length; i++) {
            byte[] s = f[i].getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(s, 0, b, i * 65, s.length);
        }
        cpu.write(buf, b);
        return 0;
    }

    /** The name of a system call number of this ABI ({@code syscall 999} when not known here). */
    String name(long nr) {
        String s = arm64 ? ARM64.get(nr) : ARM.get(nr);
        return s != null ? s : "syscall " + nr;
    }

    private static final Map<Long, String> ARM64 = table(
            "17 getcwd 23 dup 24 dup3 25 fcntl 29 ioctl 32 flock 34 mkdirat 35 unlinkat 38 renameat 43 statfs 46 ftruncate "
            + "47 fallocate 48 faccessat 56 openat 57 close 61 getdents64 62 lseek 63 read 64 write 65 readv 66 writev 67 pread64 "
            + "68 pwrite64 78 readlinkat 79 newfstatat 80 fstat 82 fsync 83 fdatasync 93 exit 94 exit_group 96 set_tid_address "
            + "98 futex 101 nanosleep 113 clock_gettime 115 clock_nanosleep 124 sched_yield 129 kill 130 tkill 131 tgkill "
            + "132 sigaltstack 134 rt_sigaction 135 rt_sigprocmask 160 uname 167 prctl 169 gettimeofday 172 getpid 173 getppid "
            + "174 getuid 175 geteuid 176 getgid 177 getegid 178 gettid 214 brk 215 munmap 216 mremap 220 clone 222 mmap "
            + "226 mprotect 227 msync 233 madvise 261 prlimit64 276 renameat2 278 getrandom 435 clone3");
    private static final Map<Long, String> ARM = table(
            "1 exit 3 read 4 write 5 open 6 close 19 lseek 20 getpid 37 kill 41 dup 45 brk 54 ioctl 55 fcntl 78 gettimeofday "
            + "91 munmap 93 ftruncate 99 statfs 118 fsync 120 clone 122 uname 125 mprotect 140 _llseek 143 flock 144 msync "
            + "145 readv 146 writev 148 fdatasync 158 sched_yield 162 nanosleep 163 mremap 172 prctl 174 rt_sigaction "
            + "175 rt_sigprocmask 180 pread64 181 pwrite64 183 getcwd 186 sigaltstack 192 mmap2 194 ftruncate64 197 fstat64 "
            + "199 getuid 200 getgid 201 geteuid 202 getegid 217 getdents64 220 madvise 221 fcntl64 224 gettid 238 tkill "
            + "240 futex 248 exit_group 256 set_tid_address 263 clock_gettime 265 clock_nanosleep 266 statfs64 268 tgkill "
            + "322 openat 323 mkdirat 327 fstatat64 328 unlinkat 329 renameat 332 readlinkat 334 faccessat 352 fallocate "
            + "358 dup3 369 prlimit64 382 renameat2 384 getrandom 435 clone3 983042 cacheflush 983045 set_tls");

    private static Map<Long, String> table(String pairs) {
        Map<Long, String> m = new java.util.HashMap<>();
        String[] t = pairs.trim().split("\\s+");
        for (int i = 0; i < t.length; i += 2) m.put(Long.parseLong(t[i]), t[i + 1]);
        return m;
    }
}
