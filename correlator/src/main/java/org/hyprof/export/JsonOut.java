package org.hyprof.export;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * JSON written as UTF-8 bytes into one reused buffer, token by token, exactly as Jackson's
 * generator writes it — compact, or with its default pretty printer (objects indented by two
 * spaces per level, {@code " : "} after names, arrays inline as {@code [ a, b ]}) — without its
 * per-call state checks or any object per value: the export goldens were made with Jackson and
 * still hold. Names and values written millions of times are quoted once
 * ({@link JsonText#quotedUtf8}) and copied; numbers are written from integers ({@link JsonText}).
 *
 * <p>Events that repeat the same tokens (a slice's {@code "ph","pid","tid"}) are made once as a
 * {@link Fragment} and pasted: one copy instead of a dozen token calls, the same bytes in either
 * layout. The buffer goes to the sink only between tokens, so a {@link Writer} sink always gets
 * whole characters. Write errors surface as {@link UncheckedIOException}.
 */
final class JsonOut {
    private final OutputStream out; // one of out and writer; neither: a scratch buffer that grows
    private final Writer writer;
    private final boolean pretty;
    private byte[] buf;
    private int pos;
    /** Entries so far of each open object or array, outermost first. */
    private int[] counts = new int[16];
    private int depth;
    /** Pretty layout's indentation level: open objects (arrays stay on their line, as Jackson's). */
    private int nesting;
    private boolean afterName;
    /** Scratch only: the next entry's comma is left to {@link #paste} (it depends on where the fragment goes). */
    private boolean leaveComma, leftComma;

    JsonOut(OutputStream out, boolean pretty) {
        this(out, null, pretty, 1 << 16);
    }

    JsonOut(Writer writer, boolean pretty) {
        this(null, writer, pretty, 1 << 16);
    }

    private JsonOut(OutputStream out, Writer writer, boolean pretty, int size) {
        this.out = out;
        this.writer = writer;
        this.pretty = pretty;
        this.buf = new byte[size];
    }

    // ------------------------------------------------------------------ tokens

    JsonOut beginObject() {
        ensure(4 + 2 * nesting);
        value();
        buf[pos++] = '{';
        push();
        if (pretty) nesting++;
        return this;
    }

    JsonOut endObject() {
        ensure(4 + 2 * nesting);
        int entries = counts[--depth];
        if (pretty) {
            nesting--;
            if (entries > 0) indent();
            else buf[pos++] = ' ';
        }
        buf[pos++] = '}';
        return this;
    }

    JsonOut beginArray() {
        ensure(4 + 2 * nesting);
        value();
        buf[pos++] = '[';
        push();
        return this;
    }

    JsonOut endArray() {
        ensure(2);
        depth--;
        if (pretty) buf[pos++] = ' ';
        buf[pos++] = ']';
        return this;
    }

    /** An object's field name, already quoted ({@link JsonText#quotedUtf8}). */
    JsonOut name(byte[] quoted) {
        ensure(quoted.length + 8 + 2 * nesting);
        if (counts[depth - 1]++ > 0) comma();
        else noComma();
        if (pretty) indent();
        System.arraycopy(quoted, 0, buf, pos, quoted.length);
        pos += quoted.length;
        if (pretty) {
            buf[pos++] = ' ';
            buf[pos++] = ':';
            buf[pos++] = ' ';
        } else {
            buf[pos++] = ':';
        }
        afterName = true;
        return this;
    }

    JsonOut name(String name) {
        return name(JsonText.quotedUtf8(name));
    }

    /** A string value already quoted ({@link JsonText#quotedUtf8}), or any literal. */
    JsonOut quoted(byte[] quoted) {
        ensure(quoted.length + 4);
        value();
        System.arraycopy(quoted, 0, buf, pos, quoted.length);
        pos += quoted.length;
        return this;
    }

    JsonOut string(String s) {
        return quoted(JsonText.quotedUtf8(s));
    }

    JsonOut number(long v) {
        ensure(JsonText.MAX_NUMBER + 4);
        value();
        pos = JsonText.putLong(buf, pos, v);
        return this;
    }

    /** {@code n / 1000} as Jackson writes that double ({@link JsonText#thousandths}). */
    JsonOut thousandths(long n) {
        ensure(JsonText.MAX_NUMBER + 4);
        value();
        pos = JsonText.putThousandths(buf, pos, n);
        return this;
    }

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'}, FALSE = {'f', 'a', 'l', 's', 'e'};

    JsonOut bool(boolean v) {
        return quoted(v ? TRUE : FALSE);
    }

    /** Hands everything written so far to the sink (and flushes it). */
    void flush() {
        drain();
        try {
            if (out != null) out.flush();
            else if (writer != null) writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ fragments

    /**
     * Bytes some tokens write, made once and pasted where the writer is in the state they were
     * made in again: the same depth and layout, after a name or not ({@link #paste} checks it). A
     * leading entry's comma is written at each paste, as the entries before it require.
     */
    static final class Fragment {
        private final byte[] bytes;
        private final int startDepth, startNesting, endDepth, endNesting;
        private final boolean startAfterName, endAfterName, leadingComma;
        /** Entries the fragment adds to the container it starts in. */
        private final int added;
        /** Entries of the containers it opens and leaves open. */
        private final int[] openedCounts;

        private Fragment(byte[] bytes, int startDepth, int startNesting, boolean startAfterName, int added, JsonOut end) {
            this.bytes = bytes;
            this.startDepth = startDepth;
            this.startNesting = startNesting;
            this.startAfterName = startAfterName;
            this.added = added;
            this.leadingComma = end.leftComma;
            this.endDepth = end.depth;
            this.endNesting = end.nesting;
            this.endAfterName = end.afterName;
            this.openedCounts = Arrays.copyOfRange(end.counts, startDepth, end.depth);
        }
    }

    /**
     * What {@code tokens} write here after {@code context} (tokens that lead from this state to
     * where the fragment is pasted, e.g. into an event object; may be null), as a fragment. The
     * tokens may open containers but not close one they did not open.
     */
    Fragment fragment(Consumer<JsonOut> context, Consumer<JsonOut> tokens) {
        JsonOut s = new JsonOut(null, null, pretty, 256);
        s.counts = Arrays.copyOf(counts, Math.max(counts.length, depth + 16));
        s.depth = depth;
        s.nesting = nesting;
        s.afterName = afterName;
        if (context != null) context.accept(s);
        int startDepth = s.depth, startNesting = s.nesting;
        boolean startAfterName = s.afterName;
        int startCount = startDepth == 0 ? 0 : s.counts[startDepth - 1];
        s.pos = 0;
        s.leaveComma = true;
        tokens.accept(s);
        if (s.depth < startDepth) throw new IllegalStateException("a fragment closes a container it did not open");
        int added = startDepth == 0 ? 0 : s.counts[startDepth - 1] - startCount;
        return new Fragment(Arrays.copyOf(s.buf, s.pos), startDepth, startNesting, startAfterName, added, s);
    }

    /** Writes a fragment made by {@link #fragment} in the state the writer is in now. */
    JsonOut paste(Fragment f) {
        if (depth != f.startDepth || nesting != f.startNesting || afterName != f.startAfterName)
            throw new IllegalStateException("a JSON fragment pasted where it was not made");
        ensure(f.bytes.length + 1);
        if (f.leadingComma && counts[depth - 1] > 0) buf[pos++] = ',';
        System.arraycopy(f.bytes, 0, buf, pos, f.bytes.length);
        pos += f.bytes.length;
        if (depth > 0) counts[depth - 1] += f.added;
        int opened = f.openedCounts.length;
        if (opened > 0) {
            if (depth + opened > counts.length) counts = Arrays.copyOf(counts, Math.max(depth + opened, counts.length * 2));
            System.arraycopy(f.openedCounts, 0, counts, depth, opened);
        }
        depth = f.endDepth;
        nesting = f.endNesting;
        afterName = f.endAfterName;
        return this;
    }

    // ------------------------------------------------------------------ layout

    /** Before a value: nothing after a name or at the root; in an array the separator Jackson writes there. */
    private void value() {
        if (afterName) {
            afterName = false;
            leaveComma = false; // a fragment that starts with a field's value: no entry, no comma to leave
            return;
        }
        if (depth == 0) return;
        if (counts[depth - 1]++ > 0) comma();
        else noComma();
        if (pretty) buf[pos++] = ' ';
    }

    private void comma() {
        if (leaveComma) {
            leaveComma = false;
            leftComma = true;
        } else {
            buf[pos++] = ',';
        }
    }

    private void noComma() {
        if (leaveComma) { // a fragment's first entry: the paste decides
            leaveComma = false;
            leftComma = true;
        }
    }

    private void indent() {
        buf[pos++] = '\n';
        for (int i = 0; i < nesting; i++) {
            buf[pos++] = ' ';
            buf[pos++] = ' ';
        }
    }

    private void push() {
        if (depth == counts.length) counts = Arrays.copyOf(counts, depth * 2);
        counts[depth++] = 0;
    }

    /** Room for {@code n} more bytes: the buffer goes to the sink (between tokens), or grows. */
    private void ensure(int n) {
        if (pos + n <= buf.length) return;
        drain();
        if (pos + n > buf.length) buf = Arrays.copyOf(buf, Math.max(pos + n, buf.length * 2));
    }

    private void drain() {
        if (pos == 0 || out == null && writer == null) return; // a scratch buffer keeps its bytes
        try {
            if (out != null) out.write(buf, 0, pos);
            else writer.write(new String(buf, 0, pos, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pos = 0;
    }
}
