package org.hyprof.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hyprof.store.SessionImporter;
import org.hyprof.store.Store;
import org.hyprof.store.StoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code hyprof import FILE -o S.db}: load a runtime session file (e.g. pulled from a device). */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Load a session file written by the runtime into a session database.",
            "A damaged or truncated file (process killed) loads its valid part; the damage is reported."})
public final class ImportCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "Session file (*.hyprof).")
    Path file;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "S.db", description = "Session database to create (or add to, with --append).")
    Path out;

    @Option(names = "--append", description = {"Add this file to an existing session: as another process, or, when the session has",
            "its run already (same pid and start times: an agent's spill file), into that process, counted once."})
    boolean append;

    @Option(names = "--force", description = "Replace an existing session database.")
    boolean force;

    @Override
    public Integer call() throws IOException {
        SessionImporter.Result r = importInto(file, out, append, force, spec.commandLine().getErr());
        return r == null ? 1 : 0;
    }

    /** Shared with 'profile': opens or creates the store, imports, prints a summary and notes. */
    static SessionImporter.Result importInto(Path file, Path out, boolean append, boolean force, PrintWriter err) throws IOException {
        if (!Files.exists(file)) throw new UserError(file + ": no such session file");
        if (Files.isDirectory(file)) throw new UserError(file + ": is a directory, not a session file");
        OutputFile.checkDirectory(out); // text.txt/y.db was an internal error (the clean-up's "Not a directory")
        if (Files.exists(out) && !append) {
            if (!force) throw new UserError(out + ": already exists (--force replaces it, --append adds to it)");
            deleteSession(out);
        }
        boolean created = !Files.exists(out);
        SessionImporter.Result r;
        try (Store store = created ? Store.create(out) : Store.open(out)) {
            r = SessionImporter.importFile(file, store);
        } catch (IOException | RuntimeException e) {
            // a session database this command created holds nothing useful: do not leave it behind
            if (created) {
                try {
                    deleteSession(out);
                } catch (IOException cleanup) {
                    e.addSuppressed(cleanup); // the reason the import failed is what the user needs
                }
            }
            if (e instanceof UserError u) throw u;
            throw new UserError(e instanceof StoreException || e instanceof IOException ? e.getMessage() : file + ": " + e);
        }
        for (String n : r.notes()) err.println("hyprof: " + n);
        err.printf("hyprof: %s: %sprocess %s, %d probes, %d threads, %d event chunks%s%n", out,
                r.resumed() ? "added to its run, process " + r.processId() + ": " : "",
                r.processName(), r.probes(), r.threads(), r.eventChunks(),
                r.eventDrops() > 0 ? ", " + r.eventDrops() + " events dropped" : "");
        err.flush();
        return r;
    }

    /** Deletes a session database with its WAL and shared-memory files. */
    static void deleteSession(Path db) throws IOException {
        Files.deleteIfExists(db);
        Files.deleteIfExists(Path.of(db + "-wal"));
        Files.deleteIfExists(Path.of(db + "-shm"));
    }
}
