package org.hyprof.bb.jni;

import java.util.ArrayList;
import java.util.List;

/**
 * JNI references: Java objects handed to native code as small non-zero handles. Local
 * references live until the native call that made them returns; global ones until deleted.
 * A handle is {@code index << 2 | kind} (kind 1 local, 2 global, 3 weak global).
 */
final class Refs {
    private final List<Object> locals = new ArrayList<>();
    private final List<Object> globals = new ArrayList<>();
    private final List<Integer> frames = new ArrayList<>();

    long local(Object o) {
        if (o == null) return 0;
        locals.add(o);
        return ((long) locals.size() << 2) | 1;
    }

    long global(Object o) {
        if (o == null) return 0;
        globals.add(o);
        return ((long) globals.size() << 2) | 2;
    }

    Object get(long handle) {
        if (handle == 0) return null;
        int i = (int) (handle >>> 2) - 1;
        List<Object> l = (handle & 3) == 1 ? locals : globals;
        if (i < 0 || i >= l.size()) throw new IllegalArgumentException("invalid JNI reference 0x" + Long.toHexString(handle));
        return l.get(i);
    }

    void delete(long handle) {
        if (handle == 0) return;
        int i = (int) (handle >>> 2) - 1;
        List<Object> l = (handle & 3) == 1 ? locals : globals;
        if (i >= 0 && i < l.size()) l.set(i, null);
    }

    int kind(long handle) {
        return (int) (handle & 3);
    }

    /** Starts a native call's local frame. */
    void push() {
        frames.add(locals.size());
    }

    /** Ends it: its local references become invalid. */
    void pop() {
        int n = frames.remove(frames.size() - 1);
        while (locals.size() > n) locals.remove(locals.size() - 1);
    }
}
