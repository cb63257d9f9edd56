package org.hyprof.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.hyprof.cli.HyprofCommand;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.Store;
import org.hyprof.tui.FirstScreen;

/**
 * Time to the terminal UI's first screen on a stored session of at least 10^6 invocations
 * (recorded in events mode, so the event log is in the file too). Target: under 2 s.
 * Usage: {@code TuiOpen SAMPLES_CLASSPATH} (run from the repository root after packaging).
 */
public final class TuiOpen {
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("hyprof-tui-bench");
        Path db = dir.resolve("big.db");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int code = HyprofCommand.execute("profile", "--mode", "events", "--budget", "1g", "-o", db.toString(), "--",
                java, "-cp", args[0], "workload.CallHeavy", "recursion", "4");
        if (code != 0) throw new IllegalStateException("profile failed: " + code);
        long calls = 0;
        try (Store s = Store.openReadOnly(db)) {
            for (ProbeStats p : s.stats(1)) calls += p.allCalls();
        }
        long first = FirstScreen.measure(db); // UI classes cold
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) best = Math.min(best, FirstScreen.measure(db));
        System.out.printf(Locale.ROOT, "stored session of %,d invocations (%,d bytes): first screen in %.0f ms cold, %.0f ms warm%n",
                calls, Files.size(db), first / 1e6, best / 1e6);
    }
}
