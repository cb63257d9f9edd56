package org.hyprof.store;

/** One thread's chunk of event records (format: the runtime's EventLog). */
public record EventChunk(long tid, long seq, long baseNanos, byte[] data) {}
