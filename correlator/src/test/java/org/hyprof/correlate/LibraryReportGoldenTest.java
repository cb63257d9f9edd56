package org.hyprof.correlate;

import static org.junit.jupiter.api.Assertions.*;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.hyprof.config.MethodNames;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.store.NativeLibraryCost;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report --by library} (issue 16 item 4) against golden files, from a session built through
 * the store: two native methods of {@code libapp.so}, one running partly in {@code libc.so} and
 * {@code libm.so}, one in a library shipped beside the app ({@code libc++_shared.so}, app code),
 * and {@code JNI_OnLoad}; a second process with its own copy of {@code libc.so} (one row for both).
 */
class LibraryReportGoldenTest {
    @TempDir Path dir;

    Path session() {
        Path db = dir.resolve("lib.db");
        try (Store s = Store.create(db)) {
            for (int proc = 0; proc < 2; proc++) {
                long p = s.addProcess(new ProcessInfo(0, 4242 + proc, "app.Main", "test-vm", "aggregate", 0, 1_700_000_000_000L,
                        1000, 1_700_000_001_000L, "ended", 0, "golden"));
                s.addProbes(p, List.of(
                        new ProbeInfo(1, false, Resolution.METHOD, "app.Native", "fft", "(I)D", -1, -1, 9, "Native.java"),
                        new ProbeInfo(2, false, Resolution.METHOD, "app.Native", "parse", "(Ljava/lang/String;)I", -1, -1, 12, "Native.java")));
                s.putNativeLibraryCosts(p, List.of(
                        new NativeLibraryCost("libapp.so", "libapp.so", false, 1, 9_000, 60_000, 70_000, 35_000, 20_000_000),
                        new NativeLibraryCost("libapp.so", "libm.so", true, 1, 3_000, 25_000, 40_000, 20_000, 9_000_000),
                        new NativeLibraryCost("libapp.so", "libc.so", true, 1, 1_000, 15_000, 16_000, 8_000, 4_000_000),
                        new NativeLibraryCost("libapp.so", "libapp.so", false, 2, 500, 4_000, 4_500, 2_250, 1_000_000),
                        new NativeLibraryCost("libapp.so", "libc++_shared.so", false, 2, 700, 6_000, 7_000, 3_500, 2_000_000),
                        new NativeLibraryCost("libapp.so", "libc.so", true, -1, 2_000, 30_000, 33_000, 16_500, 8_000_000)));
            }
        }
        return db;
    }

    static String write(Path db, ReportWriter.Format f, int top) {
        StringWriter w = new StringWriter();
        try (Store s = Store.openReadOnly(db)) {
            LibraryReport.load(s, MethodNames.Style.JAVA, top).write(f, new PrintWriter(w));
        }
        return w.toString();
    }

    @Test
    void tableCsvAndJson() {
        Path db = session();
        Golden.check("report-library.txt", write(db, ReportWriter.Format.TABLE, 0));
        Golden.check("report-library.csv", write(db, ReportWriter.Format.CSV, 0));
        Golden.check("report-library.json", write(db, ReportWriter.Format.JSON, 0));
        String top = write(db, ReportWriter.Format.TABLE, 1);
        assertTrue(top.contains("app.Native.fft(int)") && !top.contains("app.Native.parse"), top);
        assertTrue(top.contains("(2 more methods: --top 0 shows all)"), top);
    }

    @Test
    void aSessionWithoutRowsSaysSo() {
        Path db = dir.resolve("none.db");
        try (Store s = Store.create(db)) {
            s.addProcess(new ProcessInfo(0, 1, "app.Main", "test-vm", "aggregate", 0, 1_700_000_000_000L, 1000, 1_700_000_001_000L,
                    "ended", 0, "golden"));
        }
        assertEquals(LibraryReport.NONE + "\n", write(db, ReportWriter.Format.TABLE, 0).replace("\r\n", "\n"));
        assertEquals(LibraryReport.COLUMNS + "\n", write(db, ReportWriter.Format.CSV, 0).replace("\r\n", "\n"));
        assertTrue(write(db, ReportWriter.Format.JSON, 0).contains("\"note\""));
    }
}
