package org.hyprof.store;

/**
 * A thread that recorded; drops are events lost to the budget and frames lost to stack depth.
 * {@code topInclNanos} is the deducted inclusive time of its top-level activations (the thread's
 * total, against which Σ exclusive time is checked); {@code topNativeEstNanos} and
 * {@code topNativeEnergyPicojoules} the native work under them (hybrid runs); {@code topCpuNanos}
 * their thread CPU time, null when the session recorded none (schema 5 and older, format 2).
 */
public record ThreadInfo(long tid, String name, long eventDrops, long depthDrops, long topInclNanos,
                         long topNativeEstNanos, long topNativeEnergyPicojoules, Long topCpuNanos) {
    public ThreadInfo(long tid, String name, long eventDrops, long depthDrops) {
        this(tid, name, eventDrops, depthDrops, 0, 0, 0, null);
    }

    public ThreadInfo(long tid, String name, long eventDrops, long depthDrops, long topInclNanos,
                      long topNativeEstNanos, long topNativeEnergyPicojoules) {
        this(tid, name, eventDrops, depthDrops, topInclNanos, topNativeEstNanos, topNativeEnergyPicojoules, null);
    }
}
