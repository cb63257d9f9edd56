package org.hyprof.store;

import java.util.function.Consumer;

/**
 * Event logs ({@code event_chunk}): each thread's records in sequence-numbered chunks, stored as
 * received and decoded only by {@code org.hyprof.analysis}. A chunk is keyed by (process, thread,
 * sequence), so one an agent sends again after a reconnect is stored once. Reading streams the
 * chunks to a consumer in (thread, sequence) order rather than holding a process's log in memory.
 */
final class EventChunks {
    private final Sql sql;

    EventChunks(Sql sql) {
        this.sql = sql;
    }

    boolean add(long processId, long tid, long seq, long baseNanos, byte[] data) {
        return sql.update("INSERT OR IGNORE INTO event_chunk(process_id, tid, seq, base_ns, data) VALUES (?,?,?,?,?)",
                processId, tid, seq, baseNanos, data) > 0;
    }

    void forEach(long processId, Consumer<EventChunk> consumer) {
        sql.query("SELECT tid, seq, base_ns, data FROM event_chunk WHERE process_id = ? ORDER BY tid, seq", rs -> {
            consumer.accept(new EventChunk(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getBytes(4)));
            return null;
        }, processId);
    }

    long count(long processId) {
        return sql.queryLong("SELECT count(*) FROM event_chunk WHERE process_id = " + processId);
    }
}
