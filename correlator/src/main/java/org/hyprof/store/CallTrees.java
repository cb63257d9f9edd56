package org.hyprof.store;

import java.util.Collection;
import java.util.List;

/**
 * The calling-context tree ({@code call_tree}, {@code call_tree_info}): rows are cumulative, so a
 * later row of a (thread, node) replaces the earlier one. Sessions of schema 7 and older have no
 * rows here (their {@link Store#treeInfo} is null).
 */
final class CallTrees {
    private final Sql sql;

    CallTrees(Sql sql) {
        this.sql = sql;
    }

    void put(long processId, Collection<TreeRow> rows) {
        sql.batch("INSERT OR REPLACE INTO call_tree(process_id, tid, node, parent, probe_id, kind, calls, count_only_calls,"
                + " incl_raw_ns, excl_raw_ns, incl_ns, excl_ns, min_ns, max_ns, iterations, throws, native_instr,"
                + " native_cycles, native_est_ns, native_energy_pj, cpu_incl_ns, cpu_excl_ns, cpu_clock, hist)"
                + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows, (ps, r) -> {
            NativeCost n = r.nativeCost();
            CpuTime c = r.cpu();
            Sql.set(ps, processId, r.tid(), r.node(), r.parent(), r.probeId(), r.kind(), r.calls(), r.countOnlyCalls(),
                    r.inclRawNanos(), r.exclRawNanos(), r.inclNanos(), r.exclNanos(), r.minNanos(), r.maxNanos(),
                    r.iterations(), r.throwsCount(), n.instructions(), n.cycles(), n.estNanos(), n.energyPicojoules(),
                    c == null ? null : c.inclNanos(), c == null ? null : c.exclNanos(), c == null ? null : c.clock(),
                    r.fine() == null ? null : HistogramCodec.encode(new long[0], r.fine()));
        });
    }

    void putInfo(long processId, long nodeBudget, long nodes) {
        // nodes held shrink as ended threads give theirs back: the most ever held is what was kept
        sql.update("INSERT INTO call_tree_info(process_id, node_budget, nodes) VALUES (?,?,?) ON CONFLICT(process_id)"
                + " DO UPDATE SET node_budget = excluded.node_budget, nodes = max(nodes, excluded.nodes)", processId, nodeBudget, nodes);
    }

    /** {node budget, nodes}, or null when the process recorded no tree. */
    long[] info(long processId) {
        List<long[]> r = sql.query("SELECT node_budget, nodes FROM call_tree_info WHERE process_id = ?",
                rs -> new long[] {rs.getLong(1), rs.getLong(2)}, processId);
        return r.isEmpty() ? null : r.get(0);
    }

    List<TreeRow> list(long processId) {
        List<TreeRow> rows = new java.util.ArrayList<>();
        forEach(processId, rows::add);
        return rows;
    }

    /** Each node of a process, by thread and node, checked, as it is read. */
    void forEach(long processId, java.util.function.Consumer<TreeRow> consumer) {
        sql.each("SELECT tid, node, parent, probe_id, kind, calls, count_only_calls, incl_raw_ns,"
                + " excl_raw_ns, incl_ns, excl_ns, min_ns, max_ns, iterations, throws, native_instr, native_cycles,"
                + " native_est_ns, native_energy_pj, cpu_incl_ns, cpu_excl_ns, cpu_clock, hist FROM call_tree"
                + " WHERE process_id = ? ORDER BY tid, node", rs -> {
            long cpuIncl = rs.getLong(20);
            CpuTime cpu = rs.wasNull() ? null : new CpuTime(cpuIncl, rs.getLong(21), rs.getInt(22));
            byte[] h = rs.getBytes(23);
            return new TreeRow(rs.getLong(1), rs.getInt(2), rs.getInt(3), rs.getInt(4), rs.getInt(5), rs.getLong(6),
                    rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11), rs.getLong(12),
                    rs.getLong(13), rs.getLong(14), rs.getLong(15),
                    new NativeCost(rs.getLong(16), rs.getLong(17), rs.getLong(18), rs.getLong(19), 0, 0, 0, 0), cpu,
                    HistogramCodec.decodeFine(h));
        }, r -> {
            check(r);
            consumer.accept(r);
        }, processId);
    }

    /** Impossible values (a file changed by something else, or damaged) are a one-line error. */
    private void check(TreeRow r) {
        if (r.node() <= 0 || r.parent() < 0 || r.parent() >= r.node() || r.kind() < 0 || r.kind() > TreeRow.OTHER_PATHS
                || r.calls() < 0 || r.countOnlyCalls() < 0 || r.iterations() < 0 || r.throwsCount() < 0 || r.inclRawNanos() < 0)
            throw new StoreException(sql.file() + ": damaged session (call-tree node " + r.node() + " of thread " + r.tid()
                    + " has parent " + r.parent() + ", kind " + r.kind() + ", calls " + r.calls() + ")");
    }
}
