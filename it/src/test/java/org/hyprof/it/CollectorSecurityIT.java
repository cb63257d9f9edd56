package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hyprof.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.Live;

/**
 * Authentication on by default, end to end: the real {@code hyprof serve} makes its token file,
 * {@code ctl} without a token is rejected and with {@code --session} is let in, an agent with
 * {@code tokenFile=} streams. (The wire attacks are in collector's {@code CollectorSecurityTest}.)
 */
class CollectorSecurityIT {
    @TempDir Path dir;
    Process serve, agent, agentByEnv;

    @AfterEach
    void stop() throws Exception {
        for (Process p : new Process[] {agent, agentByEnv, serve}) if (p != null) p.destroyForcibly().waitFor();
    }

    @Test
    void serveMakesAnOwnerOnlyTokenThatCtlAndAgentsReadFromTheSession() throws Exception {
        Path db = dir.resolve("s.db");
        Path log = dir.resolve("serve.log");
        serve = new ProcessBuilder(Cli.java(), "-jar", Cli.hyprofJar().toString(), "serve", "--listen", "127.0.0.1:0",
                "-o", db.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Pattern listening = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
        Matcher m = Await.until("serve listening (" + log + ")", () -> {
            assertTrue(serve.isAlive(), "serve ended: " + Files.readString(log));
            return listening.matcher(Files.readString(log));
        }, Matcher::find);
        String port = "127.0.0.1:" + m.group(1);
        Path tokenFile = Path.of(db + ".token");
        String token = Files.readString(tokenFile).strip();
        assertTrue(token.matches("[0-9a-f]{32}"), token);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(db)));
        String printed = Files.readString(log);
        assertTrue(printed.contains("hyprof serve: token " + token + " written to " + tokenFile + " (mode 0600; shown only this once)"),
                printed);

        Cli none = Cli.run("ctl", "--connect", port, "processes");
        assertEquals(1, none.exit);
        assertTrue(none.err.contains("rejected: wrong token (give the collector's token: --session S.db reads S.db.token"), none.err);
        Cli bySession = Cli.run("ctl", "--connect", port, "--session", db.toString(), "processes");
        assertEquals(0, bySession.exit, bySession.err);
        // issue 20: the token had no alternative to a command line, which ps shows to every user
        ProcessBuilder ctlByEnv = new ProcessBuilder(Cli.java(), "-jar", Cli.hyprofJar().toString(), "ctl", "--connect", port, "processes")
                .redirectErrorStream(true);
        ctlByEnv.environment().put("HYPROF_TOKEN", token);
        Process ctl = ctlByEnv.start();
        String ctlOutput = new String(ctl.getInputStream().readAllBytes());
        assertEquals(0, ctl.waitFor(), "ctl with HYPROF_TOKEN: " + ctlOutput);

        agent = new ProcessBuilder(Cli.java(), "-javaagent:" + Cli.agentJar() + "=connect=" + port + ",snapshotMillis=200,tokenFile="
                + tokenFile, "-cp", Cli.classpathOf(Live.class), "workload.Live", "60")
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
        ProcessBuilder byEnv = new ProcessBuilder(Cli.java(), "-javaagent:" + Cli.agentJar() + "=connect=" + port + ",snapshotMillis=200",
                "-cp", Cli.classpathOf(Live.class), "workload.Live", "60")
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent-env.log").toFile());
        byEnv.environment().put("HYPROF_TOKEN", token);
        agentByEnv = byEnv.start();
        Map<String, Map<String, String>> rows = Await.until("the agents with tokenFile= and HYPROF_TOKEN connected", () -> {
            Cli c = Cli.run("ctl", "--connect", port, "--token-file", tokenFile.toString(), "processes");
            assertEquals(0, c.exit, c.err);
            return Cli.csv(c.out);
        }, r -> r.size() == 2 && r.values().stream().allMatch(row -> "true".equals(row.get("connected"))));
        assertEquals(2, rows.size(), "both agents are in: " + rows);

        serve.destroy();
        assertTrue(serve.waitFor(30, TimeUnit.SECONDS));
        // a collector restarted on the session reads the same token: it is not printed again
        Path log2 = dir.resolve("serve2.log");
        serve = new ProcessBuilder(Cli.java(), "-jar", Cli.hyprofJar().toString(), "serve", "--listen", "127.0.0.1:0",
                "-o", db.toString()).redirectErrorStream(true).redirectOutput(log2.toFile()).start();
        Await.until("the restarted serve listening (" + log2 + ")", () -> {
            assertTrue(serve.isAlive(), "serve ended: " + Files.readString(log2));
            return Files.readString(log2).contains("listening on");
        });
        assertTrue(Files.readString(log2).contains("token read from " + tokenFile), Files.readString(log2));
        assertFalse(Files.readString(log2).contains(token));
        assertEquals(token, Files.readString(tokenFile).strip());
    }
}
