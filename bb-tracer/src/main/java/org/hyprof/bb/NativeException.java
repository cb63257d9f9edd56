package org.hyprof.bb;

/** A problem with native code or its input: the message is one line naming what and why. */
public class NativeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NativeException(String message) {
        super(message);
    }

    public NativeException(String message, Throwable cause) {
        super(message, cause);
    }
}
