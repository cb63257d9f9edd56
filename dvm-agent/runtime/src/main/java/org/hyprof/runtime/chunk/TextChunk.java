package org.hyprof.runtime.chunk;

/**
 * The chunks whose payload is one string: HEADER ({@code key=value} lines), MANIFEST (TSV lines
 * of the probe manifest), ERROR (a message) and NATIVE_INFO (Java properties of a hybrid run).
 */
public final class TextChunk {
    private TextChunk() {}

    public static void encode(PayloadWriter w, String text) {
        w.string(text);
    }

    public static String decode(PayloadReader r) {
        return r.string();
    }
}
