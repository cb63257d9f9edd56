package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.Deterministic;

/**
 * Issue 20's reproduction: one event chunk of a real events-mode session halved inside the
 * database. Before, {@code export} exited 0 with wrong stacks and {@code report} said "dropped
 * events: 0"; now both name the chunk and stop with exit 1 unless {@code --allow-damaged}.
 */
class DamagedSessionIT {
    @TempDir Path dir;

    @Test
    void aHalvedChunkIsNamedByReportAndExportAndNeverSilentlyExported() throws Exception {
        Path db = dir.resolve("ev.db");
        Cli p = Cli.run("profile", "--mode", "events", "-o", db.toString(), "--", Cli.java(), "-cp",
                Cli.classpathOf(Deterministic.class), "workload.Deterministic");
        assertEquals(0, p.exit, p.err);
        Path intact = dir.resolve("intact.folded");
        Cli ok = Cli.run("export", db.toString(), "--format", "folded", "-o", intact.toString());
        assertEquals(0, ok.exit, ok.err);
        assertFalse(ok.err.contains("damaged"), ok.err);

        long tid, seq;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT tid, seq FROM event_chunk ORDER BY length(data) DESC LIMIT 1")) {
                assertTrue(rs.next());
                tid = rs.getLong(1);
                seq = rs.getLong(2);
            }
            assertEquals(1, st.executeUpdate("UPDATE event_chunk SET data = substr(data, 1, length(data) / 2) WHERE tid = "
                    + tid + " AND seq = " + seq));
        }
        String warning = "hyprof: warning: " + db + ": event chunk " + seq + " of thread " + tid + " (";

        Path out = dir.resolve("damaged.folded");
        Cli export = Cli.run("export", db.toString(), "--format", "folded", "-o", out.toString());
        assertEquals(1, export.exit, export.err);
        assertTrue(export.err.contains(warning), export.err);
        assertTrue(export.err.contains("is damaged (its "), export.err);
        assertTrue(export.err.contains(db + ": 1 damaged event chunk; --allow-damaged"), export.err);
        assertFalse(Files.exists(out), "nothing exported");

        Cli report = Cli.run("report", db.toString());
        assertEquals(1, report.exit, report.err);
        assertTrue(report.err.contains(warning), report.err);
        assertEquals("", report.out, "no report printed");

        Cli allowed = Cli.run("export", db.toString(), "--format", "folded", "-o", out.toString(), "--allow-damaged");
        assertEquals(0, allowed.exit, allowed.err);
        assertTrue(allowed.err.contains(warning) && allowed.err.contains("): left out"), allowed.err);
        assertNotEquals(Files.readString(intact), Files.readString(out), "the damaged chunk's calls are missing");
        Cli allowedReport = Cli.run("report", db.toString(), "--allow-damaged");
        assertEquals(0, allowedReport.exit, allowedReport.err);
        assertTrue(allowedReport.out.contains("damaged event chunks: 1 (checksum mismatch: left out of call trees and exports)"),
                allowedReport.out);
    }
}
