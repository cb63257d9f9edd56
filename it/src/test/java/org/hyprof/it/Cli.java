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

    /** CSV of 'hyprof report --format csv' as rows keyed by the first column (quoted fields: names with ", "). */
    static Map<String, Map<String, String>> csv(String text) {
        String[] lines = text.strip().split("\n");
        List<String> head = fields(lines[0]);
        Map<String, Map<String, String>> rows = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            List<String> f = fields(lines[i]);
            Map<String, String> row = new HashMap<>();
            for (int k = 0; k < head.size() && k < f.size(); k++) row.put(head.get(k), f.get(k));
            rows.put(f.get(0), row);
        }
        return rows;
    }

    /** One CSV line's fields (RFC 4180 quoting). */
    static List<String> fields(String line) {
        List<String> out = new java.util.ArrayList<>();
        StringBuilder b = new StringBuilder();
        boolean q = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (q) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') { b.append('"'); i++; }
                else if (c == '"') q = false;
                else b.append(c);
            } else if (c == '"') q = true;
            else if (c == ',') { out.add(b.toString()); b.setLength(0); }
            else b.append(c);
        }
        out.add(b.toString());
        return out;
    }

    /**
     * The rows with each loop also under its index name ({@code pkg.C.m(int)#loopK}, K its place in
     * the method), as the session's probes give it: loops are named by source line, which these
     * tests need not know.
     */
    static Map<String, Map<String, String>> withLoopIndexes(java.nio.file.Path db, Map<String, Map<String, String>> rows) {
        Map<String, Map<String, String>> out = new HashMap<>(rows);
        try (org.hyprof.store.Store s = org.hyprof.store.Store.openReadOnly(db)) {
            for (org.hyprof.store.ProcessInfo p : s.processes()) {
                List<org.hyprof.config.ProbeInfo> probes = s.probes(p.id());
                Map<Integer, String> names = org.hyprof.config.MethodNames.names(probes, org.hyprof.config.MethodNames.Style.JAVA);
                for (org.hyprof.config.ProbeInfo i : probes) {
                    if (!i.loop() || !rows.containsKey(names.get(i.id()))) continue;
                    String m = org.hyprof.config.MethodNames.method(i.className(), i.methodName(), i.descriptor(),
                            org.hyprof.config.MethodNames.Style.JAVA);
                    out.putIfAbsent(m + "#loop" + i.loopIndex(), rows.get(names.get(i.id())));
                }
            }
        }
        return out;
    }

    static List<String> lines(String s) {
        List<String> r = new ArrayList<>();
        for (String l : s.split("\n")) if (!l.isBlank()) r.add(l);
        return r;
    }
}
