package org.hyprof.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hyprof tui}: the terminal UI, in a JVM of its own so Lanterna (LGPL-3.0) never shares a
 * process with the emulator (GPL-2.0-only); see THIRD-PARTY.md.
 */
@Command(name = "tui", mixinStandardHelpOptions = true,
        description = {"Terminal UI on a stored session, or live with a collector inside (--listen).",
            "Zoom from process to threads, methods and loops, toggle probes, hotspots, method detail and energy.",
            "Press ? inside for the keys."})
public final class TuiCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "S.db", description = "Stored session to open.")
    Path session;

    @Option(names = "--listen", paramLabel = "HOST:PORT", description = "Run a collector inside and show agents as they connect.")
    String listen;

    @Option(names = "--token", paramLabel = "T", description = "Token agents and ctl must present (with --listen; default: the one in S.db.token, made if missing).")
    String token;

    @Option(names = "--token-file", paramLabel = "F", description = "File holding the token (with --listen; made if missing). Default: S.db.token.")
    Path tokenFile;

    @Option(names = {"-o", "--output"}, paramLabel = "S.db", description = "Session database for --listen (default hyprof-live.db).")
    Path out;

    @Mixin NamingOptions naming;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if ((session == null) == (listen == null)) throw new UserError("give a session database or --listen HOST:PORT (not both)", 2);
        if (listen != null) HostPort.parse(listen, "--listen");
        if (session != null && !Files.exists(session)) throw new UserError(session + ": no such session");
        if (session != null) {
            // a file that is not a session is said so here, before the UI takes the terminal (or
            // fails for want of one, which would hide the real problem)
            try (org.hyprof.store.Store s = org.hyprof.store.Store.openReadOnly(session)) {
                s.processes();
            } catch (org.hyprof.store.StoreException e) {
                throw new UserError(e.getMessage());
            }
        }
        if (listen != null && token == null) {
            // as 'hyprof serve': the token is made (or read) now and where it is said, so that
            // agents and ctl can be pointed at it; the UI then reads the same file
            Path db = out != null ? out : Path.of("hyprof-live.db");
            Path f = tokenFile != null ? tokenFile : org.hyprof.collector.TokenFile.beside(db);
            org.hyprof.collector.TokenFile.Token t;
            try {
                t = org.hyprof.collector.TokenFile.createOrRead(f);
            } catch (java.io.IOException e) {
                throw new UserError(e.getMessage());
            }
            spec.commandLine().getErr().println("hyprof tui: " + (t.created() ? "token written to " : "token read from ") + f
                    + " (mode 0600); clients: hyprof ctl --token-file " + f + " ..., agents: tokenFile=" + f.toAbsolutePath());
            spec.commandLine().getErr().flush();
            tokenFile = f;
        }
        Path lanterna = Home.lib().resolve("lanterna.jar");
        if (!Files.isRegularFile(lanterna)) throw new UserError(lanterna + ": not found (rebuild with ./hyprof)");
        Path self = Path.of(HyprofCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", self + java.io.File.pathSeparator + lanterna, "org.hyprof.tui.TuiMain"));
        if (session != null) cmd.add(session.toString());
        if (listen != null) { cmd.add("--listen"); cmd.add(listen); }
        if (token != null) { cmd.add("--token"); cmd.add(token); }
        if (tokenFile != null) { cmd.add("--token-file"); cmd.add(tokenFile.toString()); }
        if (out != null) { cmd.add("-o"); cmd.add(out.toString()); }
        if (naming.descriptors) cmd.add("--descriptors");
        return new ProcessBuilder(cmd).inheritIO().start().waitFor();
    }
}
