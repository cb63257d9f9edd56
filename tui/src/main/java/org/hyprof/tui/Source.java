package org.hyprof.tui;

import org.hyprof.config.MethodNames;
import java.nio.file.Path;
import java.util.function.Function;
import org.hyprof.config.ConfigException;
import org.hyprof.config.Zoom;
import org.hyprof.collector.Collector;
import org.hyprof.control.ControlState;
import org.hyprof.live.LiveSession;
import org.hyprof.store.Store;
import org.hyprof.store.StoreException;

/** Where the UI's data comes from: a stored session, or a live one with a collector inside. */
interface Source extends AutoCloseable {
    /** One line for the status bar. */
    String describe();

    boolean live();

    /** The data to draw now (live: after asking agents for fresh snapshots). */
    SessionView load() throws InterruptedException;

    /** The session's store (read through its API only; method detail replays event logs from it). */
    Store store();

    /** How methods are named (as reports name them): the calling-context tree is loaded with it. */
    default MethodNames.Style style() {
        return MethodNames.Style.JAVA;
    }

    /**
     * Live controls; a stored session says why it cannot (ConfigException with the message for
     * the status line). {@code change} returns the control state sent to the agent.
     */
    default String zoomIn(long process, int target) throws InterruptedException {
        throw new ConfigException("stored session: zoom only navigates (probes cannot change)");
    }

    /** Live: asks the agents for the events their flight-recorder logs keep ({@code --keep last}). */
    default String dump() throws InterruptedException {
        throw new ConfigException("stored session: nothing to dump (dump is for a live session recorded with --keep last)");
    }

    default String zoomOut(long process) throws InterruptedException {
        throw new ConfigException("stored session: zoom only navigates");
    }

    default ControlState change(long process, Function<ControlState, ControlState> f) throws InterruptedException {
        throw new ConfigException("stored session: read-only (start 'hyprof tui --listen' and connect agents to change probes)");
    }

    @Override
    void close();

    /**
     * A session database on disk, read when opened: a file that opens but cannot be read (a
     * damaged page, a missing table) fails here, as one that does not open at all, with a
     * StoreException saying {@code FILE: not a readable hyprof session (why)}.
     */
    final class Stored implements Source {
        private final Store store;
        private final Path file;
        private final SessionView view;
        private final MethodNames.Style style;

        Stored(Path file) {
            this(file, MethodNames.Style.JAVA);
        }

        /** The session in {@code file}, probes named in {@code style}. */
        Stored(Path file, MethodNames.Style style) {
            this.file = file;
            this.style = style;
            this.store = Store.openReadOnly(file);
            try {
                this.view = SessionView.load(store, null, style);
            } catch (RuntimeException e) {
                store.close();
                String why = e.getMessage() == null ? e.toString() : e.getMessage();
                String prefix = store.file() + ": ";
                if (why.startsWith(prefix)) why = why.substring(prefix.length());
                throw new StoreException(file + ": not a readable hyprof session (" + why + ")", e);
            }
        }

        @Override public String describe() { return "stored " + file.getFileName(); }
        @Override public boolean live() { return false; }
        /** The view read when opened (a stored session does not change). */
        @Override public SessionView load() { return view; }
        @Override public Store store() { return store; }
        @Override public MethodNames.Style style() { return style; }
        @Override public void close() { store.close(); }
    }

    /** A collector inside the UI; agents connect to it. */
    final class Live implements Source {
        private final Store store;
        private final LiveSession session;
        private final Collector collector;
        private final String address;
        private final MethodNames.Style style;

        Live(Store store, LiveSession session, Collector collector, String address) {
            this(store, session, collector, address, MethodNames.Style.JAVA);
        }

        /** A collector's session, probes named in {@code style}. */
        Live(Store store, LiveSession session, Collector collector, String address, MethodNames.Style style) {
            this.style = style;
            this.store = store;
            this.session = session;
            this.collector = collector;
            this.address = address;
        }

        @Override
        public String describe() {
            long connected = session.processes().stream().filter(LiveSession.Proc::connected).count();
            return "live " + address + ", " + connected + " agent" + (connected == 1 ? "" : "s") + " connected";
        }

        @Override public boolean live() { return true; }

        @Override
        public SessionView load() throws InterruptedException {
            session.refresh(null, 300);
            return SessionView.load(store, new SessionView.LiveInfo() {
                @Override public boolean connected(long id) { return session.proc(id).connected(); }
                @Override public ControlState state(long id) { return session.proc(id).state(); }
                @Override public Zoom.Scope scope(long id) { return session.proc(id).scope(); }
            }, style);
        }

        @Override
        public String zoomIn(long process, int target) throws InterruptedException {
            ControlState s = session.zoomIn(process, target, 2000);
            return session.proc(process).scope().level().label() + " level: " + s.on().cardinality() + " probes on";
        }

        @Override
        public String zoomOut(long process) throws InterruptedException {
            ControlState s = session.zoomOut(process, 2000);
            return session.proc(process).scope().level().label() + " level: " + s.on().cardinality() + " probes on";
        }

        @Override
        public ControlState change(long process, Function<ControlState, ControlState> f) throws InterruptedException {
            return session.change(process, f, 2000);
        }

        @Override
        public String dump() throws InterruptedException {
            int n = session.dump(null, 2000);
            return "dump: " + n + " process" + (n == 1 ? "" : "es") + " answered; their threads send the events kept (--keep last) at their next event";
        }

        @Override
        public Store store() {
            return store;
        }

        @Override
        public MethodNames.Style style() {
            return style;
        }

        LiveSession session() {
            return session;
        }

        @Override
        public void close() {
            collector.close();
            store.close();
        }
    }
}
