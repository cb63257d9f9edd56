package org.hyprof.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hyprof.instrument.OutputFiles;

/**
 * A file a command writes ({@code export -o FILE}). {@link #check} refuses, before any work, an
 * output that cannot be written or that is one of the command's inputs; {@link #write} writes the
 * whole content to a temporary file beside the output and only then moves it into place, so a
 * failed or interrupted export never leaves a partial file nor destroys what was there. Every
 * problem is a {@link UserError} naming the output.
 */
final class OutputFile {
    /** Writes the content to the file it is given. */
    interface Content {
        void writeTo(Path file) throws IOException;
    }

    private OutputFile() {}

    /**
     * Checks that {@code out} can be written and is none of {@code inputs} (also through another
     * path, a symbolic or a hard link, or SQLite's side files of a session): usage error (exit 2)
     * if it is one, input error (exit 1) if its directory is missing or it is a directory.
     */
    static void check(Path out, Path... inputs) {
        if (out.toString().isEmpty()) throw new UserError("-o: empty file name", 2);
        for (Path in : inputs) {
            if (same(out, in))
                throw new UserError(out + ": is the input " + in + "; writing there would destroy it (choose another output file)", 2);
            if (sideFile(out, in))
                throw new UserError(out + ": is a file of the input session " + in + " (SQLite's); choose another output file", 2);
        }
        if (Files.isDirectory(out)) throw new UserError(out + ": is a directory");
        if (Files.exists(out) && !Files.isRegularFile(out)) { // a device or a pipe: written into
            if (!Files.isWritable(out)) throw new UserError(out + ": cannot write (permission denied)");
            return;
        }
        checkDirectory(out);
    }

    /**
     * Checks that the directory {@code out} goes into exists, is a directory and can be written: an
     * input error (exit 1) naming {@code out} otherwise. No command makes a missing directory.
     */
    static void checkDirectory(Path out) {
        Path dir = target(out).getParent();
        if (dir == null) return;
        if (!Files.exists(dir)) throw new UserError(out + ": directory " + dir + " does not exist");
        if (!Files.isDirectory(dir)) throw new UserError(out + ": " + dir + " is not a directory");
        if (!Files.isWritable(dir)) throw new UserError(out + ": cannot write in " + dir + " (permission denied)");
    }

    /**
     * Writes {@code out} through a temporary file in its directory, then moves it into place
     * (atomically where the file system can). A symbolic link is written through, as the shell's
     * {@code >} would; an existing file keeps its permissions, a new one gets the usual ones. A
     * device or a named pipe ({@code /dev/stdout}) is written directly: there is nothing to keep.
     */
    static void write(Path out, Content content) {
        Path target = target(out);
        Path tmp = null;
        try {
            if (Files.exists(target) && !Files.isRegularFile(target)) {
                // a device or a pipe (/dev/stdout, mkfifo): written into, never replaced
                content.writeTo(out);
                return;
            }
            tmp = OutputFiles.tempBeside(target);
            tmp.toFile().deleteOnExit(); // interrupted (Ctrl-C): no stray temporary file
            content.writeTo(tmp);
            OutputFiles.moveIntoPlace(tmp, target);
        } catch (IOException e) {
            throw new UserError(out + ": cannot write (" + org.hyprof.store.IoReasons.of(e) + ")");
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // deleteOnExit tries again
                }
            }
        }
    }

    /** Where the bytes go: the file a symbolic link points to, else the path itself. */
    private static Path target(Path out) {
        Path abs = out.toAbsolutePath();
        if (Files.isSymbolicLink(abs) && Files.exists(abs)) {
            try {
                return abs.toRealPath();
            } catch (IOException e) {
                return abs;
            }
        }
        return abs;
    }

    private static boolean same(Path a, Path b) {
        if (!Files.exists(a) || !Files.exists(b)) return false;
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether {@code out} names one of SQLite's files beside session {@code in} (they come and go: by name). */
    private static boolean sideFile(Path out, Path in) {
        Path o = canonical(out);
        for (Path db : new Path[] {canonical(in), real(in)})
            for (String side : new String[] {"-wal", "-shm", "-journal"})
                if (o.equals(db.resolveSibling(db.getFileName() + side))) return true;
        return false;
    }

    /** Absolute, with the directory's symbolic links resolved (the file itself need not exist). */
    private static Path canonical(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        if (abs.getParent() == null || abs.getFileName() == null) return abs;
        try {
            return abs.getParent().toRealPath().resolve(abs.getFileName());
        } catch (IOException e) {
            return abs;
        }
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return canonical(p);
        }
    }
}
