package org.hyprof.cli;

/** A problem with the user's input: printed as one line, exit code {@link #exitCode}. */
public class UserError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** 1 for bad input, 2 for bad usage. */
    public final int exitCode;

    public UserError(String message) {
        this(message, 1);
    }

    public UserError(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }
}
