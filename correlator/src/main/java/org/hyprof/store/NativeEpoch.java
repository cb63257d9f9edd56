package org.hyprof.store;

/**
 * One native call of a hybrid run: the thread, the Java method (probe) that made it, the native
 * symbol, and what ran: blocks, instructions, estimated cycles, device time (ns) and energy (pJ),
 * and the emulator's wall time it replaced.
 */
public record NativeEpoch(long epochId, long tid, int probeId, String symbol, long blocks, long instructions, long cycles,
                          long estNanos, long energyPicojoules, long wallNanos) {}
