package org.hyprof.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The session schema: the version this build writes, the check that a file is a hyprof session
 * of a version it can read, and the ordered migrations ({@code V1.sql}, {@code V2.sql}, ... in
 * this package's resources) that bring an older file up to date. A migration runs in one
 * transaction; {@code schema_version} then records it. The tables themselves are read and written
 * by the table classes beside this one.
 *
 * <p>These checks run on the bare connection, before the file is a {@link Store}, so that an
 * SQLite error while opening is reported as "not a readable hyprof session".
 */
final class Schema {
    /** Schema version this build writes; files up to it can be opened. */
    static final int VERSION = 10;
    /** Migration {@code i} brings a file from version {@code i} to {@code i + 1}. */
    private static final String[] MIGRATIONS = {"V1.sql", "V2.sql", "V3.sql", "V4.sql", "V5.sql", "V6.sql", "V7.sql", "V8.sql", "V9.sql", "V10.sql"};

    private Schema() {}

    /** Brings the file up to {@link #VERSION}; {@code create}: an empty file becomes a session. */
    static void migrate(Sql sql, boolean create) throws SQLException {
        int version = version(sql, create);
        Connection db = sql.connection();
        for (int v = version; v < VERSION; v++) {
            String script = resource(MIGRATIONS[v]);
            sql.inTransaction(() -> {
                try (Statement s = db.createStatement()) {
                    for (String stmt : script.split(";\\s*\\n")) {
                        String t = stripComments(stmt).trim();
                        if (!t.isEmpty()) s.execute(t);
                    }
                }
            });
            try (Statement s = db.createStatement()) {
                s.execute("UPDATE schema_version SET version = " + (v + 1));
            }
        }
    }

    /**
     * The file's schema version; {@code create}: an empty file becomes a version-0 session.
     * Refuses files that are not hyprof sessions and sessions of a newer hyprof.
     */
    static int version(Sql sql, boolean create) throws SQLException {
        int version;
        try (Statement s = sql.connection().createStatement()) {
            boolean has;
            try (ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'")) {
                has = rs.next();
            }
            if (!has) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM sqlite_master")) {
                    rs.next();
                    if (rs.getInt(1) > 0) throw new StoreException(sql.file() + ": an SQLite file, but not a hyprof session");
                }
                if (!create) throw new StoreException(sql.file() + ": empty file, not a hyprof session");
                s.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
                s.execute("INSERT INTO schema_version VALUES (0)");
            }
            try (ResultSet rs = s.executeQuery("SELECT version FROM schema_version")) {
                if (!rs.next()) throw new StoreException(sql.file() + ": schema_version is empty");
                version = rs.getInt(1);
            }
        }
        if (version > VERSION)
            throw new StoreException(sql.file() + ": written by a newer hyprof (schema " + version + " > " + VERSION + ")");
        // 0 only while this call creates the session; below 0 never (a damaged or forged file)
        if (version < 0 || version == 0 && !create)
            throw new StoreException(sql.file() + ": not a hyprof session (schema_version " + version + ")");
        return version;
    }

    /** The version of an open store's file (always {@link #VERSION} once opened). */
    static int stored(Sql sql) {
        return sql.queryLong("SELECT version FROM schema_version").intValue();
    }

    private static String stripComments(String sql) {
        StringBuilder b = new StringBuilder();
        for (String line : sql.split("\n")) {
            int i = line.indexOf("--");
            b.append(i >= 0 ? line.substring(0, i) : line).append('\n');
        }
        return b.toString();
    }

    private static String resource(String name) {
        try (InputStream in = Schema.class.getResourceAsStream(name)) {
            if (in == null) throw new StoreException("missing schema resource " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new StoreException("cannot read schema resource " + name, e);
        }
    }
}
