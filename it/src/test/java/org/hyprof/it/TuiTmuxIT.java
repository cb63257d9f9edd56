package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.hyprof.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.Live;

/**
 * The real {@code hyprof tui --listen} (the command {@code ./hyprof tui} runs: {@code java -jar
 * hyprof.jar tui}, which starts the UI in a JVM of its own with lib/lanterna.jar) in a shell in
 * tmux (send-keys, capture-pane), against a live agent: zoom from process level to a loop with
 * one Enter per level (and the cursor moves to the rows, whose live order depends on timing) and
 * read its iteration count; switch a probe off and see its count stop while another's goes on; q
 * exits with status 0 and gives the shell back its terminal (main screen, cursor, line mode). It
 * waits for what the screen shows, never for fixed times.
 */
class TuiTmuxIT {
    @TempDir Path dir;
    final String session = "hyprof-it-" + ProcessHandle.current().pid();
    Process agent;

    @AfterEach
    void stop() throws Exception {
        if (agent != null) agent.destroyForcibly().waitFor();
        run("tmux", "kill-session", "-t", session);
    }

    static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        return out;
    }

    String screen() throws Exception {
        return run("tmux", "capture-pane", "-p", "-t", session);
    }

    String waitFor(Predicate<String> ok, String what) throws Exception {
        return Await.until(what + " on the screen", this::screen, ok);
    }

    /** Presses a key; what it does is awaited on the screen by the caller. */
    void key(String k) throws Exception {
        run("tmux", "send-keys", "-t", session, k);
    }

    static String line(String screen, String contains) {
        for (String l : screen.split("\n")) if (l.contains(contains)) return l;
        return null;
    }

    /** The cells of a probe row: state?, calls, incl, excl, p50, p99, [iter], name. */
    static String[] cells(String screen, String name) {
        String l = line(screen, name);
        assertNotNull(l, name + " not on screen:\n" + screen);
        return l.trim().split("\\s+");
    }

    @Test
    void zoomToALoopAndToggleAProbeLive() throws Exception {
        assumeTrue(!run("sh", "-c", "command -v tmux").isBlank(), "tmux is installed by .ci/run");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path jar = Cli.hyprofJar();
        assertTrue(Files.isRegularFile(jar), jar + " (built by mvn package)");
        run("tmux", "new-session", "-d", "-s", session, "-x", "150", "-y", "40", "env", "PS1=$ ", "bash", "--norc", "--noprofile");
        waitFor(s -> s.contains("$"), "the shell");
        // the terminal settings before and after, compared by the shell once the UI has exited
        String cmd = "S=$(stty -g); " + Cli.java() + " -jar " + jar + " tui --listen 127.0.0.1:" + port + " -o " + dir.resolve("tui.db")
                + "; echo \"tui-exit=$? stty-restored=$([ \"$(stty -g)\" = \"$S\" ] && echo yes || echo no)\"";
        run("tmux", "send-keys", "-t", session, "-l", cmd);
        run("tmux", "send-keys", "-t", session, "Enter");
        waitFor(s -> s.contains("0 agents connected"), "the UI");
        agent = new ProcessBuilder(Cli.java(), "-javaagent:" + Cli.agentJar() + "=connect=127.0.0.1:" + port
                + ",snapshotMillis=200,tokenFile=" + dir.resolve("tui.db.token"), "-cp", Cli.classpathOf(Live.class), "workload.Live", "-")
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
        waitFor(s -> s.contains("1 agent connected") && s.contains("workload.Live"), "the agent");

        key("Enter");                                   // process -> thread level
        // the agent's manifest may still be on its way: its thread entries get the level's flags when it comes
        waitFor(x -> x.contains("thread level") && x.contains("workload.Live$TaskA.run()"), "thread level");
        select("TaskA.run()");
        key("Enter");                                   // TaskA.run -> method level
        waitFor(x -> x.contains("method level") && x.contains("workload.Live.m1()"), "method level");
        select("workload.Live.m1()");
        key("Enter");                                   // m1 -> loop level
        String s = waitFor(x -> x.contains("loop level") && line(x, "m1()#loop@37") != null && iterations(x) > 0, "loop iterations");
        long iterations = iterations(s);
        assertTrue(iterations > 0 && iterations % 200 == 0, "m1's loop runs 200 iterations per call: " + iterations);

        key("BSpace");                                  // back to method level
        waitFor(x -> x.contains("method level") && x.contains("workload.Live.m2()"), "method level again");
        select("workload.Live.m2()");
        key("Space");                                   // m2 off
        waitFor(x -> cells(x, "workload.Live.m2()")[0].equals("off"), "m2 off");
        // "off" shows once it is sent: wait until m2's count stays the same over two screens between
        // which m1 (called right before m2 in Ta's loop) was called 10 more times, then check it
        // stays the same while m1 goes on again
        long[] last = calls(screen());
        waitFor(x -> {
            long[] next = calls(x);
            if (next[0] < last[0] + 10) return false;
            boolean same = next[1] == last[1];
            last[0] = next[0];
            last[1] = next[1];
            return same;
        }, "m2's count to stop while m1's goes on");
        long[] frozen = last.clone();
        long[] later = calls(waitFor(x -> calls(x)[0] >= frozen[0] + 10, "m1's count to go on"));
        assertEquals(frozen[1], later[1], "m2's count stopped after switching it off, while m1's went on " + frozen[0] + " -> " + later[0]);
        assertTrue(later[0] > 0);

        key("q");
        s = waitFor(x -> x.contains("stty-restored=yes") || x.contains("stty-restored=no"), "the UI to exit"); // not the command line's "=$("
        assertTrue(s.contains("tui-exit=0 stty-restored=yes"), "q exits with 0 and restores the terminal's settings:\n" + s);
        assertFalse(s.contains("agents connected"), "the UI's screen is gone (back on the main screen):\n" + s);
        assertEquals("0 1", run("tmux", "display-message", "-p", "-t", session, "#{alternate_on} #{cursor_flag}").strip(),
                "main screen (not the alternate one), cursor visible");
        run("tmux", "send-keys", "-t", session, "-l", "echo typed-$((40+2))");
        run("tmux", "send-keys", "-t", session, "Enter");
        s = waitFor(x -> x.contains("typed-42\n"), "the shell to answer");
        assertTrue(s.contains("echo typed-$((40+2))"), "what is typed is echoed again:\n" + s);
    }

    /** The calls of m1 and of m2 on a screen at method level. */
    static long[] calls(String screen) {
        return new long[] {Long.parseLong(cells(screen, "workload.Live.m1()")[1]), Long.parseLong(cells(screen, "workload.Live.m2()")[1])};
    }

    static long iterations(String screen) {
        String[] c = cells(screen, "m1()#loop@37");
        int k = c.length - 2;               // the probe% column, before the name
        if (!c[k].matches("[0-9.]+")) k--;  // its mark (c, !), when there is one
        return Long.parseLong(c[k - 1]);    // iterations, before probe%
    }

    /**
     * Moves the cursor (Up or Down, as a user would, looking at the screen) onto the row whose
     * name ends with {@code name}. The live table re-sorts as counts change (the order of timed
     * rows is not fixed); the cursor stays on its row meanwhile. After each move it waits until the
     * screen shows the cursor on another row, then looks again.
     */
    void select(String name) throws Exception {
        // each look answers true once the cursor is there, else the screen (shown if it never gets there)
        Await.<Object>until("the cursor on " + name, () -> {
            String[] lines = run("tmux", "capture-pane", "-p", "-e", "-t", session).split("\n");
            String screen = "screen:\n" + String.join("\n", lines).replaceAll("\u001b\\[[0-9;]*m", "");
            int selected = selectedLine(lines), target = -1;
            for (int i = 0; i < lines.length; i++) {
                String plain = lines[i].replaceAll("\u001b\\[[0-9;]*m", "").trim();
                if (plain.endsWith(name)) target = i;
            }
            if (target < 0 || selected < 0) return screen;
            if (selected == target) return true;
            String before = selectedRow();
            key(target < selected ? "Up" : "Down");
            Await.until("the cursor to leave " + before, () -> !selectedRow().equals(before));
            return screen;
        }, Boolean.TRUE::equals);
    }

    /** Reverse video on (SGR 7, alone or with other attributes: "ESC[7m", "ESC[0;7m"). */
    static final Pattern REVERSE = Pattern.compile("\u001b\\[(?:[0-9]+;)*7(?:;[0-9]+)*m");

    /**
     * The line of the table's highlighted row, or -1: the one where reverse video starts (capture-pane
     * -e writes attributes where they change), not the last line, the status bar, which is reversed too.
     */
    static int selectedLine(String[] lines) {
        int selected = -1;
        for (int i = 0; i < lines.length - 1; i++) if (REVERSE.matcher(lines[i]).find()) selected = i;
        return selected;
    }

    /** The name of the table's highlighted row, or "" when none is. */
    String selectedRow() throws Exception {
        String[] lines = run("tmux", "capture-pane", "-p", "-e", "-t", session).split("\n");
        int i = selectedLine(lines);
        if (i < 0) return "";
        String[] cells = lines[i].replaceAll("\u001b\\[[0-9;]*m", "").trim().split("\\s+");
        return cells[cells.length - 1];
    }
}
