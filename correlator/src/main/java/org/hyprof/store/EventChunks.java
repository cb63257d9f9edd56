package org.hyprof.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/**
 * Event logs ({@code event_chunk}): each thread's records in sequence-numbered chunks, stored as
 * received and decoded only by {@code org.hyprof.analysis}. A chunk is keyed by (process, thread,
 * sequence), so one an agent sends again after a reconnect is stored once. Reading streams the
 * chunks to a consumer in (thread, sequence) order rather than holding a process's log in memory.
 *
 * <p>Each chunk carries the CRC-32 of its record bytes (column {@code crc32}, schema 4), computed
 * when it is stored. Reading checks it: a chunk whose bytes no longer match (the file was damaged,
 * or edited) is never handed to the analysis, which would rebuild wrong call stacks from it
 * without noticing; {@link #damaged} names such chunks so that reports and exports can say so.
 * Chunks stored before schema 4 have no checksum and are taken as they are.
 */
final class EventChunks {
    private final Sql sql;

    EventChunks(Sql sql) {
        this.sql = sql;
    }

    boolean add(long processId, long tid, long seq, long baseNanos, byte[] data) {
        return sql.update("INSERT OR IGNORE INTO event_chunk(process_id, tid, seq, base_ns, data, crc32) VALUES (?,?,?,?,?,?)",
                processId, tid, seq, baseNanos, data, crc32(data)) > 0;
    }

    /** The chunks whose checksum matches (or that have none), in (thread, sequence) order. */
    void forEach(long processId, Consumer<EventChunk> consumer) {
        sql.query("SELECT tid, seq, base_ns, data, crc32 FROM event_chunk WHERE process_id = ? ORDER BY tid, seq", rs -> {
            byte[] data = rs.getBytes(4);
            long crc = rs.getLong(5);
            if (rs.wasNull() || crc == crc32(data)) consumer.accept(new EventChunk(rs.getLong(1), rs.getLong(2), rs.getLong(3), data));
            return null;
        }, processId);
    }

    /** The threads of a process that have event chunks, by thread id. */
    List<Long> threads(long processId) {
        return sql.query("SELECT DISTINCT tid FROM event_chunk WHERE process_id = ? ORDER BY tid", rs -> rs.getLong(1), processId);
    }

    /**
     * The next chunk of one thread after sequence number {@code afterSeq} whose checksum matches
     * (or that has none), or null after its last: one thread's log read a chunk at a time, so that
     * a reader can follow several threads at once (merged by time) holding one chunk of each.
     */
    EventChunk next(long processId, long tid, long afterSeq) {
        long seq = afterSeq;
        while (true) {
            List<Object[]> rows = sql.query("SELECT seq, base_ns, data, crc32 FROM event_chunk WHERE process_id = ? AND tid = ? AND seq > ?"
                    + " ORDER BY seq LIMIT 1", rs -> {
                long crc = rs.getLong(4);
                Long checksum = rs.wasNull() ? null : crc;
                return new Object[] {rs.getLong(1), rs.getLong(2), rs.getBytes(3), checksum};
            }, processId, tid, seq);
            if (rows.isEmpty()) return null;
            Object[] r = rows.get(0);
            seq = (Long) r[0];
            byte[] data = (byte[]) r[2];
            if (r[3] == null || (Long) r[3] == crc32(data)) return new EventChunk(tid, seq, (Long) r[1], data);
        }
    }

    /** The chunks of a process whose record bytes do not match their checksum, in (thread, sequence) order. */
    List<DamagedChunk> damaged(long processId) {
        List<DamagedChunk> out = new ArrayList<>();
        sql.query("SELECT tid, seq, data, crc32 FROM event_chunk WHERE process_id = ? AND crc32 IS NOT NULL ORDER BY tid, seq", rs -> {
            byte[] data = rs.getBytes(3);
            long crc = rs.getLong(4);
            if (crc != crc32(data)) out.add(new DamagedChunk(processId, rs.getLong(1), rs.getLong(2), data == null ? 0 : data.length));
            return null;
        }, processId);
        return out;
    }

    long count(long processId) {
        return sql.queryLong("SELECT count(*) FROM event_chunk WHERE process_id = " + processId);
    }

    static long crc32(byte[] data) {
        CRC32 c = new CRC32();
        if (data != null) c.update(data, 0, data.length);
        return c.getValue();
    }
}
