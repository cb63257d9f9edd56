package org.hyprof.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.SkippedMethod;

/**
 * A session in SQLite: processes, their probes, per-thread aggregates, calibrations, event chunks,
 * the native side of hybrid runs and import notes. WAL mode; a {@code schema_version} table and
 * ordered migrations ({@code V1.sql}, ...: {@code Schema}) bring older files up to date when
 * opened for writing. Commands that only read a session ({@link #openReadOnly}) never write to it,
 * not even to bring it up to date.
 *
 * <p>Everything else reads sessions through this class, never with SQL of its own. This class
 * opens and closes the file and hands each call to the package-private class of the tables it
 * concerns ({@code Processes}, {@code Probes}, {@code Aggregates}, ...), all sharing one
 * connection ({@code Sql}). Safe to share between threads (one connection; calls are serialized).
 */
public final class Store implements AutoCloseable {
    /** Schema version this build writes; files up to it can be opened. */
    public static final int SCHEMA_VERSION = Schema.VERSION;

    private final Path file;
    private final Sql sql;
    private final SessionNotes sessionNotes;
    private final Processes processes;
    private final Probes probes;
    private final Calibrations calibrations;
    private final Aggregates aggregates;
    private final EventChunks eventChunks;
    private final NativeBlocks nativeBlocks;
    private final NativeRuns nativeRuns;
    private final CallTrees callTrees;

    private Store(Path file, Connection db) {
        this.file = file;
        this.sql = new Sql(file, db);
        this.sessionNotes = new SessionNotes(sql);
        this.processes = new Processes(sql);
        this.probes = new Probes(sql);
        this.calibrations = new Calibrations(sql);
        this.aggregates = new Aggregates(sql);
        this.eventChunks = new EventChunks(sql);
        this.nativeBlocks = new NativeBlocks(sql);
        this.nativeRuns = new NativeRuns(sql);
        this.callTrees = new CallTrees(sql);
    }

    /**
     * Creates a new session file (fails if it exists), readable and writable by its owner only
     * (mode 0600 from the start where the file system has POSIX permissions; SQLite gives its
     * {@code -wal} and {@code -shm} files the same): a session holds process names, pids and start
     * times, and other users have no business reading them.
     */
    public static Store create(Path file) {
        if (Files.exists(file)) throw new StoreException(file + ": already exists");
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null && Files.getFileAttributeView(dir, java.nio.file.attribute.PosixFileAttributeView.class) != null)
                Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        } catch (java.nio.file.FileAlreadyExistsException e) {
            throw new StoreException(file + ": already exists");
        } catch (java.io.IOException e) {
            throw new StoreException(file + ": cannot create (" + IoReasons.of(e) + ")");
        }
        return open(file, true);
    }

    /** Opens an existing session file for reading and appending. */
    public static Store open(Path file) {
        if (!Files.exists(file)) throw new StoreException(file + ": no such session");
        if (Files.isDirectory(file)) throw new StoreException(file + ": is a directory, not a session");
        return open(file, false);
    }

    /**
     * Opens an existing session for reading only (reports, exports, comparisons, the terminal UI
     * on a stored session): the file is never written. A session of an older schema is brought up
     * to date in a temporary copy, which is deleted when the store closes.
     */
    public static Store openReadOnly(Path file) {
        if (!Files.exists(file)) throw new StoreException(file + ": no such session");
        if (Files.isDirectory(file)) throw new StoreException(file + ": is a directory, not a session");
        org.sqlite.SQLiteConfig cfg = new org.sqlite.SQLiteConfig();
        cfg.setReadOnly(true);
        cfg.setBusyTimeout(5000);
        int[] version = new int[1];
        Store st = connect(file, cfg.toProperties(), c -> {
            Store s = new Store(file, c);
            version[0] = Schema.version(s.sql, false);
            return s;
        });
        if (version[0] == SCHEMA_VERSION) return st;
        st.close();
        try {
            Path tmp = Files.createTempFile("hyprof-upgraded-", ".db");
            for (String side : new String[] {"", "-wal", "-shm", "-journal"}) new java.io.File(tmp + side).deleteOnExit();
            Files.copy(file, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Path wal = Path.of(file + "-wal");
            if (Files.exists(wal)) Files.copy(wal, Path.of(tmp + "-wal"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Store migrated = open(tmp, false);
            Store upgraded = new Store(file, migrated.sql.connection()); // messages name the user's file
            upgraded.temporaryCopy = tmp;
            return upgraded;
        } catch (IOException e) {
            throw new StoreException(file + ": schema " + version[0] + " needs updating, and a temporary copy failed: " + e.getMessage(), e);
        }
    }

    /** The up-to-date copy a read-only store of an older session reads, deleted at close. */
    private Path temporaryCopy;

    /** The temporary copy this store reads (null: it reads the session file itself); for tests. */
    Path temporaryCopy() {
        return temporaryCopy;
    }

    private static Store open(Path file, boolean create) {
        return connect(file, new java.util.Properties(), c -> {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout = 5000");
                s.execute("PRAGMA journal_mode = WAL");
                s.execute("PRAGMA foreign_keys = ON");
            }
            Store st = new Store(file, c);
            Schema.migrate(st.sql, create);
            return st;
        });
    }

    /** What is done with a new connection before it is a store (any failure closes it). */
    private interface Opening {
        Store open(Connection c) throws SQLException;
    }

    private static Store connect(Path file, java.util.Properties settings, Opening then) {
        Connection c = null;
        try {
            c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), settings);
            return then.open(c);
        } catch (SQLException e) {
            Sql.closeQuietly(c);
            throw new StoreException(file + ": not a readable hyprof session (" + Sql.firstLine(e.getMessage()) + ")", e);
        } catch (StoreException e) {
            Sql.closeQuietly(c);
            throw e;
        }
    }

    /** The session file, as it was named when opened. */
    public Path file() {
        return file;
    }

    /** Schema version of the open file. */
    public int schemaVersion() {
        return Schema.stored(sql);
    }

    @Override
    public void close() {
        if (temporaryCopy == null) leaveWal();
        sql.close();
        if (temporaryCopy != null) {
            for (String suffix : new String[] {"", "-wal", "-shm"}) {
                try {
                    Files.deleteIfExists(Path.of(temporaryCopy + suffix));
                } catch (IOException e) {
                    // a temporary file left behind; deleteOnExit may still get it
                }
            }
        }
    }

    /**
     * A writable store leaves its file in rollback-journal mode when it closes: a finished session
     * is one self-contained file, and the read-only commands that open it later (report, export)
     * make no {@code -wal}/{@code -shm} files beside it (SQLite makes them for every reader of a
     * WAL database). The next writable open switches back to WAL. When another connection still
     * has the file open (a report during {@code serve}) the switch is refused, and WAL stays.
     */
    private void leaveWal() {
        try (Statement st = sql.connection().createStatement()) {
            if (sql.connection().isReadOnly()) return;
            st.execute("PRAGMA journal_mode = DELETE");
        } catch (SQLException e) {
            // busy: another connection uses the file; it stays in WAL mode
        }
    }

    /** A unit of work that may throw SQL errors. */
    public interface SqlWork {
        void run() throws SQLException;
    }

    /** Runs work in one transaction (rolled back if it fails); nested calls join the outer one. */
    public void inTransaction(SqlWork work) {
        sql.inTransaction(work);
    }

    // ------------------------------------------------------------------ session settings and notes (SessionNotes)

    /** Sets a session-level setting, replacing an earlier value. */
    public void putInfo(String key, String value) {
        sessionNotes.putInfo(key, value);
    }

    /** A session-level setting, or null. */
    public String info(String key) {
        return sessionNotes.info(key);
    }

    /** Adds an import note ({@code severity}: warning, error, ...) to a process, or to the session when null. */
    public void addNote(Long processId, String severity, String message) {
        sessionNotes.addNote(processId, severity, message);
    }

    /** Import notes (damage found, missing end, ...), oldest first. */
    public List<String> notes() {
        return sessionNotes.notes();
    }

    /** The notes of one process ({@code severity: message}), oldest first. */
    public List<String> notes(long processId) {
        return sessionNotes.notes(processId);
    }

    // ------------------------------------------------------------------ processes and threads (Processes)

    /** Adds a process and returns its id in this session. */
    public long addProcess(ProcessInfo p) {
        return processes.add(p);
    }

    public void updateProcessStatus(long processId, String status) {
        processes.updateStatus(processId, status);
    }

    public void updateProcessDrops(long processId, long eventDrops) {
        processes.updateDrops(processId, eventDrops);
    }

    public void updateProcessEnd(long processId, Long endWallMillis, String status, long eventDrops) {
        processes.updateEnd(processId, endWallMillis, status, eventDrops);
    }

    /** The session's processes, in the order they were added. */
    public List<ProcessInfo> processes() {
        return processes.list();
    }

    /** One process of the session, or null if it has no such row. */
    public ProcessInfo process(long processId) {
        return processes.get(processId);
    }

    /**
     * The process row of the run with this pid and start times (the first, if several), or null:
     * one row asked for, however many processes the session has.
     */
    public Long processOfRun(long pid, long startWallMillis, long startNanos) {
        return processes.idOfRun(pid, startWallMillis, startNanos);
    }

    /** Inserts or replaces a thread of a process. */
    public void putThread(long processId, ThreadInfo t) {
        processes.putThread(processId, t);
    }

    /** The threads of a process, by thread id. */
    public List<ThreadInfo> threads(long processId) {
        return processes.threads(processId);
    }

    /** Records the OS thread id of a process's thread (its Java id {@code tid}). */
    public void putOsTid(long processId, long tid, long osTid) {
        processes.putOsTid(processId, tid, osTid);
    }

    /**
     * The OS thread ids of a process's threads, by Java thread id: those the runtime could read
     * (none for sessions recorded before schema 6).
     */
    public Map<Long, Long> osTids(long processId) {
        return processes.osTids(processId);
    }

    // ------------------------------------------------------------------ probe manifest (Probes)

    /** Adds probes to a process's manifest (a probe already stored under its id is replaced). */
    public void addProbes(long processId, Collection<ProbeInfo> probes) {
        this.probes.add(processId, probes);
    }

    public void addSkipped(long processId, Collection<SkippedMethod> skipped) {
        probes.addSkipped(processId, skipped);
    }

    /** A process's probes, by id. */
    public List<ProbeInfo> probes(long processId) {
        return probes.list(processId);
    }

    /** The methods the instrumenter skipped in a process, in the order received. */
    public List<SkippedMethod> skipped(long processId) {
        return probes.skipped(processId);
    }

    // ------------------------------------------------------------------ calibrations (Calibrations)

    public void addCalibration(long processId, CalibrationRecord c) {
        calibrations.add(processId, c);
    }

    /** A process's calibrations, oldest first. */
    public List<CalibrationRecord> calibrations(long processId) {
        return calibrations.list(processId);
    }

    // ------------------------------------------------------------------ aggregates (Aggregates)

    /** Inserts or replaces aggregates (values are cumulative, so the latest wins). */
    public void putStats(long processId, Collection<ProbeStats> stats) {
        aggregates.put(processId, stats);
    }

    /** All aggregates of a process, one row per (thread, probe). */
    public List<ProbeStats> stats(long processId) {
        return aggregates.list(processId);
    }

    // ------------------------------------------------------------------ calling-context tree (CallTrees)

    /** Inserts or replaces tree nodes of a process (values are cumulative, so the latest wins). */
    public void putTree(long processId, Collection<TreeRow> rows) {
        callTrees.put(processId, rows);
    }

    /** Records the node budget a process's runtime ran with and how many nodes it kept. */
    public void putTreeInfo(long processId, long nodeBudget, long nodes) {
        callTrees.putInfo(processId, nodeBudget, nodes);
    }

    /** {node budget, nodes kept} of a process, or null when it recorded no calling-context tree. */
    public long[] treeInfo(long processId) {
        return callTrees.info(processId);
    }

    /** The tree nodes of a process, by thread and node (parents before their children). */
    public List<TreeRow> tree(long processId) {
        return callTrees.list(processId);
    }

    /** As {@link #tree(long)}, each node handed over as it is read (a large tree is never held as rows). */
    public void tree(long processId, java.util.function.Consumer<TreeRow> consumer) {
        callTrees.forEach(processId, consumer);
    }

    // ------------------------------------------------------------------ event logs (EventChunks)

    /**
     * Stores one thread's event chunk unless the process already has that thread's chunk
     * {@code seq} (an agent resends unacknowledged chunks after a reconnect); returns whether it
     * was new.
     */
    public boolean addEventChunk(long processId, long tid, long seq, long baseNanos, byte[] data) {
        return eventChunks.add(processId, tid, seq, baseNanos, data);
    }

    /**
     * Event chunks of a process in (thread, sequence) order, streamed to the consumer. A chunk whose
     * record bytes do not match their stored CRC-32 is left out ({@link #damagedEventChunks} names it).
     */
    public void eventChunks(long processId, Consumer<EventChunk> consumer) {
        eventChunks.forEach(processId, consumer);
    }

    /**
     * The event chunks of a process whose record bytes do not match the CRC-32 stored with them
     * (reads every chunk of the process). Chunks stored before schema 4 carry no checksum.
     */
    public List<DamagedChunk> damagedEventChunks(long processId) {
        return eventChunks.damaged(processId);
    }

    /** The threads of a process that have event chunks, by thread id. */
    public List<Long> eventThreads(long processId) {
        return eventChunks.threads(processId);
    }

    /**
     * One thread's next event chunk after sequence number {@code afterSeq} (use
     * {@code Long.MIN_VALUE} for its first), skipping damaged ones; null after the last.
     */
    public EventChunk nextEventChunk(long processId, long tid, long afterSeq) {
        return eventChunks.next(processId, tid, afterSeq);
    }

    public long eventChunkCount(long processId) {
        return eventChunks.count(processId);
    }

    // ------------------------------------------------------------------ native side of hybrid runs (NativeBlocks)

    /** Sets one of the tracer's settings for a process, replacing an earlier value. */
    public void putNativeInfo(long processId, String key, String value) {
        nativeBlocks.putInfo(processId, key, value);
    }

    /** The tracer's settings for a process, by key. */
    public Map<String, String> nativeInfo(long processId) {
        return nativeBlocks.info(processId);
    }

    /** Blocks of a hybrid run with their executions per native method (replacing earlier counts). */
    public void putNativeBlocks(long processId, Collection<NativeBlock> blocks) {
        nativeBlocks.put(processId, blocks);
    }

    /** Blocks of a hybrid run, with their executions per native method, most executed first. */
    public List<NativeBlock> nativeBlocks(long processId) {
        return nativeBlocks.list(processId);
    }

    public void addNativeEpochs(long processId, Collection<NativeEpoch> epochs) {
        nativeBlocks.addEpochs(processId, epochs);
    }

    /** The native calls of a process, by epoch id. */
    public List<NativeEpoch> nativeEpochs(long processId) {
        return nativeBlocks.epochs(processId);
    }

    /** Each native method's cost per library (replacing earlier rows of the same library, code library and method). */
    public void putNativeLibraryCosts(long processId, Collection<NativeLibraryCost> costs) {
        nativeBlocks.putLibraryCosts(processId, costs);
    }

    /**
     * The native cost of a process's native methods per library: by app library, method, then
     * the app library's own code before system libraries. Empty for sessions stored before schema 9.
     */
    public List<NativeLibraryCost> nativeLibraryCosts(long processId) {
        return nativeBlocks.libraryCosts(processId);
    }

    // ------------------------------------------------------------------ runs of one native function (NativeRuns)

    /** Stores a run of one native function with its functions and hottest blocks; returns its id. */
    public long addNativeRun(NativeRunRecord r) {
        return nativeRuns.add(r);
    }

    /** Stored native runs, in the order they were recorded. */
    public List<NativeRunRecord> nativeRuns() {
        return nativeRuns.list();
    }
}
