package org.hyprof.it;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.cli.HyprofCommand;
import picocli.CommandLine;

/** Runs the hyprof command in-process and captures what it prints. */
final class Cli {
    final int exit;
    final String out;
    final String err;

    private Cli(int exit, String out, String err) {
        this.exit = exit;
        this.out = out;
        this.err = err;
    }

    static Cli run(String... args) {
        StringWriter o = new StringWriter(), e = new StringWriter();
        CommandLine cl = HyprofCommand.newCommandLine();
        cl.setOut(new PrintWriter(o, true));
        cl.setErr(new PrintWriter(e, true));
        int code = cl.execute(args);
        return new Cli(code, o.toString(), e.toString());
    }

    /**
     * Where hyprof.jar and lib/ are: {@code -Dhyprof.home} (the it module's build sets it to
     * cli/target), as the in-process command finds them too.
     */
    static Path home() {
        return Path.of(System.getProperty("hyprof.home", "../cli/target")).toAbsolutePath().normalize();
    }

    /** The packaged command, as a user runs it. */
    static Path hyprofJar() {
        return home().resolve("hyprof.jar");
    }

    /** The -javaagent jar (hyprof-runtime.jar is beside it). */
    static Path agentJar() {
        return home().resolve("lib/hyprof-agent.jar");
    }

    /** The java launcher running this test. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Class path entry (directory or jar) that holds a class. */
    static String classpathOf(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** CSV of 'hyprof report --format csv' as rows keyed by the first column. */
    static Map<String, Map<String, String>> csv(String text) {
        String[] lines = text.strip().split("\n");
        String[] head = lines[0].split(",");
        Map<String, Map<String, String>> rows = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].split(",");
            Map<String, String> row = new HashMap<>();
            for (int k = 0; k < head.length && k < f.length; k++) row.put(head[k], f[k]);
            rows.put(f[0], row);
        }
        return rows;
    }

    static List<String> lines(String s) {
        List<String> r = new ArrayList<>();
        for (String l : s.split("\n")) if (!l.isBlank()) r.add(l);
        return r;
    }
}
