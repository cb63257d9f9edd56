package org.hyprof.correlate;

import java.util.Locale;
import org.hyprof.store.Store;

/**
 * How a session's energy is estimated. Java code: deducted exclusive time (native time excluded)
 * × the CPU's power from a {@code power_profile.xml} (one running core of the chosen cluster and
 * speed step, at the chosen voltage). Native code: the emulator's estimate from the CPU profile
 * (AndroProf's formulas), recorded per call. Units: power mW, time ns, energy µJ (mW × ns / 10⁶).
 *
 * <p>The setting is stored in the session ({@code power.*} keys of session_info) when it is
 * recorded; a session without one uses the built-in sample profile, and says so.
 */
public record EnergyModel(double javaPowerMilliwatts, String description) {
    /** From a profile's CPU power. */
    public static EnergyModel of(PowerProfile.CpuPower p) {
        return new EnergyModel(p.powerMilliwatts(), p.describe());
    }

    /** The built-in default: the sample profile, cluster 0 at its fastest step, 3.8 V. */
    public static EnergyModel sample() {
        return of(PowerProfile.sample().cpu(0, null, PowerProfile.DEFAULT_VOLTAGE));
    }

    /** The session's stored setting, or the built-in default. */
    public static EnergyModel load(Store store) {
        String mw = store.info("power.java_mw");
        if (mw == null) return sample();
        try {
            String d = store.info("power.description");
            return new EnergyModel(Double.parseDouble(mw), d != null ? d : mw + " mW");
        } catch (NumberFormatException e) {
            return sample();
        }
    }

    /** Stores this setting in the session (replacing an earlier one). */
    public void save(Store store) {
        store.inTransaction(() -> {
            store.putInfo("power.java_mw", String.format(Locale.ROOT, "%.6f", javaPowerMilliwatts));
            store.putInfo("power.description", description);
        });
    }

    /** Energy of Java code running for {@code nanos} (µJ). */
    public double javaMicrojoules(long nanos) {
        return nanos * javaPowerMilliwatts / 1e6;
    }

    /**
     * Energy (µJ) of {@code nanos} of which {@code nativeNanos} were native code costing
     * {@code nativePicojoules}: the rest is Java time at the CPU power. Not clamped (sums of
     * deducted times are unbiased; callers clamp what they show).
     */
    public double microjoules(long nanos, long nativeNanos, long nativePicojoules) {
        return javaMicrojoules(nanos - nativeNanos) + nativePicojoules / 1e6;
    }
}
