package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.Live;

/**
 * The real {@code hyprof tui --listen} (the command {@code ./hyprof tui} runs: {@code java -jar
 * hyprof.jar tui}, which starts the UI in a JVM of its own with lib/lanterna.jar) in a shell in
 * tmux (send-keys, capture-pane), against a live agent: zoom from process level to a loop in at
 * most 6 key presses and read its iteration count; switch a probe off and see its count stop; q
 * exits with status 0 and gives the shell back its terminal (main screen, cursor, line mode).
 */
class TuiTmuxIT {
    @TempDir Path dir;
    final String session = "hyprof-it-" + ProcessHandle.current().pid();
    Process agent;
    int presses;

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
        long end = System.currentTimeMillis() + 20_000;
        String s = "";
        while (System.currentTimeMillis() < end) {
            s = screen();
            if (ok.test(s)) return s;
            Thread.sleep(200);
        }
        throw new AssertionError("waiting for " + what + ", screen:\n" + s);
    }

    void key(String k) throws Exception {
        presses++;
        run("tmux", "send-keys", "-t", session, k);
        Thread.sleep(400);
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
                + ",snapshotMillis=200,tokenFile=" + dir.resolve("tui.db.token"), "-cp", Cli.classpathOf(Live.class), "workload.Live", "120")
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
        waitFor(s -> s.contains("1 agent connected") && s.contains("workload.Live"), "the agent");

        key("Enter");                                   // process -> thread level
        // the agent's manifest may still be on its way: its thread entries get the level's flags when it comes
        waitFor(x -> x.contains("thread level") && x.contains("workload.Live$TaskA.run()V"), "thread level");
        select("TaskA.run()V", 4);
        key("Enter");                                   // TaskA.run -> method level
        waitFor(x -> x.contains("method level") && x.contains("workload.Live.m1()V"), "method level");
        select("workload.Live.m1()V", 5);
        key("Enter");                                   // m1 -> loop level
        assertTrue(presses <= 6, "zoom to the loop took " + presses + " key presses");
        String s = waitFor(x -> x.contains("loop level") && line(x, "m1()V#loop0") != null && iterations(x) > 0, "loop iterations");
        long iterations = iterations(s);
        assertTrue(iterations > 0 && iterations % 200 == 0, "m1's loop runs 200 iterations per call: " + iterations);

        key("BSpace");                                  // back to method level
        waitFor(x -> x.contains("method level") && x.contains("workload.Live.m2()V"), "method level again");
        select("workload.Live.m2()V", 20);
        key("Space");                                   // m2 off
        s = waitFor(x -> cells(x, "workload.Live.m2()V")[0].equals("off"), "m2 off");
        Thread.sleep(1500);
        long c1 = Long.parseLong(cells(screen(), "workload.Live.m2()V")[1]);
        Thread.sleep(2500);
        long c2 = Long.parseLong(cells(screen(), "workload.Live.m2()V")[1]);
        assertEquals(c1, c2, "m2's count stopped after switching it off");
        long m1a = Long.parseLong(cells(screen(), "workload.Live.m1()V")[1]);
        assertTrue(m1a > 0);

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

    static long iterations(String screen) {
        String[] c = cells(screen, "m1()V#loop0");
        return Long.parseLong(c[c.length - 2]);
    }

    /**
     * Moves the cursor (Up or Down, as a user would, looking at the screen) onto the row whose
     * name ends with {@code name}, while at most {@code maxPresses} keys have been pressed in all.
     * The live table re-sorts as counts change; the cursor stays on its row meanwhile.
     */
    void select(String name, int maxPresses) throws Exception {
        while (presses < maxPresses) {
            String[] lines = run("tmux", "capture-pane", "-p", "-e", "-t", session).split("\n");
            int selected = -1, target = -1;
            for (int i = 0; i < lines.length; i++) {
                String plain = lines[i].replaceAll("\u001b\\[[0-9;]*m", "").trim();
                if (lines[i].contains("\u001b[7m") && i < lines.length - 1) selected = i;
                if (plain.endsWith(name)) target = i;
            }
            if (target < 0 || selected == target) return;
            key(target < selected ? "Up" : "Down");
        }
    }
}
