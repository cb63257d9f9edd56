package org.hyprof.bb.cost;

import java.util.Map;

/**
 * Cycles, time and energy of executed instructions, following the AndroProf thesis (§5.2):
 * <pre>
 * (1) cycles   = Σ over categories: count × cycles of the category (CPI where it has none)
 * (2) time     = cycles / frequency
 * (3) P_mem    = energy per access × access rate × instructions / time
 * (4) power    = P_proc + P_mem;   energy = power × time
 * </pre>
 * With per-category power, the processor part is Σ count × cycles / frequency × power of the
 * category. Units: time in ns, energy in µJ, power in mW.
 */
public record Estimate(long instructions, double cycles, double timeNanos, double energyMicrojoules, double powerMilliwatts) {
    public static final Estimate ZERO = new Estimate(0, 0, 0, 0, 0);

    /** From instruction counts per category. */
    public static Estimate of(Map<String, Long> categoryCounts, CpuProfile p) {
        long n = 0;
        double cycles = 0, procEnergyJ = 0;
        for (Map.Entry<String, Long> e : categoryCounts.entrySet()) {
            long count = e.getValue();
            n += count;
            CpuProfile.Category c = p.category(e.getKey());
            double cpi = c != null && c.cycles() > 0 ? c.cycles() : p.cpi;
            double power = c != null && c.powerMilliwatts() > 0 ? c.powerMilliwatts() : p.powerMilliwatts;
            double cyc = count * cpi;
            cycles += cyc;
            procEnergyJ += cyc / p.frequencyHz * power / 1000.0;
        }
        double timeS = cycles / p.frequencyHz;
        double memEnergyJ = p.memoryAccessEnergyNanojoules * 1e-9 * p.memoryAccessRate * n;
        double energyJ = procEnergyJ + memEnergyJ;
        return new Estimate(n, cycles, timeS * 1e9, energyJ * 1e6, timeS > 0 ? energyJ / timeS * 1000.0 : 0);
    }

    public Estimate plus(Estimate o) {
        double t = timeNanos + o.timeNanos, e = energyMicrojoules + o.energyMicrojoules;
        return new Estimate(instructions + o.instructions, cycles + o.cycles, t, e, t > 0 ? e / t * 1e6 : 0);
    }
}
