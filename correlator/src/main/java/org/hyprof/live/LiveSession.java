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
import org.hyprof.control.Collector;
import org.hyprof.control.ConfigFrame;
import org.hyprof.control.ControlState;
import org.hyprof.control.Hello;
import org.hyprof.control.Result;
import org.hyprof.control.SnapshotRequest;
import org.hyprof.correlate.Profile;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.SessionIngest;
import org.hyprof.store.Store;

/**
 * A live session: the collector's agents, their data going into the store as it arrives, and the
 * control API the terminal UI and {@code hyprof ctl} use (list processes and probes with their
 * statistics, switch probes, zoom, caller filter, rules, snapshots). Every change is computed by
 * the pure functions of {@link Zoom} and sent to the agent as a full CONFIG; the agent answers
 * with the STATE in effect.
 */
public final class LiveSession implements Collector.Agents, Collector.Commands {

    /** A process of the session as the collector sees it. */
    public static final class Proc {
        public final long id;
        public final Hello hello;
        final SessionIngest ingest;
        volatile Collector.Connection connection;
        volatile ControlState state;
        volatile Zoom.Scope scope = Zoom.start();
        volatile long snapshotsReceived;
        volatile String status = "running";

        Proc(long id, Hello hello, SessionIngest ingest) {
            this.id = id;
            this.hello = hello;
            this.ingest = ingest;
        }

        public boolean connected() {
            return connection != null;
        }

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
    }

    private final Store store;
    private final Map<Long, Proc> procs = new LinkedHashMap<>();
    private final CommandInterpreter commands = new CommandInterpreter(this);
    private long snapshotRequests;

    public LiveSession(Store store) {
        this.store = store;
    }

    public Store store() {
        return store;
    }

    // ------------------------------------------------------------------ Collector.Agents

    @Override
    public synchronized long connected(Hello h, Collector.Connection c) {
        for (Proc p : procs.values()) {
            if (p.connection == null && p.hello.pid() == h.pid() && p.hello.startNanos() == h.startNanos()
                    && p.hello.process().equals(h.process())) {
                p.connection = c;
                p.status = "running";
                store.updateProcessStatus(p.id, "running");
                return p.id; // the same process, reconnected
            }
        }
        long id = store.addProcess(new ProcessInfo(0, h.pid(), h.process(), h.vm(), "aggregate", 0, h.startWallMillis(),
                h.startNanos(), null, "running", 0, "collector " + c.remote()));
        Proc p = new Proc(id, h, new SessionIngest(store, id));
        p.connection = c;
        procs.put(id, p);
        return id;
    }

    @Override
    public void chunk(long processId, Chunk c) {
        Proc p = proc(processId);
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
        notifyAll();
    }

    @Override
    public synchronized void disconnected(long processId, String reason, boolean clean) {
        Proc p = procs.get(processId);
        if (p == null) return;
        p.connection = null;
        p.status = clean || p.ingest.ended() ? "ended" : "disconnected";
        store.updateProcessStatus(processId, p.status);
        if (!clean) store.addNote(processId, "warning", "connection lost: " + reason);
        notifyAll();
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
        p.connection.send(new ConfigFrame(next));
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
        Zoom.Scope next = Zoom.zoomIn(p.scope, p.manifest(), target);
        ControlState s = change(processId, cur -> Zoom.apply(next, p.manifest(), cur), timeoutMillis);
        p.scope = next;
        return s;
    }

    public ControlState zoomOut(long processId, long timeoutMillis) throws InterruptedException {
        Proc p = proc(processId);
        Zoom.Scope next = Zoom.zoomOut(p.scope);
        ControlState s = change(processId, cur -> Zoom.apply(next, p.manifest(), cur), timeoutMillis);
        p.scope = next;
        return s;
    }

    /**
     * Asks every connected process (or one) for a full snapshot and waits until each has sent one
     * or the timeout passes. Returns the number of processes that answered.
     */
    public int refresh(Long processId, long timeoutMillis) throws InterruptedException {
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
            if (c != null) c.send(new SnapshotRequest(req));
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
}
