package org.hyprof.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.hyprof.collector.Collector;
import org.hyprof.live.LiveSession;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.Store;

/**
 * Sustained events per second from one agent to the collector on loopback, and bytes per event
 * on the wire. The agent runs {@code workload.CallHeavy recursion} in events mode with a budget
 * large enough for the whole run; every enter and exit reaches the collector's store, so
 * received events must equal 2 × recorded calls + 2 × loop entries, with no drops.
 *
 * <p>Usage: {@code java -cp target/benchmarks.jar org.hyprof.bench.LiveThroughput AGENT_JAR
 * SAMPLES_CLASSPATH [reps]}.
 */
public final class LiveThroughput {
    public static void main(String[] args) throws Exception {
        String agent = args[0], samples = args[1];
        String reps = args.length > 2 ? args[2] : "30";
        Path dir = Files.createTempDirectory("hyprof-live-bench");
        try (Store store = Store.create(dir.resolve("s.db"))) {
            LiveSession live = new LiveSession(store);
            Collector c = new Collector("127.0.0.1", 0, null, live, live, l -> System.err.println("collector: " + l));
            int port = c.start();
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(java, "-javaagent:" + agent + "=connect=127.0.0.1:" + port
                    + ",mode=events,budget=4g,resolutions=process;thread;method", "-cp", samples,
                    "workload.CallHeavy", "recursion", reps).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            int code = p.waitFor();
            long runNanos = System.nanoTime() - t0;
            long end = System.currentTimeMillis() + 30_000;
            // the agent says BYE after its queue is sent: wait for the disconnect, not the END chunk
            while (System.currentTimeMillis() < end && (live.processes().isEmpty() || live.processes().get(0).connected()))
                Thread.sleep(50);
            c.close();
            if (code != 0) throw new IllegalStateException("workload failed: " + out);
            if (out.contains("hyprof:")) System.err.print(out);
            long pid = live.processes().get(0).id;
            long[] received = new long[2]; // records, bytes
            store.eventChunks(pid, ch -> {
                received[0] += org.hyprof.analysis.EventReplay.records(ch.data());
                received[1] += ch.data().length + 5 + 4 + 3 * 5; // chunk payload + frame header, seq, type, chunk header
            });
            long calls = 0, loops = 0;
            for (ProbeStats s : store.stats(pid)) calls += s.allCalls();
            long expected = 2 * calls;
            long drops = store.processes().get(0).eventDrops();
            System.out.printf(Locale.ROOT, "events received %,d, expected %,d (2 x %,d calls), dropped %,d, unreported loss %,d%n",
                    received[0], expected, calls, drops, expected - received[0] - drops);
            System.out.printf(Locale.ROOT, "agent run %.2f s: %,.0f events/s sustained to the collector; %.2f bytes/event on the wire%n",
                    runNanos / 1e9, received[0] / (runNanos / 1e9), received[1] / (double) received[0]);
        }
    }
}
