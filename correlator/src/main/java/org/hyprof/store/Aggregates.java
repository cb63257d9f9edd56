package org.hyprof.store;

import java.util.Collection;
import java.util.List;

/**
 * Per-thread aggregates ({@code probe_stats}): one row per (thread, probe) with calls, raw and
 * deducted times, loop counts, how far the times can be trusted ({@link TimingCounts}), the time histogram (bytes: {@link HistogramCodec}) and the native
 * cost put on the probe. Snapshots are cumulative, so a later row for the same (thread, probe)
 * replaces the earlier one.
 */
final class Aggregates {
    private final Sql sql;

    Aggregates(Sql sql) {
        this.sql = sql;
    }

    void put(long processId, Collection<ProbeStats> stats) {
        sql.batch("INSERT OR REPLACE INTO probe_stats(process_id, tid, probe_id, calls, incl_raw_ns, excl_raw_ns, incl_ns, excl_ns,"
                + " min_ns, max_ns, outer_calls, events_inside, iters_inside, child_calls, direct_loop_events, direct_iters,"
                + " iterations, throws, seen, hist, native_instr, native_cycles, native_est_ns, native_energy_pj,"
                + " native_instr_incl, native_cycles_incl, native_est_ns_incl, native_energy_pj_incl,"
                + " count_only_calls, clamped, tiny_calls, count_only_median_ns,"
                + " cpu_incl_ns, cpu_excl_ns, cpu_clock)"
                + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", stats, (ps, s) -> {
            NativeCost n = s.nativeCost();
            TimingCounts q = s.timing();
            CpuTime c = s.cpu();
            Sql.set(ps, processId, s.tid(), s.probeId(), s.calls(), s.inclRawNanos(), s.exclRawNanos(), s.inclNanos(),
                    s.exclNanos(), s.minNanos(), s.maxNanos(), s.outerCalls(), s.eventsInside(), s.itersInside(),
                    s.childCalls(), s.directLoopEvents(), s.directIters(), s.iterations(), s.throwsCount(), s.seen(),
                    HistogramCodec.encode(s.hist(), s.fine()), n.instructions(), n.cycles(), n.estNanos(), n.energyPicojoules(),
                    n.instructionsIncl(), n.cyclesIncl(), n.estNanosIncl(), n.energyPicojoulesIncl(), q.countOnlyCalls(),
                    q.clamped(), q.tinyCalls(), q.countOnlyMedianNanos(), c == null ? null : c.inclNanos(),
                    c == null ? null : c.exclNanos(), c == null ? null : c.clock());
        });
    }

    List<ProbeStats> list(long processId) {
        List<ProbeStats> rows = listUnchecked(processId);
        for (ProbeStats r : rows) check(r);
        return rows;
    }

    /**
     * A stored row whose counts are impossible (a count below 0: the file was changed by something
     * other than hyprof, or damaged) is a one-line error naming the session, never a report that
     * adds it up. Times are not checked: sessions of schema 4 and earlier stored deducted sums
     * unclamped, and those may be below 0 (the report shows and flags them).
     */
    private void check(ProbeStats r) {
        need(r, "calls", r.calls());
        need(r, "outer_calls", r.outerCalls());
        need(r, "iterations", r.iterations());
        need(r, "throws", r.throwsCount());
        need(r, "seen", r.seen());
        need(r, "child_calls", r.childCalls());
        need(r, "count_only_calls", r.timing().countOnlyCalls());
        need(r, "clamped", r.timing().clamped());
        need(r, "incl_raw_ns", r.inclRawNanos());
        if (r.cpu() != null) {
            need(r, "cpu_incl_ns", r.cpu().inclNanos());
            need(r, "cpu_excl_ns", r.cpu().exclNanos());
        }
        for (long h : r.hist()) need(r, "a histogram count", h);
    }

    private void need(ProbeStats r, String what, long value) {
        if (value < 0)
            throw new StoreException(sql.file() + ": damaged session (probe " + r.probeId() + " of thread " + r.tid()
                    + " has " + what + " = " + value + ")");
    }

    private List<ProbeStats> listUnchecked(long processId) {
        return sql.query("SELECT tid, probe_id, calls, incl_raw_ns, excl_raw_ns, incl_ns, excl_ns, min_ns, max_ns, outer_calls,"
                + " events_inside, iters_inside, child_calls, direct_loop_events, direct_iters, iterations, throws, seen, hist,"
                + " native_instr, native_cycles, native_est_ns, native_energy_pj, native_instr_incl, native_cycles_incl,"
                + " native_est_ns_incl, native_energy_pj_incl, count_only_calls, clamped, tiny_calls, count_only_median_ns,"
                + " cpu_incl_ns, cpu_excl_ns, cpu_clock FROM probe_stats WHERE process_id = ? ORDER BY tid, probe_id", rs -> new ProbeStats(rs.getLong(1),
                rs.getInt(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8),
                rs.getLong(9), rs.getLong(10), rs.getLong(11), rs.getLong(12), rs.getLong(13), rs.getLong(14),
                rs.getLong(15), rs.getLong(16), rs.getLong(17), rs.getLong(18), HistogramCodec.decode(rs.getBytes(19)),
                new NativeCost(rs.getLong(20), rs.getLong(21), rs.getLong(22), rs.getLong(23), rs.getLong(24), rs.getLong(25),
                        rs.getLong(26), rs.getLong(27)), new TimingCounts(rs.getLong(28), rs.getLong(29), rs.getLong(30),
                rs.getLong(31)), cpu(rs), HistogramCodec.decodeFine(rs.getBytes(19))), processId);
    }

    /** Columns 32 … 34, or null: NULL when the session recorded no CPU time. */
    private static CpuTime cpu(java.sql.ResultSet rs) throws java.sql.SQLException {
        long incl = rs.getLong(32);
        if (rs.wasNull()) return null;
        return new CpuTime(incl, rs.getLong(33), rs.getInt(34));
    }
}
