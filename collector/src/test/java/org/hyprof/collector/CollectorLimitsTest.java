package org.hyprof.collector;

import static org.hyprof.collector.CollectorSecurityTest.agentHello;
import static org.hyprof.collector.CollectorSecurityTest.await;
import static org.hyprof.collector.CollectorSecurityTest.connect;
import static org.hyprof.collector.CollectorSecurityTest.read;
import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.control.Ack;
import org.hyprof.control.Chunk;
import org.hyprof.control.Command;
import org.hyprof.control.ControlState;
import org.hyprof.control.Frame;
import org.hyprof.control.Hello;
import org.hyprof.control.Result;
import org.hyprof.control.Welcome;
import org.hyprof.live.LiveSession;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.Wire;
import org.hyprof.runtime.WireCodec;
import org.hyprof.runtime.chunk.PayloadWriter;
import org.hyprof.store.Store;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector's limits under load, on real Netty and loopback sockets with a real store: inbound,
 * an agent that sends more than its buffered-bytes limit while the store is held up stops being
 * read and goes on, losing nothing, once the store catches up, and the total limit holds over
 * several agents; outbound, a peer that never reads what it is sent is closed with the queue for
 * it bounded, and a ctl reply is cut to what a client reads. No timing is asserted: counts,
 * limits and conditions awaited with a deadline.
 */
class CollectorLimitsTest {
    @TempDir Path dir;
    final List<String> log = Collections.synchronizedList(new ArrayList<>());
    final List<AutoCloseable> closeables = new ArrayList<>();
    final ExecutorService writers = Executors.newCachedThreadPool();

    @AfterEach
    void close() throws Exception {
        writers.shutdownNow();
        Collections.reverse(closeables);
        for (AutoCloseable c : closeables) c.close();
    }

    /** The session store, held up: no chunk is stored until {@link #release}. */
    static final class HeldStore implements Collector.Agents {
        final LiveSession live;
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicLong stored = new AtomicLong();

        HeldStore(LiveSession live) {
            this.live = live;
        }

        @Override public long connected(Hello hello, Collector.Connection c) { return live.connected(hello, c); }
        @Override public String resumeSecret(long processId) { return live.resumeSecret(processId); }
        @Override public void state(long processId, ControlState s) { live.state(processId, s); }
        @Override public void disconnected(long processId, Collector.Connection c, String reason, boolean clean) {
            live.disconnected(processId, c, reason, clean);
        }

        @Override
        public void chunk(long processId, Collector.Connection c, Chunk chunk) {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
            live.chunk(processId, c, chunk);
            stored.incrementAndGet();
        }
    }

    record Held(Collector collector, HeldStore agents, Store store, int port) {}

    Held serveHeld(long perConnectionBytes, long totalBytes) throws Exception {
        Store store = Store.create(dir.resolve("held" + closeables.size() + ".db"));
        LiveSession live = new LiveSession(store, null);
        HeldStore agents = new HeldStore(live);
        Collector c = new Collector("127.0.0.1", 0, null, agents, live, log::add).bufferLimits(perConnectionBytes, totalBytes);
        int port = c.start();
        closeables.add(store);
        closeables.add(() -> agents.release.countDown()); // a failed test must not leave the store thread waiting
        closeables.add(c);
        return new Held(c, agents, store, port);
    }

    /** An ERROR chunk of about 16 KiB (stored as a note naming its sequence number). */
    static Chunk errorChunk(long seq) {
        String text = "chunk " + seq + " " + "x".repeat(16_000);
        return new Chunk(seq, SessionFormat.ERROR, new PayloadWriter().string(text).toByteArray());
    }

    static final int FRAME_BYTES = errorChunk(1).toBytes().length; // seq 1..99 have the same length

    /** An agent on a raw socket; its chunks are written on another thread (the writes block when the collector stops reading). */
    final class RawAgent {
        final Socket socket;
        final DataInputStream in;
        final long processId;
        Future<?> writing;

        RawAgent(int port, long pid) throws IOException {
            socket = connect(port);
            closeables.add(socket);
            in = new DataInputStream(socket.getInputStream());
            socket.getOutputStream().write(agentHello(pid, "agent" + pid, "").toBytes());
            processId = ((Welcome) read(in)).processId();
        }

        void send(int chunks) {
            writing = writers.submit(() -> {
                OutputStream o = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
                for (int seq = 1; seq <= chunks; seq++) o.write(errorChunk(seq).toBytes());
                o.flush();
                return null;
            });
        }

        /** Reads until every chunk up to {@code last} is acknowledged; returns the ACKs' sequence numbers in order. */
        List<Long> acks(long last) throws IOException {
            List<Long> seqs = new ArrayList<>();
            while (seqs.isEmpty() || seqs.get(seqs.size() - 1) < last) {
                Frame f = read(in); // CONFIG and snapshot requests come too
                if (f instanceof Ack a) seqs.add(a.seq());
            }
            return seqs;
        }
    }

    static List<Long> oneTo(int n) {
        List<Long> r = new ArrayList<>();
        for (long i = 1; i <= n; i++) r.add(i);
        return r;
    }

    static long storedChunkNotes(Store store, long processId) {
        return store.notes(processId).stream().filter(n -> n.contains("runtime reported: chunk ")).count();
    }

    @Test
    void aConnectionOverItsLimitStopsBeingReadAndGoesOnWithNothingLost() throws Exception {
        long perConnection = 4L * FRAME_BYTES - 1; // three frames fit, a fourth does not
        Held h = serveHeld(perConnection, 64L * FRAME_BYTES);
        RawAgent a = new RawAgent(h.port(), 100);
        int chunks = 40;
        a.send(chunks);

        await("the agent's connection stops being read", () -> h.collector().connectionsWaitingForBuffer() == 1);
        assertEquals(0, h.agents().stored.get(), "the store is held up");
        assertTrue(h.collector().bufferedBytes() <= perConnection, h.collector().bufferedBytes() + " bytes held");
        assertEquals(3L * FRAME_BYTES, h.collector().bufferedBytes(), "three frames held, the fourth waits in TCP");

        h.agents().release.countDown(); // the store catches up: reading resumes
        assertEquals(oneTo(chunks), a.acks(chunks), "every chunk acknowledged, in order");
        a.writing.get(30, TimeUnit.SECONDS);
        await("all chunks stored", () -> storedChunkNotes(h.store(), a.processId) == chunks);
        await("nothing held", () -> h.collector().bufferedBytes() == 0);
        assertEquals(0, h.collector().connectionsWaitingForBuffer());
        assertTrue(h.collector().peakConnectionBufferedBytes() <= perConnection,
                "peak " + h.collector().peakConnectionBufferedBytes() + " bytes, limit " + perConnection);
        assertEquals(chunks, h.agents().stored.get());
        assertTrue(log.stream().noneMatch(l -> l.contains("closed")), log.toString());
    }

    @Test
    void theTotalLimitHoldsAcrossConnections() throws Exception {
        long perConnection = 4L * FRAME_BYTES - 1, total = 5L * FRAME_BYTES; // two agents cannot hold their share each
        Held h = serveHeld(perConnection, total);
        List<RawAgent> agents = new ArrayList<>();
        for (int i = 0; i < 3; i++) agents.add(new RawAgent(h.port(), 200 + i));
        int chunks = 20;
        for (RawAgent a : agents) a.send(chunks);

        // each sends more than fits: all three stop, and together they hold no more than the total
        await("all three connections stop being read", () -> h.collector().connectionsWaitingForBuffer() == 3);
        assertEquals(0, h.agents().stored.get(), "the store is held up");
        assertTrue(h.collector().bufferedBytes() <= total, h.collector().bufferedBytes() + " bytes held, total limit " + total);

        h.agents().release.countDown();
        for (RawAgent a : agents) {
            assertEquals(oneTo(chunks), a.acks(chunks), "agent " + a.processId + ": every chunk acknowledged, in order");
            a.writing.get(30, TimeUnit.SECONDS);
        }
        for (RawAgent a : agents)
            await("agent " + a.processId + "'s chunks stored", () -> storedChunkNotes(h.store(), a.processId) == chunks);
        await("nothing held", () -> h.collector().bufferedBytes() == 0);
        assertTrue(h.collector().peakBufferedBytes() <= total, "peak " + h.collector().peakBufferedBytes() + " bytes, limit " + total);
        assertTrue(h.collector().peakConnectionBufferedBytes() <= perConnection);
        assertEquals(3L * chunks, h.agents().stored.get());
    }

    // --- outbound ---

    record Live(Collector collector, LiveSession live, int port) {}

    Live serve(int lowWater, int highWater, long maxQueued, long stallMillis) throws Exception {
        Store store = Store.create(dir.resolve("live" + closeables.size() + ".db"));
        LiveSession live = new LiveSession(store, null);
        Collector c = new Collector("127.0.0.1", 0, null, live, live, log::add)
                .outboundLimits(lowWater, highWater, maxQueued, stallMillis);
        int port = c.start();
        closeables.add(store);
        closeables.add(c);
        return new Live(c, live, port);
    }

    /** An agent whose manifest has {@code n} probes with long names, so that {@code ctl probes} answers with a lot. */
    void agentWithProbes(Live s, int n) throws Exception {
        Socket k = connect(s.port());
        closeables.add(k);
        DataInputStream in = new DataInputStream(k.getInputStream());
        k.getOutputStream().write(agentHello(300, "big", "").toBytes());
        read(in);
        Manifest m = new Manifest();
        String cls = "com.example.averyveryverylongpackagename.AndAClassNameThatGoesOnAndOn";
        for (int i = 1; i <= n; i++) m.add(new ProbeInfo(i, false, Resolution.METHOD, cls, "method" + i, "(IJLjava/lang/String;)V", -1, -1, i, "X.java"));
        byte[] text = new PayloadWriter().string(Manifest.lines(m.probes(), m.skipped())).toByteArray();
        k.getOutputStream().write(new Chunk(1, SessionFormat.MANIFEST, text).toBytes());
        // the agent reads what it is sent (acknowledgements, snapshot requests), on its own thread
        writers.submit(() -> {
            while (true) read(in);
        });
        await("the manifest stored", () -> s.live().execute(List.of("--timeout-ms", "1", "probes")).output().lines().count() > n);
    }

    @Test
    void aCtlThatNeverReadsIsClosedWithBoundedQueue() throws Exception {
        long maxQueued = 1 << 20;
        Live s = serve(16 << 10, 64 << 10, maxQueued, 2_000);
        agentWithProbes(s, 6_000); // a reply of ~0.7 MB: seven are more than loopback's buffers take
        Socket ctl = new Socket();
        closeables.add(ctl);
        ctl.setReceiveBufferSize(4096); // before connecting: a small window
        ctl.connect(new InetSocketAddress("127.0.0.1", s.port()));
        OutputStream o = ctl.getOutputStream();
        o.write(Hello.ctl("").toBytes());
        // it never reads, not even WELCOME, and asks for big answers (fewer than the commands it may have pending)
        for (int i = 0; i < Collector.MAX_CTL_COMMANDS_RUNNING - 1; i++) o.write(new Command(List.of("--timeout-ms", "1", "probes")).toBytes());
        o.flush();
        await("the ctl connection closed for not reading: " + log,
                () -> log.stream().anyMatch(l -> l.contains("closed: the peer is not reading") || l.contains("closed: the peer read nothing")));
        assertTrue(s.collector().peakOutboundQueuedBytes() <= maxQueued,
                "at most " + maxQueued + " bytes queued for one peer: " + s.collector().peakOutboundQueuedBytes());
        // the others are served
        try (Socket c = connect(s.port())) {
            c.getOutputStream().write(Hello.ctl("").toBytes());
            DataInputStream in = new DataInputStream(c.getInputStream());
            assertInstanceOf(Welcome.class, read(in));
            c.getOutputStream().write(new Command(List.of("--timeout-ms", "1", "processes")).toBytes());
            assertEquals(0, ((Result) read(in)).exitCode());
        }
    }

    @Test
    void aCtlSendingMoreCommandsThanItReadsIsClosed() throws Exception {
        Live s = serve(Collector.OUTBOUND_LOW_WATER_BYTES, Collector.OUTBOUND_HIGH_WATER_BYTES, Collector.OUTBOUND_MAX_BYTES, 60_000);
        new RawAgent(s.port(), 400); // it never answers snapshot requests: each command waits for its timeout
        try (Socket c = connect(s.port())) {
            OutputStream o = new BufferedOutputStream(c.getOutputStream());
            o.write(Hello.ctl("").toBytes());
            for (int i = 0; i <= Collector.MAX_CTL_COMMANDS_RUNNING; i++) o.write(new Command(List.of("--timeout-ms", "60000", "processes")).toBytes());
            o.flush();
            CollectorSecurityTest.untilClosed(c);
        }
        await("closed: " + log, () -> log.stream().anyMatch(l -> l.contains("closed: ctl sent more than " + Collector.MAX_CTL_COMMANDS_RUNNING + " commands")));
    }

    @Test
    void aCtlReplyIsCutToWhatAClientReads() throws Exception {
        Live s = serve(Collector.OUTBOUND_LOW_WATER_BYTES, Collector.OUTBOUND_HIGH_WATER_BYTES, Collector.OUTBOUND_MAX_BYTES, 60_000);
        agentWithProbes(s, 12_000); // ~1.9 MB of probes
        try (Socket c = connect(s.port())) {
            c.getOutputStream().write(Hello.ctl("").toBytes());
            DataInputStream in = new DataInputStream(c.getInputStream());
            assertInstanceOf(Welcome.class, read(in));
            c.getOutputStream().write(new Command(List.of("--timeout-ms", "1", "probes")).toBytes());
            int[] type = new int[1];
            byte[] p = WireCodec.readFrame(in, type, Wire.MAX_CONTROL_FRAME); // as hyprof ctl reads it
            Result r = (Result) Frame.decode(type[0], p);
            assertEquals(0, r.exitCode());
            assertTrue(r.output().startsWith("process,id,kind"), r.output().substring(0, 40));
            assertTrue(r.output().endsWith("; hyprof report on the session database prints all of it]\n"),
                    r.output().substring(r.output().length() - 200));
            assertTrue(r.output().getBytes(StandardCharsets.UTF_8).length <= Collector.MAX_RESULT_OUTPUT_BYTES);
        }
    }

    @Test
    void cuttingKeepsCharactersWhole() {
        String big = "é€😀".repeat(200_000); // 2, 3 and 4 UTF-8 bytes
        Result r = Collector.bounded(new Result(3, big));
        byte[] utf8 = r.output().getBytes(StandardCharsets.UTF_8);
        assertTrue(utf8.length <= Collector.MAX_RESULT_OUTPUT_BYTES, utf8.length + " bytes");
        assertFalse(r.output().contains("\uFFFD"), "no character cut in half");
        assertEquals(3, r.exitCode());
        String kept = r.output().substring(0, r.output().indexOf("\n[hyprof: output cut at"));
        assertTrue(big.startsWith(kept));
        Result small = new Result(0, "short\n");
        assertSame(small, Collector.bounded(small));
    }
}
