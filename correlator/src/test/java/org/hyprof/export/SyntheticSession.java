package org.hyprof.export;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.runtime.chunk.EventRecords;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;

/**
 * A large events-mode session made quickly and deterministically (seeded), straight through the
 * store and the runtime's record codec: {@code threads} threads whose calls (200 methods, a loop
 * in every tenth, an exception now and then; each method calls one of two others) open and
 * close at random up to depth 14, 50–550 ns
 * apart, in chunks of 256 KiB as the runtime would send them. For export tests and benchmarks of
 * sessions too big to build through a real run in a test's time.
 */
public final class SyntheticSession {
    private SyntheticSession() {}

    static final int METHODS = 200;
    static final int CHUNK_BYTES = 256 * 1024;

    /** Creates {@code db} with about {@code events} records split over {@code threads} threads; returns the count written. */
    public static long create(Path db, long events, int threads) {
        long written = 0;
        try (Store s = Store.create(db)) {
            long p = s.addProcess(new ProcessInfo(0, 31337, "synthetic.Main", "test-vm", "events", 64L << 20, 1_700_000_000_000L,
                    5_000_000_000L, 1_700_000_100_000L, "ended", 0, "synthetic"));
            List<ProbeInfo> probes = new ArrayList<>();
            for (int m = 1; m <= METHODS; m++) {
                probes.add(new ProbeInfo(m, false, Resolution.METHOD, "synthetic.C" + (m % 17), "m" + m, "(I)V", -1, -1, m, "C" + (m % 17) + ".java"));
                if (m % 10 == 0) probes.add(new ProbeInfo(1000 + m, true, Resolution.LOOP, "synthetic.C" + (m % 17), "m" + m, "(I)V", m, 0, m + 1, "C" + (m % 17) + ".java"));
            }
            s.addProbes(p, probes);
            for (int t = 0; t < threads; t++) {
                long tid = t + 1;
                s.putThread(p, new ThreadInfo(tid, t == 0 ? "main" : "worker-" + t, 0, 0));
                written += thread(s, p, tid, events / threads, new SplittableRandom(42 + t));
            }
        }
        return written;
    }

    private static long thread(Store s, long p, long tid, long events, SplittableRandom r) {
        byte[] chunk = new byte[CHUNK_BYTES];
        int at = 0;
        long seq = 0;
        long now = 5_000_000_000L + tid * 1_000;
        long chunkBase = now, prev = now; // a chunk's base: the time of the record before it
        int[] stack = new int[64]; // probe ids; loops as 1000 + method
        int depth = 0;
        long n = 0;
        while (n < events || depth > 0) {
            now += 50 + r.nextInt(500);
            int id, kind;
            long iterations = 0;
            boolean close = depth > 0 && (n >= events || depth >= 14 || r.nextInt(100) < 48);
            if (close) {
                id = stack[--depth];
                if (id > 1000) {
                    kind = EventRecords.LOOP_EXIT;
                    iterations = 1 + r.nextInt(1000);
                } else kind = r.nextInt(200) == 0 ? EventRecords.THROW : EventRecords.EXIT;
            } else {
                int caller = depth == 0 ? 0 : stack[depth - 1];
                if (caller > 0 && caller < 1000 && caller % 10 == 0 && r.nextInt(4) == 0) {
                    id = 1000 + caller;
                    kind = EventRecords.LOOP_ENTER;
                } else { // each method calls one of two others: a call tree of bounded size, as programs have
                    int from = caller > 1000 ? caller - 1000 : caller;
                    id = 1 + (int) ((from * 31L + 7 + r.nextInt(2) * 101L) % METHODS);
                    kind = EventRecords.ENTER;
                }
                stack[depth++] = id;
            }
            if (at + EventRecords.MAX_RECORD > chunk.length) {
                s.addEventChunk(p, tid, seq++, chunkBase, Arrays.copyOf(chunk, at));
                at = 0;
                chunkBase = prev;
            }
            at = EventRecords.put(chunk, at, id, kind, now - prev, iterations);
            prev = now;
            n++;
        }
        if (at > 0) s.addEventChunk(p, tid, seq, chunkBase, Arrays.copyOf(chunk, at));
        return n;
    }
}
