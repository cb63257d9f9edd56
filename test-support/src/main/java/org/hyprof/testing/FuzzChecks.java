package org.hyprof.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What every fuzz test ({@code *FuzzTest}, Jazzer's {@code @FuzzTest}) asserts besides "no other
 * exception": that an input error says what is wrong in one line, and that handling an input
 * allocates no more than its size warrants (a length or count read from the input is never trusted
 * for an allocation). Allocation is measured on the calling thread (HotSpot's per-thread
 * allocation counter), so the bound holds whatever the heap size or the garbage collector does.
 */
public final class FuzzChecks {
    private FuzzChecks() {}

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** One run of a fuzz target over its input; it catches the input errors it expects. */
    @FunctionalInterface
    public interface Run {
        void run() throws Exception;
    }

    /**
     * A temporary file (deleted at exit) a fuzz target writes each input to, for parsers that read
     * files; one per target class, made once. In {@code /dev/shm} where there is one: rewriting a
     * file on a disk's file system (ext4 starts writing back a file truncated and rewritten) cost
     * 0.5–1.3 ms per execution, which held a fuzz run of the config parser to 286 executions/s; in
     * memory it is ~20 µs.
     */
    public static Path scratchFile(String suffix) {
        try {
            Path shm = Path.of("/dev/shm");
            Path f = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempFile(shm, "hyprof-fuzz", suffix)
                    : Files.createTempFile("hyprof-fuzz", suffix);
            f.toFile().deleteOnExit();
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An input error must carry a message of one line, so that the user sees what is wrong. */
    public static void inputError(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank() || m.indexOf('\n') >= 0)
            throw new AssertionError("an input error without a one-line message: " + e, e);
    }

    /** Bytes allocated so far by the calling thread. */
    public static long allocatedBytes() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /**
     * Runs {@code target} and fails when it allocated more than {@code perInputByte} times the
     * input's length plus {@code fixedBytes}. A run over the bound is repeated, twice at most, and
     * only the last run counts: the first run on a new path also loads and initialises classes
     * (megabytes, and more under Jazzer's instrumentation), which says nothing about the input; and
     * a repetition may take a new path itself (a session file imported again is appended to the
     * run the first import made).
     */
    public static void allocationBounded(int inputBytes, long perInputByte, long fixedBytes, Run target) throws Exception {
        long bound = fixedBytes + perInputByte * inputBytes;
        long used = 0;
        for (int run = 0; run < 3; run++) {
            long before = allocatedBytes();
            target.run();
            used = allocatedBytes() - before;
            if (used <= bound) return;
        }
        throw new AssertionError("a " + inputBytes + "-byte input made " + used + " bytes of allocations (bound " + bound + ")");
    }
}
