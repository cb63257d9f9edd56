package org.hyprof.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The store and scratch file the store's fuzz tests share: one SQLite session in a temporary
 * directory for the whole run (creating one per input would make a fuzz run measure schema
 * migrations), deleted when the JVM exits. Each input is imported as a process of its own. The
 * directory is in {@code /dev/shm} where there is one: SQLite syncs every transaction to disk,
 * which on a disk made a fuzz run of the store reach only ~200 inputs a second.
 *
 * <p>The store is replaced by a new one every {@link #INPUTS_PER_STORE} inputs. Inputs that copy
 * the golden file's header are appended to one run's row ({@code import --append}), which then
 * grows with every damaged variant's notes and probes, and appending reads what the row holds
 * (to count everything once): after ~20,000 inputs a 306-byte file's import allocated past the
 * bound for that reason alone, and each import took longer. A fresh store keeps what an import
 * finds in the session to what a real session holds.
 */
final class FuzzStore {
    private FuzzStore() {}

    /** Inputs imported into one store before it is replaced. */
    static final int INPUTS_PER_STORE = 2_000;

    static final Path DIR;
    /** Where a fuzz input is written when the code under test reads a file. */
    static final Path INPUT;
    private static Store store;
    private static int inputs, stores;

    static {
        try {
            Path shm = Path.of("/dev/shm");
            DIR = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "hyprof-fuzz")
                    : Files.createTempDirectory("hyprof-fuzz");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        DIR.toFile().deleteOnExit(); // deleted last, once empty
        INPUT = DIR.resolve("input.hyprof");
        INPUT.toFile().deleteOnExit();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            synchronized (FuzzStore.class) {
                if (store != null) store.close();
            }
        }));
    }

    /** The store for the next input (a new one every {@link #INPUTS_PER_STORE} calls). */
    static synchronized Store store() {
        if (store != null && inputs++ < INPUTS_PER_STORE) return store;
        if (store != null) {
            store.close();
            deleteStore(stores);
        }
        inputs = 1;
        Path db = DIR.resolve("fuzz-" + ++stores + ".db");
        for (Path p : files(db)) p.toFile().deleteOnExit();
        store = Store.create(db);
        return store;
    }

    private static Path[] files(Path db) {
        return new Path[] {db, Path.of(db + "-wal"), Path.of(db + "-shm")};
    }

    private static void deleteStore(int n) {
        try {
            for (Path p : files(DIR.resolve("fuzz-" + n + ".db"))) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
