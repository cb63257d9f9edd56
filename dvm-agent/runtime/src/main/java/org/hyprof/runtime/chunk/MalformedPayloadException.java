package org.hyprof.runtime.chunk;

/**
 * A payload that does not decode: it ends inside a value, a length or count runs past what
 * remains, a number has more than 10 bytes. Thrown by {@link PayloadReader} and the chunk codecs;
 * readers skip the chunk or refuse the frame and say so, never more.
 */
public class MalformedPayloadException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public MalformedPayloadException(String message) {
        super(message);
    }
}
