package org.hyprof.instrument;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Outputs are written to a temporary file beside them and moved into place when complete, so a
 * failed run never leaves a partial output. The temporary file is created like any file the user
 * makes (permissions from the umask), not with {@code Files.createTempFile}'s owner-only mode:
 * an instrumented jar or APK must stay readable by whoever could read the input.
 */
public final class OutputFiles {
    private OutputFiles() {}

    /**
     * A new empty file beside {@code out}: {@code .hyprof-NAME-RANDOM.tmp}, with the permissions of
     * {@code out} when it exists (it is about to be replaced), else the umask's.
     */
    public static Path tempBeside(Path out) throws IOException {
        Path dir = out.toAbsolutePath().getParent();
        for (int attempt = 0; ; attempt++) {
            Path tmp = dir.resolve(".hyprof-" + out.getFileName() + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
            try {
                Files.createFile(tmp);
            } catch (FileAlreadyExistsException e) {
                if (attempt > 100) throw e;
                continue;
            }
            if (Files.isRegularFile(out)) {
                try {
                    Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(out));
                } catch (IOException | UnsupportedOperationException e) {
                    // not a POSIX file system, or not ours to read: the umask's permissions stay
                }
            }
            return tmp;
        }
    }

    /** Moves a finished temporary file over {@code out} (atomically where the file system can). */
    public static void moveIntoPlace(Path tmp, Path out) throws IOException {
        try {
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
