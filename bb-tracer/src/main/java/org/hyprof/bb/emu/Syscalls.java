package org.hyprof.bb.emu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.hyprof.bb.NativeException;

/**
 * The Linux system calls Android's system libraries make, answered for a single-threaded process
 * ({@link Userland#BIONIC}). An {@code svc} raises interrupt 2; the number is in x8 (AArch64) or
 * r7 (ARM EABI), arguments in x0–x5 / r0–r6, and the result (or {@code -errno}) goes back in
 * x0 / r0. Deterministic: time is virtual (derived from the executed blocks), {@code getrandom}
 * is a seeded sequence, ids are fixed.
 *
 * <p>Memory: anonymous {@code mmap} hands out pages of one region mapped at start-up (its size
 * caps what emulated code can get; past it, {@code ENOMEM}), {@code munmap} returns them for
 * reuse (zeroed when handed out again). Files: no file can be opened yet ({@code openat} answers
 * {@code ENOENT}; a sandbox directory is issue 16's next step); writes to fd 1 and 2 are kept (the
 * last 2 KiB) for error messages. A call not listed here returns {@code ENOSYS} and is counted by
 * name ({@link #unknown}).
 */
public final class Syscalls {
    private static final int ENOENT = 2, EBADF = 9, EAGAIN = 11, ENOMEM = 12, EINVAL = 22, ENOTTY = 25, ENODEV = 19, ENOSYS = 38;
    /** A fixed process and thread id. */
    public static final int PID = 4242;
    private static final int UID = 10042;

    private final Backend cpu;
    private final boolean arm64;
    private final Stubs stubs;
    private final GuestMemory memory;
    private final LongSupplier virtualNanos;
    private final long mmapBase, mmapSize;
    private long mmapTop;
    /** Returned page ranges: start → length. */
    private final TreeMap<Long, Long> free = new TreeMap<>();
    private final Map<String, Long> unknown = new TreeMap<>();
    private final StringBuilder output = new StringBuilder();
    private final SplittableRandom random = new SplittableRandom(0x6879_7072_6f66L);
    private static final byte[] ZEROS = new byte[64 << 10];

    Syscalls(Backend cpu, Stubs stubs, GuestMemory memory, LongSupplier virtualNanos, long mmapBase, long mmapSize) {
        this.cpu = cpu;
        this.arm64 = cpu.arch() == Backend.Arch.ARM64;
        this.stubs = stubs;
        this.memory = memory;
        this.virtualNanos = virtualNanos;
        this.mmapBase = mmapBase;
        this.mmapSize = mmapSize;
        this.mmapTop = mmapBase;
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

    private void interrupt(int intno) {
        if (intno != 2) {
            stubs.fail("native code raised CPU exception " + intno + " at 0x" + Long.toHexString(cpu.pc())
                    + (intno == 1 ? " (undefined instruction)" : intno == 7 ? " (breakpoint)" : ""));
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

    private long call(long nr) {
        String n = name(nr);
        switch (n) {
            case "getpid", "gettid", "set_tid_address": return PID;
            case "getppid": return 1;
            case "getuid", "geteuid", "getgid", "getegid": return UID;
            case "brk": return 0;
            case "mprotect", "madvise", "prctl", "sched_yield", "sigaltstack", "nanosleep", "fsync", "cacheflush": return 0;
            case "rt_sigaction": return sigaction(arg(2));
            case "rt_sigprocmask": return sigprocmask(arg(2));
            case "set_tls": cpu.threadPointer(arg(0)); return 0;
            case "mmap", "mmap2": return mmap(arg(0), arg(1), arg(3));
            case "munmap": return munmap(arg(0), arg(1));
            case "futex": return futex(arg(0), (int) arg(1), arg(2));
            case "clock_gettime": return clockGettime(arg(1));
            case "gettimeofday": return gettimeofday(arg(0));
            case "getrandom": return getrandom(arg(0), arg(1));
            case "write": return write((int) arg(0), arg(1), arg(2));
            case "writev": return writev((int) arg(0), arg(1), arg(2));
            case "openat", "open", "faccessat", "readlinkat", "newfstatat", "fstatat64", "statfs": return -ENOENT;
            case "read", "fstat", "fstat64", "lseek", "_llseek", "close", "ftruncate": return -EBADF;
            case "ioctl": return -ENOTTY;
            case "fcntl", "fcntl64": return 0;
            case "uname": return uname(arg(0));
            case "exit_group", "exit":
                throw new NativeException("native code called " + n + "(" + (int) arg(0) + ")" + said());
            case "tgkill", "tkill", "kill": {
                int sig = (int) (n.equals("tgkill") ? arg(2) : arg(1));
                throw new NativeException("native code raised signal " + sig + (sig == 6 ? " (SIGABRT: abort)" : "") + said());
            }
            default:
                unknown.merge(n, 1L, Long::sum);
                return -ENOSYS;
        }
    }

    /** What native code printed, for an error message ("; it wrote: ..."). */
    private String said() {
        String o = output.toString().strip();
        if (o.isEmpty()) return "";
        o = o.replace('\n', ' ');
        return "; it wrote: " + (o.length() > 300 ? "…" + o.substring(o.length() - 300) : o);
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

    private static final long MAP_FIXED = 0x10, MAP_ANONYMOUS = 0x20;

    private long mmap(long addr, long length, long flags) {
        if (length <= 0) return -EINVAL;
        if (length > mmapSize) return -ENOMEM; // also keeps the rounding below from overflowing
        if ((flags & MAP_ANONYMOUS) == 0) return -ENODEV; // no files behind memory yet
        long len = (length + 0xfff) & ~0xfffL;
        if ((flags & MAP_FIXED) != 0) {
            if (addr < mmapBase || addr > mmapBase + mmapSize || len > mmapBase + mmapSize - addr || (addr & 0xfff) != 0) return -ENOMEM;
            take(addr, len);
            if (addr + len > mmapTop) mmapTop = addr + len;
            zero(addr, len, "mmap");
            return addr;
        }
        for (Map.Entry<Long, Long> e : free.entrySet()) {
            if (e.getValue() >= len) {
                long at = e.getKey();
                take(at, len);
                zero(at, len, "mmap");
                return at;
            }
        }
        if (len > mmapBase + mmapSize - mmapTop) return -ENOMEM;
        long at = mmapTop;
        mmapTop += len;
        return at; // never handed out before: still zero
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
        if ((addr & 0xfff) != 0 || length <= 0 || length > mmapSize) return -EINVAL;
        long len = (length + 0xfff) & ~0xfffL;
        if (addr < mmapBase || addr > mmapTop || len > mmapTop - addr) return 0; // not ours: nothing to give back
        take(addr, len);
        free.put(addr, len);
        return 0;
    }

    private long futex(long uaddr, int op, long val) {
        int cmd = op & 0x7f;
        if (cmd == 1 || cmd == 10) return 0; // FUTEX_WAKE(_BITSET): nobody else is waiting
        if (cmd == 0 || cmd == 9) {          // FUTEX_WAIT(_BITSET)
            memory.check(uaddr, 4, false, "futex(0x" + Long.toHexString(uaddr) + ")");
            int now = ByteBuffer.wrap(cpu.read(uaddr, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
            if (now != (int) val) return -EAGAIN;
            throw new NativeException("native code waits on a futex at 0x" + Long.toHexString(uaddr)
                    + " that no other thread can wake (one emulated thread: a deadlock)");
        }
        unknown.merge("futex op " + cmd, 1L, Long::sum);
        return -ENOSYS;
    }

    private void putTime(long address, long seconds, long fraction, String what) {
        int w = arm64 ? 8 : 4;
        memory.check(address, 2L * w, true, what);
        ByteBuffer b = ByteBuffer.allocate(2 * w).order(ByteOrder.LITTLE_ENDIAN);
        if (arm64) b.putLong(seconds).putLong(fraction); else b.putInt((int) seconds).putInt((int) fraction);
        cpu.write(address, b.array());
    }

    private long clockGettime(long ts) {
        long t = virtualNanos.getAsLong();
        putTime(ts, t / 1_000_000_000L, t % 1_000_000_000L, "clock_gettime");
        return 0;
    }

    private long gettimeofday(long tv) {
        if (tv == 0) return 0;
        long t = virtualNanos.getAsLong();
        putTime(tv, t / 1_000_000_000L, t % 1_000_000_000L / 1000, "gettimeofday");
        return 0;
    }

    private long getrandom(long buf, long length) {
        if (length < 0) return -EINVAL;
        long n = Math.min(length, 1 << 16); // a short read, as the kernel may give
        memory.check(buf, n, true, "getrandom(0x" + Long.toHexString(buf) + ", " + length + ")");
        byte[] b = new byte[(int) n];
        random.nextBytes(b);
        cpu.write(buf, b);
        return n;
    }

    private long write(int fd, long buf, long count) {
        if (fd != 1 && fd != 2) return -EBADF;
        if (count < 0) return -EINVAL;
        long n = Math.min(count, 1 << 16);
        memory.check(buf, n, false, "write(" + fd + ", 0x" + Long.toHexString(buf) + ", " + count + ")");
        keep(new String(cpu.read(buf, (int) n), StandardCharsets.UTF_8));
        return count;
    }

    private long writev(int fd, long iov, long count) {
        if (fd != 1 && fd != 2) return -EBADF;
        if (count < 0 || count > 1024) return -EINVAL;
        int w = arm64 ? 8 : 4;
        memory.check(iov, count * 2 * w, false, "writev(" + fd + ")");
        ByteBuffer v = ByteBuffer.wrap(cpu.read(iov, (int) (count * 2 * w))).order(ByteOrder.LITTLE_ENDIAN);
        long total = 0;
        for (int i = 0; i < count; i++) {
            long base = arm64 ? v.getLong() : v.getInt() & 0xffffffffL, len = arm64 ? v.getLong() : v.getInt() & 0xffffffffL;
            long r = write(fd, base, len);
            if (r < 0) return r;
            total += r;
        }
        return total;
    }

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
            "25 fcntl 29 ioctl 48 faccessat 56 openat 57 close 62 lseek 63 read 64 write 66 writev 78 readlinkat 79 newfstatat "
            + "80 fstat 82 fsync 46 ftruncate 43 statfs 93 exit 94 exit_group 96 set_tid_address 98 futex 101 nanosleep "
            + "113 clock_gettime 124 sched_yield 129 kill 130 tkill 131 tgkill 132 sigaltstack 134 rt_sigaction 135 rt_sigprocmask "
            + "160 uname 167 prctl 169 gettimeofday 172 getpid 173 getppid 174 getuid 175 geteuid 176 getgid 177 getegid 178 gettid "
            + "214 brk 215 munmap 216 mremap 220 clone 222 mmap 226 mprotect 233 madvise 261 prlimit64 278 getrandom");
    private static final Map<Long, String> ARM = table(
            "1 exit 3 read 4 write 5 open 6 close 19 lseek 20 getpid 37 kill 45 brk 54 ioctl 55 fcntl 78 gettimeofday 91 munmap "
            + "93 ftruncate 118 fsync 120 clone 122 uname 125 mprotect 140 _llseek 146 writev 158 sched_yield 162 nanosleep "
            + "163 mremap 172 prctl 174 rt_sigaction 175 rt_sigprocmask 186 sigaltstack 192 mmap2 197 fstat64 199 getuid 200 getgid "
            + "201 geteuid 202 getegid 220 madvise 221 fcntl64 224 gettid 238 tkill 240 futex 248 exit_group 256 set_tid_address "
            + "263 clock_gettime 268 tgkill 322 openat 327 fstatat64 332 readlinkat 334 faccessat 384 getrandom 983042 cacheflush 983045 set_tls");

    private static Map<Long, String> table(String pairs) {
        Map<Long, String> m = new java.util.HashMap<>();
        String[] t = pairs.trim().split("\\s+");
        for (int i = 0; i < t.length; i += 2) m.put(Long.parseLong(t[i]), t[i + 1]);
        return m;
    }
}
