package org.hyprof.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.ProbeInfo;
import org.hyprof.control.Collector;
import org.hyprof.control.ControlState;
import org.hyprof.control.Hello;
import org.hyprof.live.LiveSession;
import org.hyprof.runtime.Wire;
import org.hyprof.runtime.WireCodec;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;
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

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : children) p.destroyForcibly().waitFor();
        Collections.reverse(closeables);
        for (AutoCloseable c : closeables) c.close();
    }

    record Server(Collector collector, LiveSession live, Store store, int port) {}

    Server serve(String name, int port, String token) throws Exception {
        Store store = Store.create(dir.resolve(name + ".db"));
        LiveSession live = new LiveSession(store);
        Collector c = new Collector("127.0.0.1", port, token, live, live, log::add);
        int p = c.start();
        closeables.add(store);
        closeables.add(c);
        return new Server(c, live, store, p);
    }

    Process agent(int port, String token, String seconds, String extra) throws Exception {
        String args = "connect=127.0.0.1:" + port + ",snapshotMillis=200" + (token != null ? ",token=" + token : "") + extra;
        Process p = new ProcessBuilder(Cli.java(), "-javaagent:" + Home.agentJar() + "=" + args, "-cp",
                Cli.classpathOf(Live.class), "workload.Live", seconds)
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent" + children.size() + ".log").toFile()).start();
        children.add(p);
        return p;
    }

    LiveSession.Proc waitForProcess(LiveSession live, int n, int probes) throws InterruptedException {
        long end = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < end) {
            List<LiveSession.Proc> ps = live.processes();
            if (ps.size() >= n) {
                LiveSession.Proc p = ps.get(n - 1);
                if (p.manifest().probes().size() >= probes && p.state() != null && p.state().idCount() >= probes) return p;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("process " + n + " did not connect: " + log);
    }

    static int id(LiveSession.Proc p, String displayName) {
        for (ProbeInfo i : p.manifest().probes()) if (i.displayName().equals(displayName)) return i.id();
        throw new AssertionError("no probe " + displayName + " in " + p.manifest().probes());
    }

    /** calls of a probe per thread name, after a fresh snapshot. */
    static Map<String, Long> callsByThread(Server s, LiveSession.Proc p, int probeId) throws InterruptedException {
        assertEquals(1, s.live().refresh(p.id, 5000), "snapshot answered");
        Map<Long, String> names = new HashMap<>();
        for (ThreadInfo t : s.store().threads(p.id)) names.put(t.tid(), t.name());
        Map<String, Long> r = new HashMap<>();
        for (ProbeStats st : s.store().stats(p.id))
            if (st.probeId() == probeId) r.merge(names.getOrDefault(st.tid(), "?"), st.calls(), Long::sum);
        return r;
    }

    static long total(Map<String, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    @Test
    void toggleZoomAndCallerFilter() throws Exception {
        Server s = serve("live", 0, null);
        agent(s.port(), null, "60", "");
        LiveSession.Proc p = waitForProcess(s.live(), 1, 10);
        int m2 = id(p, "workload.Live.m2()V");
        Thread.sleep(300);
        assertTrue(total(callsByThread(s, p, m2)) > 0, "m2 recorded while on");

        // off: measure how long until the count stops growing
        long t0 = System.nanoTime();
        Cli off = Cli.run("ctl", "--connect", "127.0.0.1:" + s.port(), "off", "workload.Live.m2*");
        long ctlMillis = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(0, off.exit, off.err);
        long c1 = total(callsByThread(s, p, m2));
        Thread.sleep(300);
        long c2 = total(callsByThread(s, p, m2));
        assertEquals(c1, c2, "count stopped growing after off");
        // the latency itself: CONFIG sent -> agent confirms the new flags are published (after
        // which no call of the probe is counted), measured on the control API, 10 times
        List<Double> lat = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            boolean v = i % 2 == 0;
            long a0 = System.nanoTime();
            s.live().change(p.id, cur -> org.hyprof.config.Zoom.setFlags(cur, p.manifest(), "workload.Live.m2*", v), 5000);
            lat.add((System.nanoTime() - a0) / 1e6);
        }
        Collections.sort(lat);
        Files.writeString(Path.of("target/toggle-latency.txt"), String.format(java.util.Locale.ROOT,
                "toggle applied and confirmed by the agent: median %.2f ms, max %.2f ms (10 toggles); whole 'hyprof ctl off' in-process: %d ms%n",
                lat.get(5), lat.get(9), ctlMillis));

        // zoom: process -> thread -> method (root TaskA.run) -> loop inside m1
        int taskA = id(p, "workload.Live$TaskA.run()V");
        int m1 = id(p, "workload.Live.m1()V");
        String port = "127.0.0.1:" + s.port();
        assertEquals(0, Cli.run("ctl", "--connect", port, "zoom-in", String.valueOf(p.id)).exit);
        assertEquals("thread", p.scope().level().label());
        assertEquals(0, Cli.run("ctl", "--connect", port, "zoom-in", String.valueOf(taskA)).exit);
        assertEquals("method", p.scope().level().label());
        Cli z = Cli.run("ctl", "--connect", port, "zoom-in", String.valueOf(m1));
        assertEquals(0, z.exit, z.err);
        assertEquals("loop", p.scope().level().label());
        ControlState st = p.state();
        for (ProbeInfo i : p.manifest().probes()) {
            if (i.loop()) assertEquals(i.ownerId() == m1, st.isOn(i.id()), "only m1's loops on: " + i.displayName());
        }
        assertArrayEquals(new int[] {m1}, st.roots());
        int m1Loop = id(p, "workload.Live.m1()V#loop0");
        Map<String, Long> before = callsByThread(s, p, m1Loop);
        Thread.sleep(300);
        assertTrue(total(callsByThread(s, p, m1Loop)) > total(before), "m1's loop records at loop level");

        // RMP Figure 3: m1 and m2 called from threads Ta and Tb; root = Ta's run: only Ta records
        assertEquals(0, Cli.run("ctl", "--connect", port, "zoom-out").exit);
        assertEquals(0, Cli.run("ctl", "--connect", port, "zoom-out").exit);
        assertEquals(0, Cli.run("ctl", "--connect", port, "on", "workload.Live.m*").exit);
        assertEquals(0, Cli.run("ctl", "--connect", port, "root", "workload.Live$TaskA.run").exit);
        Map<String, Long> a = callsByThread(s, p, m1);
        Thread.sleep(400);
        Map<String, Long> b = callsByThread(s, p, m1);
        assertTrue(b.getOrDefault("Ta", 0L) > a.getOrDefault("Ta", 0L), "Ta's m1 calls recorded: " + a + " -> " + b);
        assertEquals(a.getOrDefault("Tb", 0L), b.getOrDefault("Tb", 0L), "Tb's m1 calls not recorded: " + a + " -> " + b);

        Cli stats = Cli.run("ctl", "--connect", port, "stats", "--format", "csv");
        assertEquals(0, stats.exit, stats.err);
        assertTrue(stats.out.startsWith("method,kind,resolution,calls,incl_ns,excl_ns,incl_raw_ns,excl_raw_ns,min_ns,max_ns,p50_ns,p99_ns"), stats.out);
        assertTrue(stats.out.contains("workload.Live.m1()V,method,"), stats.out);
    }

    @Test
    void twoAgentsInOneSessionAndAKilledAgent() throws Exception {
        Server s = serve("two", 0, null);
        Process first = agent(s.port(), null, "60", "");
        agent(s.port(), null, "60", "");
        LiveSession.Proc a1 = waitForProcess(s.live(), 1, 10);
        LiveSession.Proc a2 = waitForProcess(s.live(), 2, 10);
        assertNotEquals(a1.hello.pid(), a2.hello.pid());
        // p1: the agent killed below (the two may have connected in either order)
        LiveSession.Proc p1 = a1.hello.pid() == first.pid() ? a1 : a2;
        LiveSession.Proc p2 = p1 == a1 ? a2 : a1;
        Thread.sleep(500);
        Cli procs = Cli.run("ctl", "--connect", "127.0.0.1:" + s.port(), "processes");
        assertEquals(3, Cli.lines(procs.out).size(), procs.out);
        assertEquals(2, s.live().refresh(null, 5000));
        for (LiveSession.Proc p : List.of(p1, p2)) {
            List<String> names = s.store().threads(p.id).stream().map(ThreadInfo::name).toList();
            assertTrue(names.contains("Ta") && names.contains("Tb"), p.id + ": " + names);
        }
        long before = total(callsByThread(s, p1, id(p1, "workload.Live.m2()V")));
        first.destroyForcibly().waitFor(); // kill -9
        long end = System.currentTimeMillis() + 10_000;
        while (p1.connected() && System.currentTimeMillis() < end) Thread.sleep(50);
        assertFalse(p1.connected());
        assertEquals("disconnected", p1.status());
        assertEquals("disconnected", s.store().processes().stream().filter(x -> x.id() == p1.id).findFirst().orElseThrow().status());
        long kept = s.store().stats(p1.id).stream().filter(x -> x.probeId() == id(p1, "workload.Live.m2()V"))
                .mapToLong(ProbeStats::calls).sum();
        // snapshots keep arriving (every 200 ms) until the kill: what was seen is kept, maybe more
        assertTrue(kept >= before && before > 0, "everything received from the killed agent is kept: " + before + " -> " + kept);
        assertTrue(p2.connected(), "the other agent is unaffected");
    }

    @Test
    void collectorRestartIsSurvivedAndTheAgentResumes() throws Exception {
        Server s = serve("first", 0, null);
        int port = s.port();
        Process app = agent(port, null, "8", "");
        waitForProcess(s.live(), 1, 10);
        s.collector().close(); // the collector goes away mid-run
        Thread.sleep(1000);
        Server again = serve("second", port, null);
        LiveSession.Proc p = waitForProcess(again.live(), 1, 10);
        Thread.sleep(500);
        assertTrue(total(callsByThread(again, p, id(p, "workload.Live.m2()V"))) > 0, "data resumes after reconnect");
        assertEquals(0, app.waitFor(), "the app was unaffected");
        assertTrue(Files.readString(dir.resolve("agent0.log")).contains("live done true"));
    }

    @Test
    void badFramesCloseOnlyTheirConnection() throws Exception {
        Server s = serve("bad", 0, "s3cret");
        agent(s.port(), "s3cret", "60", "");
        LiveSession.Proc good = waitForProcess(s.live(), 1, 10);

        byte[] random = new byte[64];
        new java.util.Random(42).nextBytes(random);
        assertClosed(s.port(), random);
        assertClosed(s.port(), new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, Wire.CHUNK}); // oversize
        assertClosed(s.port(), new org.hyprof.control.Ack(1).toBytes());                              // no HELLO first
        assertClosed(s.port(), new Hello(99, Wire.ROLE_AGENT, "s3cret", 1, "x", "", 0, 0, "jvm").toBytes()
                .length > 0 ? helloWithVersion(99) : null);                                          // wrong version
        assertClosed(s.port(), new Hello(Wire.VERSION, Wire.ROLE_AGENT, "wrong", 1, "x", "", 0, 0, "jvm").toBytes());
        long end = System.currentTimeMillis() + 5000;
        while (log.stream().filter(l -> l.contains("rejected") || l.contains("closed")).count() < 5 && System.currentTimeMillis() < end)
            Thread.sleep(20);
        String all = String.join("\n", log);
        assertTrue(all.contains("wrong token"), all);
        assertTrue(all.contains("protocol version 99"), all);
        assertTrue(all.contains("out of bounds"), all);
        assertTrue(all.contains("first frame must be HELLO"), all);

        assertTrue(good.connected(), "the good agent is unaffected");
        assertEquals(1, s.live().refresh(good.id, 5000));
        Cli ok = Cli.run("ctl", "--connect", "127.0.0.1:" + s.port(), "--token", "s3cret", "processes");
        assertEquals(0, ok.exit, ok.err);
        Cli bad = Cli.run("ctl", "--connect", "127.0.0.1:" + s.port(), "--token", "nope", "processes");
        assertEquals(1, bad.exit);
        assertTrue(bad.err.contains("rejected: wrong token"), bad.err);
    }

    static byte[] helloWithVersion(int v) {
        return WireCodec.frame(Wire.HELLO, new WireCodec.Enc().varint(v).string(Wire.ROLE_AGENT).string("s3cret")
                .varint(1).string("x").string("").varint(0).varint(0).string("jvm").done());
    }

    static void assertClosed(int port, byte[] bytes) throws Exception {
        try (Socket sock = new Socket("127.0.0.1", port)) {
            sock.setSoTimeout(5000);
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
