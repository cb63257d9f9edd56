package org.hyprof.tui;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hyprof.correlate.Units;
import org.hyprof.store.ThreadInfo;

/**
 * The energy view, as lines of text: Java and native time, cycles and energy per process and
 * thread, and how they were estimated.
 */
final class EnergyView {
    private EnergyView() {}

    /** The lines of the energy view of {@code data}. */
    static List<String> lines(SessionView data) {
        List<String> out = new ArrayList<>();
        String f = "%-28s %11s %11s %14s %11s %11s %11s";
        out.add(String.format(Locale.ROOT, f, "process / thread", "java ms", "native ms", "native cycles", "java uJ", "native uJ", "total uJ"));
        for (SessionView.Proc p : data.processes) {
            long java = 0, nat = 0, cyc = 0;
            double je = 0, ne = 0;
            for (SessionView.ThreadSum t : p.threadSums().values()) {
                java += t.exclNanos() - t.nativeEstNanos();
                nat += t.nativeEstNanos();
                cyc += t.nativeCycles();
                je += t.javaEnergyMicrojoules();
                ne += t.nativeEnergyMicrojoules();
            }
            out.add(String.format(Locale.ROOT, f, Text.fit(p.info().name() + " (" + p.info().pid() + ")", 28), Units.millis(java),
                    Units.millis(nat), Units.count(cyc), Units.microjoules(je), Units.microjoules(ne), Units.microjoules(je + ne)));
            for (ThreadInfo t : p.threads()) {
                SessionView.ThreadSum s = p.threadSums().get(t.tid());
                if (s == null) continue;
                out.add(String.format(Locale.ROOT, f, Text.fit("  " + t.name(), 28), Units.millis(s.exclNanos() - s.nativeEstNanos()),
                        Units.millis(s.nativeEstNanos()), Units.count(s.nativeCycles()), Units.microjoules(s.javaEnergyMicrojoules()),
                        Units.microjoules(s.nativeEnergyMicrojoules()), Units.microjoules(s.javaEnergyMicrojoules() + s.nativeEnergyMicrojoules())));
            }
        }
        out.add("");
        out.add(data.cpuTime() ? "Java: exclusive thread CPU time without native time x the CPU power of (waiting costs nothing)"
                : "Java: exclusive wall time without native time x the CPU power of (no CPU time recorded)");
        out.add("  " + data.energy.description());
        out.add(data.hybrid() ? "Native: the emulator's estimate per call (CPU profile: cycles, time, energy)."
                : "Native: none ran in the emulator (a hybrid run: hyprof profile --native-libs DIR).");
        out.add("Backspace or Esc: back");
        return out;
    }
}
