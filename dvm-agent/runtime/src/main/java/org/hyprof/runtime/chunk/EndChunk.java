package org.hyprof.runtime.chunk;

/** END, written at a clean exit: wall clock and nanoTime at the end, events dropped in total. */
public final class EndChunk {
    public final long endWallMillis;
    public final long endNanos;
    public final long droppedEvents;

    public EndChunk(long endWallMillis, long endNanos, long droppedEvents) {
        this.endWallMillis = endWallMillis;
        this.endNanos = endNanos;
        this.droppedEvents = droppedEvents;
    }

    public void encode(PayloadWriter w) {
        w.varint(endWallMillis).varint(endNanos).varint(droppedEvents);
    }

    public static EndChunk decode(PayloadReader r) {
        return new EndChunk(r.varint(), r.varint(), r.varint());
    }
}
