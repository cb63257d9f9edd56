package org.hyprof.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hyprof.config.ProbeInfo;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;

/**
 * Issue 20's load test: {@code agents} programs ({@code workload.Steady}, two threads each)
 * streaming events mode to one {@code hyprof serve} (its own JVM, token on as by default) on
 * loopback for {@code seconds}. Reports events per second stored, loss (events the agents recorded
 * that are not in the session, apart from drops the agents counted; and m1/m2 calls the programs
 * made that the stored counts lack) and the collector's peak memory: its peak RSS ({@code VmHWM}
 * of {@code /proc/PID/status}) and its RSS sampled each second. Never asserts.
 *
 * <p>Usage: {@code java -cp target/benchmarks.jar org.hyprof.bench.LiveLoad HYPROF_HOME [agents]
 * [seconds]} with {@code HYPROF_HOME} = {@code cli/target} (hyprof.jar and lib/).
 */
public final class LiveLoad {
    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath();
        int agents = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 60;
        Path dir = Files.createTempDirectory("hyprof-load");
        Path db = dir.resolve("load.db");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path serveLog = dir.resolve("serve.log");
        Process serve = new ProcessBuilder(java, "-jar", home.resolve("hyprof.jar").toString(), "serve", "--listen", "127.0.0.1:0",
                "-o", db.toString()).redirectErrorStream(true).redirectOutput(serveLog.toFile()).start();
        int port = 0;
        Pattern listening = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
        for (long end = System.currentTimeMillis() + 60_000; port == 0 && System.currentTimeMillis() < end; Thread.sleep(50)) {
            Matcher m = listening.matcher(Files.readString(serveLog));
            if (m.find()) port = Integer.parseInt(m.group(1));
        }
        if (port == 0) throw new IllegalStateException("serve did not start: " + Files.readString(serveLog));
        Path status = Path.of("/proc/" + serve.pid() + "/status");

        long t0 = System.nanoTime();
        List<Process> ps = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (int i = 0; i < agents; i++) {
            Path log = dir.resolve("agent" + i + ".log");
            logs.add(log);
            ps.add(new ProcessBuilder(java, "-Xmx1g", "-javaagent:" + home.resolve("lib/hyprof-agent.jar") + "=connect=127.0.0.1:" + port
                    + ",tokenFile=" + db + ".token,mode=events,budget=4g,resolutions=process;thread;method", "-cp",
                    home.resolve("lib/hyprof-samples-java.jar").toString(), "workload.Steady", String.valueOf(seconds), "2")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start());
        }
        long peakSampledKb = 0;
        while (ps.stream().anyMatch(Process::isAlive)) {
            peakSampledKb = Math.max(peakSampledKb, kb(status, "VmRSS:"));
            ps.get(0).waitFor(1, TimeUnit.SECONDS);
        }
        long agentsNanos = System.nanoTime() - t0;
        // the agents exit after their collector acknowledged everything: the session is complete
        long hwmKb = kb(status, "VmHWM:");
        serve.destroy(); // SIGTERM: closes the session
        serve.waitFor(60, TimeUnit.SECONDS);

        long printedCalls = 0;
        Pattern done = Pattern.compile("steady done calls=(\\d+)");
        for (Path log : logs) {
            String out = Files.readString(log);
            Matcher m = done.matcher(out);
            if (!m.find()) throw new IllegalStateException(log + ": the workload did not finish: " + out);
            printedCalls += Long.parseLong(m.group(1));
            if (out.contains("hyprof:")) System.err.print(out.lines().filter(l -> l.startsWith("hyprof:")).map(l -> l + "\n")
                    .reduce("", String::concat));
        }
        long records = 0, calls = 0, m1m2 = 0, drops = 0, ended = 0;
        try (Store store = Store.openReadOnly(db)) {
            for (ProcessInfo p : store.processes()) {
                long[] r = new long[1];
                store.eventChunks(p.id(), ch -> r[0] += org.hyprof.analysis.EventReplay.records(ch.data()));
                records += r[0];
                List<Integer> ids = store.probes(p.id()).stream()
                        .filter(i -> i.displayName().equals("workload.Steady.m1()") || i.displayName().equals("workload.Steady.m2()"))
                        .map(ProbeInfo::id).toList();
                for (ProbeStats s : store.stats(p.id())) {
                    calls += s.allCalls();
                    if (ids.contains(s.probeId())) m1m2 += s.allCalls();
                }
                drops += p.eventDrops();
                if (p.status().equals("ended")) ended++;
            }
        }
        double secs = agentsNanos / 1e9;
        System.out.printf(Locale.ROOT, "%d agents x %d s (events mode, 2 threads each) to one 'hyprof serve' on loopback: %d of %d processes ended%n",
                agents, seconds, ended, agents);
        System.out.printf(Locale.ROOT, "events stored %,d in %.1f s (agents' start to last exit): %,.0f events/s%n", records, secs, records / secs);
        System.out.printf(Locale.ROOT, "loss: events expected 2 x %,d calls = %,d, stored %,d, dropped by the budget %,d, unaccounted %,d;"
                + " m1/m2 calls made %,d, stored %,d (missing %,d)%n", calls, 2 * calls, records, drops, 2 * calls - records - drops,
                printedCalls * 2, m1m2, printedCalls * 2 - m1m2);
        System.out.printf(Locale.ROOT, "collector peak RSS %,d MiB (VmHWM); highest sampled RSS %,d MiB; session %,d MiB%n",
                hwmKb / 1024, peakSampledKb / 1024, Files.size(db) >> 20);
    }

    /** A {@code kB} field of /proc/PID/status, or 0. */
    static long kb(Path status, String field) {
        try {
            for (String l : Files.readAllLines(status))
                if (l.startsWith(field)) return Long.parseLong(l.substring(field.length()).trim().split("\\s+")[0]);
        } catch (Exception e) {
            // gone
        }
        return 0;
    }
}
