package org.hyprof.control;

/** A frame that breaks the protocol: the connection that sent it is closed with this reason. */
public class FrameException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public FrameException(String message) {
        super(message);
    }
}
