package org.hyprof.cli;

import org.hyprof.correlate.EnergyModel;
import org.hyprof.correlate.PowerProfile;
import picocli.CommandLine.Option;

/**
 * How Java code's energy is estimated: a device's {@code power_profile.xml}, the CPU cluster and
 * speed step the code runs at, and the battery voltage. Shared by {@code profile} (stored in the
 * session) and {@code report} (recomputes a stored session's Java energy).
 */
public final class PowerOptions {
    @Option(names = "--power-profile", paramLabel = "NAME|FILE",
            description = "A shipped profile (" + PowerProfile.SHIPPED_NAMES + ") or the device's power_profile.xml: text, compiled (binary XML)"
                    + " or the APK holding it as res/xml/power_profile.xml (framework-res.apk). Default: sample (values of hyprof's own"
                    + " choosing, not a real device). A name wins over a file of the same name: write ./NAME for the file.")
    String profile;

    @Option(names = "--cluster", paramLabel = "N", description = "CPU cluster Java code runs on (default 0).")
    Integer cluster;

    @Option(names = "--freq-step", paramLabel = "K", description = "Speed step of that cluster, from 0 = slowest (default: the fastest).")
    Integer step;

    @Option(names = "--voltage", paramLabel = "V", description = "Battery voltage for mA -> mW (default " + PowerProfile.DEFAULT_VOLTAGE + ").")
    Double voltage;

    /** Whether any option was given. */
    boolean given() {
        return profile != null || cluster != null || step != null || voltage != null;
    }

    /** The model these options describe; errors are one-line {@link UserError}s. */
    EnergyModel model() {
        try {
            PowerProfile p = profile != null ? PowerProfile.load(profile) : PowerProfile.sample();
            return EnergyModel.of(p.cpu(cluster == null ? 0 : cluster, step, voltage == null ? PowerProfile.DEFAULT_VOLTAGE : voltage));
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage(), e.getMessage().endsWith(": no such power profile") ? 1 : 2);
        }
    }
}
