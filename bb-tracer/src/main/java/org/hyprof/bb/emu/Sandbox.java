package org.hyprof.bb.emu;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.hyprof.bb.NativeException;

/**
 * The host directory emulated code sees as its whole file system ({@code --native-sandbox DIR}):
 * the guest's {@code /} is this directory, and no host path outside it is ever opened. A guest
 * path is taken apart into names and put together again below the root; {@code ..} above the
 * root is refused ({@code EACCES}), a symbolic link anywhere on the way is never followed
 * ({@code ELOOP}), and what is opened is checked to lie below the root's real path afterwards.
 * What emulated code does with its files is {@link SandboxFiles}.
 *
 * <p>A sandbox the user names is created if missing and kept; {@link #temporary()} makes a fresh
 * private directory (mode 0700) that {@link #close()} removes with everything in it (never
 * following a link out of it).
 */
public final class Sandbox implements AutoCloseable {
    /** The longest path the guest may give (Linux's PATH_MAX, with its NUL) and the longest name. */
    static final int PATH_MAX = 4096, NAME_MAX = 255;

    private final Path root;
    private final Path realRoot;
    private final boolean temporary;

    private Sandbox(Path root, boolean temporary) throws IOException {
        this.root = root;
        this.realRoot = root.toRealPath();
        this.temporary = temporary;
    }

    /**
     * The directory a user named: created (with its parents) if missing. A path that exists and is
     * not a directory is a one-line error naming it.
     */
    public static Sandbox at(Path dir) {
        try {
            if (Files.exists(dir) && !Files.isDirectory(dir)) throw new NativeException("--native-sandbox " + dir + ": not a directory");
            Files.createDirectories(dir);
            return new Sandbox(dir.toAbsolutePath(), false);
        } catch (IOException e) {
            throw new NativeException("--native-sandbox " + dir + ": cannot create it (" + e.getMessage() + ")");
        }
    }

    /** A fresh private temporary directory (mode 0700), removed by {@link #close()}. */
    public static Sandbox temporary() {
        try {
            Path d = Files.createTempDirectory("hyprof-sandbox", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            d.toFile().deleteOnExit(); // if it is left empty and never closed
            return new Sandbox(d, true);
        } catch (IOException | UnsupportedOperationException e) {
            throw new NativeException("cannot create a temporary directory for native code's files: " + e.getMessage());
        }
    }

    /** The host directory the guest sees as {@code /}. */
    public Path root() {
        return root;
    }

    /** Whether {@link #close()} removes the directory (hyprof made it). */
    public boolean isTemporary() {
        return temporary;
    }

    /**
     * The names of a guest path, resolved against {@code base} (the names of the directory a
     * relative path starts from; the root for an absolute path): {@code .} and empty names
     * dropped, {@code ..} taking one off. Throws {@link Errno} {@code ENOENT} (empty path),
     * {@code ENAMETOOLONG} or {@code EACCES} ({@code ..} above the root).
     */
    static List<String> names(String guestPath, List<String> base) {
        if (guestPath.isEmpty()) throw new Errno(Errno.ENOENT);
        if (guestPath.length() >= PATH_MAX) throw new Errno(Errno.ENAMETOOLONG);
        List<String> out = new ArrayList<>(guestPath.startsWith("/") ? List.of() : base);
        for (String n : guestPath.split("/")) {
            if (n.isEmpty() || n.equals(".")) continue;
            if (n.length() > NAME_MAX) throw new Errno(Errno.ENAMETOOLONG);
            if (n.equals("..")) {
                if (out.isEmpty()) throw new Errno(Errno.EACCES); // above the sandbox's root: refused
                out.remove(out.size() - 1);
            } else {
                out.add(n);
            }
        }
        return out;
    }

    /**
     * The host path of guest names, every directory on the way checked to be a real directory (a
     * link there is {@code ELOOP}, a file {@code ENOTDIR}); the last name is not checked (it may
     * not exist yet: callers open it without following links).
     */
    Path hostPath(List<String> names) {
        Path p = root;
        for (int i = 0; i < names.size(); i++) {
            p = p.resolve(names.get(i));
            if (i == names.size() - 1) break;
            if (Files.isSymbolicLink(p)) throw new Errno(Errno.ELOOP);
            if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) throw new Errno(Files.exists(p, LinkOption.NOFOLLOW_LINKS) ? Errno.ENOTDIR : Errno.ENOENT);
        }
        return p;
    }

    /**
     * Checks, after the fact, that an existing host path lies below the root's real path (a link
     * swapped in on the way between the checks and the open would show here): {@code EACCES} if not.
     */
    void checkInside(Path p) {
        try {
            Path parent = p.getParent() == null ? p : p.getParent();
            if (!parent.toRealPath().startsWith(realRoot)) throw new Errno(Errno.EACCES);
        } catch (IOException e) {
            throw new Errno(Errno.ENOENT);
        }
    }

    /** Removes a temporary sandbox and its contents (links are removed, never followed); a named one is kept. */
    @Override
    public void close() {
        if (!temporary || !Files.exists(root, LinkOption.NOFOLLOW_LINKS)) return;
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            System.err.println("hyprof: could not remove the temporary sandbox " + root + ": " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return root.toString();
    }
}
