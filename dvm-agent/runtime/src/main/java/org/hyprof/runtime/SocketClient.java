package org.hyprof.runtime;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 *
 * <p>At exit (the shutdown hook, {@link #finish}) nothing the collector has not acknowledged is
 * given up silently: a collector that is away is tried every 100 ms for up to
 * {@code exitGraceMillis}; once connected, the queue has up to {@link #DRAIN_MILLIS} more to be
 * acknowledged. What is still unacknowledged then (event chunks, the final snapshot, END, with
 * the manifest and calibrations) is written to a <em>spill file</em> in the session-file format
 * ({@code hyprof-spill-PID.hyprof}), whose header has the same pid and start times as our HELLO,
 * so {@code hyprof import --append S.db FILE} adds it to this process's row, counted once.
 */
final class SocketClient extends ChunkSink {
    private final String host;
    private final int port;
    private final String token;
    private final String[] hello; // pid, process, vm, startWall, startNanos, kind

    /** At exit: once connected, how long the queue may take to be acknowledged (ms). */
    static final long DRAIN_MILLIS = 10_000;
    /** At exit: how often a collector that is away is tried (ms). */
    static final long EXIT_RETRY_MILLIS = 100;

    private final long exitGraceMillis;
    /** Header of the spill file (the session header, with our HELLO's pid and start times). */
    private final String spillHeader;
    /** The spill file's directory; null = working directory (an Android app's files directory). */
    private final String spillDir;
    /** The session file written beside the stream ({@code out=}), or null: it has everything already. */
    private final String sessionFile;

    /** Frames to send on the current connection. */
    private final LinkedList<byte[]> outbox = new LinkedList<byte[]>();
    /**
     * Chunk frames the collector has to store, by sequence number (in that order), until it
     * acknowledges them: event chunks and native epochs and blocks, the manifest, calibrations,
     * errors and hybrid-run settings, and once closing the final snapshot and END.
     */
    private final LinkedHashMap<Long, byte[]> unacked = new LinkedHashMap<Long, byte[]>();
    /**
     * Sequence numbers of the chunk frames written on the current connection, in the order
     * written. The collector stores a connection's chunks in the order received and acknowledges
     * each, so an ACK covers the chunk it names and every chunk written before it on the same
     * connection (not every lower number: the final snapshot and END overtake queued chunks).
     */
    private final ArrayDeque<Long> inFlight = new ArrayDeque<Long>();
    /** The program is exiting: a collector that is away is tried every {@link #EXIT_RETRY_MILLIS}. */
    private boolean exiting;
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
        this(hostPort, token, hello, 3000, null, null, null);
    }

    /**
     * @param hello           pid, process, vm, startWallMillis, startNanos, kind
     * @param exitGraceMillis at exit, how long to keep trying a collector that is away
     * @param spillHeader     the session header for a spill file (null: none is written)
     * @param spillDir        the spill file's directory (null: the working directory)
     * @param sessionFile     the session file written as well, or null
     */
    SocketClient(String hostPort, String token, String[] hello, long exitGraceMillis, String spillHeader, String spillDir,
                 String sessionFile) {
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
        this.exitGraceMillis = exitGraceMillis;
        this.spillHeader = spillHeader;
        this.spillDir = spillDir;
        this.sessionFile = sessionFile;
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
            if (isReplayed(type)) replay.add(frame);
            // periodic snapshots are cumulative: a lost one is replaced by the next; the final one is not
            if (type != SessionFormat.SNAPSHOT || urgent || mustKeep) unacked.put(s, frame);
            if (connected) {
                if (urgent) urgentBox.add(frame); else outbox.add(frame);
                // new probes change the control state the collector computes from
                if (type == SessionFormat.MANIFEST) outbox.add(WireCodec.frame(Wire.STATE, encodeState()));
            }
            outbox.notifyAll();
        }
    }

    /**
     * 16 MB: the collector takes the first snapshot chunk after a SNAPSHOT_REQUEST as the answer
     * ({@code hyprof ctl refresh}), so a snapshot is one chunk up to this size, far beyond most
     * programs'; only a larger one is cut (below the frame limit the collector accepts).
     */
    @Override
    protected int snapshotChunkBytes() {
        return 16 << 20;
    }

    @Override
    protected void emitted(byte[] buf) {
        // the chunk's bytes were copied into the frame: the buffer can go back to the pool
        Recorder.recycleBuffer(buf);
    }

    @Override
    public synchronized void snapshot(boolean changedOnly) {
        boolean overtakes;
        synchronized (outbox) {
            overtakes = urgent; // the final snapshot
        }
        // cumulative: a fresh one goes out on reconnect; but the final one is made in any case (it
        // is sent when the collector is back, or spilled)
        if (!connected && !overtakes) { drainEvents(); return; }
        // The final snapshot goes out ahead of what is still queued (urgent), periodic snapshots
        // among them: were it only the changes since the last one, the collector, which keeps the
        // newest snapshot and drops older ones arriving after it, would drop what those carried.
        super.snapshot(changedOnly && !overtakes);
    }

    @Override
    public void close() {
        synchronized (outbox) {
            urgent = true;
        }
        super.close(); // final snapshot and END first, then the event chunks still queued; then finish()
    }

    @Override
    protected void finish() {
        // The JVM is exiting. A collector that is away gets exitGraceMillis to be back (tried every
        // 100 ms meanwhile); once connected, the queue gets DRAIN_MILLIS to be acknowledged. Only
        // then BYE, half-close, and wait for the collector to close: closing with unread
        // acknowledgements would reset the connection and lose what is still in flight. What the
        // collector has not acknowledged by then goes into the spill file.
        long now = System.currentTimeMillis();
        long graceEnd = now + exitGraceMillis;
        long end = graceEnd + DRAIN_MILLIS;
        boolean announced = false;
        int pending;
        synchronized (outbox) {
            exiting = true;
            outbox.notifyAll(); // the connecting thread stops backing off
            while (!unacked.isEmpty() && now < end && (connected || now < graceEnd)) {
                if (!connected && !announced) {
                    announced = true;
                    Recorder.report("collector " + host + ":" + port + " is away at exit: trying it for up to "
                            + exitGraceMillis + " ms (exitGraceMillis)");
                }
                try {
                    outbox.wait(Math.max(1, Math.min(50, (connected ? end : graceEnd) - now)));
                } catch (InterruptedException e) {
                    break;
                }
                now = System.currentTimeMillis();
            }
            if (connected && unacked.isEmpty()) {
                outbox.add(WireCodec.frame(Wire.BYE, new PayloadWriter().string("process exit").toByteArray()));
                outbox.notifyAll();
                long byeEnd = Math.min(end, now + 2000);
                while (connected && !peerClosed && now < byeEnd) {
                    try {
                        outbox.wait(50);
                    } catch (InterruptedException e) {
                        break;
                    }
                    now = System.currentTimeMillis();
                }
            }
            pending = unacked.size();
        }
        stopping = true;
        closeSocket();
        if (pending > 0) spill();
    }

    /** Chunk kinds every new connection receives again (the collector stores each once). */
    private static boolean isReplayed(int type) {
        return type == SessionFormat.MANIFEST || type == SessionFormat.CALIBRATION || type == SessionFormat.ERROR
                || type == SessionFormat.NATIVE_INFO;
    }

    /** The sequence number of a CHUNK frame (after length and type). */
    private static long seqOf(byte[] frame) {
        long v = 0;
        for (int i = 5, shift = 0; i < frame.length && shift < 64; i++, shift += 7) {
            v |= (long) (frame[i] & 0x7f) << shift;
            if ((frame[i] & 0x80) == 0) break;
        }
        return v;
    }

    /** Offset of the chunk type in a CHUNK frame (after length, frame type and the seq varint). */
    private static int chunkTypeOffset(byte[] frame) {
        int i = 5;
        while (i < frame.length && (frame[i] & 0x80) != 0) i++;
        return i + 1;
    }

    /**
     * Writes what the collector has not acknowledged as a session file: header, the chunks every
     * connection receives again (manifest, calibrations, errors), then the unacknowledged ones in
     * sequence order. Says where on stderr. Never throws.
     */
    private void spill() {
        List<byte[]> frames = new ArrayList<byte[]>();
        int pending;
        synchronized (outbox) {
            pending = unacked.size();
            frames.addAll(replay);
            for (byte[] f : unacked.values()) if (!isReplayed(f[chunkTypeOffset(f)])) frames.add(f);
        }
        String what = "the collector at " + host + ":" + port + " did not acknowledge " + pending + " chunk"
                + (pending == 1 ? "" : "s") + " (events, final counts, end)";
        if (sessionFile != null) {
            Recorder.report(what + "; the session file " + sessionFile + " has them: hyprof import --append SESSION.db " + sessionFile);
            return;
        }
        if (spillHeader == null) {
            Recorder.report(what + ": lost");
            return;
        }
        File f = null;
        FileOutputStream out = null;
        try {
            f = newSpillFile();
            out = new FileOutputStream(f);
            out.write(SessionFormat.MAGIC);
            PayloadWriter w = new PayloadWriter();
            org.hyprof.runtime.chunk.TextChunk.encode(w, spillHeader);
            w.writeChunk(SessionFormat.HEADER, out);
            for (byte[] frame : frames) {
                int t = chunkTypeOffset(frame);
                w.reset().bytes(frame, t + 1, frame.length - t - 1);
                w.writeChunk(frame[t] & 0xff, out);
            }
            out.close();
            out = null;
            String path = f.getAbsolutePath();
            Recorder.report(what + "; written to " + path + ": add it to the session with: hyprof import --append SESSION.db " + path);
        } catch (IOException e) {
            Recorder.report(what + ", and the spill file " + (f != null ? f.getAbsolutePath() : "") + " cannot be written ("
                    + e.getMessage() + "): they are lost");
        } catch (RuntimeException e) {
            Recorder.report(what + ", and the spill file cannot be written (" + e + "): they are lost");
        } finally {
            if (out != null) {
                try {
                    out.close();
                } catch (IOException ignored) {
                    // reported above
                }
            }
        }
    }

    /** {@code hyprof-spill-PID.hyprof} (or {@code -2}, {@code -3}, ... if taken), created empty. */
    private File newSpillFile() throws IOException {
        String base = "hyprof-spill-" + hello[0];
        for (int n = 1; n < 1000; n++) {
            String name = base + (n == 1 ? "" : "-" + n) + ".hyprof";
            File f = spillDir != null ? new File(spillDir, name) : new File(AndroidFiles.resolve(name));
            File parent = f.getAbsoluteFile().getParentFile();
            if (parent != null && !parent.isDirectory() && !parent.mkdirs()) throw new IOException("cannot create directory " + parent);
            if (f.createNewFile()) return f;
        }
        throw new IOException("too many spill files named " + base + "*.hyprof");
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
                if (stopping) return; // the exit gave up meanwhile
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
                backOff(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = Math.min(5000, backoff * 2);
        }
    }

    /** Waits {@code millis} before the next attempt, or {@link #EXIT_RETRY_MILLIS} once the program is exiting. */
    private void backOff(long millis) throws InterruptedException {
        long now = System.currentTimeMillis();
        long until = now + millis;
        synchronized (outbox) {
            while (!stopping) {
                if (exiting) until = Math.min(until, now + EXIT_RETRY_MILLIS);
                if (now >= until) return;
                outbox.wait(until - now); // woken early by every new chunk: the loop re-checks
                now = System.currentTimeMillis();
            }
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
            inFlight.clear();
            outbox.add(WireCodec.frame(Wire.STATE, encodeState()));
            outbox.addAll(replay);
            for (byte[] f : unacked.values()) if (!isReplayed(f[chunkTypeOffset(f)])) outbox.add(f);
            connected = true;
            outbox.notifyAll();
        }
        lastProblem = null;
        snapshot(false); // a full one (after close: nothing, the final one is among the unacknowledged)
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
                if (f[4] == Wire.CHUNK) inFlight.add(seqOf(f)); // before it is written: its ACK may come at once
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
                            case Wire.SNAPSHOT_REQUEST: {
                                PayloadReader q = new PayloadReader(p);
                                q.varint();
                                if (!q.atEnd() && q.u8() == 1) Recorder.requestDump(); // hyprof ctl dump
                                snapshot(false);
                                break;
                            }
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

    /** The collector stored chunk {@code seq}, and so every chunk written before it on this connection. */
    private void acknowledge(long seq) {
        synchronized (outbox) {
            Long head = inFlight.peekFirst();
            if (head != null && (head == seq || inFlight.contains(seq))) {
                for (Long s; (s = inFlight.pollFirst()) != null; ) {
                    unacked.remove(s);
                    if (s == seq) break;
                }
            } else {
                unacked.remove(seq);
            }
            outbox.notifyAll(); // the exit may be waiting for this
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
