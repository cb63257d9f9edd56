package org.hyprof.store;

/**
 * Native work charged to a Java method in a hybrid run: executed instructions, estimated device
 * cycles, time (ns) and energy (pJ), exclusive (called directly by the method) and inclusive
 * (also under its callees, outermost activations).
 */
public record NativeCost(long instructions, long cycles, long estNanos, long energyPicojoules, long instructionsIncl,
                         long cyclesIncl, long estNanosIncl, long energyPicojoulesIncl) {
    public static final NativeCost NONE = new NativeCost(0, 0, 0, 0, 0, 0, 0, 0);

    /** Field by field sum (costs of a method merged over threads and processes). */
    public NativeCost plus(NativeCost o) {
        return new NativeCost(instructions + o.instructions, cycles + o.cycles, estNanos + o.estNanos,
                energyPicojoules + o.energyPicojoules, instructionsIncl + o.instructionsIncl, cyclesIncl + o.cyclesIncl,
                estNanosIncl + o.estNanosIncl, energyPicojoulesIncl + o.energyPicojoulesIncl);
    }

    /** Whether any native code ran (a hybrid run). */
    public boolean any() {
        return instructions != 0 || instructionsIncl != 0;
    }
}
