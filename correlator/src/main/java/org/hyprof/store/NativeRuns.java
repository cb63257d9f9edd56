package org.hyprof.store;

import java.util.List;
import java.util.Map;

/**
 * Runs of one native function outside any Java process ({@code hyprof native LIB --call SYMBOL
 * -o S.db}, schema 3): the call and its totals ({@code native_run}, categories kept as
 * {@code name=count,...}), its cost per function ({@code native_run_function}) and its blocks
 * ({@code native_run_block}). A run and its rows are written in one transaction.
 */
final class NativeRuns {
    private final Sql sql;

    NativeRuns(Sql sql) {
        this.sql = sql;
    }

    long add(NativeRunRecord r) {
        long[] id = new long[1];
        sql.inTransaction(() -> {
            StringBuilder cats = new StringBuilder();
            r.categories().forEach((k, v) -> cats.append(cats.length() == 0 ? "" : ",").append(k).append('=').append(v));
            id[0] = sql.insert("INSERT INTO native_run(library, symbol, args, abi, cpu_profile, engine,"
                    + " return_value, blocks, instructions, cycles, est_ns, energy_pj, emulated_ns, categories, recorded_wall_millis)"
                    + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", r.library(), r.symbol(), r.args(), r.abi(), r.cpuProfile(), r.engine(),
                    r.returnValue(), r.blocks(), r.instructions(), r.cycles(), r.estNanos(), r.energyPicojoules(), r.emulatedNanos(),
                    cats.toString(), r.recordedWallMillis());
            sql.batch("INSERT INTO native_run_function(run_id, function, instructions, cycles, est_ns, energy_pj) VALUES (?,?,?,?,?,?)",
                    r.functions(), (ps, f) -> Sql.set(ps, id[0], f.name(), f.instructions(), f.cycles(), f.estNanos(), f.energyPicojoules()));
            sql.batch("INSERT INTO native_run_block(run_id, address, function, executions, instructions, cycles, disassembly)"
                    + " VALUES (?,?,?,?,?,?,?)", r.hotBlocks(), (ps, b) -> Sql.set(ps, id[0], b.address(), b.function(), b.executions(),
                    b.instructions(), b.cycles(), b.disassembly()));
        });
        return id[0];
    }

    List<NativeRunRecord> list() {
        return sql.query("SELECT run_id, library, symbol, args, abi, cpu_profile, engine, return_value, blocks, instructions, cycles,"
                + " est_ns, energy_pj, emulated_ns, categories, recorded_wall_millis FROM native_run ORDER BY run_id", rs -> {
                    Map<String, Long> cats = new java.util.LinkedHashMap<>();
                    for (String kv : rs.getString(15).split(",")) {
                        int eq = kv.indexOf('=');
                        if (eq > 0) cats.put(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)));
                    }
                    long run = rs.getLong(1);
                    return new NativeRunRecord(run, rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                            rs.getString(6), rs.getString(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11),
                            rs.getLong(12), rs.getLong(13), rs.getLong(14), cats, rs.getLong(16), List.of(), List.of());
                }).stream().map(r -> new NativeRunRecord(r.runId(), r.library(), r.symbol(), r.args(), r.abi(), r.cpuProfile(),
                        r.engine(), r.returnValue(), r.blocks(), r.instructions(), r.cycles(), r.estNanos(), r.energyPicojoules(),
                        r.emulatedNanos(), r.categories(), r.recordedWallMillis(),
                        sql.query("SELECT function, instructions, cycles, est_ns, energy_pj FROM native_run_function WHERE run_id = ?"
                                + " ORDER BY cycles DESC, function", rs -> new NativeRunRecord.Function(rs.getString(1), rs.getLong(2),
                                rs.getLong(3), rs.getLong(4), rs.getLong(5)), r.runId()),
                        sql.query("SELECT address, function, executions, instructions, cycles, disassembly FROM native_run_block"
                                + " WHERE run_id = ? ORDER BY cycles DESC, address", rs -> new NativeRunRecord.Block(rs.getLong(1),
                                rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getString(6)), r.runId()))).toList();
    }
}
