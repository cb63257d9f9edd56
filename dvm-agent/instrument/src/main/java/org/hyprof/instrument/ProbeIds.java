package org.hyprof.instrument;

import java.util.concurrent.atomic.AtomicInteger;

/** Hands out probe ids: one per method, one per loop. Id 0 is reserved by the runtime. */
public final class ProbeIds {
    private final AtomicInteger next;

    public ProbeIds() {
        this(1);
    }

    public ProbeIds(int first) {
        if (first < 1) throw new IllegalArgumentException("probe ids start at 1");
        this.next = new AtomicInteger(first);
    }

    public int next() {
        return next.getAndIncrement();
    }

    /** The id the next call would return. */
    public int peek() {
        return next.get();
    }
}
