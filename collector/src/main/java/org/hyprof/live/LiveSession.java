package org.hyprof.live;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.hyprof.config.ConfigException;
import org.hyprof.config.Manifest;
import org.hyprof.config.Zoom;
import org.hyprof.control.Chunk;
import org.hyprof.collector.Collector;
import org.hyprof.control.ConfigFrame;
import org.hyprof.control.ControlState;
import org.hyprof.control.Hello;
import org.hyprof.control.Result;
import org.hyprof.control.SnapshotRequest;
import org.hyprof.correlate.Profile;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.Wire;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.SessionIngest;
import org.hyprof.store.Store;

/**
 * A live session: the collector's agents, their data going into the store as it arrives, and the
 * control API the terminal UI and {@code hyprof ctl} use (list processes and probes with their
 * statistics, switch probes, zoom, caller filter, rules, snapshots). Every change is computed by
 * the pure functions of {@link Zoom} and sent to the agent as a full CONFIG; the agent answers
 * with the STATE in effect.
 *
 * <p>A process is one run of an agent, identified by its HELLO's pid, process name, start wall
 * time and start {@code nanoTime} (fixed when the runtime starts). An agent that connects again
 * (after a network break, or to a collector restarted on the same session database) resumes its
 * process row; what it sends again is stored once (see {@link SessionIngest}). Since that identity
 * is no secret (it is in the session database), resuming also takes the row's <em>resume
 * secret</em>, given to the agent in WELCOME: an HMAC of the row and its identity under the
 * session's key (the collector's token, which a collector restarted on the session reads again
 * from the same file). A HELLO with the identity but without the secret gets a new row of its own,
 * with a note saying so: it cannot take over, feed or end another agent's row.
 *
 * <p>A session takes at most {@link #maxProcesses()} processes ({@link #MAX_PROCESSES} unless
 * set); an agent beyond is rejected with a reason saying so.
 */
public final class LiveSession implements Collector.Agents, Collector.Commands {

    /** A process of the session as the collector sees it. */
    public static final class Proc {
        public final long id;
        /** Who the process is (for a process read from the session, rebuilt from its row). */
        public final Hello hello;
        final SessionIngest ingest;
        /** Whether it came from an agent connection (imported session files never reconnect). */
        final boolean resumable;
        volatile Collector.Connection connection;
        volatile ControlState state;
        volatile Zoom.Scope scope = Zoom.start();
        /**
         * Ids the scope was applied to, or -1 before the first zoom step (until then the agent's
         * own start-up settings decide): probes the agent defines later get the scope's flags.
         */
        volatile int scopedIds = -1;
        volatile long snapshotsReceived;
        volatile String status;

        Proc(long id, Hello hello, SessionIngest ingest, boolean resumable, String status) {
            this.id = id;
            this.hello = hello;
            this.ingest = ingest;
            this.resumable = resumable;
            this.status = status;
        }

        public boolean connected() {
            return connection != null;
        }

        /** One of the {@link ProcessInfo} statuses ({@link ProcessInfo#meaning} says what it means). */
        public String status() {
            return status;
        }

        /** The agent's control state in effect, or null before it said. */
        public ControlState state() {
            return state;
        }

        public Zoom.Scope scope() {
            return scope;
        }

        public Manifest manifest() {
            return ingest.manifest();
        }

        /** Threads that recorded methods (as {@code hyprof report} counts them). */
        public int threadCount() {
            return ingest.threadCount();
        }

        boolean sameRun(Hello h) {
            return resumable && hello.pid() == h.pid() && hello.startNanos() == h.startNanos()
                    && hello.startWallMillis() == h.startWallMillis() && hello.process().equals(h.process());
        }
    }

    /** Processes a session takes unless told otherwise. */
    public static final int MAX_PROCESSES = 256;

    private final Store store;
    /** Key of the resume secrets (HMAC-SHA256). */
    private final byte[] resumeKey;
    private volatile int maxProcesses = MAX_PROCESSES;
    private final Map<Long, Proc> procs = new LinkedHashMap<>();
    private final CommandInterpreter commands = new CommandInterpreter(this);
    private long snapshotRequests;

    /**
     * A live session on {@code store}. Processes already in it are listed too; those a collector
     * left {@code running} (it was killed) are marked {@code disconnected}: their agents resume
     * them when they connect again.
     */
    public LiveSession(Store store) {
        this(store, null);
    }

    /**
     * A live session whose resume secrets are keyed with {@code resumeKey} (the collector's token:
     * a collector restarted on the session with the same token lets its agents resume their rows),
     * or with a random key when null or empty (agents resume only while this object lives).
     */
    public LiveSession(Store store, byte[] resumeKey) {
        this.store = store;
        if (resumeKey == null || resumeKey.length == 0) {
            resumeKey = new byte[32];
            new java.security.SecureRandom().nextBytes(resumeKey);
        }
        this.resumeKey = resumeKey.clone();
        for (ProcessInfo pi : store.processes()) {
            String status = pi.status();
            if (pi.fromCollector() && status.equals(ProcessInfo.RUNNING)) {
                status = ProcessInfo.DISCONNECTED;
                store.updateProcessStatus(pi.id(), status);
                store.addNote(pi.id(), "warning", describe(pi.id(), pi.name(), pi.pid())
                        + ": connection lost (its collector stopped without closing the session) before " + now());
            }
            Hello h = new Hello(Wire.VERSION, Wire.ROLE_AGENT, "", pi.pid(), pi.name(), pi.vm(), pi.startWallMillis(),
                    pi.startNanos(), "");
            procs.put(pi.id(), new Proc(pi.id(), h, SessionIngest.resume(store, pi.id()), pi.fromCollector(), status));
        }
    }

    public Store store() {
        return store;
    }

    /** Sets how many processes the session takes (agents beyond are rejected). */
    public LiveSession maxProcesses(int n) {
        if (n < 1) throw new IllegalArgumentException("max processes " + n + ": must be at least 1");
        maxProcesses = n;
        return this;
    }

    public int maxProcesses() {
        return maxProcesses;
    }

    private static String describe(long id, String name, long pid) {
        return "process " + id + " (" + org.hyprof.correlate.Printable.of(name) + ", pid " + pid + ")";
    }

    /** The resume secret of a process row: 128 bits of HMAC-SHA256 over the row and its identity, in hex. */
    private String secret(long id, Hello h) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(resumeKey, "HmacSHA256"));
            String msg = "hyprof-resume\n" + id + "\n" + h.pid() + "\n" + h.startWallMillis() + "\n" + h.startNanos() + "\n"
                    + h.process();
            byte[] d = mac.doFinal(msg.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d, 0, 16);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized String resumeSecret(long processId) {
        Proc p = proc(processId);
        return secret(p.id, p.hello);
    }

    // ------------------------------------------------------------------ Collector.Agents

    @Override
    public synchronized long connected(Hello h, Collector.Connection c) {
        Proc impostorOf = null;
        for (Proc p : procs.values()) {
            if (!p.sameRun(h)) continue;
            if (h.resume().isEmpty() || !java.security.MessageDigest.isEqual(
                    secret(p.id, p.hello).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    h.resume().getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
                impostorOf = p;
                continue;
            }
            // the same process again: after a break, or to a restarted collector; a connection
            // it still holds here is dead on its side (it only connects again when it lost it)
            Collector.Connection old = p.connection;
            p.connection = c;
            p.status = ProcessInfo.RUNNING;
            p.state = null; // it sends its STATE first
            store.updateProcessStatus(p.id, ProcessInfo.RUNNING);
            if (old != null) old.close("replaced by a new connection from the same process");
            p.ingest.newConnection(); // its snapshots are ordered among themselves, not against the old connection's
            store.addNote(p.id, "info", describe(p.id, p.hello.process(), p.hello.pid()) + ": reconnected at " + now()
                    + " and resumed");
            notifyAll();
            return p.id;
        }
        if (procs.size() >= maxProcesses)
            throw new ConfigException("the session has " + procs.size() + " processes, the most it takes (serve --max-processes)");
        long id = store.addProcess(new ProcessInfo(0, h.pid(), h.process(), h.vm(), "aggregate", 0, h.startWallMillis(),
                h.startNanos(), null, ProcessInfo.RUNNING, 0, ProcessInfo.COLLECTOR_SOURCE + c.remote()));
        if (impostorOf != null)
            store.addNote(id, "warning", describe(id, h.process(), h.pid()) + " has the identity of " + describe(impostorOf.id,
                    impostorOf.hello.process(), impostorOf.hello.pid()) + " but not its resume secret: stored as a process of its own");
        Proc p = new Proc(id, h, new SessionIngest(store, id), true, ProcessInfo.RUNNING);
        p.connection = c;
        procs.put(id, p);
        return id;
    }

    /** Stores a chunk as if from the process's current connection (tests). */
    public void chunk(long processId, Chunk c) {
        chunk(processId, proc(processId).connection, c);
    }

    @Override
    public void chunk(long processId, Collector.Connection from, Chunk c) {
        Proc p = proc(processId);
        if (from != p.connection) return; // a replaced connection: the agent sends it again on its new one
        p.ingest.accept(c.chunkType(), c.data());
        if (c.chunkType() == SessionFormat.SNAPSHOT) {
            synchronized (this) {
                p.snapshotsReceived++;
                notifyAll();
            }
        }
    }

    @Override
    public synchronized void state(long processId, ControlState state) {
        Proc p = proc(processId);
        p.state = state;
        extendScope(p);
        notifyAll();
    }

    /**
     * The agent defined probes since the last zoom step (classes loaded later, or its manifest
     * arrived after the step): they get the scope's flags, the others keep theirs.
     */
    private synchronized void extendScope(Proc p) {
        ControlState cur = p.state;
        if (p.scopedIds < 0 || cur == null || cur.idCount() <= p.scopedIds || p.connection == null) return;
        ControlState next = Zoom.extend(p.scope, p.manifest(), cur, p.scopedIds);
        p.scopedIds = next.idCount();
        p.state = null; // the agent confirms with a STATE frame
        p.connection.send(new ConfigFrame(next));
    }

    /** A zoom step: the scope's flags now, and for the probes the agent defines later. */
    private ControlState zoomTo(long processId, Zoom.Scope next, long timeoutMillis) throws InterruptedException {
        Proc p = proc(processId);
        Zoom.Scope before = p.scope;
        int beforeIds = p.scopedIds;
        synchronized (this) {
            p.scope = next;
            p.scopedIds = Integer.MAX_VALUE; // no extension while the step itself is on its way
        }
        ControlState s;
        try {
            s = change(processId, cur -> Zoom.apply(next, p.manifest(), cur), timeoutMillis);
        } catch (RuntimeException | InterruptedException e) {
            synchronized (this) {
                p.scope = before;
                p.scopedIds = beforeIds;
            }
            throw e;
        }
        synchronized (this) {
            p.scopedIds = s.idCount();
        }
        extendScope(p); // probes the agent defined while the step was on its way
        return s;
    }

    @Override
    public synchronized void disconnected(long processId, Collector.Connection connection, String reason, boolean clean) {
        Proc p = procs.get(processId);
        if (p == null || p.connection != connection) return; // a connection already replaced
        detach(p, reason, clean);
    }

    private void detach(Proc p, String reason, boolean clean) {
        // the store first, then what other threads read without the lock: whoever sees the process
        // disconnected finds its row (and note) updated already
        String status = clean || p.ingest.ended() ? ProcessInfo.ENDED : ProcessInfo.DISCONNECTED;
        store.updateProcessStatus(p.id, status);
        if (status.equals(ProcessInfo.DISCONNECTED))
            store.addNote(p.id, "warning", describe(p.id, p.hello.process(), p.hello.pid()) + ": connection lost (" + reason
                    + ") at " + now());
        p.status = status;
        p.connection = null;
        notifyAll();
    }

    /** Wall-clock time for notes, to the second (UTC). */
    private static String now() {
        return java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    }

    /**
     * The collector is stopping: every process still connected is marked disconnected (its agent
     * keeps recording and resumes the row when a collector on this session is back). Call after
     * {@link Collector#close()}, which does this for the connections it closes; returns how many
     * were still connected.
     */
    public synchronized int detachAll(String reason) {
        int n = 0;
        for (Proc p : procs.values()) {
            if (p.connection == null) continue;
            detach(p, reason, false);
            n++;
        }
        return n;
    }

    @Override
    public Result execute(List<String> args) {
        return commands.execute(args);
    }

    // ------------------------------------------------------------------ control API

    /** Processes in order of arrival. */
    public synchronized List<Proc> processes() {
        return new ArrayList<>(procs.values());
    }

    public synchronized Proc proc(long id) {
        Proc p = procs.get(id);
        if (p == null) throw new ConfigException("no process " + id + " in this session");
        return p;
    }

    /**
     * Computes a new control state for a connected process and sends it; waits up to
     * {@code timeoutMillis} for the agent to confirm it. Returns the state sent.
     */
    public ControlState change(long processId, Function<ControlState, ControlState> f, long timeoutMillis)
            throws InterruptedException {
        Proc p = proc(processId);
        ControlState next;
        synchronized (this) {
            if (p.connection == null) throw new ConfigException("process " + processId + " is not connected");
            ControlState cur = awaitState(p, timeoutMillis);
            next = Zoom.normalize(cur, f.apply(cur), p.manifest());
            p.state = null; // the agent confirms with a STATE frame
        }
        Collector.Connection c = p.connection;
        if (c != null) c.send(new ConfigFrame(next));
        synchronized (this) {
            long end = System.currentTimeMillis() + timeoutMillis;
            while (p.state == null && p.connection != null && System.currentTimeMillis() < end)
                wait(Math.max(1, end - System.currentTimeMillis()));
            if (p.state == null) p.state = next;
        }
        return next;
    }

    private ControlState awaitState(Proc p, long timeoutMillis) throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMillis;
        while (p.state == null && System.currentTimeMillis() < end) wait(Math.max(1, end - System.currentTimeMillis()));
        if (p.state == null) throw new ConfigException("process " + p.id + " has not reported its state yet");
        return p.state;
    }

    /** Zooms one step in (see {@link Zoom}) and applies it. */
    public ControlState zoomIn(long processId, int target, long timeoutMillis) throws InterruptedException {
        Proc p = proc(processId);
        return zoomTo(processId, Zoom.zoomIn(p.scope, p.manifest(), target), timeoutMillis);
    }

    public ControlState zoomOut(long processId, long timeoutMillis) throws InterruptedException {
        Proc p = proc(processId);
        return zoomTo(processId, Zoom.zoomOut(p.scope), timeoutMillis);
    }

    /**
     * Asks every connected process (or one) for a full snapshot and waits until each has sent one
     * or the timeout passes. Returns the number of processes that answered.
     */
    public int refresh(Long processId, long timeoutMillis) throws InterruptedException {
        return requestSnapshots(processId, false, timeoutMillis);
    }

    /**
     * As {@link #refresh}, and each process's threads also send the events their flight-recorder
     * logs keep ({@code keep=last}) at their next event, without the program stopping: they are
     * stored in the session as they arrive. Returns the number of processes that answered.
     */
    public int dump(Long processId, long timeoutMillis) throws InterruptedException {
        return requestSnapshots(processId, true, timeoutMillis);
    }

    private int requestSnapshots(Long processId, boolean dumpEvents, long timeoutMillis) throws InterruptedException {
        List<Proc> targets = new ArrayList<>();
        Map<Proc, Long> before = new LinkedHashMap<>();
        synchronized (this) {
            for (Proc p : procs.values()) {
                if (p.connection == null || (processId != null && p.id != processId)) continue;
                targets.add(p);
                before.put(p, p.snapshotsReceived);
            }
        }
        long req;
        synchronized (this) {
            req = ++snapshotRequests;
        }
        for (Proc p : targets) {
            Collector.Connection c = p.connection;
            if (c != null) c.send(new SnapshotRequest(req, dumpEvents));
        }
        int answered = 0;
        synchronized (this) {
            long end = System.currentTimeMillis() + timeoutMillis;
            for (Proc p : targets) {
                while (p.snapshotsReceived == before.get(p) && p.connection != null && System.currentTimeMillis() < end)
                    wait(Math.max(1, end - System.currentTimeMillis()));
                if (p.snapshotsReceived != before.get(p)) answered++;
            }
        }
        return answered;
    }

    /** The session's aggregates so far (from the store). */
    public Profile profile() {
        return Profile.load(store);
    }

    /** One process's aggregates so far (from the store). */
    public Profile profile(long processId) {
        proc(processId); // says so if there is no such process
        return Profile.load(store, processId);
    }
}
