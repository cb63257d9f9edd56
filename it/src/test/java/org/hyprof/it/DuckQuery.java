package org.hyprof.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;

/**
 * Runs one SQL query in an in-memory DuckDB (its JDBC driver) and prints the rows as tab-separated
 * lines, a header first. Run by {@link ParquetIT} in a JVM of its own whose {@code java.io.tmpdir}
 * is a private directory: the driver extracts its native library there and loads it.
 */
public final class DuckQuery {
    private DuckQuery() {}

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet r = s.executeQuery(args[0])) {
            ResultSetMetaData m = r.getMetaData();
            StringBuilder b = new StringBuilder();
            for (int i = 1; i <= m.getColumnCount(); i++) b.append(i > 1 ? "\t" : "").append(m.getColumnLabel(i));
            System.out.println(b);
            while (r.next()) {
                b.setLength(0);
                for (int i = 1; i <= m.getColumnCount(); i++) b.append(i > 1 ? "\t" : "").append(r.getString(i));
                System.out.println(b);
            }
        }
    }
}
