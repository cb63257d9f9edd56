package org.hyprof.runtime;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import org.hyprof.runtime.chunk.PayloadReader;
import org.hyprof.runtime.chunk.PayloadWriter;

/**
 * Streams what the runtime records to a collector ({@link Wire}) and applies the configuration
 * it sends back. Plain blocking sockets on two daemon threads (one writes, one reads); app
 * threads only enqueue. When the collector is away, recording goes on within the budget:
 * aggregates are cumulative and sent whole after a reconnect, event chunks are kept until the
 * collector acknowledges them, the manifest and calibrations are resent. Reconnects back off
 * from 100 ms to 5 s.
 */
final class SocketClient extends ChunkSink {
    private final String host;
    private final int port;
    private final String token;
    private final String[] hello; // pid, process, vm, startWall, startNanos, kind

    /** Frames to send on the current connection. */
    private final LinkedList<byte[]> outbox = new LinkedList<byte[]>();
    /** Event chunks sent or waiting, until acknowledged: seq, frame, buffer. */
    private final LinkedList<Object[]> unacked = new LinkedList<Object[]>();
    /** What a new connection must receive first: manifest text and calibrations so far. */
    private final List<byte[]> replay = new ArrayList<byte[]>();
    private long seq;
    private volatile boolean connected;
    /** The collector closed the connection (after our BYE, or on its own). */
    private volatile boolean peerClosed;
    private volatile boolean stopping;
    private volatile Socket socket;
    private Thread writer;
    /** Final snapshot and END go ahead of queued event chunks (they carry the drop counts). */
    private boolean urgent;
    private final LinkedList<byte[]> urgentBox = new LinkedList<byte[]>();
    /** Set when the collector said who we are. */
    volatile long processId = -1;
    /**
     * The resume secret the collector gave us in WELCOME, presented in every later HELLO: it
     * proves we are the run that owns our process row (our pid, name and start times are no
     * secret). Kept in memory only; empty until the first WELCOME.
     */
    private volatile String resume = "";
    private volatile String lastProblem;

    SocketClient(String hostPort, String token, String[] hello) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) throw new IllegalArgumentException("connect must be HOST:PORT, not '" + hostPort + "'");
        this.host = hostPort.substring(0, colon);
        try {
            this.port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("connect must be HOST:PORT, not '" + hostPort + "'");
        }
        this.token = token == null ? "" : token;
        this.hello = hello;
    }

    void start() {
        writer = new Thread(new Runnable() {
            @Override
            public void run() {
                loop();
            }
        }, "hyprof-client");
        writer.setDaemon(true);
        writer.start();
    }

    boolean isConnected() {
        return connected;
    }

    // ------------------------------------------------------------------ encoding (ChunkSink)

    @Override
    protected void emit(int type) {
        byte[] payload = chunk.toByteArray();
        long s;
        byte[] frame;
        synchronized (outbox) {
            s = ++seq;
            frame = WireCodec.frame(Wire.CHUNK, new PayloadWriter().varint(s).u8(type).bytes(payload).toByteArray());
            // manifest, calibrations, errors and hybrid-run settings are resent to every new
            // connection; event chunks and native epochs/blocks until acknowledged; snapshots are
            // cumulative, so a fresh one replaces lost ones
            if (type == SessionFormat.MANIFEST || type == SessionFormat.CALIBRATION || type == SessionFormat.ERROR
                    || type == SessionFormat.NATIVE_INFO)
                replay.add(frame);
            if (type == SessionFormat.EVENTS || type == SessionFormat.NATIVE_EPOCHS || type == SessionFormat.NATIVE_BLOCKS)
                unacked.add(new Object[] {s, frame});
            if (connected) {
                if (urgent) urgentBox.add(frame); else outbox.add(frame);
                // new probes change the control state the collector computes from
                if (type == SessionFormat.MANIFEST) outbox.add(WireCodec.frame(Wire.STATE, encodeState()));
            }
            outbox.notifyAll();
        }
    }

    @Override
    protected void emitted(byte[] buf) {
        // the chunk's bytes were copied into the frame: the buffer can go back to the pool
        Recorder.recycleBuffer(buf);
    }

    @Override
    public synchronized void snapshot(boolean changedOnly) {
        if (!connected) { drainEvents(); return; } // cumulative: a fresh one goes out on reconnect
        boolean overtakes;
        synchronized (outbox) {
            overtakes = urgent;
        }
        // The final snapshot goes out ahead of what is still queued (urgent), periodic snapshots
        // among them: were it only the changes since the last one, the collector, which keeps the
        // newest snapshot and drops older ones arriving after it, would drop what those carried.
        super.snapshot(changedOnly && !overtakes);
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        synchronized (outbox) {
            urgent = true;
        }
        super.close(); // final snapshot and END first, then the event chunks still queued
    }

    @Override
    protected void finish() {
        // The JVM is exiting: give the queue up to 10 s to reach the collector, then end the
        // connection gracefully (BYE, half-close, wait for the collector to close): closing with
        // unread acknowledgements would reset the connection and lose what is still in flight.
        long deadline = System.currentTimeMillis() + 10_000;
        synchronized (outbox) {
            outbox.add(WireCodec.frame(Wire.BYE, new PayloadWriter().string("process exit").toByteArray()));
            outbox.notifyAll();
            while (connected && !peerClosed && System.currentTimeMillis() < deadline) {
                try {
                    outbox.wait(50);
                } catch (InterruptedException e) {
                    break;
                }
            }
        }
        stopping = true;
        closeSocket();
    }

    // ------------------------------------------------------------------ connection

    private void loop() {
        long backoff = 100;
        while (!stopping) {
            Socket s = null;
            try {
                s = new Socket();
                s.setTcpNoDelay(true);
                s.connect(new InetSocketAddress(host, port), 2000);
                socket = s;
                OutputStream out = new BufferedOutputStream(s.getOutputStream(), 1 << 16);
                DataInputStream in = new DataInputStream(s.getInputStream());
                out.write(WireCodec.frame(Wire.HELLO, new PayloadWriter().varint(Wire.VERSION).string(Wire.ROLE_AGENT).string(token)
                        .varint(Long.parseLong(hello[0]) & Long.MAX_VALUE).string(cut(hello[1], 512)).string(cut(hello[2], 256))
                        .varint(Long.parseLong(hello[3])).varint(Long.parseLong(hello[4])).string(hello[5]).string(resume)
                        .toByteArray()));
                out.flush();
                int[] type = new int[1];
                byte[] answer = WireCodec.readFrame(in, type, Wire.MAX_CONTROL_FRAME);
                if (type[0] == Wire.REJECT) throw new IOException("collector rejected us: " + new PayloadReader(answer).string());
                if (type[0] != Wire.WELCOME) throw new IOException("collector answered frame type " + type[0]);
                PayloadReader welcome = new PayloadReader(answer);
                processId = welcome.varint();
                welcome.string(); // message
                if (!welcome.atEnd()) resume = welcome.string();
                peerClosed = false;
                backoff = 100;
                onConnected(out);
                startReader(in, s);
                pump(out);
            } catch (IOException e) {
                String p = e.getMessage();
                if (p != null && !p.equals(lastProblem)) {
                    lastProblem = p;
                    if (!stopping) Recorder.report("collector " + host + ":" + port + ": " + p + " (retrying)");
                }
            } catch (RuntimeException e) {
                Recorder.internalFailure(e);
                return;
            } finally {
                connected = false;
                closeQuietly(s);
            }
            if (stopping) return;
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = Math.min(5000, backoff * 2);
        }
    }

    /** At most {@code n} characters (the collector takes a HELLO of at most {@link Wire#MAX_HELLO_FRAME} bytes). */
    private static String cut(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n);
    }

    /** After WELCOME: state, manifest, calibrations, unacknowledged events, a full snapshot. */
    private void onConnected(OutputStream out) throws IOException {
        resetSnapshots();
        synchronized (outbox) {
            outbox.clear();
            urgentBox.clear();
            outbox.add(WireCodec.frame(Wire.STATE, encodeState()));
            outbox.addAll(replay);
            for (Object[] u : unacked) outbox.add((byte[]) u[1]);
            connected = true;
        }
        lastProblem = null;
        snapshot(false);
    }

    private void pump(OutputStream out) throws IOException {
        while (!stopping || hasOutgoing()) {
            byte[] f;
            synchronized (outbox) {
                while (outbox.isEmpty() && urgentBox.isEmpty() && socket != null && !socket.isClosed() && !stopping) {
                    try {
                        outbox.wait(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (socket == null || socket.isClosed()) throw new IOException("connection closed");
                f = urgentBox.poll();
                if (f == null) f = outbox.poll();
                if (f == null) {
                    if (stopping) return;
                    continue;
                }
            }
            out.write(f);
            if (f[4] == Wire.BYE) {
                out.flush();
                socket.shutdownOutput(); // half-close: the reader still drains acknowledgements
                stopping = true;
                synchronized (outbox) {
                    long end = System.currentTimeMillis() + 5000;
                    while (!peerClosed && System.currentTimeMillis() < end) {
                        try {
                            outbox.wait(50);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
                return;
            }
            synchronized (outbox) {
                if (outbox.isEmpty() && urgentBox.isEmpty()) { out.flush(); outbox.notifyAll(); }
            }
        }
        out.flush();
    }

    private boolean hasOutgoing() {
        synchronized (outbox) {
            return !outbox.isEmpty() || !urgentBox.isEmpty();
        }
    }

    private void startReader(final DataInputStream in, final Socket s) {
        Thread r = new Thread(new Runnable() {
            @Override
            public void run() {
                try {
                    int[] type = new int[1];
                    while (true) {
                        byte[] p = WireCodec.readFrame(in, type, Wire.MAX_CONTROL_FRAME);
                        switch (type[0]) {
                            case Wire.ACK: acknowledge(new PayloadReader(p).varint()); break;
                            case Wire.CONFIG: applyConfig(new PayloadReader(p)); break;
                            case Wire.SNAPSHOT_REQUEST:
                                snapshot(false);
                                break;
                            case Wire.BYE: closeQuietly(s); return;
                            default: throw new IOException("unexpected frame type " + type[0]);
                        }
                    }
                } catch (IOException e) {
                    if (!stopping) Recorder.report("collector connection: " + e.getMessage());
                    closeQuietly(s);
                } catch (RuntimeException e) {
                    closeQuietly(s);
                    Recorder.report("bad frame from collector: " + e);
                } finally {
                    synchronized (outbox) {
                        peerClosed = true;
                        outbox.notifyAll();
                    }
                }
            }
        }, "hyprof-client-reader");
        r.setDaemon(true);
        r.start();
    }

    private void acknowledge(long upTo) {
        synchronized (outbox) {
            while (!unacked.isEmpty() && (Long) unacked.getFirst()[0] <= upTo) unacked.removeFirst();
        }
    }

    private void applyConfig(PayloadReader d) {
        int n = (int) d.varint();
        byte[] bits = d.bytes((n + 7) / 8);
        boolean[] on = new boolean[n];
        for (int i = 0; i < n; i++) on[i] = (bits[i >> 3] & (1 << (i & 7))) != 0;
        int nr = (int) d.varint();
        int[] roots = new int[nr];
        for (int i = 0; i < nr; i++) roots[i] = (int) d.varint();
        long minDur = d.varint();
        int minCalls = (int) d.varint();
        int maxDepth = (int) d.varint();
        boolean events = d.u8() != 0;
        long budget = d.varint();
        Hyprof.applyRemoteConfig(on, roots, minDur, minCalls, maxDepth, events, budget);
        synchronized (outbox) {
            if (connected) outbox.add(WireCodec.frame(Wire.STATE, encodeState()));
            outbox.notifyAll();
        }
    }

    /** The runtime's current control state, in CONFIG/STATE layout. */
    static byte[] encodeState() {
        Config c = Recorder.config;
        int n = c.on.length;
        byte[] bits = new byte[(n + 7) / 8];
        for (int i = 0; i < n; i++) if (c.on[i]) bits[i >> 3] |= (byte) (1 << (i & 7));
        PayloadWriter e = new PayloadWriter().varint(n).bytes(bits);
        int roots = 0;
        for (boolean r : c.root) if (r) roots++;
        e.varint(roots);
        for (int i = 0; i < c.root.length; i++) if (c.root[i]) e.varint(i);
        return e.varint(c.minDurationNanos).varint(c.minCalls).varint(c.maxDepth).u8(c.events ? 1 : 0)
                .varint(Recorder.budgetRemaining()).toByteArray();
    }

    private void closeSocket() {
        closeQuietly(socket);
        synchronized (outbox) {
            outbox.notifyAll();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            if (s != null) s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
