package org.hyprof.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.Deterministic;

/** Bad input gives one line naming the input and the problem, and a non-zero exit. */
class BadInputIT {
    @TempDir Path dir;

    static void oneLine(Cli c) {
        assertNotEquals(0, c.exit);
        assertEquals(1, Cli.lines(c.err).size(), "one line: " + c.err);
        assertTrue(c.err.startsWith("hyprof: "), c.err);
    }

    @Test
    void badConfigFile() throws Exception {
        Path cfg = dir.resolve("bad.properties");
        Files.writeString(cfg, "mode=sometimes\n");
        Cli c = Cli.run("profile", "--config", cfg.toString(), "-o", dir.resolve("x.db").toString(), "--", Cli.java(), "-version");
        oneLine(c);
        assertTrue(c.err.contains(cfg.toString()) && c.err.contains("mode"), c.err);
        Files.writeString(cfg, "colour=blue\n");
        c = Cli.run("profile", "--config", cfg.toString(), "-o", dir.resolve("x.db").toString(), "--", Cli.java(), "-version");
        oneLine(c);
        assertTrue(c.err.contains("unknown setting 'colour'"), c.err);
        oneLine(Cli.run("profile", "--config", dir.resolve("missing.properties").toString(), "-o",
                dir.resolve("x.db").toString(), "--", Cli.java(), "-version"));
        assertFalse(Files.exists(dir.resolve("x.db")), "nothing created on bad input");
    }

    @Test
    void badAgentArgumentStopsTheJvmWithOneLine() throws Exception {
        Path agent = Home.agentJar();
        Process p = new ProcessBuilder(Cli.java(), "-javaagent:" + agent + "=budget=lots", "-cp",
                Cli.classpathOf(Deterministic.class), "workload.Deterministic").start();
        String err = new String(p.getErrorStream().readAllBytes()).strip();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(2, p.waitFor());
        assertEquals("hyprof: agent argument: budget: bad size 'lots' (examples: 4096, 64k, 16m, 1g)", err);
        assertFalse(out.contains("deterministic"), "main never ran");
    }

    @Test
    void badOptionValues() {
        oneLine(Cli.run("profile", "--mode", "always", "-o", dir.resolve("y.db").toString(), "--", Cli.java(), "-version"));
        oneLine(Cli.run("report", dir.resolve("none.db").toString()));
        oneLine(Cli.run("report", dir.resolve("none.db").toString(), "--by", "colour"));
        oneLine(Cli.run("import", dir.resolve("none.hyprof").toString(), "-o", dir.resolve("z.db").toString()));
        oneLine(Cli.run("instrument", dir.resolve("none.jar").toString(), "-o", dir.resolve("o.jar").toString()));
    }

    @Test
    void corruptSessionDatabase() throws Exception {
        Path db = dir.resolve("corrupt.db");
        Files.write(db, new byte[4096]);
        Cli c = Cli.run("report", db.toString());
        oneLine(c);
        assertTrue(c.err.contains(db.toString()), c.err);
    }

    @Test
    void notAJarToInstrument() throws Exception {
        Path junk = dir.resolve("junk.jar");
        Files.writeString(junk, "no zip here");
        Path out = dir.resolve("out.jar");
        Cli c = Cli.run("instrument", junk.toString(), "-o", out.toString());
        oneLine(c);
        assertTrue(c.err.contains("not a jar"), c.err);
        assertFalse(Files.exists(out));
        try (var s = Files.list(dir)) {
            assertTrue(s.noneMatch(f -> f.getFileName().toString().endsWith(".tmp")), "no partial output left");
        }
    }
}
