package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hyprof.analysis.Timeline;
import org.hyprof.collector.Collector;
import org.hyprof.config.ProbeInfo;
import org.hyprof.control.Command;
import org.hyprof.control.ControlState;
import org.hyprof.control.Frame;
import org.hyprof.control.Hello;
import org.hyprof.control.Result;
import org.hyprof.control.Welcome;
import org.hyprof.live.LiveSession;
import org.hyprof.runtime.Wire;
import org.hyprof.runtime.WireCodec;
import org.hyprof.runtime.chunk.PayloadWriter;
import org.hyprof.store.CalibrationRecord;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;
import org.hyprof.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.Live;

/** Live control end to end: real agents in child JVMs, the real collector, hyprof ctl. */
class LiveIT {
    @TempDir Path dir;
    final List<String> log = Collections.synchronizedList(new ArrayList<>());
    final List<Process> children = new ArrayList<>();
    final List<AutoCloseable> closeables = new ArrayList<>();
    /** Agents started so far: agent N writes agentN.log. */
    int agents;

    @AfterEach
    void cleanUp() throws Exception {
        serveTokenFile = null;
        for (Process p : children) p.destroyForcibly().waitFor();
        Collections.reverse(closeables);
        for (AutoCloseable c : closeables) c.close();
    }

    record Server(Collector collector, LiveSession live, Store store, int port) {}

    Server serve(String name, int port, String token) throws Exception {
        return serve(name, port, token, Collector.HELLO_TIMEOUT_MILLIS);
    }

    Server serve(String name, int port, String token, long helloTimeoutMillis) throws Exception {
        Store store = Store.create(dir.resolve(name + ".db"));
        LiveSession live = new LiveSession(store);
        Collector c = new Collector("127.0.0.1", port, token, live, live, log::add).helloTimeoutMillis(helloTimeoutMillis);
        int p = c.start();
        closeables.add(store);
        closeables.add(c);
        return new Server(c, live, store, p);
    }

    /** The token file of the 'hyprof serve' processes (authentication is on by default), once one started. */
    static volatile Path serveTokenFile;

    /**
     * Starts workload.Live for {@code seconds}, or with "-" until its standard input is closed (the
     * tests that need a program running throughout use that: a loaded machine can outlast any
     * fixed duration; {@link #cleanUp} kills what is left).
     */
    Process agent(int port, String token, String seconds, String extra) throws Exception {
        String args = "connect=127.0.0.1:" + port + ",snapshotMillis=200" + (token != null ? ",token=" + token : "")
                + (token == null && serveTokenFile != null ? ",tokenFile=" + serveTokenFile : "") + extra;
        Process p = new ProcessBuilder(Cli.java(), "-javaagent:" + Cli.agentJar() + "=" + args, "-cp",
                Cli.classpathOf(Live.class), "workload.Live", seconds)
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent" + agents++ + ".log").toFile()).start();
        children.add(p);
        return p;
    }

    /** A real 'hyprof serve' in a JVM of its own (so it can be killed or sent SIGTERM). */
    record ServeProcess(Process process, int port, Path logFile) {
        String log() throws java.io.IOException {
            return Files.readString(logFile);
        }
    }

    ServeProcess serveProcess(Path db, int port) throws Exception {
        Path out = dir.resolve("serve" + children.size() + ".log");
        serveTokenFile = Path.of(db + ".token");
        Process p = new ProcessBuilder(Cli.java(), "-jar", Cli.hyprofJar().toString(), "serve",
                "--listen", "127.0.0.1:" + port, "-o", db.toString()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        children.add(p);
        Pattern listening = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
        String started = Await.until("hyprof serve to start (or die)", () -> Files.readString(out),
                log -> listening.matcher(log).find() || !p.isAlive());
        Matcher m = listening.matcher(started);
        if (!m.find()) throw new AssertionError("hyprof serve did not start: " + Files.readString(out));
        return new ServeProcess(p, Integer.parseInt(m.group(1)), out);
    }

    /** 'hyprof ctl processes' as rows keyed by process id. */
    static Map<String, Map<String, String>> ctlProcesses(int port) {
        Path tf = serveTokenFile;
        Cli c = tf != null ? Cli.run("ctl", "--connect", "127.0.0.1:" + port, "--token-file", tf.toString(), "processes")
                : Cli.run("ctl", "--connect", "127.0.0.1:" + port, "processes");
        assertEquals(0, c.exit, c.err);
        return Cli.csv(c.out);
    }

    /** Polls 'hyprof ctl processes' until the rows satisfy {@code ok}. */
    static Map<String, Map<String, String>> awaitProcesses(int port, String what, Predicate<Map<String, Map<String, String>>> ok)
            throws InterruptedException {
        return Await.until(what, () -> ctlProcesses(port), ok);
    }

    /** Waits until agent N said it lost its collector and is retrying. */
    void awaitRetrying(int agent) throws InterruptedException {
        Path file = dir.resolve("agent" + agent + ".log");
        Await.until("agent " + agent + " to notice its collector is gone", () -> Files.readString(file), l -> l.contains("(retrying)"));
    }

    static boolean allConnected(Map<String, Map<String, String>> rows, int n) {
        return rows.size() == n && rows.values().stream().allMatch(r -> r.get("connected").equals("true"));
    }

    /** The calls of m1 and m2 per thread the workload counted itself ("live done true Ta=N Tb=M"). */
    Map<String, Long> workloadCalls(int agent) throws java.io.IOException {
        String out = Files.readString(dir.resolve("agent" + agent + ".log"));
        Matcher m = Pattern.compile("live done true Ta=(\\d+) Tb=(\\d+)").matcher(out);
        assertTrue(m.find(), "the workload ran to its end: " + out);
        return Map.of("Ta", Long.parseLong(m.group(1)), "Tb", Long.parseLong(m.group(2)));
    }

    /** Calls of a probe per thread name, as stored. */
    static Map<String, Long> storedCalls(Store store, long process, int probeId) {
        Map<Long, String> names = new HashMap<>();
        for (ThreadInfo t : store.threads(process)) names.put(t.tid(), t.name());
        Map<String, Long> r = new HashMap<>();
        for (ProbeStats st : store.stats(process))
            if (st.probeId() == probeId) r.merge(names.getOrDefault(st.tid(), "?"), st.allCalls(), Long::sum);
        return r;
    }

    static int id(List<ProbeInfo> probes, String displayName) {
        for (ProbeInfo i : probes) if (java.util.Arrays.asList(org.hyprof.config.MethodNames.matchable(i)).contains(displayName)) return i.id();
        throw new AssertionError("no probe " + displayName + " in " + probes);
    }

    LiveSession.Proc waitForProcess(LiveSession live, int n, int probes) throws InterruptedException {
        List<LiveSession.Proc> ps = Await.until("process " + n + " to connect with " + probes + " probes (log: " + log + ")",
                live::processes, l -> {
                    if (l.size() < n) return false;
                    LiveSession.Proc p = l.get(n - 1);
                    return p.manifest().probes().size() >= probes && p.state() != null && p.state().idCount() >= probes;
                });
        return ps.get(n - 1);
    }

    static int id(LiveSession.Proc p, String displayName) {
        for (ProbeInfo i : p.manifest().probes()) if (java.util.Arrays.asList(org.hyprof.config.MethodNames.matchable(i)).contains(displayName)) return i.id();
        throw new AssertionError("no probe " + displayName + " in " + p.manifest().probes());
    }

    /** calls of a probe per thread name, after a fresh snapshot. */
    static Map<String, Long> callsByThread(Server s, LiveSession.Proc p, int probeId) throws InterruptedException {
        assertEquals(1, s.live().refresh(p.id, Await.DEADLINE.toMillis()), "snapshot answered");
        Map<Long, String> names = new HashMap<>();
        for (ThreadInfo t : s.store().threads(p.id)) names.put(t.tid(), t.name());
        Map<String, Long> r = new HashMap<>();
        for (ProbeStats st : s.store().stats(p.id))
            if (st.probeId() == probeId) r.merge(names.getOrDefault(st.tid(), "?"), st.allCalls(), Long::sum);
        return r;
    }

    static long total(Map<String, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Calls per thread name of two probes, both from one fresh snapshot. */
    record Calls(Map<String, Long> still, Map<String, Long> clock) {}

    static Calls calls(Server s, LiveSession.Proc p, int still, int clock) throws InterruptedException {
        assertEquals(1, s.live().refresh(p.id, Await.DEADLINE.toMillis()), "snapshot answered");
        return new Calls(storedCalls(s.store(), p.id, still), storedCalls(s.store(), p.id, clock));
    }

    /** Whether every one of {@code threads} made at least 10 more calls of the clock probe from {@code a} to {@code b}. */
    static boolean advanced(Calls a, Calls b, List<String> threads) {
        for (String t : threads) if (b.clock().getOrDefault(t, 0L) < a.clock().getOrDefault(t, 0L) + 10) return false;
        return true;
    }

    static Map<String, Long> only(Map<String, Long> m, List<String> threads) {
        Map<String, Long> r = new HashMap<>();
        for (String t : threads) r.put(t, m.getOrDefault(t, 0L));
        return r;
    }

    /**
     * Checks that probe {@code still} records nothing more in {@code stillThreads} while
     * {@code busyThreads} keep calling probe {@code clock} (which counts the workload's progress:
     * each loop of Ta and Tb calls m1 then m2), without depending on when a change reaches the
     * agent or on how fast anything runs. It waits until the counts of {@code still} are the same in
     * two snapshots between which every busy thread made at least 10 more calls of {@code clock}
     * (so a call begun under the previous settings has ended and no snapshot taken before them is
     * among the two), then requires them to stay the same over another such stretch. Returns the
     * last two snapshots' calls.
     */
    static Calls[] assertStill(Server s, LiveSession.Proc p, String what, int still, List<String> stillThreads, int clock,
            List<String> busyThreads) throws InterruptedException {
        Calls[] last = {calls(s, p, still, clock)};
        Await.until(what + ": counts stop growing while " + busyThreads + " go on", () -> {
            Calls next = calls(s, p, still, clock);
            if (!advanced(last[0], next, busyThreads)) return false;
            boolean same = only(next.still(), stillThreads).equals(only(last[0].still(), stillThreads));
            last[0] = next;
            return same;
        });
        Calls frozen = last[0];
        Calls later = Await.until(busyThreads + " to go on after " + what, () -> calls(s, p, still, clock),
                c -> advanced(frozen, c, busyThreads));
        assertEquals(only(frozen.still(), stillThreads), only(later.still(), stillThreads),
                what + ": nothing more recorded while " + busyThreads + " went on: " + frozen + " -> " + later);
        return new Calls[] {frozen, later};
    }

    /**
     * Issue 19 item 1: a flight recorder ({@code keep=last}) sends nothing while the program runs;
     * {@code hyprof ctl dump} makes its threads send what they keep, and the program goes on.
     */
    @Test
    void dumpSendsTheKeptEventsWhileTheProgramRuns() throws Exception {
        Server s = serve("dump", 0, null);
        Process a = agent(s.port(), null, "-", ",mode=events,keep=last,budget=8m");
        LiveSession.Proc p = waitForProcess(s.live(), 1, 10);
        int m1 = id(p, "workload.Live.m1()");
        Await.until("m1 recorded", () -> callsByThread(s, p, m1), c -> total(c) > 0);
        long before = s.store().eventChunkCount(p.id);
        String port = "127.0.0.1:" + s.port();
        Cli dump = Cli.run("ctl", "--connect", port, "--timeout-ms", String.valueOf(Await.DEADLINE.toMillis()), "dump");
        assertEquals(0, dump.exit, dump.err);
        assertTrue(dump.out.startsWith("dump requested: 1 process answered"), dump.out);
        Await.until("the kept events to arrive", () -> s.store().eventChunkCount(p.id), n -> n > before);
        assertTrue(a.isAlive(), "the program goes on after the dump");
        assertTrue(p.connected());
        Timeline t = Timeline.load(s.store(), s.store().processes().get(0), null);
        assertTrue(t.threads.stream().flatMap(th -> th.calls().stream()).anyMatch(c -> c.probeId() == m1),
                "the dumped events hold m1's calls");
    }

    @Test
    void toggleZoomAndCallerFilter() throws Exception {
        Server s = serve("live", 0, null);
        agent(s.port(), null, "-", "");
        LiveSession.Proc p = waitForProcess(s.live(), 1, 10);
        int m2 = id(p, "workload.Live.m2()");
        int m1 = id(p, "workload.Live.m1()");
        Await.until("m2 recorded while on", () -> callsByThread(s, p, m2), c -> total(c) > 0);
        // the calling-context tree streams with the snapshots: m2's path is in the live store
        Await.until("m2's path in the live tree", () -> s.store().tree(p.id).stream()
                .filter(r -> r.probeId() == m2 && r.kind() == org.hyprof.store.TreeRow.METHOD).mapToLong(r -> r.allCalls()).sum(), n -> n > 0);

        // off (the command returns once the agent confirmed it): m2's count stops while m1's goes on
        String port = "127.0.0.1:" + s.port();
        String wait = String.valueOf(Await.DEADLINE.toMillis());
        long t0 = System.nanoTime();
        Cli off = Cli.run("ctl", "--connect", port, "--timeout-ms", wait, "off", "workload.Live.m2*");
        long ctlMillis = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(0, off.exit, off.err);
        assertFalse(p.state().isOn(m2), "the agent's state has m2 off");
        Calls[] offCalls = assertStill(s, p, "m2 off", m2, List.of("Ta", "Tb"), m1, List.of("Ta", "Tb"));
        assertTrue(total(offCalls[1].still()) > 0, "what m2 recorded while on is kept: " + offCalls[1]);
        // the latency itself: CONFIG sent -> agent confirms the new flags are published (after
        // which no call of the probe is counted), measured on the control API, 10 times
        List<Double> lat = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            boolean v = i % 2 == 0;
            long a0 = System.nanoTime();
            s.live().change(p.id, cur -> org.hyprof.config.Zoom.setFlags(cur, p.manifest(), "workload.Live.m2*", v),
                    Await.DEADLINE.toMillis());
            lat.add((System.nanoTime() - a0) / 1e6);
        }
        Collections.sort(lat);
        Files.writeString(Path.of("target/toggle-latency.txt"), String.format(java.util.Locale.ROOT,
                "toggle applied and confirmed by the agent: median %.2f ms, max %.2f ms (10 toggles); whole 'hyprof ctl off' in-process: %d ms%n",
                lat.get(5), lat.get(9), ctlMillis));

        // zoom: process -> thread -> method (root TaskA.run) -> loop inside m1
        int taskA = id(p, "workload.Live$TaskA.run()");
        assertEquals(0, Cli.run("ctl", "--connect", port, "--timeout-ms", wait, "zoom-in", String.valueOf(p.id)).exit);
        assertEquals("thread", p.scope().level().label());
        assertEquals(0, Cli.run("ctl", "--connect", port, "--timeout-ms", wait, "zoom-in", String.valueOf(taskA)).exit);
        assertEquals("method", p.scope().level().label());
        Cli z = Cli.run("ctl", "--connect", port, "--timeout-ms", wait, "zoom-in", String.valueOf(m1));
        assertEquals(0, z.exit, z.err);
        assertEquals("loop", p.scope().level().label());
        ControlState st = p.state();
        for (ProbeInfo i : p.manifest().probes()) {
            if (i.loop()) assertEquals(i.ownerId() == m1, st.isOn(i.id()), "only m1's loops on: " + i.displayName());
        }
        assertArrayEquals(new int[] {m1}, st.roots());
        int m1Loop = id(p, "workload.Live.m1()#loop0");
        long before = total(callsByThread(s, p, m1Loop));
        Await.until("m1's loop to record at loop level", () -> callsByThread(s, p, m1Loop), c -> total(c) > before);

        // RMP Figure 3: m1 and m2 called from threads Ta and Tb; root = Ta's run: only Ta records
        assertEquals(0, Cli.run("ctl", "--connect", port, "--timeout-ms", wait, "zoom-out").exit);
        assertEquals(0, Cli.run("ctl", "--connect", port, "--timeout-ms", wait, "zoom-out").exit);
        assertEquals(0, Cli.run("ctl", "--connect", port, "--timeout-ms", wait, "on", "workload.Live.m*").exit);
        assertEquals(0, Cli.run("ctl", "--connect", port, "--timeout-ms", wait, "root", "workload.Live$TaskA.run").exit);
        // Ta's m1 calls go on being recorded (the helper waits for them), Tb's stay as they were
        assertStill(s, p, "root Ta's run", m1, List.of("Tb"), m1, List.of("Ta"));

        Cli stats = Cli.run("ctl", "--connect", port, "stats", "--format", "csv");
        assertEquals(0, stats.exit, stats.err);
        assertTrue(stats.out.startsWith("method,kind,resolution,calls,incl_ns,excl_ns,incl_raw_ns,excl_raw_ns,min_ns,max_ns,p50_ns,p99_ns"), stats.out);
        assertTrue(stats.out.contains("workload.Live.m1(),method,"), stats.out);
    }

    /**
     * A program that ends with millions of events still queued: its final snapshot overtakes them
     * (and the periodic snapshots queued among them), so it must carry every count, or the
     * collector, which keeps the newest snapshot, loses what the overtaken ones held.
     */
    @Test
    void aProgramEndingWithAFullQueueKeepsEveryCount() throws Exception {
        Server s = serve("queue", 0, null);
        Process p = new ProcessBuilder(Cli.java(), "-javaagent:" + Cli.agentJar() + "=connect=127.0.0.1:" + s.port()
                + ",snapshotMillis=200,mode=events,budget=4g,resolutions=process;thread;method,timeAll=true", "-cp",
                Cli.classpathOf(workload.CallHeavy.class), "workload.CallHeavy", "recursion", "10")
                .redirectErrorStream(true).redirectOutput(dir.resolve("queue.log").toFile()).start();
        children.add(p);
        assertEquals(0, p.waitFor(), Files.readString(dir.resolve("queue.log")));
        Await.until("the program's connection to end", java.time.Duration.ofMinutes(3),
                () -> !s.live().processes().isEmpty() && !s.live().processes().get(0).connected());
        long pid = s.live().processes().get(0).id;
        assertEquals("ended", s.store().processes().get(0).status());
        long calls = 0;
        // timeAll: every call timed and logged (a count-only call has no events)
        for (ProbeStats st : s.store().stats(pid)) {
            calls += st.calls();
            // the live path carries thread CPU time too (issue 18): sampled by default, within wall time
            assertNotNull(st.cpu(), "CPU time of probe " + st.probeId());
            assertEquals(org.hyprof.store.CpuTime.SAMPLED, st.cpu().clock());
            assertTrue(st.cpu().inclNanos() >= 0 && st.cpu().inclNanos() <= Math.max(0, st.inclNanos()), st.toString());
        }
        long[] records = new long[2];
        s.store().eventChunks(pid, ch -> {
            records[0] += org.hyprof.analysis.EventReplay.records(ch.data());
            // and its event records carry the thread CPU clock (session format 5, wire version 3)
            if (!new org.hyprof.runtime.chunk.EventRecords.Cursor(ch.data(), ch.baseNanos()).hasCpu()) records[1]++;
        });
        assertEquals(0, records[1], "event chunks without thread CPU time");
        assertTrue(calls > 1_000_000, "calls " + calls);
        assertEquals(records[0], 2 * calls, "every call's enter and exit was received, and every call is counted");
        assertEquals(1, storedCalls(s.store(), pid, id(s.store().probes(pid), "workload.CallHeavy.main(java.lang.String[])"))
                .values().stream().mapToLong(Long::longValue).sum(), "main, which ends last, is in the final counts");
    }

    @Test
    void twoAgentsInOneSessionAndAKilledAgent() throws Exception {
        Server s = serve("two", 0, null);
        Process first = agent(s.port(), null, "-", "");
        agent(s.port(), null, "-", "");
        LiveSession.Proc a1 = waitForProcess(s.live(), 1, 10);
        LiveSession.Proc a2 = waitForProcess(s.live(), 2, 10);
        assertNotEquals(a1.hello.pid(), a2.hello.pid());
        // p1: the agent killed below (the two may have connected in either order)
        LiveSession.Proc p1 = a1.hello.pid() == first.pid() ? a1 : a2;
        LiveSession.Proc p2 = p1 == a1 ? a2 : a1;
        Cli procs = Cli.run("ctl", "--connect", "127.0.0.1:" + s.port(), "processes");
        assertEquals(3, Cli.lines(procs.out).size(), procs.out);
        for (LiveSession.Proc p : List.of(p1, p2)) {
            Await.until("threads Ta and Tb of process " + p.id + " in a snapshot", () -> {
                s.live().refresh(p.id, Await.DEADLINE.toMillis());
                return s.store().threads(p.id).stream().map(ThreadInfo::name).toList();
            }, names -> names.contains("Ta") && names.contains("Tb"));
        }
        long before = Await.until("m2 calls of process " + p1.id, () -> total(callsByThread(s, p1, id(p1, "workload.Live.m2()"))),
                n -> n > 0);
        first.destroyForcibly().waitFor(); // kill -9
        Await.until("the killed agent's process to be disconnected", () -> !p1.connected());
        assertEquals("disconnected", p1.status());
        assertEquals("disconnected", s.store().processes().stream().filter(x -> x.id() == p1.id).findFirst().orElseThrow().status());
        // the collector cannot tell a killed process from an unreachable one: 'disconnected', and
        // both ctl and report say what that means for its data
        Map<String, String> row = ctlProcesses(s.port()).get(String.valueOf(p1.id));
        assertEquals("disconnected", row.get("status"));
        assertEquals("false", row.get("connected"));
        assertTrue(row.get("meaning").startsWith("connection lost before the process ended"), row.toString());
        Cli report = Cli.run("report", s.store().file().toString(), "--top", "1");
        assertEquals(0, report.exit, report.err);
        assertTrue(report.out.contains("(pid " + p1.hello.pid() + "): disconnected, 3 threads - connection lost before the process ended"),
                report.out);
        assertTrue(report.out.contains("process " + p1.id + " (workload.Live, pid " + p1.hello.pid() + "): connection lost ("),
                report.out);
        long kept = s.store().stats(p1.id).stream().filter(x -> x.probeId() == id(p1, "workload.Live.m2()"))
                .mapToLong(ProbeStats::calls).sum();
        // snapshots keep arriving (every 200 ms) until the kill: what was seen is kept, maybe more
        assertTrue(kept >= before && before > 0, "everything received from the killed agent is kept: " + before + " -> " + kept);
        assertTrue(p2.connected(), "the other agent is unaffected");
    }

    @Test
    void processOptionPicksOneProcessAndThreadCountsAgreeWithReport() throws Exception {
        Server s = serve("pick", 0, null);
        String port = "127.0.0.1:" + s.port();
        Process first = agent(s.port(), null, "4", "");
        Process second = agent(s.port(), null, "4", "");
        LiveSession.Proc a1 = waitForProcess(s.live(), 1, 10);
        LiveSession.Proc a2 = waitForProcess(s.live(), 2, 10);
        LiveSession.Proc p2 = a2.hello.pid() == second.pid() ? a2 : a1;
        LiveSession.Proc p1 = p2 == a1 ? a2 : a1;

        // per-thread stats of process p2 list only its threads (once two of them recorded)
        Cli byThread = Await.until("two threads of process " + p2.id + " in its stats",
                () -> Cli.run("ctl", "--connect", port, "--process", String.valueOf(p2.id), "stats", "--by", "thread", "--format", "csv"),
                c -> c.exit == 0 && Cli.lines(c.out).size() > 2);
        List<String> lines = Cli.lines(byThread.out);
        assertEquals(org.hyprof.correlate.ReportWriter.THREAD_COLUMNS, lines.get(0));
        for (String l : lines.subList(1, lines.size()))
            assertEquals(String.valueOf(p2.hello.pid()), l.split(",")[1], "only process " + p2.id + "'s threads: " + byThread.out);
        Await.until("the threads of both processes in the session's stats",
                () -> Cli.run("ctl", "--connect", port, "stats", "--by", "thread", "--format", "csv").out,
                out -> out.contains("," + p1.hello.pid() + ",") && out.contains("," + p2.hello.pid() + ","));

        // after both ended, counts are final: each process's stats and probes are its own calls
        assertEquals(0, first.waitFor());
        assertEquals(0, second.waitFor());
        Await.until("both processes to be disconnected", () -> !p1.connected() && !p2.connected());
        long calls1 = total(workloadCalls(0)), calls2 = total(workloadCalls(1)); // first, second
        Cli stats2 = Cli.run("ctl", "--connect", port, "--process", String.valueOf(p2.id), "stats", "--format", "csv");
        assertEquals(0, stats2.exit, stats2.err);
        assertEquals(String.valueOf(calls2), Cli.csv(stats2.out).get("workload.Live.m2()").get("calls"), stats2.out);
        Cli statsAll = Cli.run("ctl", "--connect", port, "stats", "--format", "csv");
        assertEquals(String.valueOf(calls1 + calls2), Cli.csv(statsAll.out).get("workload.Live.m2()").get("calls"), statsAll.out);
        Cli probes2 = Cli.run("ctl", "--connect", port, "--process", String.valueOf(p2.id), "probes", "workload.Live.m2*");
        assertEquals(0, probes2.exit, probes2.err);
        assertEquals(2, Cli.lines(probes2.out).size(), probes2.out);
        assertEquals(String.valueOf(calls2), Cli.lines(probes2.out).get(1).split(",")[5], probes2.out);
        Cli probesAll = Cli.run("ctl", "--connect", port, "probes", "workload.Live.m2*");
        for (String l : Cli.lines(probesAll.out).subList(1, 3)) {
            long calls = l.startsWith(p2.id + ",") ? calls2 : calls1;
            assertEquals(String.valueOf(calls), l.split(",")[5], "each process's own count: " + probesAll.out);
        }

        // 'ctl processes' counts threads as 'report' does (threads that recorded methods; not the
        // runtime's calibration thread, which a snapshot may catch while it runs)
        Map<String, Map<String, String>> procs = ctlProcesses(s.port());
        Cli report = Cli.run("report", s.store().file().toString(), "--by", "process", "--format", "csv");
        assertEquals(0, report.exit, report.err);
        Map<String, String> reportThreads = new HashMap<>(); // pid -> threads
        for (String l : Cli.lines(report.out).subList(1, 3)) reportThreads.put(l.split(",")[1], l.split(",")[3]);
        for (LiveSession.Proc p : List.of(p1, p2)) {
            Map<String, String> row = procs.get(String.valueOf(p.id));
            assertEquals("3", row.get("threads"), "main, Ta, Tb: " + procs);
            assertEquals(reportThreads.get(String.valueOf(p.hello.pid())), row.get("threads"), procs + " vs " + report.out);
            assertEquals("ended", row.get("status"));
        }
        Cli one = Cli.run("ctl", "--connect", port, "--process", String.valueOf(p2.id), "processes");
        assertEquals(2, Cli.lines(one.out).size(), one.out);
        Cli none = Cli.run("ctl", "--connect", port, "--process", "99", "stats");
        assertEquals(1, none.exit);
        assertEquals("hyprof: no process 99 in this session", none.err.strip());
    }

    @Test
    void collectorRestartedOnTheSameSessionResumesItsProcesses() throws Exception {
        Path db = dir.resolve("same.db");
        ServeProcess first = serveProcess(db, 0);
        int port = first.port();
        // the agents run until their standard input ends: they must still run when the collector is back
        Process plain = agent(port, null, "-", "");
        Process events = agent(port, null, "-", ",mode=events,resolutions=process;thread;method");
        awaitProcesses(port, "two agents connected, with data from their threads",
                r -> allConnected(r, 2) && r.values().stream().allMatch(x -> Integer.parseInt(x.get("threads")) >= 2));
        first.process().destroyForcibly().waitFor(); // kill -9: rows left 'running', acknowledgements lost
        for (int agent = 0; agent < 2; agent++) awaitRetrying(agent);
        ServeProcess second = serveProcess(db, port);
        Map<String, Map<String, String>> rows = awaitProcesses(port, "both agents resume", r -> allConnected(r, 2));
        assertEquals(java.util.Set.of("1", "2"), rows.keySet(), "the same process rows, no new ones: " + rows);
        assertTrue(plain.isAlive() && events.isAlive(), "the agents resumed while running (else this test shows nothing)");
        plain.getOutputStream().close(); // the programs end now
        events.getOutputStream().close();
        assertEquals(0, plain.waitFor());
        assertEquals(0, events.waitFor());
        awaitProcesses(port, "both ended", r -> r.size() == 2 && r.values().stream().allMatch(x -> x.get("status").equals("ended")));
        second.process().destroy();
        assertTrue(second.process().waitFor(30, TimeUnit.SECONDS), "serve stops on SIGTERM");

        long sum = 0;
        try (Store store = Store.open(db)) {
            List<ProcessInfo> ps = store.processes();
            assertEquals(2, ps.size(), ps.toString());
            for (int agent = 0; agent < 2; agent++) {
                long pid = (agent == 0 ? plain : events).pid();
                ProcessInfo pi = ps.stream().filter(x -> x.pid() == pid).findFirst().orElseThrow();
                assertEquals("ended", pi.status());
                assertEquals(0, pi.eventDrops());
                List<ProbeInfo> probes = store.probes(pi.id());
                Map<String, Long> expected = workloadCalls(agent);
                // cumulative snapshots replaced what the first collector had: exact counts
                assertEquals(expected, storedCalls(store, pi.id(), id(probes, "workload.Live.m2()")), "process " + pi.id());
                assertEquals(expected, storedCalls(store, pi.id(), id(probes, "workload.Live.m1()")), "process " + pi.id());
                sum += total(expected);
                List<String> notes = store.notes(pi.id());
                assertEquals(1, notes.stream().filter(n -> n.contains("connection lost (its collector stopped without closing")).count(),
                        "the second collector marked the row the killed one left 'running': " + notes);
                assertEquals(1, notes.stream().filter(n -> n.contains("reconnected at")).count(), notes.toString());
                List<Long> cals = store.calibrations(pi.id()).stream().map(CalibrationRecord::measuredAtNanos).toList();
                assertEquals(new HashSet<>(cals).size(), cals.size(), "calibrations sent again are stored once: " + cals);
                assertEquals(new HashSet<>(store.skipped(pi.id())).size(), store.skipped(pi.id()).size());
                if (agent == 1) {
                    // every enter and exit exactly once: chunks sent again after the restart are not stored twice
                    long calls = store.stats(pi.id()).stream().mapToLong(ProbeStats::calls).sum();
                    long[] records = new long[1];
                    store.eventChunks(pi.id(), ch -> records[0] += org.hyprof.analysis.EventReplay.records(ch.data()));
                    assertTrue(calls > 0);
                    assertEquals(2 * calls, records[0], "event records = 2 x calls, no duplicates, no loss");
                }
            }
        }
        Cli report = Cli.run("report", db.toString(), "--format", "csv");
        assertEquals(0, report.exit, report.err);
        assertEquals(String.valueOf(sum), Cli.csv(report.out).get("workload.Live.m2()").get("calls"), "report sums the two processes once");
    }

    @Test
    void sigtermStopsServeAndMarksItsProcessesDisconnected() throws Exception {
        Path db = dir.resolve("term.db");
        ServeProcess serve = serveProcess(db, 0);
        Process a = agent(serve.port(), null, "-", "");
        Process b = agent(serve.port(), null, "-", "");
        awaitProcesses(serve.port(), "two agents connected", r -> allConnected(r, 2));
        serve.process().destroy(); // SIGTERM
        assertTrue(serve.process().waitFor(30, TimeUnit.SECONDS), "serve stops on SIGTERM");
        String log = serve.log();
        assertTrue(log.contains("stopped; 2 connected processes marked disconnected in " + db), log);
        assertFalse(Files.exists(Path.of(db + "-wal")), "the session database was closed cleanly (WAL checkpointed and removed)");
        try (Store store = Store.open(db)) {
            assertEquals(List.of("disconnected", "disconnected"), store.processes().stream().map(ProcessInfo::status).toList());
            assertEquals(2, store.notes().stream().filter(n -> n.contains("connection lost (collector stopped)")).count(),
                    store.notes().toString());
        }
        assertTrue(a.isAlive() && b.isAlive(), "the programs are unaffected");
    }

    @Test
    void aConnectionWithoutHelloIsClosedAfterTheTimeout() throws Exception {
        Server s = serve("silent", 0, null, 1000);
        long t0 = System.nanoTime();
        assertClosed(s.port(), new byte[0]);                                   // connects, sends nothing
        long silentMillis = (System.nanoTime() - t0) / 1_000_000;
        // not before the timeout (a loaded machine only makes it later: no upper bound)
        assertTrue(silentMillis >= 900, "closed after the 1 s timeout, not before: " + silentMillis + " ms");
        assertClosed(s.port(), java.util.Arrays.copyOf(Hello.ctl("").toBytes(), 7)); // a HELLO that never completes
        Await.until("both connections closed for want of a HELLO, with the reason logged",
                () -> log.stream().filter(l -> l.matches("/127\\.0\\.0\\.1:\\d+: closed: no HELLO within 1000 ms")).count(), n -> n == 2);

        // after HELLO there is no idle timeout: a ctl connection quiet for twice as long still works
        try (Socket sock = new Socket("127.0.0.1", s.port())) {
            sock.setSoTimeout((int) Await.DEADLINE.toMillis());
            OutputStream o = sock.getOutputStream();
            DataInputStream in = new DataInputStream(sock.getInputStream());
            o.write(Hello.ctl("").toBytes());
            o.flush();
            assertInstanceOf(Welcome.class, read(in));
            Thread.sleep(2000);
            o.write(new Command(List.of("processes")).toBytes());
            o.flush();
            Frame r = read(in);
            assertInstanceOf(Result.class, r);
            assertEquals(0, ((Result) r).exitCode(), ((Result) r).output());
        }
        assertEquals(5000, Collector.HELLO_TIMEOUT_MILLIS, "the default 'hyprof serve' uses: a few seconds");
    }

    @Test
    void aProcessThatConnectsAgainReplacesItsOldConnection() throws Exception {
        Server s = serve("again", 0, null);
        byte[] hello = new Hello(Wire.VERSION, Wire.ROLE_AGENT, "", 4242, "raw.Agent", "vm", 1_700_000_000_000L, 123_456_789L, "jvm")
                .toBytes();
        try (Socket a = new Socket("127.0.0.1", s.port()); Socket b = new Socket("127.0.0.1", s.port())) {
            a.setSoTimeout((int) Await.DEADLINE.toMillis());
            b.setSoTimeout((int) Await.DEADLINE.toMillis());
            a.getOutputStream().write(hello);
            Welcome wa = (Welcome) read(new DataInputStream(a.getInputStream()));
            // the same process connects again while its old connection still looks open here (a
            // half-open connection: the agent only reconnects when it lost the old one)
            // with the resume secret the collector gave it: a copy of pid, name and start times alone gets a row of its own
            b.getOutputStream().write(new Hello(Wire.VERSION, Wire.ROLE_AGENT, "", 4242, "raw.Agent", "vm", 1_700_000_000_000L,
                    123_456_789L, "jvm", wa.resume()).toBytes());
            Welcome wb = (Welcome) read(new DataInputStream(b.getInputStream()));
            assertEquals(wa.processId(), wb.processId(), "the same process row");
            assertEquals(-1, a.getInputStream().read(), "the old connection is closed");
            LiveSession.Proc p = s.live().proc(wa.processId());
            // the old connection's end is handled on a network thread, which logs it and then tells the session
            Await.until("the old connection's end to be handled", () -> log.stream().anyMatch(
                    l -> l.endsWith("process " + wa.processId() + " disconnected: replaced by a new connection from the same process")));
            assertTrue(p.connected(), "the old connection's end does not disconnect the process");
            assertEquals("running", p.status());
            assertEquals(1, s.live().processes().size());
            assertTrue(log.stream().anyMatch(l -> l.endsWith("closed: replaced by a new connection from the same process")),
                    String.join("\n", log));
        }
        Await.until("the process to be disconnected", () -> !s.live().processes().get(0).connected());
        assertEquals("disconnected", s.live().processes().get(0).status());
        List<String> notes = s.store().notes(s.live().processes().get(0).id);
        assertEquals(1, notes.stream().filter(n -> n.contains("connection lost")).count(),
                "only the new connection's end lost the process, not the replaced one's: " + notes);
    }

    static Frame read(DataInputStream in) throws java.io.IOException {
        int[] type = new int[1];
        byte[] p = WireCodec.readFrame(in, type, Wire.MAX_CONTROL_FRAME);
        return Frame.decode(type[0], p);
    }

    @Test
    void collectorRestartIsSurvivedAndTheAgentResumes() throws Exception {
        Server s = serve("first", 0, null);
        int port = s.port();
        // the agent runs until its standard input ends: it must still run when the collector is back
        Process app = agent(port, null, "-", "");
        waitForProcess(s.live(), 1, 10);
        s.collector().close(); // the collector goes away mid-run
        awaitRetrying(0);
        Server again = serve("second", port, null);
        LiveSession.Proc p = waitForProcess(again.live(), 1, 10);
        assertTrue(app.isAlive(), "the agent reconnected while running (else this test shows nothing)");
        Await.until("data to resume after reconnect", () -> total(callsByThread(again, p, id(p, "workload.Live.m2()"))), n -> n > 0);
        app.getOutputStream().close(); // the program ends now
        assertEquals(0, app.waitFor(), "the app was unaffected");
        assertTrue(Files.readString(dir.resolve("agent0.log")).contains("live done true"));
    }

    @Test
    void badFramesCloseOnlyTheirConnection() throws Exception {
        Server s = serve("bad", 0, "s3cret");
        agent(s.port(), "s3cret", "-", "");
        LiveSession.Proc good = waitForProcess(s.live(), 1, 10);

        byte[] random = new byte[64];
        new java.util.Random(42).nextBytes(random);
        assertClosed(s.port(), random);
        assertClosed(s.port(), new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, Wire.CHUNK}); // oversize
        assertClosed(s.port(), new org.hyprof.control.Ack(1).toBytes());                              // no HELLO first
        assertClosed(s.port(), new Hello(99, Wire.ROLE_AGENT, "s3cret", 1, "x", "", 0, 0, "jvm").toBytes()
                .length > 0 ? helloWithVersion(99) : null);                                          // wrong version
        assertClosed(s.port(), new Hello(Wire.VERSION, Wire.ROLE_AGENT, "wrong", 1, "x", "", 0, 0, "jvm").toBytes());
        String all = Await.until("the five connections closed, the four reasons logged", () -> String.join("\n", log),
                l -> l.lines().filter(x -> x.contains("rejected") || x.contains("closed")).count() >= 5 && l.contains("wrong token")
                        && l.contains("protocol version 99") && l.contains("out of bounds") && l.contains("first frame must be HELLO"));

        assertTrue(good.connected(), "the good agent is unaffected");
        assertEquals(1, s.live().refresh(good.id, Await.DEADLINE.toMillis()));
        Cli ok = Cli.run("ctl", "--connect", "127.0.0.1:" + s.port(), "--token", "s3cret", "processes");
        assertEquals(0, ok.exit, ok.err);
        Cli bad = Cli.run("ctl", "--connect", "127.0.0.1:" + s.port(), "--token", "nope", "processes");
        assertEquals(1, bad.exit);
        assertTrue(bad.err.contains("rejected: wrong token"), bad.err);
    }

    static byte[] helloWithVersion(int v) {
        return WireCodec.frame(Wire.HELLO, new PayloadWriter().varint(v).string(Wire.ROLE_AGENT).string("s3cret")
                .varint(1).string("x").string("").varint(0).varint(0).string("jvm").toByteArray());
    }

    static void assertClosed(int port, byte[] bytes) throws Exception {
        try (Socket sock = new Socket("127.0.0.1", port)) {
            sock.setSoTimeout((int) Await.DEADLINE.toMillis());
            OutputStream o = sock.getOutputStream();
            o.write(bytes);
            o.flush();
            DataInputStream in = new DataInputStream(sock.getInputStream());
            // the collector may answer REJECT first; then it must close
            try {
                while (in.read() >= 0) { /* drain until closed */ }
            } catch (java.net.SocketException reset) {
                // closed with a reset: also closed
            }
        }
    }
}
