package org.hyprof.bb.emu;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.hyprof.bb.NativeException;

/**
 * The emulated heap behind the malloc family: a bump allocator with free lists per rounded size.
 * Blocks are 16-byte aligned; sizes are remembered for realloc and free.
 */
public final class Heap {
    private final long base, limit;
    private long next;
    private final Map<Long, Long> sizes = new HashMap<>();
    private final Map<Long, ArrayDeque<Long>> free = new HashMap<>();

    public Heap(long base, long size) {
        this.base = base;
        this.limit = base + size;
        this.next = base;
    }

    public long malloc(long size) {
        if (size < 0 || size > limit - base)
            throw new NativeException("emulated heap exhausted (" + (limit - base) + " bytes) by malloc(" + Long.toUnsignedString(size) + ")");
        long n = Math.max(16, (size + 15) & ~15L);
        ArrayDeque<Long> f = free.get(n);
        long p;
        if (f != null && !f.isEmpty()) p = f.pop();
        else {
            if (next + n > limit) throw new NativeException("emulated heap exhausted (" + (limit - base) + " bytes) by malloc(" + size + ")");
            p = next;
            next += n;
        }
        sizes.put(p, n);
        return p;
    }

    public void free(long p) {
        if (p == 0) return;
        Long n = sizes.remove(p);
        if (n == null) throw new NativeException("free(0x" + Long.toHexString(p) + "): not a block from malloc");
        free.computeIfAbsent(n, k -> new ArrayDeque<>()).push(p);
    }

    /** Size of a live block, or -1. */
    public long sizeOf(long p) {
        Long n = sizes.get(p);
        return n == null ? -1 : n;
    }

    public long used() {
        return next - base;
    }
}
