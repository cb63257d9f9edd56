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
 */
final class FuzzStore {
    private FuzzStore() {}

    static final Path DIR;
    static final Store STORE;
    /** Where a fuzz input is written when the code under test reads a file. */
    static final Path INPUT;

    static {
        try {
            Path shm = Path.of("/dev/shm");
            DIR = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "hyprof-fuzz")
                    : Files.createTempDirectory("hyprof-fuzz");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        DIR.toFile().deleteOnExit(); // deleted last, once empty
        Path db = DIR.resolve("fuzz.db");
        INPUT = DIR.resolve("input.hyprof");
        for (Path p : new Path[] {db, Path.of(db + "-wal"), Path.of(db + "-shm"), INPUT}) p.toFile().deleteOnExit();
        STORE = Store.create(db);
        Runtime.getRuntime().addShutdownHook(new Thread(STORE::close));
    }
}
