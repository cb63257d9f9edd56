package org.hyprof.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hyprof.export.SyntheticSession;

/**
 * Writes the synthetic events-mode session that {@code bench/export.sh} exports:
 * {@code ExportSession S.db EVENTS [THREADS]} (4 threads by default). See the correlator's
 * {@code SyntheticSession} for its shape.
 */
public final class ExportSession {
    private ExportSession() {}

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        long events = Long.parseLong(args[1]);
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        Files.deleteIfExists(db);
        long n = SyntheticSession.create(db, events, threads);
        System.out.println(n);
    }
}
