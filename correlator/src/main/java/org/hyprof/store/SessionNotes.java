package org.hyprof.store;

import java.util.List;

/**
 * What a session says about itself beside the measurements: session-level settings
 * ({@code session_info}, key → value, e.g. the power model's Java milliwatts) and import notes
 * ({@code import_note}: damage found, a missing clean end, dropped events), each of a process or
 * of the whole session. Notes are kept in the order they were written, as {@code severity: message}.
 */
final class SessionNotes {
    private final Sql sql;

    SessionNotes(Sql sql) {
        this.sql = sql;
    }

    void putInfo(String key, String value) {
        sql.update("INSERT OR REPLACE INTO session_info(key, value) VALUES (?, ?)", key, value);
    }

    String info(String key) {
        List<String> v = sql.query("SELECT value FROM session_info WHERE key = ?", rs -> rs.getString(1), key);
        return v.isEmpty() ? null : v.get(0);
    }

    void addNote(Long processId, String severity, String message) {
        sql.update("INSERT INTO import_note(process_id, severity, message) VALUES (?,?,?)", processId, severity, message);
    }

    List<String> notes() {
        return sql.query("SELECT severity || ': ' || message FROM import_note ORDER BY rowid", rs -> rs.getString(1));
    }

    List<String> notes(long processId) {
        return sql.query("SELECT severity || ': ' || message FROM import_note WHERE process_id = ? ORDER BY rowid",
                rs -> rs.getString(1), processId);
    }
}
