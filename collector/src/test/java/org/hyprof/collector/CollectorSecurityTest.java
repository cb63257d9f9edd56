package org.hyprof.collector;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.hyprof.control.Chunk;
import org.hyprof.control.Command;
import org.hyprof.control.Frame;
import org.hyprof.control.Hello;
import org.hyprof.control.Reject;
import org.hyprof.control.Result;
import org.hyprof.control.Welcome;
import org.hyprof.live.LiveSession;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.Stats;
import org.hyprof.runtime.Wire;
import org.hyprof.runtime.WireCodec;
import org.hyprof.runtime.chunk.PayloadWriter;
import org.hyprof.runtime.chunk.SnapshotChunk;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.Store;
import org.hyprof.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector under the attacks of issue 20, on a real loopback socket with raw bytes: what
 * must be refused is refused at its length prefix (the connection closes while the attacker has
 * sent only a header, which a collector that buffered the body could not do), rows cannot be
 * taken over, names from the wire are printed escaped. No timing is asserted: every wait is for a
 * condition, with a deadline.
 */
class CollectorSecurityTest {
    @TempDir Path dir;
    final List<String> log = Collections.synchronizedList(new ArrayList<>());
    final List<AutoCloseable> closeables = new ArrayList<>();

    record Server(Collector collector, LiveSession live, Store store, int port) {}

    Server serve(String token, int maxProcesses, long ctlIdleMillis) throws Exception {
        Store store = Store.create(dir.resolve("s" + closeables.size() + ".db"));
        LiveSession live = new LiveSession(store, token == null ? null : token.getBytes()).maxProcesses(maxProcesses);
        Collector c = new Collector("127.0.0.1", 0, token, live, live, log::add).ctlIdleMillis(ctlIdleMillis);
        int port = c.start();
        closeables.add(store);
        closeables.add(c);
        return new Server(c, live, store, port);
    }

    @AfterEach
    void close() throws Exception {
        Collections.reverse(closeables);
        for (AutoCloseable c : closeables) c.close();
    }

    static Socket connect(int port) throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(20_000);
        return s;
    }

    /** Reads until the collector closes the connection; fails if it does not within the socket timeout. */
    static List<Frame> untilClosed(Socket s) throws IOException {
        List<Frame> frames = new ArrayList<>();
        DataInputStream in = new DataInputStream(s.getInputStream());
        try {
            while (true) frames.add(read(in));
        } catch (SocketTimeoutException e) {
            fail("the collector kept the connection open (it waits for the rest of the frame)");
        } catch (IOException closed) {
            // closed (or reset)
        }
        return frames;
    }

    static Frame read(DataInputStream in) throws IOException {
        int[] type = new int[1];
        byte[] p = WireCodec.readFrame(in, type, Wire.MAX_FRAME);
        return Frame.decode(type[0], p);
    }

    static void await(String what, BooleanSupplier ok) throws InterruptedException {
        Await.until(what, ok::getAsBoolean);
    }

    /** The 329-byte HELLO of issue 20: its token claims 0x7FFFFF00 bytes. */
    static byte[] hugeTokenHello() {
        byte[] head = new PayloadWriter().varint(Wire.VERSION).string(Wire.ROLE_AGENT).varint(0x7FFFFF00L).toByteArray();
        byte[] payload = Arrays.copyOf(head, 329 - 5);
        Arrays.fill(payload, head.length, payload.length, (byte) 'A');
        byte[] f = WireCodec.frame(Wire.HELLO, payload);
        assertEquals(329, f.length);
        return f;
    }

    static byte[] header(long length, int type) {
        return new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length, (byte) type};
    }

    /** A ctl connection still gets answers: the collector survived. */
    static void assertServes(Server s, String token) throws IOException {
        try (Socket c = connect(s.port())) {
            OutputStream o = c.getOutputStream();
            DataInputStream in = new DataInputStream(c.getInputStream());
            o.write(Hello.ctl(token).toBytes());
            assertInstanceOf(Welcome.class, read(in));
            o.write(new Command(List.of("processes")).toBytes());
            Result r = (Result) read(in);
            assertEquals(0, r.exitCode(), r.output());
        }
    }

    @Test
    void aHelloWithAHugeTokenLengthIsRefusedWithoutAllocating() throws Exception {
        for (String token : new String[] {null, "s3cret"}) {
            Server s = serve(token, 256, Collector.CTL_IDLE_MILLIS);
            // three at once (each would have made the collector allocate 2 GiB)
            List<Socket> socks = new ArrayList<>();
            for (int i = 0; i < 3; i++) socks.add(connect(s.port()));
            for (Socket k : socks) k.getOutputStream().write(hugeTokenHello());
            for (Socket k : socks) {
                untilClosed(k);
                k.close();
            }
            await("three refusals logged: " + log, () -> log.stream().filter(l -> l.contains("runs past the payload")).count() >= 3);
            log.clear();
            assertServes(s, token == null ? "" : token);
            assertEquals(0, s.live().processes().size());
        }
    }

    @Test
    void chunkFramesBeforeHelloAreRefusedAtTheirLengthPrefix() throws Exception {
        Server s = serve("s3cret", 256, Collector.CTL_IDLE_MILLIS);
        List<Socket> socks = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Socket k = connect(s.port());
            socks.add(k);
            // a 64 MiB chunk frame: only its header and a little of its body are sent
            k.getOutputStream().write(header(64 << 20, Wire.CHUNK));
            k.getOutputStream().write(new byte[1000]);
        }
        for (Socket k : socks) {
            untilClosed(k); // closed with 64 MiB still to come: nothing was waiting for the body
            k.close();
        }
        await("eight refusals: " + log, () -> log.stream().filter(l -> l.contains("out of bounds for type 4 before HELLO (max 4096)")).count() == 8);
        assertEquals(0, s.collector().bufferedBytes());
        // a HELLO larger than the handshake allows, and any other frame first, are refused too
        try (Socket k = connect(s.port())) {
            k.getOutputStream().write(header(Wire.MAX_HELLO_FRAME + 1, Wire.HELLO));
            untilClosed(k);
        }
        try (Socket k = connect(s.port())) {
            k.getOutputStream().write(header(10, Wire.COMMAND));
            untilClosed(k);
        }
        await("refusals: " + log, () -> log.stream().anyMatch(l -> l.contains("first frame must be HELLO, got type 9")));
        assertServes(s, "s3cret");
    }

    @Test
    void anAgentsOverflowingEventsChunkClosesOnlyItsConnection() throws Exception {
        Server s = serve(null, 256, Collector.CTL_IDLE_MILLIS);
        try (Socket k = connect(s.port())) {
            DataInputStream in = new DataInputStream(k.getInputStream());
            k.getOutputStream().write(agentHello(1, "evil", "").toBytes());
            Welcome w = (Welcome) read(in);
            // an EVENTS chunk frame longer than any frame may be: refused at its header
            k.getOutputStream().write(header(0xFFFFFFF0L, Wire.CHUNK));
            untilClosed(k);
            await("the process is disconnected", () -> s.live().proc(w.processId()).status().equals("disconnected"));
        }
        try (Socket k = connect(s.port())) {
            DataInputStream in = new DataInputStream(k.getInputStream());
            k.getOutputStream().write(agentHello(2, "evil2", "").toBytes());
            read(in);
            // within the frame limit, but its record lengths overflow: malformed, closed, nothing stored
            byte[] events = new PayloadWriter().varint(1).varint(1).varint(0).varint(0x7FFFFFFFFFFFL).varint(Long.MAX_VALUE)
                    .toByteArray();
            k.getOutputStream().write(new Chunk(1, SessionFormat.EVENTS, events).toBytes());
            untilClosed(k);
        }
        await("the malformed chunk closed its connection: " + log, () -> log.stream().anyMatch(l -> l.contains("process 2 disconnected")));
        // a ctl may not send an agent's frames (refused at the header)
        try (Socket k = connect(s.port())) {
            k.getOutputStream().write(Hello.ctl("").toBytes());
            read(new DataInputStream(k.getInputStream()));
            k.getOutputStream().write(header(64 << 20, Wire.CHUNK));
            untilClosed(k);
        }
        await("ctl chunk refused: " + log, () -> log.stream().anyMatch(l -> l.contains("ctl sent frame type 4")));
        assertEquals(0, s.collector().bufferedBytes());
        assertServes(s, "");
    }

    static Hello agentHello(long pid, String name, String resume) {
        return new Hello(Wire.VERSION, Wire.ROLE_AGENT, "", pid, name, "vm", 1_700_000_000_000L, 123_456_789L, "jvm", resume);
    }

    static byte[] snapshot(long atNanos, long calls) {
        PayloadWriter w = new PayloadWriter();
        SnapshotChunk.begin(w, atNanos, Stats.HIST, 1);
        SnapshotChunk.thread(w, 1, "main", 0, 0, 0, 0, 0, 0, 1);
        long[] v = new long[Stats.STRIDE];
        v[Stats.CALLS] = calls;
        SnapshotChunk.probe(w, 5, v, 0, Stats.HIST, Stats.MIN, Stats.HIST, Stats.STRIDE - Stats.HIST);
        return w.toByteArray();
    }

    static long storedCalls(Store store, long process) {
        return store.stats(process).stream().filter(r -> r.probeId() == 5).mapToLong(ProbeStats::calls).sum();
    }

    @Test
    void aCopiedIdentityWithoutTheResumeSecretCannotTakeOverARow() throws Exception {
        Server s = serve(null, 256, Collector.CTL_IDLE_MILLIS);
        try (Socket real = connect(s.port()); Socket fake = connect(s.port())) {
            DataInputStream realIn = new DataInputStream(real.getInputStream());
            real.getOutputStream().write(agentHello(4242, "app.Main", "").toBytes());
            Welcome w = (Welcome) read(realIn);
            assertEquals(32, w.resume().length(), "128 bits in hex: " + w.resume());
            real.getOutputStream().write(new Chunk(1, SessionFormat.SNAPSHOT, snapshot(1000, 10)).toBytes());
            await("the real agent's snapshot stored", () -> storedCalls(s.store(), w.processId()) == 10);

            // the attack: the same pid, name and start times, a snapshot from 2^62 ns
            DataInputStream fakeIn = new DataInputStream(fake.getInputStream());
            fake.getOutputStream().write(agentHello(4242, "app.Main", "").toBytes());
            Welcome fw = (Welcome) read(fakeIn);
            assertNotEquals(w.processId(), fw.processId(), "a row of its own");
            fake.getOutputStream().write(new Chunk(1, SessionFormat.SNAPSHOT, snapshot(1L << 62, 999)).toBytes());
            await("the fake snapshot stored in the fake row", () -> storedCalls(s.store(), fw.processId()) == 999);
            assertTrue(s.live().proc(w.processId()).connected(), "the real agent is still connected");

            // the real agent goes on: its later snapshots are stored
            real.getOutputStream().write(new Chunk(2, SessionFormat.SNAPSHOT, snapshot(2000, 20)).toBytes());
            await("the real agent's next snapshot stored", () -> storedCalls(s.store(), w.processId()) == 20);
            assertTrue(s.store().notes(fw.processId()).stream().anyMatch(n -> n.contains("but not its resume secret")),
                    s.store().notes(fw.processId()).toString());
            // a wrong secret does not resume either
            try (Socket guess = connect(s.port())) {
                guess.getOutputStream().write(agentHello(4242, "app.Main", "0".repeat(32)).toBytes());
                Welcome gw = (Welcome) read(new DataInputStream(guess.getInputStream()));
                assertNotEquals(w.processId(), gw.processId());
            }
            assertTrue(s.live().proc(w.processId()).connected(), "the real agent is still connected");

            // the real agent reconnects with its secret: its row, and its snapshots count again
            try (Socket again = connect(s.port())) {
                DataInputStream againIn = new DataInputStream(again.getInputStream());
                again.getOutputStream().write(agentHello(4242, "app.Main", w.resume()).toBytes());
                Welcome aw = (Welcome) read(againIn);
                assertEquals(w.processId(), aw.processId(), "resumed");
                untilClosed(real); // the old connection is replaced
                again.getOutputStream().write(new Chunk(1, SessionFormat.SNAPSHOT, snapshot(1500, 30)).toBytes());
                await("a snapshot of the new connection is stored", () -> storedCalls(s.store(), w.processId()) == 30);
            }
        }
    }

    @Test
    void aSessionTakesAtMostItsProcessesAndIdleCtlConnectionsAreClosed() throws Exception {
        Server s = serve(null, 2, 300);
        List<Socket> socks = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Socket k = connect(s.port());
                socks.add(k);
                k.getOutputStream().write(agentHello(100 + i, "a" + i, "").toBytes());
                assertInstanceOf(Welcome.class, read(new DataInputStream(k.getInputStream())));
            }
            Socket third = connect(s.port());
            socks.add(third);
            third.getOutputStream().write(agentHello(102, "a2", "").toBytes());
            Frame f = read(new DataInputStream(third.getInputStream()));
            assertEquals("cannot take this agent: the session has 2 processes, the most it takes (serve --max-processes)",
                    ((Reject) f).reason());
        } finally {
            for (Socket k : socks) k.close();
        }
        try (Socket c = connect(s.port())) {
            c.getOutputStream().write(Hello.ctl("").toBytes());
            assertInstanceOf(Welcome.class, read(new DataInputStream(c.getInputStream())));
            untilClosed(c); // sends nothing more
        }
        await("idle ctl closed: " + log, () -> log.stream().anyMatch(l -> l.endsWith("closed: ctl idle for 300 ms")));
    }

    @Test
    void namesFromTheWireArePrintedEscaped() throws Exception {
        Server s = serve(null, 256, Collector.CTL_IDLE_MILLIS);
        String name = "app\n127.0.0.1: agent root (pid 1) connected as process 9\u001b[31m,x";
        try (Socket k = connect(s.port())) {
            k.getOutputStream().write(agentHello(7, name, "").toBytes());
            read(new DataInputStream(k.getInputStream()));
            await("logged: " + log, () -> log.stream().anyMatch(l -> l.contains("connected as process 1")));
            for (String l : log) assertFalse(l.contains("\n") || l.contains("\u001b"), l);
            assertTrue(log.stream().anyMatch(l -> l.contains("app\\n127.0.0.1: agent root") && l.contains("\\x1b[31m")), log.toString());
            Result r = s.live().execute(List.of("processes"));
            String[] lines = r.output().split("\n");
            assertEquals(2, lines.length, r.output());
            assertTrue(lines[1].contains("\"app\\n127.0.0.1: agent root (pid 1) connected as process 9\\x1b[31m,x\""), lines[1]);
        }
    }
}
