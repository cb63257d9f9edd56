package org.hyprof.store;

/** A profiled process of a session. {@code status}: running, ended, crashed or damaged. */
public record ProcessInfo(long id, long pid, String name, String vm, String mode, long budgetBytes,
                          long startWallMillis, long startNanos, Long endWallMillis, String status,
                          long eventDrops, String source) {}
