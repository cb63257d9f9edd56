package org.hyprof.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.hyprof.collector.Collector;
import org.hyprof.live.LiveSession;
import org.hyprof.store.Store;
import org.hyprof.store.StoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code hyprof serve}: a headless collector that agents stream to and ctl drives. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Run a collector that profiled programs stream into while they run.",
            "Agents started with 'hyprof profile --connect HOST:PORT' stream into the",
            "session database as they run; 'hyprof ctl' switches probes, zooms and sets rules live.",
            "Listens on loopback unless told otherwise. Stop it with Ctrl-C (or SIGTERM): connected processes",
            "are marked disconnected, and resume their rows when a collector on the same database is back."})
public final class ServeCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:7811",
            description = "Address to listen on (port 0 picks a free one). Default: ${DEFAULT-VALUE}.")
    String listen;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "S.db", description = "Session database (created, or added to if it exists).")
    Path out;

    @Option(names = "--token", paramLabel = "T", description = "Require this token (default: a random one, kept in --token-file).")
    String token;

    @Option(names = "--token-file", paramLabel = "F", description = "File of the token every agent and ctl must present: read, or made (random, mode 0600) if missing. Default: S.db.token.")
    Path tokenFile;

    @Option(names = "--max-processes", paramLabel = "N", defaultValue = "" + LiveSession.MAX_PROCESSES,
            description = "Processes the session takes; agents beyond are rejected. Default: ${DEFAULT-VALUE}.")
    int maxProcesses;

    /** Set by tests to learn the port and stop the server. */
    static volatile java.util.function.IntConsumer onListening;
    static volatile CountDownLatch stop;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        String[] hp = HostPort.parse(listen, "--listen");
        if (maxProcesses < 1) throw new UserError("--max-processes " + maxProcesses + ": must be at least 1", 2);
        if (token != null && token.isEmpty()) throw new UserError("--token: must not be empty", 2);
        Store store;
        boolean created = !Files.exists(out);
        try {
            store = created ? Store.create(out) : Store.open(out);
        } catch (StoreException e) {
            throw new UserError(e.getMessage());
        }
        try {
            org.hyprof.collector.TokenFile.ownerOnly(out);
        } catch (java.io.IOException e) {
            store.close();
            throw new UserError(out + ": cannot make it readable by its owner only (" + e.getMessage() + ")");
        }
        String tokenNote;
        if (token == null) {
            Path f = tokenFile != null ? tokenFile : org.hyprof.collector.TokenFile.beside(out);
            org.hyprof.collector.TokenFile.Token t;
            try {
                t = org.hyprof.collector.TokenFile.createOrRead(f);
            } catch (java.io.IOException e) {
                store.close();
                if (created) { // the empty session made a moment ago: not left behind
                    for (String side : new String[] {"", "-wal", "-shm", "-journal"})
                        Files.deleteIfExists(Path.of(out + side));
                }
                throw new UserError(e.getMessage());
            }
            token = t.value();
            tokenNote = t.created() ? "token " + token + " written to " + f + " (mode 0600; shown only this once)"
                    : "token read from " + f;
            tokenNote += "; clients: hyprof ctl --token-file " + f + " ..., hyprof profile --connect HOST:PORT --token-file " + f
                    + " ..., agents: tokenFile=" + f.toAbsolutePath();
        } else {
            tokenNote = "token given with --token";
        }
        LiveSession live = new LiveSession(store, token.getBytes(java.nio.charset.StandardCharsets.UTF_8)).maxProcesses(maxProcesses);
        Collector c = new Collector(hp[0], Integer.parseInt(hp[1]), token, live, live, line -> {
            err.println("hyprof serve: " + line);
            err.flush();
        });
        int port;
        try {
            port = c.start();
        } catch (Exception e) {
            store.close();
            throw new UserError(listen + ": cannot listen (" + e.getMessage() + ")");
        }
        err.println("hyprof serve: " + tokenNote);
        err.println("hyprof serve: listening on " + hp[0] + ":" + port + ", writing " + out);
        err.flush();
        CountDownLatch done = stop != null ? stop : new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        // Ctrl-C and SIGTERM run shutdown hooks, and the JVM halts as soon as they return: the
        // hook waits until the session is closed below, or the database would keep processes
        // 'running' that no collector serves
        Thread hook = new Thread(() -> {
            done.countDown();
            try {
                stopped.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "hyprof-serve-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        if (onListening != null) onListening.accept(port);
        try {
            done.await();
        } finally {
            try {
                long connected = live.processes().stream().filter(LiveSession.Proc::connected).count();
                c.close(); // each connection's process becomes 'disconnected'
                live.detachAll(Collector.STOPPED);
                store.close();
                err.println("hyprof serve: stopped; " + connected + " connected process" + (connected == 1 ? "" : "es")
                        + " marked disconnected in " + out + " (an agent that reconnects resumes its row)");
                err.flush();
            } finally {
                stopped.countDown();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is what woke us
                }
            }
        }
        return 0;
    }

    /** How long Ctrl-C or SIGTERM waits for the session to be closed cleanly. */
    private static final long STOP_WAIT_SECONDS = 10;
}
