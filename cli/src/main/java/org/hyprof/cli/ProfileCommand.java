package org.hyprof.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hyprof.config.ConfigException;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.store.SessionImporter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code hyprof profile -o S.db -- java ARGS…}: run a JVM program with the agent and import its
 * session when it ends (also when it crashes or is killed: the session file is crash-safe).
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = {"Run a Java program with hyprof's agent and store its profile in a session database.",
            "Everything after -- is the command: its first word is the java launcher; the agent option is",
            "inserted right after it. Example: hyprof profile -o s.db -- java -cp app.jar com.example.Main",
            "Hybrid run (native methods in the emulator, native cost on the calling Java methods):",
            "  hyprof profile --native-libs samples/native/lib --abi armeabi-v7a --cpu cortex-a9 -o s.db -- java ..."})
public final class ProfileCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = {"-o", "--output"}, paramLabel = "S.db",
            description = "Session database to write (required unless --connect sends the data to a collector).")
    Path out;

    @Option(names = "--connect", paramLabel = "HOST:PORT",
            description = "Stream to a collector ('hyprof serve', 'hyprof tui --listen') and take live control from it.")
    String connect;

    @Mixin TokenOptions auth;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "aggregate",
            description = "aggregate (per-method statistics, constant memory) or events (also every call, for exports). Default: ${DEFAULT-VALUE}.")
    String mode;

    @Option(names = "--budget", paramLabel = "SIZE", defaultValue = "64m",
            description = "Event log budget in events mode (e.g. 16m, 1g); events beyond it are dropped and counted. Default: ${DEFAULT-VALUE}.")
    String budget;

    @Option(names = "--keep", paramLabel = "WHICH",
            description = {"Events mode: which events the budget keeps. 'first' (default): events past it are dropped and counted.",
                "'last': a flight recorder: each thread's oldest events are overwritten by newer ones (counted), so the",
                "session ends with the program's last events. Config key 'keep'."})
    String keep;

    @Option(names = "--max-age", paramLabel = "DUR",
            description = "With --keep last: events older than this (e.g. 10s, 500ms) are not kept either. Config key 'maxAge'.")
    String maxAge;

    @Option(names = "--tree-nodes", paramLabel = "N",
            description = {"Nodes the calling-context tree (report --by tree) may keep over all live threads; calls on",
                "paths past them are counted in an '(other paths)' frame under the deepest kept node, and the",
                "method table still counts every call. 0: no tree. Default 80000 (with their histograms at most 64 MB). Config key 'treeNodes'."})
    String treeNodes;

    @Option(names = "--append", description = "Add this run as another process of an existing session.")
    boolean append;

    @Option(names = "--force", description = "Replace an existing session database.")
    boolean force;

    @Option(names = "--keep-raw", description = "Keep the runtime's session file (S.db.hyprof) after importing it.")
    boolean keepRaw;

    @Mixin ConfigOptions options;

    @Mixin HybridOptions hybrid;

    @Mixin PowerOptions power;

    /** For {@code demo}, which names the next commands itself once its report is printed. */
    @Option(names = "--no-next-commands", hidden = true)
    boolean noNextCommands;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "java and its arguments (after --).")
    List<String> command = new ArrayList<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        if (out == null && connect == null) throw new UserError("-o S.db or --connect HOST:PORT is required", 2);
        if (connect != null) HostPort.parse(connect, "--connect");
        if (out != null && Files.exists(out) && !append && !force)
            throw new UserError(out + ": already exists (--force replaces it, --append adds to it)");
        if (out != null) {
            // where the session goes is checked before the program runs, as export and instrument
            // check theirs: a missing directory is not made, a file --append cannot add to is refused
            OutputFile.check(out);
            if (append && Files.exists(out)) {
                try (org.hyprof.store.Store s = org.hyprof.store.Store.openReadOnly(out)) {
                    s.processes();
                } catch (org.hyprof.store.StoreException e) {
                    throw new UserError(e.getMessage());
                }
            }
        }
        // validate everything before starting the program
        ProfilingConfig cfg = options.build();
        List<String> agentArgs = options.agentArgs();
        agentArgs.addAll(hybrid.agentArgs());
        org.hyprof.correlate.EnergyModel energy = power.model();
        try {
            cfg.set("mode", mode, "--mode");
            cfg.set("budget", budget, "--budget");
            if (keep != null) cfg.set("keep", keep, "--keep");
            if (treeNodes != null) cfg.set("treeNodes", treeNodes, "--tree-nodes");
            if ("last".equals(keep) && !mode.equals("events"))
                throw new UserError("--keep last needs --mode events (aggregate mode keeps no events)", 2);
            if (maxAge != null) {
                if (!(keep != null ? keep.equals("last") : cfg.runtime.keepLast))
                    throw new UserError("--max-age needs --keep last (the first events are kept whatever their age)", 2);
                cfg.set("maxAge", maxAge, "--max-age");
            }
        } catch (ConfigException e) {
            throw new UserError(e.getMessage(), 2);
        }
        Path raw = out == null ? null : Path.of(out + ".hyprof");
        if (raw != null) {
            Files.deleteIfExists(raw);
            agentArgs.add(0, "out=" + raw.toAbsolutePath());
        }
        if (connect != null) agentArgs.add("connect=" + connect);
        if (connect != null) {
            // the agent reads the token file itself (not on its command line); HYPROF_TOKEN it inherits
            Path tf = auth.file();
            if (tf != null) {
                auth.resolve(); // says so now if the file is missing or readable by others
                agentArgs.add("tokenFile=" + tf.toAbsolutePath());
            } else if (auth.token != null) agentArgs.add("token=" + auth.token);
        }
        agentArgs.add("mode=" + mode);
        agentArgs.add("budget=" + budget);
        if (keep != null) agentArgs.add("keep=" + keep);
        if (maxAge != null) agentArgs.add("maxAge=" + maxAge);
        if (treeNodes != null) agentArgs.add("treeNodes=" + treeNodes);
        for (String a : agentArgs)
            if (a.indexOf(',') >= 0) throw new UserError("'" + a + "': commas are not allowed in patterns or paths", 2);
        List<String> cmd = new ArrayList<>(command);
        cmd.add(1, "-javaagent:" + Home.agentJar() + "=" + String.join(",", agentArgs));
        Process p;
        try {
            p = new ProcessBuilder(cmd).inheritIO().start();
        } catch (IOException e) {
            throw new UserError(command.get(0) + ": cannot run (" + e.getMessage() + ")");
        }
        int code = p.waitFor();
        if (raw == null) {
            if (code != 0) err.println("hyprof: the program exited with code " + code);
            return code;
        }
        if (!Files.exists(raw)) {
            err.println("hyprof: the program exited with code " + code + " and wrote no session"
                    + " (did the agent start? is the first word after -- a java launcher?)");
            return code != 0 ? code : 1;
        }
        if (code != 0) err.println("hyprof: the program exited with code " + code + "; importing what it recorded");
        SessionImporter.Result r = ImportCommand.importInto(raw, out, append, force, err);
        try (org.hyprof.store.Store store = org.hyprof.store.Store.open(out)) {
            energy.save(store);
        }
        boolean damaged = r.notes().stream().anyMatch(n -> n.contains("damaged"));
        if (!keepRaw && !damaged) Files.deleteIfExists(raw);
        else err.println("hyprof: raw session kept in " + raw);
        // the agent starts loops off unless asked for them (or in a hybrid run): it places their code when switched on
        boolean loops = hybrid.dir != null || cfg.resolutionsGiven() && cfg.resolutions.contains(org.hyprof.config.Resolution.LOOP);
        if (!noNextCommands) NextCommands.print(err, out, mode.trim().equalsIgnoreCase("events"), hybrid.dir != null, loops);
        return code;
    }
}
