package org.hyprof.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.correlate.Printable;
import org.hyprof.store.DamagedChunk;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;

/**
 * The check {@code report} and {@code export} make before they use a session: every event chunk
 * against the CRC-32 stored with it. A damaged chunk is named on stderr (one warning line each);
 * without {@code --allow-damaged} the command then stops with exit 1 and writes nothing, since
 * call stacks rebuilt around a damaged chunk are wrong; with it, the damaged chunks are left out.
 */
final class DamagedChunks {
    private DamagedChunks() {}

    /** Warns about each damaged chunk of these processes; returns how many, or throws unless {@code allow}. */
    static long check(Store store, Path session, List<ProcessInfo> processes, boolean allow, PrintWriter err) {
        long n = 0;
        for (ProcessInfo p : processes) {
            List<DamagedChunk> damaged = store.damagedEventChunks(p.id());
            if (damaged.isEmpty()) continue;
            Map<Long, String> names = new HashMap<>();
            for (ThreadInfo t : store.threads(p.id())) names.put(t.tid(), t.name());
            for (DamagedChunk d : damaged) {
                err.printf("hyprof: warning: %s: event chunk %d of thread %d (%s) of process %d (%s, pid %d) is damaged"
                                + " (its %d bytes do not match their CRC-32): %s%n", session, d.seq(), d.tid(),
                        Printable.of(names.getOrDefault(d.tid(), "?")), p.id(), Printable.of(p.name()), p.pid(), d.bytes(),
                        allow ? "left out" : "not used");
                n++;
            }
        }
        err.flush();
        if (n > 0 && !allow)
            throw new UserError(session + ": " + n + " damaged event chunk" + (n == 1 ? "" : "s")
                    + "; --allow-damaged goes on without " + (n == 1 ? "it (the calls in it are left out)" : "them (the calls in them are left out)"));
        return n;
    }
}
