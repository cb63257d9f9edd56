package org.hyprof.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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

    @Override
    public Integer call() throws Exception {
        if ((session == null) == (listen == null)) throw new UserError("give a session database or --listen HOST:PORT (not both)", 2);
        if (listen != null) HostPort.parse(listen, "--listen");
        if (session != null && !Files.exists(session)) throw new UserError(session + ": no such session");
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
        return new ProcessBuilder(cmd).inheritIO().start().waitFor();
    }
}
