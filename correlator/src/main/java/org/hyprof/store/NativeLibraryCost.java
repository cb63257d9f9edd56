package org.hyprof.store;

/**
 * A native method's cost in one library, over all its calls in a hybrid run (schema 9):
 * {@code library} is the app library whose emulator ran the calls, {@code codeLibrary} the library
 * the executed instructions lie in — the app library itself, a library found beside it, or one of
 * Android's system libraries ({@code system}: {@code libc.so}, {@code libm.so} …). Block
 * executions, instructions, estimated cycles, device time (ns) and energy (pJ).
 */
public record NativeLibraryCost(String library, String codeLibrary, boolean system, int probeId, long blocks, long instructions,
                                long cycles, long estNanos, long energyPicojoules) {}
