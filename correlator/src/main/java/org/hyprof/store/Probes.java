package org.hyprof.store;

import java.util.Collection;
import java.util.List;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.config.SkippedMethod;

/**
 * A process's probe manifest as stored: its probes ({@code probe}: id, kind, resolution and the
 * method or loop it stands for; a probe sent again replaces its row) and the methods the
 * instrumenter skipped, with the reason ({@code skipped}, in the order received).
 */
final class Probes {
    private final Sql sql;

    Probes(Sql sql) {
        this.sql = sql;
    }

    void add(long processId, Collection<ProbeInfo> probes) {
        sql.batch("INSERT OR REPLACE INTO probe(process_id, id, kind, resolution, class, method, descriptor, owner_id, loop_index, line, source)"
                + " VALUES (?,?,?,?,?,?,?,?,?,?,?)", probes, (ps, p) -> {
            Sql.set(ps, processId, p.id(), p.kindLabel(), p.resolution().label(), p.className(), p.methodName(),
                    p.descriptor(), p.ownerId(), p.loopIndex(), p.line(), p.source());
        });
    }

    void addSkipped(long processId, Collection<SkippedMethod> skipped) {
        sql.batch("INSERT INTO skipped(process_id, class, method, descriptor, reason) VALUES (?,?,?,?,?)", skipped,
                (ps, s) -> Sql.set(ps, processId, s.className(), s.methodName(), s.descriptor(), s.reason()));
    }

    List<ProbeInfo> list(long processId) {
        return sql.query("SELECT id, kind, resolution, class, method, descriptor, owner_id, loop_index, line, source"
                + " FROM probe WHERE process_id = ? ORDER BY id", rs -> new ProbeInfo(rs.getInt(1),
                rs.getString(2).equals("loop"), Resolution.parse(rs.getString(3)), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getInt(7), rs.getInt(8), rs.getInt(9), rs.getString(10)), processId);
    }

    List<SkippedMethod> skipped(long processId) {
        return sql.query("SELECT class, method, descriptor, reason FROM skipped WHERE process_id = ? ORDER BY rowid",
                rs -> new SkippedMethod(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)), processId);
    }
}
