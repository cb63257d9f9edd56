package org.hyprof.bb.emu;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.function.Consumer;
import org.hyprof.bb.NativeException;

/**
 * Where the native libraries bb-tracer carries in its jar (the engine shim, unidbg's Unicorn) are
 * put before {@code System.load}: a directory only this user can write, and a file whose bytes
 * match the SHA-256 of the library in the jar. Why: a library loaded from a path another local
 * user can write runs that user's code in every hyprof (the shim used to be taken as-is from
 * {@code $TMPDIR/hyprof-$USER/}, a name anyone can create first).
 *
 * <p>The directory is {@code $XDG_CACHE_HOME/hyprof}, else {@code ~/.cache/hyprof}; when neither
 * can be made, {@code <java.io.tmpdir>/hyprof-<uid>}, under the same checks. It is created with
 * mode 0700; an existing one must be a real directory (not a symbolic link) owned by this user;
 * one this user owns that others can write is made private (0700) with a warning. A file already
 * there is used only if it is a regular file (not a link) owned by this user, not writable by
 * others, with the expected SHA-256; otherwise it is replaced (with a warning). New files are
 * written to a temporary file in the same directory, checked, and moved into place atomically.
 */
final class LibraryCache {
    private static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OTHERS_WRITE = EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

    /** Opens the library's bytes (a resource of the jar). */
    interface Source {
        InputStream open() throws IOException;
    }

    private LibraryCache() {}

    /** The default way a warning reaches the user: one line on stderr. */
    static void warn(String message) {
        System.err.println("hyprof: warning: " + message);
    }

    /** The per-user directory: $XDG_CACHE_HOME/hyprof, ~/.cache/hyprof, or a private one in the temporary directory. */
    static Path directory(Consumer<String> warn) throws IOException {
        String xdg = System.getenv("XDG_CACHE_HOME");
        String home = System.getProperty("user.home");
        for (Path candidate : new Path[] {
                xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute() ? Path.of(xdg, "hyprof") : null,
                home != null && !home.isEmpty() && !home.equals("?") ? Path.of(home, ".cache", "hyprof") : null}) {
            if (candidate == null) continue;
            try {
                Files.createDirectories(candidate.getParent());
                return privateDirectory(candidate, warn);
            } catch (IOException e) {
                // not writable (a read-only home): the next place
            }
        }
        // no usable home: a directory of our own in the shared temporary directory, same checks
        return privateDirectory(Path.of(System.getProperty("java.io.tmpdir"), "hyprof-" + uid()), warn);
    }

    /**
     * Makes {@code dir} (mode 0700) or checks an existing one: a directory, not a symbolic link,
     * owned by this user; if others can write it, it is made private. Throws a one-line
     * {@link NativeException} when it cannot be trusted.
     */
    static Path privateDirectory(Path dir, Consumer<String> warn) throws IOException {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PRIVATE));
            Files.setPosixFilePermissions(dir, PRIVATE); // the umask may have taken bits away, never added: make it exact
        } catch (FileAlreadyExistsException e) {
            // checked below
        }
        PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink())
            throw new NativeException(dir + " is a symbolic link; hyprof loads native libraries only from a directory of its own"
                    + " (remove it, or set XDG_CACHE_HOME to another place)");
        if (!a.isDirectory()) throw new NativeException(dir + " is not a directory (hyprof keeps its native libraries there)");
        if (!ownedByMe(dir, a.owner()))
            throw new NativeException(dir + " belongs to " + a.owner().getName() + ", not to this user; hyprof loads native libraries"
                    + " only from a directory only you can write (remove it, or set XDG_CACHE_HOME to another place)");
        if (a.permissions().stream().anyMatch(OTHERS_WRITE::contains)) {
            Files.setPosixFilePermissions(dir, PRIVATE);
            warn.accept(dir + " could be written by other users (mode " + PosixFilePermissions.toString(a.permissions())
                    + "); made it private (rwx------)");
        }
        return dir;
    }

    /**
     * The path of a checked copy of a library in {@code dir}: {@code <base>-<first 16 hex digits of
     * its SHA-256>.so}. {@code sha256} is the expected hash (hex), or null to compute it from the
     * source. An existing file is reused only if it passes every check; otherwise it is replaced.
     */
    static Path extract(Path dir, String base, Source source, String sha256, Consumer<String> warn) throws IOException {
        String expected = sha256 != null ? sha256.trim().toLowerCase(java.util.Locale.ROOT) : hash(source);
        if (!expected.matches("[0-9a-f]{64}")) throw new NativeException(base + ": bad SHA-256 '" + expected + "' beside it in the jar");
        Path so = dir.resolve(base + "-" + expected.substring(0, 16) + ".so");
        String wrong = problem(so, expected);
        if (wrong == null) return so;
        if (!wrong.isEmpty()) {
            warn.accept(so + " " + wrong + "; replaced it with the library hyprof ships");
            Files.delete(so); // a link is removed, not what it points to
        }
        Path tmp = Files.createTempFile(dir, base + "-", ".tmp"); // mode 0600, a new name (O_EXCL)
        try {
            String got;
            try (InputStream in = source.open(); OutputStream out = Files.newOutputStream(tmp)) {
                DigestInputStream d = new DigestInputStream(in, sha256());
                d.transferTo(out);
                got = HexFormat.of().formatHex(d.getMessageDigest().digest());
            }
            if (!got.equals(expected))
                throw new NativeException(base + " in hyprof's jar does not match its SHA-256 (" + got.substring(0, 16) + "…, expected "
                        + expected.substring(0, 16) + "…): the jar is damaged");
            Files.move(tmp, so, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        String after = problem(so, expected);
        if (after != null) throw new NativeException(so + " " + (after.isEmpty() ? "vanished" : after) + " right after it was written");
        return so;
    }

    /** Null if {@code so} can be loaded; "" if it does not exist; otherwise what is wrong with it. */
    private static String problem(Path so, String expected) throws IOException {
        PosixFileAttributes a;
        try {
            a = Files.readAttributes(so, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return "";
        }
        if (a.isSymbolicLink()) return "was a symbolic link";
        if (!a.isRegularFile()) return "was not a regular file";
        if (!ownedByMe(so, a.owner())) return "belonged to " + a.owner().getName();
        if (a.permissions().stream().anyMatch(OTHERS_WRITE::contains)) return "could be written by other users";
        String got;
        try (InputStream in = Files.newInputStream(so, LinkOption.NOFOLLOW_LINKS)) {
            got = hash(in);
        }
        return got.equals(expected) ? null : "did not match its SHA-256";
    }

    private static String hash(Source s) throws IOException {
        try (InputStream in = s.open()) {
            if (in == null) throw new NativeException("a native library is missing from hyprof's jar");
            return hash(in);
        }
    }

    private static String hash(InputStream in) throws IOException {
        MessageDigest md = sha256();
        byte[] buf = new byte[1 << 16];
        for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
        return HexFormat.of().formatHex(md.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether this process's (effective) user owns {@code p} (the link itself, if it is one). */
    private static boolean ownedByMe(Path p, UserPrincipal owner) throws IOException {
        String uid = uid();
        if (!uid.equals("unknown")) {
            try {
                return String.valueOf(Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)).equals(uid);
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                // no unix attribute view: by name below
            }
        }
        String me = System.getProperty("user.name");
        return me != null && owner.equals(p.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(me));
    }

    /** This process's effective user id (Linux), or "unknown". */
    static String uid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII))
                if (line.startsWith("Uid:")) return line.substring(4).trim().split("\\s+")[1];
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return "unknown";
    }
}
