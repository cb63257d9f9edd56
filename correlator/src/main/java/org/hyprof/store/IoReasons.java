package org.hyprof.store;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * Why a file operation failed, in words for a one-line error: the JDK's own message of a file
 * system exception is often only the path (sometimes of a temporary file the user never named).
 */
public final class IoReasons {
    private IoReasons() {}

    public static String of(IOException e) {
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof NoSuchFileException) return "no such file or directory";
        if (e instanceof FileAlreadyExistsException) return "already exists";
        if (e instanceof FileSystemException f) return f.getReason() != null ? f.getReason() : e.getClass().getSimpleName();
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
