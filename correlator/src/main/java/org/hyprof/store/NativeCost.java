package org.hyprof.store;

/**
 * Native work charged to a Java method in a hybrid run: executed instructions, estimated device
 * cycles, time (ns) and energy (pJ), exclusive (called directly by the method) and inclusive
 * (also under its callees, outermost activations).
 */
public record NativeCost(long instructions, long cycles, long estNanos, long energyPicojoules, long instructionsIncl,
                         long cyclesIncl, long estNanosIncl, long energyPicojoulesIncl) {
    public static final NativeCost NONE = new NativeCost(0, 0, 0, 0, 0, 0, 0, 0);
}
