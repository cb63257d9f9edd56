package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.export.SyntheticTree;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The HTML report of a session with a million tree nodes: the page stays within 20 MB and draws in
 * headless chromium without a console error. Prints the page's size, the time to write it and the
 * browser's time to its first drawn flame graph (figures for bench/README.md; times are not asserted).
 */
class HtmlScaleIT {
    static final int NODES = 1_000_000;
    static final long MAX_PAGE_BYTES = 20L << 20;

    /** Kept after the test (not a temporary directory): bench/README's memory figure reuses the session. */
    static final Path DIR = Path.of("target/html-scale");
    static WebDriver driver;

    @AfterAll
    static void close() {
        if (driver != null) driver.quit();
        if (HtmlReportIT.service != null) HtmlReportIT.service.stop();
    }

    @Test
    void millionNodePageIsBoundedAndDraws() throws Exception {
        Files.createDirectories(DIR);
        Path db = DIR.resolve("million.db"), page = DIR.resolve("million.html");
        for (String f : new String[] {"million.db", "million.db-wal", "million.db-shm"}) Files.deleteIfExists(DIR.resolve(f));
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 1, "synthetic.Million", "vm", "aggregate", 0, 1_700_000_000_000L, 1,
                    1_700_000_010_000L, "ended", 0, "HtmlScaleIT"));
            List<ProbeInfo> probes = new ArrayList<>();
            for (int m = 1; m <= 100; m++)
                probes.add(new ProbeInfo(m, false, Resolution.METHOD, "synthetic.C" + m % 17, "m" + m, "(I)V", -1, -1, m, "C.java"));
            s.addProbes(p, probes);
            s.putThread(p, new ThreadInfo(1, "main", 0, 0));
            s.inTransaction(() -> s.putTree(p, SyntheticTree.rows(1, NODES)));
            s.putTreeInfo(p, NODES, NODES);
        }
        driver = HtmlReportIT.browser();
        StringBuilder lines = new StringBuilder();
        // the default threshold, and none: the frame limit alone bounds the page
        for (String prune : new String[] {"" + org.hyprof.export.HtmlReport.DEFAULT_PRUNE_PERCENT, "0"}) {
            long t0 = System.nanoTime();
            Cli r = Cli.run("report", db.toString(), "--format", "html", "--prune", prune, "-o", page.toString());
            long writeMillis = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(0, r.exit, r.err);
            long bytes = Files.size(page);
            assertTrue(bytes <= MAX_PAGE_BYTES, "page of " + bytes + " bytes with --prune " + prune);
            driver.get(page.toUri().toString());
            new WebDriverWait(driver, Duration.ofSeconds(120))
                    .until(d -> "true".equals(d.findElement(By.tagName("body")).getAttribute("data-ready")));
            JavascriptExecutor js = (JavascriptExecutor) driver;
            @SuppressWarnings("unchecked")
            Map<String, Object> st = (Map<String, Object>) js.executeScript("return hyprof.state()");
            double ready = ((Number) js.executeScript("return hyprof.readyMillis")).doubleValue();
            double script = ((Number) js.executeScript("return hyprof.scriptMillis")).doubleValue();
            assertTrue(((Number) st.get("drawn")).intValue() > 0, st.toString());
            double inverted = ((Number) js.executeScript("var t = performance.now(), v = document.getElementById('view');"
                    + " v.value = 'inverted'; v.onchange.call(v); return performance.now() - t;")).doubleValue();
            assertTrue(((Number) ((Map<?, ?>) js.executeScript("return hyprof.state()")).get("drawn")).intValue() > 0, "callers view drawn");
            HtmlReportIT.assertNoConsoleErrors(driver);
            String line = String.format(Locale.ROOT, "[html-scale] %d tree nodes, --prune %s: page %.1f MB with %s frames kept; written in %d ms;"
                            + " chromium: first flame graph %.0f ms after navigation start (script %.0f ms, draw %.0f ms, %s frames drawn);"
                            + " callers view built and drawn in %.0f ms",
                    NODES, prune, bytes / 1e6, st.get("frames"), writeMillis, ready, script,
                    ((Number) st.get("drawMillis")).doubleValue(), st.get("drawn"), inverted);
            System.out.println(line);
            lines.append(line).append('\n');
        }
        Files.writeString(Path.of("target/html-scale.txt"), lines);
    }
}
