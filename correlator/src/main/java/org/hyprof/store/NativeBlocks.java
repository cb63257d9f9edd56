package org.hyprof.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The native side of a hybrid process (schema 2): the tracer's settings ({@code native_info}),
 * every executed block ({@code native_block}, keyed by library and block index; the address is the
 * offset in the library) with how often each native method's calls executed it
 * ({@code native_block_count}, replaced as later counts arrive), the native calls themselves
 * ({@code native_epoch}), and each native method's cost per library ({@code native_library_cost},
 * schema 9). Blocks are read back most executed first (executions × instructions).
 */
final class NativeBlocks {
    private final Sql sql;

    NativeBlocks(Sql sql) {
        this.sql = sql;
    }

    void putInfo(long processId, String key, String value) {
        sql.update("INSERT OR REPLACE INTO native_info(process_id, key, value) VALUES (?,?,?)", processId, key, value);
    }

    Map<String, String> info(long processId) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (String[] kv : sql.query("SELECT key, value FROM native_info WHERE process_id = ? ORDER BY key",
                rs -> new String[] {rs.getString(1), rs.getString(2)}, processId)) m.put(kv[0], kv[1]);
        return m;
    }

    void put(long processId, Collection<NativeBlock> blocks) {
        sql.inTransaction(() -> {
            sql.batch("INSERT OR REPLACE INTO native_block(process_id, library, block_index, address, function, size, instructions,"
                    + " categories, disassembly) VALUES (?,?,?,?,?,?,?,?,?)", blocks, (ps, b) -> Sql.set(ps, processId,
                    b.library(), b.index(), b.address(), b.function(), b.size(), b.instructions(), b.categories(),
                    b.disassembly()));
            List<Object[]> counts = new ArrayList<>();
            for (NativeBlock b : blocks)
                for (Map.Entry<Integer, Long> e : b.executionsByProbe().entrySet())
                    counts.add(new Object[] {b.library(), b.index(), e.getKey(), e.getValue()});
            sql.batch("INSERT OR REPLACE INTO native_block_count(process_id, library, block_index, probe_id, executions)"
                    + " VALUES (?,?,?,?,?)", counts, (ps, c) -> Sql.set(ps, processId, c[0], c[1], c[2], c[3]));
        });
    }

    List<NativeBlock> list(long processId) {
        Map<String, Map<Integer, Long>> counts = new java.util.HashMap<>();
        for (Object[] c : sql.query("SELECT library, block_index, probe_id, executions FROM native_block_count WHERE process_id = ?",
                rs -> new Object[] {rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getLong(4)}, processId))
            counts.computeIfAbsent(c[0] + "\0" + c[1], k -> new java.util.TreeMap<>()).put((Integer) c[2], (Long) c[3]);
        List<NativeBlock> blocks = sql.query("SELECT library, block_index, address, function, size, instructions, categories, disassembly"
                + " FROM native_block WHERE process_id = ?", rs -> new NativeBlock(rs.getString(1), rs.getInt(2), rs.getLong(3),
                rs.getString(4), rs.getInt(5), rs.getLong(6), rs.getString(7), rs.getString(8),
                counts.getOrDefault(rs.getString(1) + "\0" + rs.getInt(2), Map.of())), processId);
        blocks.sort(java.util.Comparator.comparingLong((NativeBlock b) -> b.executions() * b.instructions()).reversed()
                .thenComparing(NativeBlock::library).thenComparingInt(NativeBlock::index));
        return blocks;
    }

    void addEpochs(long processId, Collection<NativeEpoch> epochs) {
        sql.batch("INSERT OR REPLACE INTO native_epoch(process_id, epoch_id, tid, probe_id, symbol, blocks, instructions, cycles,"
                + " est_ns, energy_pj, wall_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?)", epochs, (ps, e) -> Sql.set(ps, processId,
                e.epochId(), e.tid(), e.probeId(), e.symbol(), e.blocks(), e.instructions(), e.cycles(), e.estNanos(),
                e.energyPicojoules(), e.wallNanos()));
    }

    /** Per-library costs replace what was stored for the same (library, code library, probe). */
    void putLibraryCosts(long processId, Collection<NativeLibraryCost> costs) {
        sql.batch("INSERT OR REPLACE INTO native_library_cost(process_id, library, code_library, system, probe_id, blocks,"
                + " instructions, cycles, est_ns, energy_pj) VALUES (?,?,?,?,?,?,?,?,?,?)", costs, (ps, c) -> Sql.set(ps, processId,
                c.library(), c.codeLibrary(), c.system() ? 1 : 0, c.probeId(), c.blocks(), c.instructions(), c.cycles(), c.estNanos(),
                c.energyPicojoules()));
    }

    List<NativeLibraryCost> libraryCosts(long processId) {
        return sql.query("SELECT library, code_library, system, probe_id, blocks, instructions, cycles, est_ns, energy_pj"
                + " FROM native_library_cost WHERE process_id = ? ORDER BY library, probe_id, system, code_library <> library, code_library",
                rs -> new NativeLibraryCost(rs.getString(1), rs.getString(2), rs.getInt(3) != 0, rs.getInt(4), rs.getLong(5),
                        rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9)), processId);
    }

    List<NativeEpoch> epochs(long processId) {
        return sql.query("SELECT epoch_id, tid, probe_id, symbol, blocks, instructions, cycles, est_ns, energy_pj, wall_ns"
                + " FROM native_epoch WHERE process_id = ? ORDER BY epoch_id", rs -> new NativeEpoch(rs.getLong(1),
                rs.getLong(2), rs.getInt(3), rs.getString(4), rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8),
                rs.getLong(9), rs.getLong(10)), processId);
    }
}
