package org.hyprof.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The processes of a session ({@code process}: one per imported file or agent connection, with
 * its start, end and status) and their threads ({@code thread}: names and per-thread drop counts
 * and totals). A process row is added when its session starts; its status, end and drop count
 * are updated as they become known (clean end, damage found, agent gone).
 */
final class Processes {
    private final Sql sql;

    Processes(Sql sql) {
        this.sql = sql;
    }

    long add(ProcessInfo p) {
        sql.update("INSERT INTO process(pid, name, vm, mode, budget_bytes, start_wall_ms, start_ns, end_wall_ms, status, event_drops, source)"
                        + " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                p.pid(), p.name(), p.vm(), p.mode(), p.budgetBytes(), p.startWallMillis(), p.startNanos(),
                p.endWallMillis(), p.status(), p.eventDrops(), p.source());
        return sql.queryLong("SELECT last_insert_rowid()");
    }

    void updateStatus(long processId, String status) {
        sql.update("UPDATE process SET status = ? WHERE id = ?", status, processId);
    }

    void updateDrops(long processId, long eventDrops) {
        sql.update("UPDATE process SET event_drops = ? WHERE id = ?", eventDrops, processId);
    }

    void updateEnd(long processId, Long endWallMillis, String status, long eventDrops) {
        sql.update("UPDATE process SET end_wall_ms = ?, status = ?, event_drops = ? WHERE id = ?",
                endWallMillis, status, eventDrops, processId);
    }

    private static final String COLUMNS =
            "SELECT id, pid, name, vm, mode, budget_bytes, start_wall_ms, start_ns, end_wall_ms, status, event_drops, source FROM process";

    private static final Sql.RowMapper<ProcessInfo> ROW = rs -> new ProcessInfo(rs.getLong(1), rs.getLong(2), rs.getString(3),
            rs.getString(4), rs.getString(5), rs.getLong(6), rs.getLong(7), rs.getLong(8),
            rs.getObject(9) == null ? null : rs.getLong(9), rs.getString(10), rs.getLong(11), rs.getString(12));

    List<ProcessInfo> list() {
        return sql.query(COLUMNS + " ORDER BY id", ROW);
    }

    /** One process row, or null. */
    ProcessInfo get(long processId) {
        List<ProcessInfo> r = sql.query(COLUMNS + " WHERE id = ?", ROW, processId);
        return r.isEmpty() ? null : r.get(0);
    }

    /** The first process row of the run with this pid and start times, or null. */
    Long idOfRun(long pid, long startWallMillis, long startNanos) {
        List<Long> r = sql.query("SELECT id FROM process WHERE pid = ? AND start_wall_ms = ? AND start_ns = ? ORDER BY id LIMIT 1",
                rs -> rs.getLong(1), pid, startWallMillis, startNanos);
        return r.isEmpty() ? null : r.get(0);
    }

    void putThread(long processId, ThreadInfo t) {
        sql.update("INSERT OR REPLACE INTO thread(process_id, tid, name, event_drops, depth_drops, top_incl_ns, top_native_est_ns,"
                + " top_native_energy_pj, top_cpu_ns) VALUES (?,?,?,?,?,?,?,?,?)", processId, t.tid(), t.name(), t.eventDrops(),
                t.depthDrops(), t.topInclNanos(), t.topNativeEstNanos(), t.topNativeEnergyPicojoules(), t.topCpuNanos());
    }

    void putOsTid(long processId, long tid, long osTid) {
        sql.update("INSERT OR REPLACE INTO thread_os_id(process_id, tid, os_tid) VALUES (?,?,?)", processId, tid, osTid);
    }

    Map<Long, Long> osTids(long processId) {
        Map<Long, Long> m = new LinkedHashMap<>();
        sql.query("SELECT tid, os_tid FROM thread_os_id WHERE process_id = ? ORDER BY tid",
                rs -> m.put(rs.getLong(1), rs.getLong(2)), processId);
        return m;
    }

    List<ThreadInfo> threads(long processId) {
        return sql.query("SELECT tid, name, event_drops, depth_drops, top_incl_ns, top_native_est_ns, top_native_energy_pj,"
                + " top_cpu_ns FROM thread WHERE process_id = ? ORDER BY tid", rs -> new ThreadInfo(rs.getLong(1), rs.getString(2),
                rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6), rs.getLong(7),
                rs.getObject(8) == null ? null : rs.getLong(8)), processId);
    }
}
