package org.hyprof.bb.emu;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * The files emulated code opens, all inside one {@link Sandbox}: a table of file descriptors
 * (0–2 are stdin, giving end of file, and stdout/stderr, whose text is kept for error messages;
 * at most {@link #MAX_FDS} open at once, then {@code EMFILE}) and the file system calls of both
 * ABIs, answered on the host directory with {@link FileChannel}s, and file-backed {@code mmap}.
 *
 * <p>Mapped files: a mapping is a copy of the file's bytes in emulated memory. A shared one
 * ({@code MAP_SHARED}) is written back to the file by {@code msync}, {@code munmap}, and when the
 * emulator closes ({@link #close}); and kept coherent with {@code read}/{@code write} at system
 * call granularity (what emulated threads, which take turns on one CPU, can observe): before a
 * file is read its shared mappings are written back, after it is written the mapped bytes are
 * read again. Bytes of a mapping past the end of the file never reach the file (as on Linux).
 *
 * <p>Bounds (guest-sized requests never size a host allocation): data moves in chunks of
 * {@value #CHUNK} bytes, a transfer's guest range is checked against {@link GuestMemory} first
 * ({@code EFAULT}); a file grows to at most {@link #MAX_FILE_BYTES} ({@code EFBIG}) and files grow
 * by at most {@link #MAX_GROWTH_BYTES} in all per emulator ({@code ENOSPC}); a directory listing
 * holds at most {@link #MAX_DIR_ENTRIES} names. Locks ({@code flock}, {@code fcntl} record locks)
 * are always granted: there is one process.
 */
final class SandboxFiles implements AutoCloseable {
    static final int MAX_FDS = 256;
    static final long MAX_FILE_BYTES = 1L << 30, MAX_GROWTH_BYTES = 4L << 30;
    static final int MAX_DIR_ENTRIES = 65_536;
    private static final int CHUNK = 64 << 10;

    static final int AT_FDCWD = -100, AT_SYMLINK_NOFOLLOW = 0x100, AT_REMOVEDIR = 0x200, AT_EMPTY_PATH = 0x1000;
    static final int O_ACCMODE = 3, O_RDONLY = 0, O_WRONLY = 1, O_CREAT = 0100, O_EXCL = 0200, O_TRUNC = 01000,
            O_APPEND = 02000, O_NONBLOCK = 04000, O_DIRECTORY = 040000, O_NOFOLLOW = 0100000, O_CLOEXEC = 02000000,
            O_TMPFILE = 020000000;
    private static final int S_IFDIR = 0040000, S_IFREG = 0100000, S_IFCHR = 0020000;

    private enum Kind { STDIN, STDOUT, FILE, DIR }

    /** An open file description: what fds (after dup) and mappings share. */
    private static final class Open {
        final Kind kind;
        final Path path;
        final FileChannel channel;
        /** The file's identity (device and inode), to find its mappings from any open of it. */
        final Object key;
        /** Guest names of a directory (relative paths of *at calls start there). */
        final List<String> names;
        int flags;
        long position;
        List<String> entries; // a directory's listing, taken at open
        int refs = 1;

        Open(Kind kind, Path path, FileChannel channel, Object key, List<String> names, int flags) {
            this.kind = kind;
            this.path = path;
            this.channel = channel;
            this.key = key;
            this.names = names;
            this.flags = flags;
        }

        boolean readable() { return (flags & O_ACCMODE) != O_WRONLY; }
        boolean writable() { return (flags & O_ACCMODE) != O_RDONLY; }
    }

    /** A shared mapping of [offset, offset + length) of a file at {@code address}. */
    private record Mapping(long address, long length, Open file, long offset) {
        long end() { return address + length; }
    }

    private final Sandbox sandbox;
    private final Backend cpu;
    private final GuestMemory memory;
    private final boolean arm64;
    private final Consumer<String> console;
    private final LongSupplier nowNanos;
    private final Open[] fds = new Open[MAX_FDS];
    private final boolean[] cloexec = new boolean[MAX_FDS];
    private final TreeMap<Long, Mapping> mappings = new TreeMap<>();
    private final byte[] chunk = new byte[CHUNK];
    private long grownBytes;

    SandboxFiles(Sandbox sandbox, Backend cpu, GuestMemory memory, Consumer<String> console, LongSupplier nowNanos) {
        this.sandbox = sandbox;
        this.cpu = cpu;
        this.memory = memory;
        this.arm64 = cpu.arch() == Backend.Arch.ARM64;
        this.console = console;
        this.nowNanos = nowNanos;
        fds[0] = new Open(Kind.STDIN, null, null, null, List.of(), O_RDONLY);
        fds[1] = new Open(Kind.STDOUT, null, null, null, List.of(), O_WRONLY);
        fds[2] = new Open(Kind.STDOUT, null, null, null, List.of(), O_WRONLY);
    }

    Sandbox sandbox() {
        return sandbox;
    }

    // ------------------------------------------------------------------ paths and descriptors

    /** A NUL-terminated guest path: EFAULT if it is not in mapped memory, ENAMETOOLONG past PATH_MAX. */
    String path(long address) {
        StringBuilder b = new StringBuilder();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        long p = address;
        while (out.size() < Sandbox.PATH_MAX) {
            long n = Math.min(memory.extent(p), Math.min(256, Sandbox.PATH_MAX - out.size()));
            if (n <= 0) throw new Errno(Errno.EFAULT);
            for (byte x : cpu.read(p, (int) n)) {
                if (x == 0) return b.append(out.toString(StandardCharsets.UTF_8)).toString();
                out.write(x);
            }
            p += n;
        }
        throw new Errno(Errno.ENAMETOOLONG);
    }

    private Open fd(long fd) {
        Open o = fd >= 0 && fd < MAX_FDS ? fds[(int) fd] : null;
        if (o == null) throw new Errno(Errno.EBADF);
        return o;
    }

    private Open file(long fd) {
        Open o = fd(fd);
        if (o.kind == Kind.DIR) throw new Errno(Errno.EISDIR);
        return o;
    }

    /** The names a path of an *at call resolves to (dirfd AT_FDCWD: the root, the guest's working directory). */
    private List<String> names(long dirfd, String path) {
        List<String> base = List.of();
        if (!path.startsWith("/") && (int) dirfd != AT_FDCWD) {
            Open d = fd((int) dirfd);
            if (d.kind != Kind.DIR) throw new Errno(Errno.ENOTDIR);
            base = d.names;
        }
        return Sandbox.names(path, base);
    }

    private int lowestFree(int from) {
        for (int i = Math.max(0, from); i < MAX_FDS; i++) if (fds[i] == null) return i;
        throw new Errno(Errno.EMFILE);
    }

    private int install(Open o, boolean closeOnExec) {
        int fd;
        try {
            fd = lowestFree(0);
        } catch (Errno e) {
            release(o);
            throw e;
        }
        fds[fd] = o;
        cloexec[fd] = closeOnExec;
        return fd;
    }

    private void release(Open o) {
        if (--o.refs > 0 || o.channel == null) return;
        try {
            o.channel.close();
        } catch (IOException e) {
            // nothing to tell the guest: close succeeded from its side
        }
    }

    private static Errno errno(IOException e) {
        if (e instanceof NoSuchFileException) return new Errno(Errno.ENOENT);
        if (e instanceof FileAlreadyExistsException) return new Errno(Errno.EEXIST);
        if (e instanceof DirectoryNotEmptyException) return new Errno(Errno.ENOTEMPTY);
        if (e instanceof NotDirectoryException) return new Errno(Errno.ENOTDIR);
        if (e instanceof AccessDeniedException) return new Errno(Errno.EACCES);
        if (e instanceof FileSystemException f && f.getReason() != null) {
            String r = f.getReason();
            if (r.contains("symbolic links")) return new Errno(Errno.ELOOP);
            if (r.contains("Is a directory")) return new Errno(Errno.EISDIR);
            if (r.contains("Not a directory")) return new Errno(Errno.ENOTDIR);
            if (r.contains("No space")) return new Errno(Errno.ENOSPC);
        }
        return new Errno(Errno.EACCES);
    }

    // ------------------------------------------------------------------ open, close, dup

    long openat(long dirfd, long pathAddress, int flags, int mode) {
        List<String> names = names(dirfd, path(pathAddress));
        if ((flags & O_TMPFILE) == O_TMPFILE) throw new Errno(Errno.EOPNOTSUPP);
        Path p = sandbox.hostPath(names);
        lowestFree(0); // EMFILE before any host file is opened
        boolean exists = Files.exists(p, LinkOption.NOFOLLOW_LINKS);
        if (exists && Files.isSymbolicLink(p)) throw new Errno(Errno.ELOOP);
        if (exists && (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) throw new Errno(Errno.EEXIST);
        if (exists && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_CREAT) != 0) throw new Errno(Errno.EISDIR);
            sandbox.checkInside(p);
            return install(new Open(Kind.DIR, p, null, key(p), List.copyOf(names), flags), (flags & O_CLOEXEC) != 0);
        }
        if ((flags & O_DIRECTORY) != 0) throw new Errno(exists ? Errno.ENOTDIR : Errno.ENOENT);
        if (names.isEmpty()) throw new Errno(Errno.EISDIR);
        Set<OpenOption> options = new HashSet<>();
        options.add(LinkOption.NOFOLLOW_LINKS);
        if ((flags & O_ACCMODE) != O_WRONLY) options.add(StandardOpenOption.READ);
        if ((flags & O_ACCMODE) != O_RDONLY) options.add(StandardOpenOption.WRITE);
        if ((flags & O_CREAT) != 0) options.add((flags & O_EXCL) != 0 ? StandardOpenOption.CREATE_NEW : StandardOpenOption.CREATE);
        if ((flags & O_TRUNC) != 0 && (flags & O_ACCMODE) != O_RDONLY) options.add(StandardOpenOption.TRUNCATE_EXISTING);
        FileChannel ch;
        try {
            if (!exists) {
                if ((flags & O_CREAT) == 0) throw new Errno(Errno.ENOENT);
                sandbox.checkInside(p);
                // owner bits only (an app's umask on Android is 077)
                Set<PosixFilePermission> perms = PosixFilePermissions.fromString(rwx(mode & 0700));
                ch = FileChannel.open(p, options, PosixFilePermissions.asFileAttribute(perms));
            } else {
                ch = FileChannel.open(p, options);
            }
        } catch (IOException e) {
            throw errno(e);
        }
        Open o;
        try {
            sandbox.checkInside(p);
            o = new Open(Kind.FILE, p, ch, key(p), null, flags);
        } catch (Errno e) {
            try { ch.close(); } catch (IOException ignored) { /* refused anyway */ }
            throw e;
        }
        if (options.contains(StandardOpenOption.TRUNCATE_EXISTING)) refresh(o, 0, Long.MAX_VALUE);
        return install(o, (flags & O_CLOEXEC) != 0);
    }

    private static String rwx(int mode) {
        StringBuilder b = new StringBuilder();
        for (int shift = 6; shift >= 0; shift -= 3) {
            int m = mode >> shift;
            b.append((m & 4) != 0 ? 'r' : '-').append((m & 2) != 0 ? 'w' : '-').append((m & 1) != 0 ? 'x' : '-');
        }
        return b.toString();
    }

    private static Object key(Path p) {
        try {
            Object k = Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            return k != null ? k : p;
        } catch (IOException e) {
            return p;
        }
    }

    long close(long fd) {
        Open o = fd(fd);
        fds[(int) fd] = null;
        release(o);
        return 0;
    }

    /** dup (newfd -1), dup3 / F_DUPFD (lowest free from {@code from}). */
    long dup(long fd, int from, long newfd, boolean closeOnExec) {
        Open o = fd(fd);
        int to;
        if (newfd >= 0) {
            if (newfd >= MAX_FDS) throw new Errno(Errno.EBADF);
            to = (int) newfd;
            if (to == fd) throw new Errno(Errno.EINVAL);
            if (fds[to] != null) close(to);
        } else {
            if (from < 0 || from >= MAX_FDS) throw new Errno(Errno.EINVAL);
            to = lowestFree(from);
        }
        o.refs++;
        fds[to] = o;
        cloexec[to] = closeOnExec;
        return to;
    }

    // ------------------------------------------------------------------ reading and writing

    long read(long fd, long buffer, long count, long offset) {
        Open o = file(fd);
        if (o.kind == Kind.STDIN) return 0;
        if (o.kind == Kind.STDOUT || !o.readable()) throw new Errno(Errno.EBADF);
        if (count < 0 || offset < -1) throw new Errno(Errno.EINVAL);
        writeBack(o.key);
        long pos = offset >= 0 ? offset : o.position;
        long n = Math.max(0, Math.min(count, size(o) - pos));
        if (!memory.contains(buffer, n, true)) throw new Errno(Errno.EFAULT);
        try {
            for (long done = 0; done < n; ) {
                int len = (int) Math.min(CHUNK, n - done);
                ByteBuffer b = ByteBuffer.wrap(chunk, 0, len);
                int got = 0;
                while (b.hasRemaining()) {
                    int r = o.channel.read(b, pos + done + got);
                    if (r < 0) break;
                    got += r;
                }
                if (got > 0) cpu.write(buffer + done, got == CHUNK ? chunk : java.util.Arrays.copyOf(chunk, got));
                done += got;
                if (got < len) { n = done; break; } // the file shrank meanwhile
            }
        } catch (IOException e) {
            throw errno(e);
        }
        if (offset < 0) o.position = pos + n;
        return n;
    }

    long write(long fd, long buffer, long count, long offset) {
        Open o = file(fd);
        if (count < 0 || offset < -1) throw new Errno(Errno.EINVAL);
        if (o.kind == Kind.STDOUT) {
            long n = Math.min(count, CHUNK);
            if (!memory.contains(buffer, n, false)) throw new Errno(Errno.EFAULT);
            console.accept(new String(cpu.read(buffer, (int) n), StandardCharsets.UTF_8));
            return count;
        }
        if (!o.writable() || o.kind == Kind.STDIN) throw new Errno(Errno.EBADF);
        if (!memory.contains(buffer, count, false)) throw new Errno(Errno.EFAULT);
        long pos = offset >= 0 ? offset : (o.flags & O_APPEND) != 0 ? size(o) : o.position;
        grow(o, pos, count);
        try {
            for (long done = 0; done < count; ) {
                int len = (int) Math.min(CHUNK, count - done);
                ByteBuffer b = ByteBuffer.wrap(cpu.read(buffer + done, len));
                while (b.hasRemaining()) o.channel.write(b, pos + done + b.position());
                done += len;
            }
        } catch (IOException e) {
            throw errno(e);
        }
        if (offset < 0) o.position = pos + count;
        refresh(o, pos, count);
        return count;
    }

    /** Checks a file may grow to {@code pos + count} bytes (EFBIG, ENOSPC) and books the growth. */
    private void grow(Open o, long pos, long count) {
        long end = pos + count;
        if (end < 0 || end > MAX_FILE_BYTES) throw new Errno(Errno.EFBIG);
        long size = size(o);
        if (end <= size) return;
        if (grownBytes + (end - size) > MAX_GROWTH_BYTES) throw new Errno(Errno.ENOSPC);
        grownBytes += end - size;
    }

    private static long size(Open o) {
        try {
            return o.channel.size();
        } catch (IOException e) {
            throw errno(e);
        }
    }

    long lseek(long fd, long offset, int whence) {
        Open o = fd(fd);
        if (o.kind == Kind.STDIN || o.kind == Kind.STDOUT) throw new Errno(Errno.ESPIPE);
        long base = switch (whence) {
            case 0 -> 0;
            case 1 -> o.position;
            case 2 -> o.kind == Kind.DIR ? 0 : size(o);
            default -> throw new Errno(Errno.EINVAL);
        };
        long to = base + offset;
        if (to < 0 || (offset > 0 && to < base)) throw new Errno(Errno.EINVAL);
        o.position = to;
        return to;
    }

    long ftruncate(long fd, long length) {
        Open o = file(fd);
        if (o.kind != Kind.FILE || !o.writable()) throw new Errno(Errno.EINVAL);
        if (length < 0) throw new Errno(Errno.EINVAL);
        setLength(o, length);
        return 0;
    }

    /** fallocate mode 0: the file is at least offset + length bytes afterwards. */
    long fallocate(long fd, int mode, long offset, long length) {
        Open o = file(fd);
        if (mode != 0) throw new Errno(Errno.EOPNOTSUPP);
        if (offset < 0 || length <= 0) throw new Errno(Errno.EINVAL);
        if (o.kind != Kind.FILE || !o.writable()) throw new Errno(Errno.EBADF);
        if (offset + length > size(o)) setLength(o, offset + length);
        return 0;
    }

    private void setLength(Open o, long length) {
        writeBack(o.key);
        long size = size(o);
        try {
            if (length < size) {
                o.channel.truncate(length);
            } else if (length > size) {
                grow(o, 0, length);
                o.channel.write(ByteBuffer.wrap(new byte[1]), length - 1); // sparse: the rest reads as zeros
            }
        } catch (IOException e) {
            throw errno(e);
        }
        refresh(o, Math.min(length, size), Long.MAX_VALUE);
    }

    long fsync(long fd) {
        Open o = fd(fd);
        if (o.kind == Kind.FILE) writeBack(o.key);
        return 0;
    }

    long flock(long fd) {
        fd(fd);
        return 0;
    }

    /** fcntl: duplication, descriptor and status flags, record locks (always granted). */
    long fcntl(long fd, int cmd, long arg) {
        Open o = fd(fd);
        switch (cmd) {
            case 0, 1030: return dup(fd, (int) arg, -1, cmd == 1030);     // F_DUPFD, F_DUPFD_CLOEXEC
            case 1: return cloexec[(int) fd] ? 1 : 0;                     // F_GETFD
            case 2: cloexec[(int) fd] = (arg & 1) != 0; return 0;         // F_SETFD
            case 3: return o.flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC); // F_GETFL
            case 4: o.flags = (o.flags & ~(O_APPEND | O_NONBLOCK)) | (int) (arg & (O_APPEND | O_NONBLOCK)); return 0; // F_SETFL
            case 5, 12, 36: {                                             // F_GETLK, F_GETLK64 (ARM), F_OFD_GETLK: nobody holds a lock
                if (!memory.contains(arg, 2, true)) throw new Errno(Errno.EFAULT);
                cpu.write(arg, new byte[] {2, 0});                        // l_type = F_UNLCK
                return 0;
            }
            case 6, 7, 13, 14, 37, 38: return 0;                          // F_SETLK(W)(64), F_OFD_SETLK(W)
            default: throw new Errno(Errno.EINVAL);
        }
    }

    // ------------------------------------------------------------------ metadata and directories

    /** fstat, newfstatat / fstatat64 (dirfd and path; AT_EMPTY_PATH with "" is fstat of dirfd). */
    long fstatat(long dirfd, long pathAddress, long buffer, int flags) {
        String path = path(pathAddress);
        if (path.isEmpty() && (flags & AT_EMPTY_PATH) != 0) return fstat(dirfd, buffer);
        Path p = sandbox.hostPath(names(dirfd, path));
        if (Files.isSymbolicLink(p)) throw new Errno(Errno.ELOOP);
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) throw new Errno(Errno.ENOENT);
        writeBack(key(p));
        putStat(buffer, p, null);
        return 0;
    }

    long fstat(long fd, long buffer) {
        Open o = fd(fd);
        if (o.kind == Kind.FILE) writeBack(o.key);
        putStat(buffer, o.path, o);
        return 0;
    }

    private void putStat(long buffer, Path p, Open o) {
        int size = arm64 ? 128 : 104;
        if (!memory.contains(buffer, size, true)) throw new Errno(Errno.EFAULT);
        int mode;
        long bytes = 0, ino = 0, nlink = 1, mtimeNanos = nowNanos.getAsLong();
        if (o != null && (o.kind == Kind.STDIN || o.kind == Kind.STDOUT)) {
            mode = S_IFCHR | 0620;
        } else {
            boolean dir = o != null ? o.kind == Kind.DIR : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
            mode = (dir ? S_IFDIR : S_IFREG) | 0600 | (dir ? 0100 : 0);
            try {
                Map<String, Object> a = Files.readAttributes(p, "unix:mode,ino,nlink,size,lastModifiedTime", LinkOption.NOFOLLOW_LINKS);
                mode = (mode & ~0777) | ((Integer) a.get("mode") & 0700);
                ino = (Long) a.get("ino");
                nlink = (Integer) a.get("nlink");
                bytes = (Long) a.get("size");
                java.time.Instant t = ((java.nio.file.attribute.FileTime) a.get("lastModifiedTime")).toInstant();
                mtimeNanos = t.getEpochSecond() * 1_000_000_000L + t.getNano();
            } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                nlink = 0; // unlinked while open: only the channel knows the size
            }
            if (o != null && o.kind == Kind.FILE) bytes = size(o);
        }
        long sec = mtimeNanos / 1_000_000_000L, nsec = mtimeNanos % 1_000_000_000L;
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        if (arm64) {
            b.putLong(0, 0xfd00).putLong(8, ino).putInt(16, mode).putInt(20, (int) nlink).putInt(24, Syscalls.UID).putInt(28, Syscalls.UID)
             .putLong(48, bytes).putInt(56, 4096).putLong(64, (bytes + 511) / 512);
            for (int at = 72; at < 120; at += 16) b.putLong(at, sec).putLong(at + 8, nsec);
        } else {
            b.putLong(0, 0xfd00).putInt(12, (int) ino).putInt(16, mode).putInt(20, (int) nlink).putInt(24, Syscalls.UID).putInt(28, Syscalls.UID)
             .putLong(48, bytes).putInt(56, 4096).putLong(64, (bytes + 511) / 512);
            for (int at = 72; at < 96; at += 8) b.putInt(at, (int) sec).putInt(at + 4, (int) nsec);
            b.putLong(96, ino);
        }
        cpu.write(buffer, b.array());
    }

    long faccessat(long dirfd, long pathAddress) {
        Path p = sandbox.hostPath(names(dirfd, path(pathAddress)));
        if (Files.isSymbolicLink(p)) throw new Errno(Errno.ELOOP);
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) throw new Errno(Errno.ENOENT);
        return 0;
    }

    /** readlinkat: links are never followed, nor read: EINVAL for what exists, as for a file that is no link. */
    long readlinkat(long dirfd, long pathAddress) {
        faccessat(dirfd, pathAddress);
        throw new Errno(Errno.EINVAL);
    }

    long mkdirat(long dirfd, long pathAddress, int mode) {
        List<String> names = names(dirfd, path(pathAddress));
        if (names.isEmpty()) throw new Errno(Errno.EEXIST);
        Path p = sandbox.hostPath(names);
        sandbox.checkInside(p);
        try {
            Files.createDirectory(p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))); // owner only, whatever the mode
        } catch (IOException e) {
            throw errno(e);
        }
        return 0;
    }

    long unlinkat(long dirfd, long pathAddress, int flags) {
        List<String> names = names(dirfd, path(pathAddress));
        if (names.isEmpty()) throw new Errno(Errno.EACCES); // the sandbox's root stays
        Path p = sandbox.hostPath(names);
        sandbox.checkInside(p);
        boolean dir = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) throw new Errno(Errno.ENOENT);
        if ((flags & AT_REMOVEDIR) != 0 && !dir) throw new Errno(Errno.ENOTDIR);
        if ((flags & AT_REMOVEDIR) == 0 && dir) throw new Errno(Errno.EISDIR);
        try {
            Files.delete(p); // a link is removed, not followed
        } catch (IOException e) {
            throw errno(e);
        }
        return 0;
    }

    long renameat(long olddirfd, long oldAddress, long newdirfd, long newAddress, int flags) {
        if (flags != 0) throw new Errno(Errno.EINVAL);
        List<String> from = names(olddirfd, path(oldAddress)), to = names(newdirfd, path(newAddress));
        if (from.isEmpty() || to.isEmpty()) throw new Errno(Errno.EBUSY);
        Path a = sandbox.hostPath(from), b = sandbox.hostPath(to);
        sandbox.checkInside(a);
        sandbox.checkInside(b);
        if (!Files.exists(a, LinkOption.NOFOLLOW_LINKS)) throw new Errno(Errno.ENOENT);
        try {
            Files.move(a, b, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw errno(e);
        }
        return 0;
    }

    long getcwd(long buffer, long size) {
        if (size < 2) throw new Errno(Errno.EINVAL); // "/" and its NUL do not fit: ERANGE would do, EINVAL is close
        if (!memory.contains(buffer, 2, true)) throw new Errno(Errno.EFAULT);
        cpu.write(buffer, new byte[] {'/', 0});
        return 2;
    }

    /** getdents64: linux_dirent64 records (d_ino, d_off, d_reclen, d_type, d_name), "." and ".." first. */
    long getdents64(long fd, long buffer, long count) {
        Open o = fd(fd);
        if (o.kind != Kind.DIR) throw new Errno(Errno.ENOTDIR);
        if (o.entries == null) o.entries = list(o.path);
        if (count < 0) throw new Errno(Errno.EINVAL);
        ByteBuffer out = ByteBuffer.allocate((int) Math.min(count, CHUNK)).order(ByteOrder.LITTLE_ENDIAN);
        while (o.position < o.entries.size()) {
            String name = o.entries.get((int) o.position);
            byte[] n = name.getBytes(StandardCharsets.UTF_8);
            int reclen = (19 + n.length + 1 + 7) & ~7;
            if (reclen > out.remaining()) {
                if (out.position() == 0) throw new Errno(Errno.EINVAL);
                break;
            }
            int at = out.position();
            Path child = o.path.resolve(name);
            int type = name.equals(".") || name.equals("..") || Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS) ? 4
                    : Files.isSymbolicLink(child) ? 10 : 8;
            out.putLong(at, o.position + 1).putLong(at + 8, o.position + 1).putShort(at + 16, (short) reclen).put(at + 18, (byte) type);
            out.position(at + 19);
            out.put(n);
            out.position(at + reclen);
            o.position++;
        }
        int n = out.position();
        if (n > 0) {
            if (!memory.contains(buffer, n, true)) throw new Errno(Errno.EFAULT);
            cpu.write(buffer, java.util.Arrays.copyOf(out.array(), n));
        }
        return n;
    }

    private static List<String> list(Path dir) {
        List<String> l = new ArrayList<>(List.of(".", ".."));
        try (Stream<Path> s = Files.list(dir)) {
            s.limit(MAX_DIR_ENTRIES).forEach(p -> l.add(p.getFileName().toString()));
        } catch (IOException e) {
            throw errno(e);
        }
        java.util.Collections.sort(l.subList(2, l.size())); // a deterministic order
        return l;
    }

    // ------------------------------------------------------------------ mapped files

    /** Whether a file descriptor can be mapped so (before any memory is taken for it): EBADF, ENODEV, EACCES, EINVAL. */
    void checkMappable(long fd, long offset, boolean shared, boolean writable) {
        Open o = fd(fd);
        if (o.kind != Kind.FILE) throw new Errno(o.kind == Kind.DIR ? Errno.ENODEV : Errno.EACCES);
        if (!o.readable() || shared && writable && !o.writable()) throw new Errno(Errno.EACCES);
        if (offset < 0 || (offset & 0xfff) != 0) throw new Errno(Errno.EINVAL);
    }

    /**
     * Fills [address, address + length) (already taken from the mmap area, zeroed) with the file's
     * bytes from {@code offset} ({@link #checkMappable} passed); a shared mapping is remembered
     * for writing back.
     */
    void map(long address, long length, long fd, long offset, boolean shared) {
        Open o = fd(fd);
        writeBack(o.key);
        copyIn(o, address, offset, length);
        if (shared) {
            o.refs++;
            mappings.put(address, new Mapping(address, length, o, offset));
        }
    }

    /** Copies the file's bytes [offset, offset + length) that exist into guest memory at address. */
    private void copyIn(Open o, long address, long offset, long length) {
        long n = Math.max(0, Math.min(length, size(o) - offset));
        try {
            for (long done = 0; done < n; ) {
                int len = (int) Math.min(CHUNK, n - done);
                ByteBuffer b = ByteBuffer.wrap(chunk, 0, len);
                while (b.hasRemaining()) if (o.channel.read(b, offset + done + b.position()) < 0) break;
                cpu.write(address + done, len == CHUNK ? chunk : java.util.Arrays.copyOf(chunk, len));
                done += len;
            }
        } catch (IOException e) {
            throw errno(e);
        }
    }

    /** Writes a shared mapping's bytes [from, to) back to its file (what lies past the file's end stays out). */
    private void copyOut(Mapping m, long from, long to) {
        long fileAt = m.offset + (from - m.address);
        long n = Math.max(0, Math.min(to - from, size(m.file) - fileAt));
        try {
            for (long done = 0; done < n; ) {
                int len = (int) Math.min(CHUNK, n - done);
                ByteBuffer b = ByteBuffer.wrap(cpu.read(from + done, len));
                while (b.hasRemaining()) m.file.channel.write(b, fileAt + done + b.position());
                done += len;
            }
        } catch (IOException e) {
            throw errno(e);
        }
    }

    /** The shared mappings overlapping [address, address + length). */
    private List<Mapping> overlapping(long address, long length) {
        List<Mapping> l = new ArrayList<>();
        Long first = mappings.floorKey(address);
        for (Mapping m : mappings.tailMap(first != null ? first : address).values()) {
            if (m.address >= address + length) break;
            if (m.end() > address) l.add(m);
        }
        return l;
    }

    /** msync: the shared mappings in the range reach their files. */
    long msync(long address, long length) {
        if ((address & 0xfff) != 0 || length < 0) throw new Errno(Errno.EINVAL);
        for (Mapping m : overlapping(address, length)) copyOut(m, Math.max(address, m.address), Math.min(address + length, m.end()));
        return 0;
    }

    /** munmap (or a MAP_FIXED mapping over it): written back, then forgotten; what stays mapped of a mapping is kept. */
    void unmapped(long address, long length) {
        for (Mapping m : overlapping(address, length)) {
            long from = Math.max(address, m.address), to = Math.min(address + length, m.end());
            copyOut(m, from, to);
            mappings.remove(m.address);
            if (m.address < from) {
                m.file.refs++;
                mappings.put(m.address, new Mapping(m.address, from - m.address, m.file, m.offset));
            }
            if (to < m.end()) {
                m.file.refs++;
                mappings.put(to, new Mapping(to, m.end() - to, m.file, m.offset + (to - m.address)));
            }
            release(m.file);
        }
    }

    /** Before a file is read (or sized): its shared mappings' bytes reach it. */
    private void writeBack(Object key) {
        if (mappings.isEmpty() || key == null) return;
        for (Mapping m : mappings.values()) if (m.file.key.equals(key)) copyOut(m, m.address, m.end());
    }

    /** After a file is written (bytes [pos, pos + count)): its shared mappings show the new bytes. */
    private void refresh(Open o, long pos, long count) {
        if (mappings.isEmpty() || o.key == null) return;
        for (Mapping m : mappings.values()) {
            if (!m.file.key.equals(o.key)) continue;
            long from = Math.max(pos, m.offset), to = Math.min(pos + Math.min(count, Long.MAX_VALUE - pos), m.offset + m.length);
            if (from < to) copyIn(m.file, m.address + (from - m.offset), from, to - from);
        }
    }

    /** Writes every shared mapping back to its file (a file that went away is skipped). */
    void flush() {
        for (Mapping m : mappings.values()) {
            try {
                copyOut(m, m.address, m.end());
            } catch (Errno e) {
                // nothing to write back to
            }
        }
    }

    /** Writes every shared mapping back and closes every file (the emulator closes). */
    @Override
    public void close() {
        flush();
        for (Mapping m : mappings.values()) release(m.file);
        mappings.clear();
        for (int i = 0; i < MAX_FDS; i++) {
            if (fds[i] != null) release(fds[i]);
            fds[i] = null;
        }
    }
}
