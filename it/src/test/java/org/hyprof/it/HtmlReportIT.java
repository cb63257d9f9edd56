package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.hyprof.testing.Golden;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import workload.Deterministic;

/**
 * The HTML report in a real browser: Debian's {@code chromium}, headless, driven through Debian's
 * {@code chromedriver} (both installed by {@code .ci/run}; no driver is downloaded). Pages of real
 * events-mode sessions load from {@code file://} without a console error; a click zooms, a search
 * shows the matched share, a weight switch changes the widths. Writes a screenshot to
 * {@code target/html-report.png}, and to {@code docs/html-report.png} (the README's) with
 * {@code -Dhyprof.regenerateGoldens=true}.
 */
class HtmlReportIT {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium"), CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir static Path dir;
    static Path page, comparePage;
    static ChromeDriverService service;
    static WebDriver driver;

    @BeforeAll
    static void recordAndOpen() {
        Path a = dir.resolve("a.db"), b = dir.resolve("b.db");
        for (Path db : new Path[] {a, b}) {
            Cli p = Cli.run("profile", "--mode", "events", "-o", db.toString(), "--", Cli.java(), "-cp",
                    Cli.classpathOf(Deterministic.class), "workload.Deterministic");
            assertEquals(0, p.exit, p.err);
        }
        page = dir.resolve("a.html");
        Cli r = Cli.run("report", a.toString(), "--format", "html", "-o", page.toString());
        assertEquals(0, r.exit, r.err);
        comparePage = dir.resolve("ab.html");
        Cli c = Cli.run("compare", a.toString(), b.toString(), "--format", "html", "-o", comparePage.toString());
        assertEquals(0, c.exit, c.err);
        driver = browser();
    }

    /** Debian's chromium through Debian's chromedriver, headless; browser console kept. */
    static WebDriver browser() {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "chromium and chromium-driver are installed by .ci/run (apt-get install chromium chromium-driver)");
        service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,900", "--hide-scrollbars");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        o.setCapability("goog:loggingPrefs", logs);
        return new ChromeDriver(service, o);
    }

    @AfterAll
    static void close() {
        if (driver != null) driver.quit();
        if (service != null) service.stop();
    }

    /** Loads a page and waits (with a deadline) for its script to have drawn. */
    static void open(Path file) {
        driver.get(file.toUri().toString());
        new WebDriverWait(driver, DEADLINE).until(d -> "true".equals(d.findElement(By.tagName("body")).getAttribute("data-ready")));
    }

    static void assertNoConsoleErrors() {
        assertNoConsoleErrors(driver);
    }

    static void assertNoConsoleErrors(WebDriver driver) {
        List<LogEntry> severe = driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue()).toList();
        assertEquals(List.of(), severe.stream().map(LogEntry::getMessage).toList(), "console errors");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> state() {
        return (Map<String, Object>) ((JavascriptExecutor) driver).executeScript("return hyprof.state()");
    }

    /** Clicks the widest drawn frame whose name matches {@code pattern} (a JS regex), scrolled into view first. */
    @SuppressWarnings("unchecked")
    static void clickFrame(String pattern) {
        Map<String, Object> p = (Map<String, Object>) ((JavascriptExecutor) driver).executeScript(
                "var r = hyprof.frameRect(arguments[0]); if (!r) return null;"
                        + "var wrap = document.getElementById('flame-wrap'), c = document.getElementById('flame');"
                        + "wrap.scrollTop = Math.max(0, r.y - wrap.clientHeight / 2);"
                        + "var b = c.getBoundingClientRect();"
                        + "window.scrollBy(0, b.top + r.y - wrap.scrollTop - window.innerHeight / 2);"
                        + "b = c.getBoundingClientRect();"
                        + "return {x: b.left + r.x + Math.min(r.width / 2, 20), y: b.top + r.y + r.height / 2};", pattern);
        assertNotNull(p, "a drawn frame matching " + pattern);
        new Actions(driver).moveToLocation((int) num(p.get("x")), (int) num(p.get("y"))).click().perform();
    }

    static double num(Object o) {
        return ((Number) o).doubleValue();
    }

    static void waitFor(String what, java.util.function.Predicate<Map<String, Object>> condition) {
        new WebDriverWait(driver, DEADLINE).withMessage(() -> what + "; state " + state()).until(d -> condition.test(state()));
    }

    static final Path FIREFOX = Path.of("/usr/bin/firefox-esr");

    /**
     * The page in Firefox too: Debian's {@code firefox-esr}, headless, with a profile of its own, takes a
     * screenshot of it once loaded (Debian has no geckodriver, so no WebDriver here). The page is drawn
     * by its script (with scripting off the shot has no coloured pixel at all); the flame graph's
     * frames are tens of thousands of coloured pixels, so that many say the script ran and drew.
     */
    @Test
    void firefoxDrawsTheReport() throws Exception {
        assumeTrue(Files.isExecutable(FIREFOX), "firefox-esr is installed by .ci/run (apt-get install firefox-esr)");
        Path png = dir.resolve("firefox.png"), log = dir.resolve("firefox.log");
        ProcessBuilder pb = new ProcessBuilder(FIREFOX.toString(), "--headless", "--no-remote", "--profile",
                Files.createDirectories(dir.resolve("firefox-profile")).toString(), "--window-size=1400,1000",
                "--screenshot", png.toString(), page.toUri().toString());
        pb.environment().put("HOME", Files.createDirectories(dir.resolve("firefox-home")).toString());
        Process p = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(DEADLINE.toSeconds() * 2, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("firefox did not finish: " + Files.readString(log));
        }
        assertTrue(Files.exists(png), "firefox wrote no screenshot: " + Files.readString(log));
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
        long coloured = 0;
        for (int y = 0; y < img.getHeight(); y++)
            for (int x = 0; x < img.getWidth(); x++) {
                int c = img.getRGB(x, y), r = (c >> 16) & 255, g = (c >> 8) & 255, b = c & 255;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 80) coloured++;
            }
        assertTrue(coloured > 20_000, "the flame graph drawn in Firefox: " + coloured + " coloured pixels");
        Files.copy(png, Path.of("target", "html-report-firefox.png"), StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void reportLoadsZoomsSearchesAndSwitchesWeight() throws Exception {
        open(page);
        assertNoConsoleErrors();
        Map<String, Object> s = state();
        assertEquals("all threads", s.get("zoom"));
        assertTrue(num(s.get("drawn")) > 5, "frames drawn: " + s);
        assertTrue(driver.findElement(By.id("facts")).getText().contains("workload.Deterministic"), "the header names the program");

        // click a frame: zoomed on it; back: where it was
        clickFrame("Deterministic\\.middle");
        waitFor("zoomed on middle()", st -> String.valueOf(st.get("zoom")).contains("Deterministic.middle"));
        driver.findElement(By.id("back")).click();
        waitFor("back at the top", st -> "all threads".equals(st.get("zoom")));

        // search: the matched share of the total
        driver.findElement(By.id("search")).sendKeys("leaf");
        waitFor("a matched share", st -> num(st.get("matchedShare")) > 0);
        double share = num(state().get("matchedShare"));
        assertTrue(share > 0 && share < 1, "leaf is part of the time, not all: " + share);
        assertTrue(driver.findElement(By.id("match")).getText().matches("matched \\d+\\.\\d\\d % of the total wall.*"),
                driver.findElement(By.id("match")).getText());

        // switch the weight: the threads' widths change (wall time against calls)
        @SuppressWarnings("unchecked") Map<String, Object> wall = (Map<String, Object>) state().get("childWidths");
        new Select(driver.findElement(By.id("weight"))).selectByValue("calls");
        waitFor("weight calls", st -> "calls".equals(st.get("weight")));
        @SuppressWarnings("unchecked") Map<String, Object> calls = (Map<String, Object>) state().get("childWidths");
        assertEquals(wall.keySet(), calls.keySet(), "the same threads");
        assertNotEquals(wall, calls, "widths follow the weight");
        new Select(driver.findElement(By.id("weight"))).selectByValue("wall");

        // the inverted (callers) view draws too
        new Select(driver.findElement(By.id("view"))).selectByValue("inverted");
        waitFor("inverted view", st -> "inverted".equals(st.get("view")) && num(st.get("drawn")) > 1);
        new Select(driver.findElement(By.id("view"))).selectByValue("flame");

        // the timeline of this events session draws slices, and still after zooming in
        assertTrue(num(state().get("timelineSlices")) > 0, "timeline slices drawn");
        driver.findElement(By.id("tl-in")).click();
        waitFor("timeline zoomed", st -> num(st.get("timelineSlices")) > 0);
        assertNoConsoleErrors();
    }

    @Test
    void methodTableSortsFiltersAndLeadsToFrames() {
        open(page);
        WebElement table = driver.findElement(By.id("methods"));
        for (WebElement th : table.findElements(By.tagName("th")))
            if (th.getText().startsWith("calls")) {
                th.click();
                break;
            }
        // leaf: 1000 calls from middle() and 50 from the worker, the most of any method
        WebElement first = table.findElement(By.cssSelector("tbody tr td.name a"));
        assertTrue(first.getText().contains("Deterministic.leaf"), first.getText());
        driver.findElement(By.id("filter")).sendKeys("fib");
        new WebDriverWait(driver, DEADLINE).until(d -> d.findElements(By.cssSelector("#methods tbody tr")).size() == 1);
        driver.findElement(By.cssSelector("#methods tbody tr td.name a")).click();
        waitFor("fib's frames matched", st -> num(st.get("matchedShare")) > 0);
        assertTrue(driver.findElement(By.id("search")).getAttribute("value").contains("fib"));
        assertNoConsoleErrors();
    }

    @Test
    void compareDrawsADifferentialFlameGraph() {
        open(comparePage);
        assertNoConsoleErrors();
        assertEquals("ratio", new Select(driver.findElement(By.id("colour"))).getFirstSelectedOption().getAttribute("value"));
        assertTrue(num(state().get("drawn")) > 5);
        clickFrame("Deterministic\\.fib");
        waitFor("zoomed on fib", st -> String.valueOf(st.get("zoom")).contains("Deterministic.fib"));
        assertTrue(driver.findElement(By.id("facts")).getText().contains("A program"), "both sessions' headers");
        assertNoConsoleErrors();
    }

    @Test
    void screenshot() throws Exception {
        open(page);
        driver.findElement(By.id("search")).sendKeys("fib");
        waitFor("a matched share", st -> num(st.get("matchedShare")) > 0);
        clickFrame("Deterministic\\.main");
        waitFor("zoomed on main()", st -> String.valueOf(st.get("zoom")).contains("Deterministic.main"));
        clickFrame("Deterministic\\.middle"); // leaves the pointer over a frame: its tooltip shows
        waitFor("zoomed on middle()", st -> String.valueOf(st.get("zoom")).contains("Deterministic.middle"));
        driver.findElement(By.id("back")).click();
        waitFor("back on main()", st -> String.valueOf(st.get("zoom")).contains("Deterministic.main"));
        // the whole header and the graph in one picture, the pointer on a frame (its tooltip shows)
        driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 1250));
        @SuppressWarnings("unchecked")
        Map<String, Object> p = (Map<String, Object>) ((JavascriptExecutor) driver).executeScript(
                "window.scrollTo(0, 0); var r = hyprof.frameRect('Deterministic\\.fib'), b = document.getElementById('flame').getBoundingClientRect();"
                        + "return {x: b.left + r.x + r.width * 0.6, y: b.top + r.y + r.height / 2};");
        new Actions(driver).moveToLocation((int) num(p.get("x")), (int) num(p.get("y"))).perform();
        new WebDriverWait(driver, DEADLINE).until(d -> d.findElement(By.id("tooltip")).isDisplayed());
        File png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Path out = Path.of("target/html-report.png");
        Files.copy(png.toPath(), out, StandardCopyOption.REPLACE_EXISTING);
        assertTrue(Files.size(out) > 10_000, "a real picture");
        if (Golden.regenerating()) Files.copy(out, Path.of("../docs/html-report.png"), StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void aggregateSessionRendersWithItsTreeOrSaysItHasNone() {
        Path db = dir.resolve("agg.db"), html = dir.resolve("agg.html");
        Cli p = Cli.run("profile", "-o", db.toString(), "--", Cli.java(), "-cp", Cli.classpathOf(Deterministic.class), "workload.Deterministic");
        assertEquals(0, p.exit, p.err);
        Cli r = Cli.run("report", db.toString(), "--format", "html", "-o", html.toString());
        assertEquals(0, r.exit, r.err);
        open(html);
        assertNoConsoleErrors();
        String facts = driver.findElement(By.id("facts")).getText();
        assertTrue(facts.contains("recorded by the runtime") || facts.contains("has no calling-context tree"), facts);
        assertTrue(driver.findElements(By.cssSelector("#methods tbody tr")).size() >= 5, "the method table is there either way");
        assertTrue(driver.findElement(By.id("timeline-section")).getAttribute("hidden") != null, "no timeline without events");
    }

    @Test
    void htmlNeedsAnOutputFile() {
        Cli r = Cli.run("report", dir.resolve("a.db").toString(), "--format", "html");
        assertEquals(2, r.exit);
        assertEquals("hyprof: --format html: needs -o FILE (a page is not printed to the terminal)", r.err.strip());
        Cli c = Cli.run("compare", dir.resolve("a.db").toString(), dir.resolve("b.db").toString(), "--format", "html");
        assertEquals(2, c.exit);
        assertTrue(c.err.strip().lines().count() == 1 && c.err.contains("needs -o FILE"), c.err);
        Cli p = Cli.run("report", dir.resolve("a.db").toString(), "--format", "html", "--prune", "200", "-o", dir.resolve("x.html").toString());
        assertEquals(2, p.exit);
        assertTrue(p.err.contains("--prune"), p.err);
    }
}
