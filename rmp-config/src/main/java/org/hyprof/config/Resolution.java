package org.hyprof.config;

import java.util.Locale;

/**
 * The four resolutions of RMP: which probes a zoom level switches on. The instrumenter classifies
 * each probe once ({@link Classifier}); the runtime only sees on/off flags.
 */
public enum Resolution {
    /** Process or Android component: {@code main}, Activity/Service/... lifecycle methods. */
    PROCESS,
    /** Thread entry points: {@code Runnable.run}, {@code Thread.run}, {@code Callable.call}, ... */
    THREAD,
    /** Every other method. */
    METHOD,
    /** Loops inside methods. */
    LOOP;

    /** Lower-case name as used in manifests, options and reports. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a label; throws {@link ConfigException} naming the bad value. */
    public static Resolution parse(String s) {
        for (Resolution r : values()) if (r.label().equals(s.trim().toLowerCase(Locale.ROOT))) return r;
        throw new ConfigException("unknown resolution '" + s + "' (process, thread, method, loop)");
    }
}
