package org.hyprof.correlate;

import org.hyprof.store.NativeCost;

/**
 * One report row: a method or a loop, merged over threads and processes. Times in nanoseconds,
 * deducted (the probes' calibrated cost taken out) unless named raw. Inclusive time of a
 * recursive method counts outermost activations only; exclusive counts every activation.
 *
 * @param method      {@code pkg.Class.name(desc)} or {@code pkg.Class.name(desc)#loopK}
 * @param kind        {@code method} or {@code loop}
 * @param resolution  process, thread, method or loop
 * @param calls       activations (loops: entries)
 * @param iterations  loops: back edges taken
 * @param throwsCount activations ended by an exception
 * @param nativeCost  native code it ran in a hybrid run: exclusive (called directly) and inclusive
 *                    (also under its callees); estimated device time, which is part of its times
 * @param energyMicrojoules     exclusive energy: Java part (exclusive time without native time ×
 *                              the power profile's CPU power) + native part (CPU profile)
 * @param energyInclMicrojoules the same, inclusive of callees
 */
public record MethodRow(String method, String kind, String resolution, long calls, long inclNanos, long exclNanos,
                        long inclRawNanos, long exclRawNanos, long minNanos, long maxNanos, long p50Nanos,
                        long p99Nanos, long iterations, long throwsCount, long[] hist, NativeCost nativeCost,
                        double energyMicrojoules, double energyInclMicrojoules) {}
