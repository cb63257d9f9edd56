package org.hyprof.tui;

import static org.junit.jupiter.api.Assertions.*;

import com.googlecode.lanterna.TerminalSize;
import com.googlecode.lanterna.input.KeyStroke;
import com.googlecode.lanterna.input.KeyType;
import com.googlecode.lanterna.screen.TerminalScreen;
import com.googlecode.lanterna.terminal.virtual.DefaultVirtualTerminal;
import com.googlecode.lanterna.terminal.virtual.VirtualTerminalListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.config.Zoom;
import org.hyprof.control.Chunk;
import org.hyprof.collector.Collector;
import org.hyprof.control.ConfigFrame;
import org.hyprof.control.ControlState;
import org.hyprof.control.Frame;
import org.hyprof.control.Hello;
import org.hyprof.control.SnapshotRequest;
import org.hyprof.live.LiveSession;
import org.hyprof.runtime.Wire;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.Stats;
import org.hyprof.runtime.chunk.EventRecords;
import org.hyprof.runtime.chunk.PayloadWriter;
import org.hyprof.runtime.chunk.SnapshotChunk;
import org.hyprof.runtime.chunk.TextChunk;
import org.hyprof.store.CalibrationRecord;
import org.hyprof.store.NativeBlock;
import org.hyprof.store.NativeCost;
import org.hyprof.store.ProbeStats;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;
import org.hyprof.store.TimingCounts;
import org.hyprof.store.TreeRow;
import org.hyprof.testing.Await;
import org.hyprof.testing.Golden;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Key sequences through Lanterna's virtual terminal, screens compared with golden text
 * (src/test/resources/golden/tui-*.txt; regenerate with -Dhyprof.regenerateGoldens=true).
 */
class TuiScreenTest {
    @TempDir Path dir;
    DefaultVirtualTerminal term;
    TerminalScreen screen;
    TuiApp app;
    Source source;

    static long[] hist(long... pairs) {
        long[] h = new long[Stats.HIST_BUCKETS];
        for (int i = 0; i < pairs.length; i += 2) h[(int) pairs[i]] = pairs[i + 1];
        return h;
    }

    /**
     * A small deterministic session: main, a worker thread, recursion, a loop, and a native method
     * as a hybrid run records it (native costs on the method, one native block).
     */
    static Path session(Path dir) {
        return session(dir.resolve("tui.db"), false);
    }

    /**
     * The same session; with {@code events}, recorded in events mode: the process's event log
     * too (main: main → loop → fib → fib (recursive), fib, fft; worker: run → step, step).
     */
    static Path session(Path db, boolean events) {
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 4242, "app.Main", "test-vm", events ? "events" : "aggregate", events ? 1 << 20 : 0,
                    1_700_000_000_000L, 1000, 1_700_000_001_000L, "ended", 0, "golden"));
            s.addProbes(p, List.of(
                    new ProbeInfo(1, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"),
                    new ProbeInfo(2, false, Resolution.METHOD, "app.Main", "fib", "(I)I", -1, -1, 9, "Main.java"),
                    new ProbeInfo(3, true, Resolution.LOOP, "app.Main", "main", "([Ljava/lang/String;)V", 1, 0, 5, "Main.java"),
                    new ProbeInfo(4, false, Resolution.THREAD, "app.Worker", "run", "()V", -1, -1, 20, "Worker.java"),
                    new ProbeInfo(5, false, Resolution.METHOD, "app.Worker", "step", "()V", -1, -1, 25, "Worker.java"),
                    new ProbeInfo(6, true, Resolution.LOOP, "app.Worker", "step", "()V", 5, 0, 26, "Worker.java"),
                    new ProbeInfo(7, false, Resolution.METHOD, "app.Native", "fft", "(I)D", -1, -1, -1, "Native.java")));
            s.putThread(p, new ThreadInfo(1, "main", 0, 0));
            s.putThread(p, new ThreadInfo(12, "worker", 0, 0));
            s.addCalibration(p, new CalibrationRecord(5, 24_000, 33_000, 4_000, 25_000));
            s.putStats(p, List.of(
                    new ProbeStats(1, 1, 1, 1_500_000, 200_000, 1_400_000, 190_000, 1_400_000, 1_400_000, 1, 400, 30, 3, 2, 30, 0, 0, 1, hist(21, 1)),
                    new ProbeStats(1, 2, 177, 900_000, 900_000, 800_000, 800_000, 200, 90_000, 1, 352, 0, 176, 0, 0, 0, 0, 177, hist(8, 100, 9, 60, 17, 17)),
                    new ProbeStats(1, 3, 1, 1_000_000, 100_000, 950_000, 95_000, 950_000, 950_000, 1, 354, 30, 1, 0, 30, 30, 0, 1, hist(20, 1)),
                    new ProbeStats(12, 4, 1, 3_000_000, 250_000, 2_900_000, 240_000, 2_900_000, 2_900_000, 1, 2, 0, 1, 0, 0, 0, 0, 1, hist(22, 1)),
                    new ProbeStats(12, 5, 40, 2_700_000, 2_700_000, 2_600_000, 2_600_000, 50_000, 90_000, 40, 80, 4000, 0, 80, 4000, 0, 0, 40, hist(16, 38, 17, 2)),
                    new ProbeStats(12, 6, 40, 2_650_000, 2_650_000, 2_590_000, 2_590_000, 50_000, 90_000, 40, 0, 4000, 0, 0, 4000, 4000, 0, 40, hist(16, 38, 17, 2)),
                    new ProbeStats(1, 7, 3, 610_000, 610_000, 600_000, 600_000, 190_000, 210_000, 3, 0, 0, 0, 0, 0, 0, 0, 3, hist(18, 3),
                            new NativeCost(30_000, 45_000, 500_000, 400_000_000, 30_000, 45_000, 500_000, 400_000_000))));
            s.putNativeBlocks(p, List.of(new NativeBlock("libdemo.so", 0, 0x5a0, "kernel_fft", 16, 4, "alu=2,load=1,branch=1",
                    "000005a0  ldr      r0, [r1]\n000005a4  add      r0, r0, #1\n000005a8  subs     r2, r2, #1\n000005ac  bne      #0x5a0\n",
                    java.util.Map.of(7, 5000L))));
            if (events) {
                long t = 1_000_000;
                s.addEventChunk(p, 1, 0, t, new EventRecords.Writer(t).add(1, SessionFormat.EV_ENTER, t + 1_000).add(3, SessionFormat.EV_LOOP_ENTER, t + 2_000)
                        .add(2, SessionFormat.EV_ENTER, t + 3_000).add(2, SessionFormat.EV_ENTER, t + 4_000).add(2, SessionFormat.EV_EXIT, t + 9_000)
                        .add(2, SessionFormat.EV_EXIT, t + 12_000).add(2, SessionFormat.EV_ENTER, t + 13_000).add(2, SessionFormat.EV_EXIT, t + 15_000)
                        .add(7, SessionFormat.EV_ENTER, t + 16_000).add(7, SessionFormat.EV_EXIT, t + 17_000)
                        .loopExit(3, t + 20_000, 2).add(1, SessionFormat.EV_EXIT, t + 30_000).toByteArray());
                s.addEventChunk(p, 12, 0, t, new EventRecords.Writer(t).add(4, SessionFormat.EV_ENTER, t + 5_000).add(5, SessionFormat.EV_ENTER, t + 6_000)
                        .add(5, SessionFormat.EV_EXIT, t + 8_000).add(5, SessionFormat.EV_ENTER, t + 9_000).add(5, SessionFormat.EV_EXIT, t + 11_000)
                        .add(4, SessionFormat.EV_EXIT, t + 12_000).toByteArray());
            }
        }
        return db;
    }

    @BeforeEach
    void open() throws Exception {
        term = new DefaultVirtualTerminal(new TerminalSize(110, 22));
        screen = new TerminalScreen(term);
        screen.startScreen();
        source = new Source.Stored(session(dir));
        app = new TuiApp(screen, source);
        app.reload();
        app.render();
    }

    @AfterEach
    void close() throws Exception {
        app.close();
        source.close();
        screen.stopScreen();
    }

    /** Opens another session on the same terminal. */
    void reopen(Source s) throws Exception {
        app.close();
        source.close();
        source = s;
        app = new TuiApp(screen, source);
        app.reload();
        app.render();
    }

    String text() {
        StringBuilder b = new StringBuilder();
        TerminalSize size = term.getTerminalSize();
        for (int r = 0; r < size.getRows(); r++) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < size.getColumns(); c++) line.append(term.getCharacter(c, r).getCharacterString());
            b.append(line.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }

    void keys(Object... ks) throws Exception {
        for (Object k : ks) {
            KeyStroke s = k instanceof Character c ? new KeyStroke(c, false, false) : new KeyStroke((KeyType) k);
            app.handle(s);
            app.render();
        }
    }

    void type(String s) throws Exception {
        for (char c : s.toCharArray()) keys(c);
    }

    static void golden(String name, String actual) {
        Golden.check(name, actual);
    }

    @Test
    void zoomFromProcessToLoopAndBack() throws Exception {
        golden("tui-processes.txt", text());
        keys(KeyType.Enter);                       // into the process: thread level
        golden("tui-thread-level.txt", text());
        keys(KeyType.Enter);                       // hottest thread entry first: Worker.run -> method level
        golden("tui-method-level.txt", text());
        keys(KeyType.Enter);                       // hottest method: Worker.step -> loop level
        golden("tui-loop-level.txt", text());
        assertTrue(text().contains("app.Worker.step()#loop@26"));
        keys(KeyType.ArrowDown, KeyType.Enter);    // the loop's detail says what its excl is
        assertTrue(text().contains("app.Worker.step()#loop@26   [loop, loop, Worker.java:26]"), text());
        assertTrue(text().contains("(a loop's excl is its time less the methods called inside it: its inner loops are part of it)"), text());
        keys(KeyType.Backspace);                   // back to loop level
        keys(KeyType.Backspace, KeyType.Backspace, KeyType.Backspace);
        assertTrue(text().contains("hyprof  tree: processes"), text());
    }

    /**
     * Issue 22 item 5: method names stay readable on narrow terminals: figures give way from the
     * right and packages are abbreviated as IDEs do (d.HybridDemo.round(boolean)), at 40 and 80
     * columns (goldens), on a session named as the demo's.
     */
    @Test
    void namesStayReadableDownToFortyColumns() throws Exception {
        Path db = dir.resolve("narrow.db");
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 4242, "demo.HybridDemo", "test-vm", "aggregate", 0, 1_700_000_000_000L,
                    1000, 1_700_000_001_000L, "ended", 0, "golden"));
            s.addProbes(p, List.of(
                    new ProbeInfo(1, false, Resolution.METHOD, "demo.HybridDemo", "round", "(Z)V", -1, -1, 40, "HybridDemo.java"),
                    new ProbeInfo(2, false, Resolution.METHOD, "demo.kernels.JavaKernels", "fftTransform", "([DII)V", -1, -1, 50, "JavaKernels.java"),
                    new ProbeInfo(3, true, Resolution.LOOP, "demo.kernels.JavaKernels", "fftTransform", "([DII)V", 2, 0, 57, "JavaKernels.java")));
            s.putThread(p, new ThreadInfo(1, "main", 0, 0));
            s.putStats(p, List.of(
                    new ProbeStats(1, 1, 12, 1_500_000, 200_000, 1_400_000, 190_000, 1_400_000, 1_400_000, 1, 400, 30, 3, 2, 30, 0, 0, 12, hist(21, 12)),
                    new ProbeStats(1, 2, 177, 900_000, 900_000, 800_000, 800_000, 200, 90_000, 1, 352, 0, 176, 0, 0, 0, 0, 177, hist(8, 177)),
                    new ProbeStats(1, 3, 177, 800_000, 800_000, 700_000, 700_000, 200, 90_000, 1, 0, 900, 0, 0, 0, 0, 0, 177, hist(8, 177))));
        }
        for (int cols : new int[] {40, 80}) {
            app.close();
            source.close();
            screen.stopScreen();
            term = new DefaultVirtualTerminal(new TerminalSize(cols, 12));
            screen = new TerminalScreen(term);
            screen.startScreen();
            source = new Source.Stored(db);
            app = new TuiApp(screen, source);
            app.reload();
            app.render();
            keys('h');
            String t = text();
            golden("tui-narrow-" + cols + ".txt", t);
            assertTrue(t.contains("demo.HybridDemo.round(boolean)"), t);
            assertTrue(t.contains("  d.k.JavaKernels.fftTransform(…)"), t);
            assertTrue(t.lines().anyMatch(l -> l.matches("\\s+12  .*demo\\.HybridDemo\\.round\\(boolean\\)")), "calls stay beside the name:\n" + t);
        }
    }

    /**
     * Issue 15 items 4 and 5: the table's probe% column carries the report's marks: a method that
     * went count-only ({@code c}; its calls counted in full) whose probes also cost most of its
     * raw time ({@code !}).
     */
    @Test
    void countOnlyAndProbeDominatedMethodsAreMarked() throws Exception {
        Path db = dir.resolve("marks.db");
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 4242, "app.Main", "test-vm", "aggregate", 0,
                    1_700_000_000_000L, 1000, 1_700_000_001_000L, "ended", 0, "golden"));
            s.addProbes(p, List.of(
                    new ProbeInfo(1, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"),
                    new ProbeInfo(2, false, Resolution.METHOD, "app.Main", "get", "()I", -1, -1, 9, "Main.java")));
            s.putThread(p, new ThreadInfo(1, "main", 0, 0));
            s.addCalibration(p, new CalibrationRecord(5, 24_000, 33_000, 4_000, 25_000));
            s.putStats(p, List.of(
                    new ProbeStats(1, 1, 1, 2_100_000, 600_000, 2_000_000, 500_000, 2_000_000, 2_000_000, 1, 2000, 0, 1000, 0, 0, 0, 0, 1,
                            hist(21, 1)),
                    new ProbeStats(1, 2, 1000, 120_000, 120_000, 50_000, 50_000, 20, 400, 1000, 0, 0, 0, 0, 0, 0, 0, 4000,
                            hist(6, 700, 9, 300), NativeCost.NONE, new TimingCounts(3000, 0, 700, 48))));
        }
        reopen(new Source.Stored(db));
        keys('h');
        String get = text().lines().filter(l -> l.endsWith("app.Main.get()")).findFirst().orElseThrow();
        assertTrue(get.matches("\\s+4000 .* 58\\.3 c!  app\\.Main\\.get\\(\\)"), get);
        String main = text().lines().filter(l -> l.endsWith("app.Main.main(java.lang.String[])")).findFirst().orElseThrow();
        assertTrue(main.contains(" 4.8  app.Main.main"), main);
    }

    /** Issue 18: a session with thread CPU time shows it (cpu ms) in the table and CPU and wait in the detail. */
    @Test
    void cpuTimeInTheTableAndTheDetail() throws Exception {
        Path db = dir.resolve("cpu.db");
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 4242, "app.Main", "test-vm", "aggregate", 0,
                    1_700_000_000_000L, 1000, 1_700_000_001_000L, "ended", 0, "golden"));
            s.addProbes(p, List.of(
                    new ProbeInfo(1, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"),
                    new ProbeInfo(2, false, Resolution.METHOD, "app.Main", "sleepy", "()V", -1, -1, 9, "Main.java")));
            s.putThread(p, new ThreadInfo(1, "main", 0, 0, 300_000_000, 0, 0, 90_000_000L));
            s.addCalibration(p, new CalibrationRecord(5, 24_000, 33_000, 4_000, 25_000));
            s.putStats(p, List.of(
                    new ProbeStats(1, 1, 1, 300_000_000, 100_000_000, 300_000_000, 100_000_000, 300_000_000, 300_000_000, 1, 2, 0, 1,
                            0, 0, 0, 0, 1, hist(29, 1), NativeCost.NONE, TimingCounts.NONE,
                            new org.hyprof.store.CpuTime(90_000_000, 89_000_000, org.hyprof.store.CpuTime.SAMPLED)),
                    new ProbeStats(1, 2, 1, 200_000_000, 200_000_000, 200_000_000, 200_000_000, 200_000_000, 200_000_000, 1, 0, 0, 0,
                            0, 0, 0, 0, 1, hist(28, 1), NativeCost.NONE, TimingCounts.NONE,
                            new org.hyprof.store.CpuTime(1_000_000, 1_000_000, org.hyprof.store.CpuTime.SAMPLED))));
        }
        reopen(new Source.Stored(db));
        keys('h');
        assertTrue(text().contains("cpu ms"), text());
        String sleepy = text().lines().filter(l -> l.endsWith("app.Main.sleepy()")).findFirst().orElseThrow();
        assertTrue(sleepy.contains(" 200.000 ") && sleepy.contains(" 1.000 "), sleepy);
        keys('/');
        type("sleepy");
        keys(KeyType.Enter, KeyType.Enter);
        assertTrue(text().contains("cpu 1.000 ms incl   1.000 ms excl   wait (not on a CPU) 199.000 ms incl   199.000 ms excl"), text());
    }

    @Test
    void hotspotsSortSearchDetailHelp() throws Exception {
        keys('h');
        golden("tui-hotspots.txt", text());
        keys('s');
        assertTrue(text().contains("sorted by incl"), text());
        keys('/');
        type("fib");
        keys(KeyType.Enter);
        golden("tui-search.txt", text());
        keys(KeyType.Enter);                       // detail of fib
        golden("tui-detail.txt", text());
        keys(KeyType.Backspace, '?');
        assertTrue(text().contains("switch the selected probe on or off"), text());
        keys(KeyType.End);                         // the help scrolls to what the columns mean
        assertTrue(text().contains("a loop's excl      its time less the methods called inside it; its inner loops are part of it"), text());
        keys('x', 'e');
        golden("tui-energy.txt", text());
        assertTrue(text().contains("native cycles"), text());
    }

    @Test
    void nativeMethodDetailShowsItsBlocks() throws Exception {
        keys('h', '/');
        type("Native");
        keys(KeyType.Enter, KeyType.Enter);       // detail of app.Native.fft
        golden("tui-native-detail.txt", text());
        assertTrue(text().contains("kernel_fft: 5,000 executions"), text());
        keys(KeyType.End);                         // the rest of the disassembly, below the screen
        assertTrue(text().contains("bne      #0x5a0"), text());
    }

    @Test
    void aggregateModeDetailSaysWhyThereAreNoCallersAndHowToGetThem() throws Exception {
        keys('h', '/');
        type("fib");
        keys(KeyType.Enter, KeyType.Enter);
        app.awaitCallGraphs();
        app.render();
        assertTrue(text().contains("callers/callees: not recorded: aggregate mode"), text());
        assertTrue(text().contains("Record with --mode events to see them"), text());
    }

    @Test
    void eventsModeDetailShowsCallersAndCallees() throws Exception {
        reopen(new Source.Stored(session(dir.resolve("events.db"), true)));
        keys('h', '/');
        type("fib");
        keys(KeyType.Enter, KeyType.Enter);        // detail of fib: callers and callees from the event log
        app.awaitCallGraphs();
        app.render();
        golden("tui-detail-events.txt", text());
        String t = text();
        // fib: 2 calls from main (9 us + 2 us, through main's loop), 1 recursive call from itself
        assertTrue(t.contains("           2        0.011  app.Main.main(java.lang.String[])"), t);
        assertTrue(t.contains("           1        0.000  app.Main.fib(int) (1 recursive: no time of their own)"), t);
        keys(KeyType.Backspace, KeyType.Escape, '/');
        type("Worker.run");
        keys(KeyType.Enter, KeyType.Enter);
        app.awaitCallGraphs();
        app.render();
        t = text();
        assertTrue(t.contains("(none recorded: the thread's first method)"), t);
        assertTrue(t.contains("           2        0.004  app.Worker.step()"), t);
    }

    private static TreeRow node(long tid, int node, int parent, int probe, int kind, long calls, long incl, long excl) {
        return new TreeRow(tid, node, parent, probe, kind, calls, 0, incl + 20 * calls, excl + 20 * calls, incl, excl,
                calls == 0 ? 0 : incl / calls, calls == 0 ? 0 : incl / calls, kind == TreeRow.LOOP ? 2 * calls : 0, 0,
                NativeCost.NONE, null, null);
    }

    /** The test session with a recorded calling-context tree: main → loop → {fib → fib, fft}, (other paths); run → step → loop. */
    static Path treeSession(Path dir) {
        Path db = session(dir.resolve("ctree.db"), false);
        try (Store s = Store.open(db)) {
            long p = s.processes().get(0).id();
            s.putTree(p, List.of(
                    node(1, 1, 0, 1, TreeRow.METHOD, 1, 1_400_000, 190_000),
                    node(1, 2, 1, 3, TreeRow.LOOP, 1, 950_000, 95_000),
                    node(1, 3, 2, 2, TreeRow.METHOD, 176, 700_000, 600_000),
                    node(1, 4, 3, 2, TreeRow.METHOD, 1, 100_000, 100_000),
                    node(1, 5, 2, 7, TreeRow.METHOD, 3, 155_000, 155_000),
                    node(1, 6, 1, -1, TreeRow.OTHER_PATHS, 4, 265_000, 265_000),
                    node(12, 1, 0, 4, TreeRow.METHOD, 1, 2_900_000, 240_000),
                    node(12, 2, 1, 5, TreeRow.METHOD, 40, 2_660_000, 10_000),
                    node(12, 3, 2, 6, TreeRow.LOOP, 40, 2_650_000, 2_650_000)));
            s.putTreeInfo(p, 8, 9);
        }
        return db;
    }

    /** Issue 22 item 2: the call tree expands and collapses by key; the butterfly shows a method's callers and callees. */
    @Test
    void callTreeExpandsCollapsesAndShowsTheButterfly() throws Exception {
        reopen(new Source.Stored(treeSession(dir)));
        keys('t');
        golden("tui-calltree.txt", text());
        String t = text();
        assertTrue(t.contains("call tree (recorded; 4 calls in (other paths))"), t);
        assertTrue(t.contains("+ app.Main.main(java.lang.String[])"), t);
        keys(KeyType.ArrowDown, KeyType.ArrowRight, KeyType.ArrowDown, '+'); // main, then its loop
        golden("tui-calltree-expanded.txt", text());
        t = text();
        assertTrue(t.contains("      + app.Main.fib(int)"), t);
        assertTrue(t.contains("        app.Native.fft(int)"), t);
        assertTrue(t.contains("      (other paths)"), t);
        keys(KeyType.ArrowDown, KeyType.Enter);                              // fib: Enter toggles it open
        assertTrue(text().contains("        app.Main.fib(int)"), text());
        keys('b');                                                           // fib's butterfly
        golden("tui-butterfly.txt", text());
        t = text();
        assertTrue(t.contains("<- app.Main.main(java.lang.String[])#loop@5"), t);
        assertTrue(t.contains("<- app.Main.fib(int)"), t);
        assertTrue(t.contains("** app.Main.fib(int)"), t);
        assertTrue(t.contains("-> app.Main.fib(int)"), t);
        keys(KeyType.ArrowUp, KeyType.ArrowUp, KeyType.Enter);               // the loop's butterfly: main above, fib and fft below
        t = text();
        assertTrue(t.contains("** app.Main.main(java.lang.String[])#loop@5") && t.contains("-> app.Native.fft(int)"), t);
        keys(KeyType.Backspace);                                             // back to the call tree, fib still selected
        keys(KeyType.ArrowLeft);                                             // fib open: collapses
        assertFalse(text().contains("        app.Main.fib(int)"), text());
        keys(KeyType.ArrowLeft, KeyType.ArrowLeft);                          // closed: to its parent (the loop), which then collapses
        assertFalse(text().contains("app.Native.fft(int)"), text());
        term.setTerminalSize(new TerminalSize(40, 22));
        screen.doResizeIfNecessary();
        keys(KeyType.ArrowDown);
        golden("tui-calltree-40.txt", text());
        assertTrue(text().contains("      + a.Main.main(…)#loop@5"), text()); // indentation kept, the name abbreviated
        keys(KeyType.Backspace);
        assertTrue(text().contains("hyprof  tree: processes"), text());
    }

    /** Search in the call tree: the paths to every matching frame, open, and nothing else; Esc gives the tree back. */
    @Test
    void callTreeSearchShowsThePathsToTheMatches() throws Exception {
        reopen(new Source.Stored(treeSession(dir)));
        keys('t', '/');
        for (char c : "fft".toCharArray()) keys(c);
        keys(KeyType.Enter);
        String t = text();
        assertTrue(t.contains("    - app.Main.main(java.lang.String[])"), t);
        assertTrue(t.contains("      - app.Main.main(java.lang.String[])#loop@5"), t);
        assertTrue(t.contains("          app.Native.fft(int)"), t);
        assertFalse(t.contains("app.Main.fib(int)"), "a sibling that does not match is hidden:\n" + t);
        assertFalse(t.contains("thread worker"), "a thread without a match is hidden:\n" + t);
        keys(KeyType.Escape);
        t = text();
        assertTrue(t.contains("thread worker") && t.contains("+ app.Main.main(java.lang.String[])"), t);
    }

    @Test
    void callTreeOfASessionWithoutOneSaysSo() throws Exception {
        keys('t');
        assertTrue(text().contains("this session has no calling-context tree"), text());
        keys(KeyType.Backspace, 'h', 'b');                                   // hotspots: the butterfly of the top method
        assertTrue(text().contains("this session has no calling-context tree"), text());
    }

    /** A live session's tree is read again (at most every 2 s): expanded nodes and the selection stay, by path. */
    @Test
    void liveCallTreeReloadsAndKeepsExpandedNodesAndSelection() throws Exception {
        Path db = treeSession(dir);
        Store store = Store.open(db);
        Source live = new Source() {
            @Override public String describe() { return "live test"; }
            @Override public boolean live() { return true; }
            @Override public SessionView load() { return SessionView.load(store, null); }
            @Override public Store store() { return store; }
            @Override public void close() { store.close(); }
        };
        reopen(live);
        keys('t', KeyType.ArrowDown, KeyType.ArrowRight, KeyType.ArrowDown, KeyType.ArrowRight, KeyType.ArrowDown); // fib selected
        assertTrue(selectedLine().contains("+ app.Main.fib(int)"), text());
        // the program runs on: a new path under main's loop, heavier than fib, so it is drawn above it
        long p = store.processes().get(0).id();
        store.putTree(p, List.of(node(1, 7, 2, 5, TreeRow.METHOD, 9, 900_000, 900_000)));
        Await.until("the tree reloaded", () -> {
            app.render();
            return text().contains("        app.Worker.step()");
        });
        assertTrue(selectedLine().contains("+ app.Main.fib(int)"), "the selection followed fib:\n" + text());
        assertTrue(text().contains("- app.Main.main(java.lang.String[])#loop@5"), "still expanded:\n" + text());
    }

    /** The reversed (selected) line of the screen. */
    String selectedLine() {
        TerminalSize size = term.getTerminalSize();
        for (int r = 2; r < size.getRows() - 2; r++) {
            if (!term.getCharacter(0, r).getModifiers().contains(com.googlecode.lanterna.SGR.REVERSE)) continue;
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < size.getColumns(); c++) line.append(term.getCharacter(c, r).getCharacterString());
            return line.toString();
        }
        return "";
    }

    @Test
    void detailScrollsWhenLongerThanTheScreen() throws Exception {
        term.setTerminalSize(new TerminalSize(110, 12));
        screen.doResizeIfNecessary();
        keys('h', '/');
        type("Native");
        keys(KeyType.Enter, KeyType.Enter);
        assertTrue(text().contains("more lines: Down, PgDn --"), text());
        assertFalse(text().contains("Backspace or Esc: back"), text());
        keys(KeyType.End);
        assertTrue(text().contains("Backspace or Esc: back"), text());
        assertFalse(text().contains("more lines"), text());
        keys(KeyType.Home);
        assertTrue(text().contains("app.Native.fft(int)   [method"), text());
        keys(KeyType.Backspace);
        assertTrue(text().contains("hyprof  hotspots"), text());
    }

    /**
     * A live session with the real LiveSession behind the UI; the agent's end of the connection
     * (the one narrow interface here) confirms every CONFIG with its STATE, as the runtime does,
     * and answers snapshot requests with empty snapshots.
     */
    Source.Live liveSession(Manifest m) {
        Store store = Store.create(dir.resolve("live.db"));
        LiveSession live = new LiveSession(store);
        long[] id = {-1};
        Collector.Connection agent = new Collector.Connection() {
            @Override
            public void send(Frame f) {
                if (f instanceof ConfigFrame c) live.state(id[0], c.state());
                if (f instanceof SnapshotRequest) {
                    PayloadWriter w = new PayloadWriter();
                    SnapshotChunk.begin(w, 0, 0, 0); // no threads yet
                    live.chunk(id[0], new Chunk(0, SessionFormat.SNAPSHOT, w.toByteArray()));
                }
            }

            @Override
            public String remote() {
                return "test";
            }

            @Override
            public void close(String reason) {
                // the test's agent end has nothing to close
            }
        };
        id[0] = live.connected(new Hello(Wire.VERSION, Wire.ROLE_AGENT, "", 4242, "app.Main", "test-vm", 0, 0, "jvm"), agent);
        PayloadWriter w = new PayloadWriter();
        TextChunk.encode(w, m.toText());
        live.chunk(id[0], new Chunk(0, SessionFormat.MANIFEST, w.toByteArray()));
        live.state(id[0], Zoom.apply(Zoom.start(), m, new ControlState(m.idLimit(), new java.util.BitSet(), new int[0], 0, 0, 0, false, 0)));
        return new Source.Live(store, live, new Collector("127.0.0.1", 0, null, live, live, l -> { }), "127.0.0.1:7811");
    }

    @Test
    void spaceOnAMethodSwitchesItsLoopsOffTooAndSaysSo() throws Exception {
        Manifest m = new Manifest();
        m.add(new ProbeInfo(1, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"));
        m.add(new ProbeInfo(2, false, Resolution.METHOD, "app.Main", "m1", "()V", -1, -1, 9, "Main.java"));
        m.add(new ProbeInfo(3, true, Resolution.LOOP, "app.Main", "m1", "()V", 2, 0, 10, "Main.java"));
        m.add(new ProbeInfo(4, false, Resolution.METHOD, "app.Main", "m2", "()V", -1, -1, 12, "Main.java"));
        reopen(liveSession(m));
        keys(KeyType.Enter);                       // process -> thread level
        keys(KeyType.Enter);                       // main -> method level
        assertTrue(text().contains("method level"), text());
        keys(KeyType.ArrowDown);                        // m1 (rows in id order: nothing recorded yet)
        keys(KeyType.Enter);                       // m1 -> loop level: m1 (root) and its loop, both on
        assertEquals("on*", cells("app.Main.m1()")[0], text());
        assertEquals("on", cells("app.Main.m1()#loop@10")[0], text());

        keys(' ');                                 // m1 off: its loop goes off with it
        golden("tui-live-method-off.txt", text());
        assertTrue(text().contains("app.Main.m1() off, and its 1 loop"), text());
        assertEquals("off*", cells("app.Main.m1()")[0], text());
        assertEquals("off", cells("app.Main.m1()#loop@10")[0], text());

        keys(' ');                                 // m1 on again: its loop stays off
        assertTrue(text().contains("app.Main.m1() on\n") || text().contains("app.Main.m1() on "), text());
        assertEquals("off", cells("app.Main.m1()#loop@10")[0], text());

        keys(KeyType.ArrowDown, ' ');                   // the loop on
        assertTrue(text().contains("app.Main.m1()#loop@10 on"), text());
        keys(KeyType.ArrowUp, ' ', KeyType.ArrowDown, ' ');  // m1 off (and its loop), then the loop on: m1 comes back on
        assertTrue(text().contains("app.Main.m1()#loop@10 on, and its method (a loop records only inside its method)"), text());
        assertEquals("on*", cells("app.Main.m1()")[0], text());
    }

    /** The cells of the table row ending with {@code name}. */
    String[] cells(String name) {
        for (String l : text().split("\n")) if (l.endsWith(name)) return l.trim().split("\\s+");
        throw new AssertionError(name + " not on screen:\n" + text());
    }

    @Test
    void storedSessionsAreReadOnlyAndQuitWorks() throws Exception {
        keys(KeyType.Enter, ' ');
        assertTrue(text().contains("stored session: read-only"), text());
        keys('q');
        assertFalse(app.running());
    }

    @Test
    void tinyTerminalAndResize() throws Exception {
        term.setTerminalSize(new TerminalSize(30, 6));
        screen.doResizeIfNecessary();
        app.render();
        assertTrue(text().startsWith("terminal too small: 30x6"), text());
        term.setTerminalSize(new TerminalSize(110, 22));
        screen.doResizeIfNecessary();
        app.render();
        assertTrue(text().contains("app.Main"), text());
    }

    /**
     * Corrupt files of every kind: one SQLite cannot open, one that opens but has a damaged page,
     * one whose tables are gone. Each gives the same message on screen and exit code 1 after q.
     */
    @Test
    void corruptDatabaseShowsAMessageNotAStackTrace() throws Exception {
        Path zeros = dir.resolve("zeros.db");
        Files.write(zeros, new byte[8192]);
        corrupt(zeros);

        Path damaged = session(dir.resolve("damaged.db"), false);
        long page;
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + damaged);
             var rs = c.createStatement().executeQuery("SELECT rootpage FROM sqlite_master WHERE name = 'probe_stats'")) {
            page = rs.getLong(1);
        }
        try (var f = java.nio.channels.FileChannel.open(damaged, java.nio.file.StandardOpenOption.WRITE)) {
            byte[] junk = new byte[4096];
            java.util.Arrays.fill(junk, (byte) 0x5a);
            f.write(java.nio.ByteBuffer.wrap(junk), (page - 1) * 4096);
        }
        Store.open(damaged).close(); // it opens: the damage shows only when read
        corrupt(damaged);

        Path gone = session(dir.resolve("gone.db"), false);
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + gone)) {
            c.createStatement().execute("DROP TABLE probe_stats");
        }
        Store.open(gone).close();
        corrupt(gone);
    }

    void corrupt(Path bad) throws Exception {
        DefaultVirtualTerminal t = new DefaultVirtualTerminal(new TerminalSize(100, 10));
        List<String> frames = new ArrayList<>();
        t.addVirtualTerminalListener(new VirtualTerminalListener() {
            @Override public void onFlush() {
                StringBuilder b = new StringBuilder();
                for (int c = 0; c < 100; c++) b.append(t.getCharacter(c, 0).getCharacterString());
                frames.add(b.toString().strip());
            }
            @Override public void onBell() { }
            @Override public void onClose() { }
            @Override public void onResized(com.googlecode.lanterna.terminal.Terminal term, TerminalSize size) { }
        });
        t.addInput(new KeyStroke('q', false, false));
        int code = TuiMain.run(new TerminalScreen(t), new String[] {bad.toString()});
        assertEquals(1, code, bad.toString());
        assertTrue(frames.stream().anyMatch(f -> f.startsWith("hyprof: " + bad + ": not a readable hyprof session (")), frames.toString());
        assertTrue(frames.stream().noneMatch(f -> f.contains("Exception")), frames.toString());
    }
}
