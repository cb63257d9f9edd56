package org.hyprof.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A session's one JDBC connection and the few things the table classes do with it: read rows,
 * read one number, update, insert a batch, insert a row and get its id, run a transaction.
 *
 * <p>Every operation holds this object's lock, so a {@link Store} is safe to share between threads
 * (SQLite has one writer) and a transaction is never interleaved with another thread's statements. An SQL failure becomes a
 * one-line {@link StoreException} naming the session file, as the user knows it.
 */
final class Sql {
    /** Maps one result row; a null result is left out of the list. */
    interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    /** Sets the parameters of one batch row. */
    interface Binder<T> {
        void bind(PreparedStatement ps, T item) throws SQLException;
    }

    private final Path file;
    private final Connection db;

    /** {@code file}: the session named in messages (not always the file connected to). */
    Sql(Path file, Connection db) {
        this.file = file;
        this.db = db;
    }

    Path file() {
        return file;
    }

    /** The connection itself, for the schema's checks and migrations, which run before any table. */
    Connection connection() {
        return db;
    }

    /** Runs work in one transaction (rolled back if it fails); nested calls join the outer one. */
    synchronized void inTransaction(Store.SqlWork work) {
        try {
            boolean auto = db.getAutoCommit();
            if (!auto) {
                work.run();
                return;
            }
            db.setAutoCommit(false);
            try {
                work.run();
                db.commit();
            } catch (SQLException | RuntimeException e) {
                db.rollback();
                throw e;
            } finally {
                db.setAutoCommit(auto);
            }
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** Hands each mapped row to {@code consumer} as it is read (nothing of the result is held). */
    synchronized <T> void each(String sql, RowMapper<T> mapper, java.util.function.Consumer<T> consumer, Object... args) {
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            set(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    T t = mapper.map(rs);
                    if (t != null) consumer.accept(t);
                }
            }
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    synchronized <T> List<T> query(String sql, RowMapper<T> mapper, Object... args) {
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            set(ps, args);
            List<T> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    T t = mapper.map(rs);
                    if (t != null) out.add(t);
                }
            }
            return out;
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** The first column of the first row, or 0 when there is no row. */
    Long queryLong(String sql) {
        List<Long> r = query(sql, rs -> rs.getLong(1));
        return r.isEmpty() ? 0L : r.get(0);
    }

    /** Returns the number of rows changed. */
    synchronized int update(String sql, Object... args) {
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            set(ps, args);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** Inserts one row and returns the key SQLite gave it. */
    synchronized long insert(String sql, Object... args) {
        try (PreparedStatement ps = db.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
            set(ps, args);
            ps.executeUpdate();
            try (ResultSet k = ps.getGeneratedKeys()) {
                k.next();
                return k.getLong(1);
            }
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** One statement per item, in one transaction; nothing at all for no items. */
    synchronized <T> void batch(String sql, Collection<T> items, Binder<T> binder) {
        if (items.isEmpty()) return;
        inTransaction(() -> {
            try (PreparedStatement ps = db.prepareStatement(sql)) {
                for (T t : items) {
                    binder.bind(ps, t);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        });
    }

    /** Sets the parameters in order; a null is SQL NULL. */
    static void set(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
    }

    /** Closes the connection without taking the lock: closing never waits for a running query. */
    void close() {
        closeQuietly(db);
    }

    private StoreException failure(SQLException e) {
        return new StoreException(file + ": " + firstLine(e.getMessage()), e);
    }

    /** SQLite's messages can run over several lines; ours are one. */
    static String firstLine(String s) {
        if (s == null) return "unknown error";
        int nl = s.indexOf('\n');
        return nl >= 0 ? s.substring(0, nl) : s;
    }

    static void closeQuietly(Connection c) {
        try {
            if (c != null) c.close();
        } catch (SQLException ignored) {
            // closing a broken connection: nothing to save
        }
    }
}
