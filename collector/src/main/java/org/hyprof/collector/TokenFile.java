package org.hyprof.collector;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * The collector's token in a file only its user can read, beside the session database
 * ({@code S.db.token}): {@code hyprof serve} and {@code tui --listen} create it (or read the one a
 * previous collector on the session made, so its agents can resume), and {@code ctl},
 * {@code profile --connect} and agents ({@code tokenFile=}) read it, so the token never has to be
 * on a command line.
 */
public final class TokenFile {
    private TokenFile() {}

    /** Random bits in a new token. */
    public static final int TOKEN_BITS = 128;

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    /** A token read or made, and whether it was made now. */
    public record Token(String value, Path file, boolean created) {}

    /** Where a session's token lives: {@code S.db.token}. */
    public static Path beside(Path session) {
        return session.resolveSibling(session.getFileName() + ".token");
    }

    /**
     * The token in {@code file}, or a new random one written there: the file is created with mode
     * 0600 from the start and appears whole (a temporary file linked into place, so two collectors
     * starting at once agree on one token). An existing file others can read is refused.
     */
    public static Token createOrRead(Path file) throws IOException {
        if (Files.exists(file)) return new Token(read(file), file, false);
        byte[] bits = new byte[TOKEN_BITS / 8];
        new SecureRandom().nextBytes(bits);
        String token = HexFormat.of().formatHex(bits);
        Path dir = file.toAbsolutePath().getParent();
        Path tmp;
        try {
            tmp = posix(dir) ? Files.createTempFile(dir, ".hyprof-token", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                    : Files.createTempFile(dir, ".hyprof-token", ".tmp");
        } catch (IOException e) {
            // the exception names the temporary file, which the user never asked for
            throw new IOException(file + ": cannot create the token file (" + org.hyprof.store.IoReasons.of(e) + ")", e);
        }
        try {
            Files.writeString(tmp, token + "\n", StandardCharsets.UTF_8);
            try {
                Files.createLink(file, tmp); // atomic, and never replaces a file that appeared meanwhile
            } catch (FileAlreadyExistsException raced) {
                return new Token(read(file), file, false);
            } catch (UnsupportedOperationException | IOException noLinks) {
                if (Files.exists(file)) return new Token(read(file), file, false);
                Files.move(tmp, file);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        return new Token(token, file, true);
    }

    /** The token in a file (its first line); refuses a file that others than its owner may read. */
    public static String read(Path file) throws IOException {
        if (posix(file.toAbsolutePath().getParent())) {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            for (PosixFilePermission p : perms)
                if (p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"))
                    throw new IOException(file + ": readable by others (mode " + PosixFilePermissions.toString(perms)
                            + "); make it rw------- (chmod 600) or remove it");
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int nl = text.indexOf('\n');
        String t = (nl >= 0 ? text.substring(0, nl) : text).trim();
        if (t.isEmpty()) throw new IOException(file + ": empty token file");
        return t;
    }

    /** Makes a file (the session database) readable and writable by its owner only, where the file system can. */
    public static void ownerOnly(Path file) throws IOException {
        if (Files.exists(file) && posix(file.toAbsolutePath().getParent())) Files.setPosixFilePermissions(file, OWNER_ONLY);
    }

    private static boolean posix(Path dir) {
        return dir != null && Files.getFileAttributeView(dir, java.nio.file.attribute.PosixFileAttributeView.class) != null;
    }
}
