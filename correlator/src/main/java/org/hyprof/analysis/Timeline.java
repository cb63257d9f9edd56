package org.hyprof.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.ProbeInfo;
import org.hyprof.correlate.EnergyModel;
import org.hyprof.store.NativeEpoch;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.ThreadInfo;

/**
 * The calls of an events-mode session, per thread, rebuilt from the runtime's event records
 * (see the runtime's EventLog) by {@link EventReplay}: each enter matched with its exit. A record
 * cut at the end of a chunk ends that chunk; exits without an enter (events dropped by the budget,
 * probes toggled) are skipped; activations still open at the end are closed at the thread's last
 * timestamp and marked {@link Call#closedAtEnd}, so every export nests correctly and says what it
 * completed. Holds every call in memory: exports stream the same calls with {@link CallStream};
 * for aggregates over long logs see {@link CallGraph}.
 */
public final class Timeline {
    /**
     * One activation: a method call or a loop. Times are System.nanoTime() values of the recording
     * VM; {@code startCpuNanos}/{@code endCpuNanos} the thread's CPU clock then (as the probe read
     * or extrapolated it, not deducted), or -1 when its records carry none ({@code cpuClock=off},
     * session format before 5).
     */
    public record Call(int probeId, boolean loop, long startNanos, long endNanos, int depth, boolean thrown,
                       boolean closedAtEnd, long iterations, long startCpuNanos, long endCpuNanos) {
        /** Thread CPU time from start to end (raw, like {@code endNanos - startNanos}), or -1 without it. */
        public long cpuNanos() {
            return startCpuNanos < 0 || endCpuNanos < 0 ? -1 : endCpuNanos - startCpuNanos;
        }
    }

    /** One thread's calls in order of their start (parents before children). */
    public record ThreadCalls(long tid, String name, List<Call> calls) {}

    public final ProcessInfo process;
    public final Map<Integer, ProbeInfo> probes;
    public final List<ThreadCalls> threads;
    /** Earliest and latest timestamps over all threads (0 when empty). */
    public final long firstNanos, lastNanos;
    public final long eventDrops;
    /** How Java energy is estimated (the session's setting). */
    public final EnergyModel energy;
    /** Native calls of a hybrid run, in the order they ended (empty otherwise). */
    public final List<NativeEpoch> epochs;

    private Timeline(ProcessInfo process, Map<Integer, ProbeInfo> probes, List<ThreadCalls> threads, long eventDrops,
                     EnergyModel energy, List<NativeEpoch> epochs) {
        this.process = process;
        this.probes = probes;
        this.threads = threads;
        this.energy = energy;
        this.epochs = epochs;
        long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
        for (ThreadCalls t : threads)
            for (Call c : t.calls) { first = Math.min(first, c.startNanos()); last = Math.max(last, c.endNanos()); }
        this.firstNanos = first == Long.MAX_VALUE ? 0 : first;
        this.lastNanos = last == Long.MIN_VALUE ? 0 : last;
        this.eventDrops = eventDrops;
    }

    /** Builds the timeline of a process; {@code threadName} (nullable) keeps only threads with that name. */
    public static Timeline load(Store store, ProcessInfo process, String threadName) {
        Map<Integer, ProbeInfo> probes = new LinkedHashMap<>();
        for (ProbeInfo p : store.probes(process.id())) probes.put(p.id(), p);
        Map<Long, String> names = new LinkedHashMap<>();
        for (ThreadInfo t : store.threads(process.id())) names.put(t.tid(), t.name());
        Map<Long, Builder> builders = new LinkedHashMap<>();
        store.eventChunks(process.id(), chunk -> {
            String name = names.getOrDefault(chunk.tid(), "thread-" + chunk.tid());
            if (threadName != null && !threadName.equals(name)) return;
            builders.computeIfAbsent(chunk.tid(), t -> new Builder(t, name)).add(chunk);
        });
        List<ThreadCalls> threads = new ArrayList<>();
        for (Builder b : builders.values()) threads.add(b.finish());
        return new Timeline(process, probes, threads, process.eventDrops(), EnergyModel.load(store),
                store.nativeEpochs(process.id()));
    }

    /**
     * The energy each call spent in itself (µJ, by index into {@code th.calls()}): its self time
     * (duration minus its children's) without native time × the Java power, plus the native
     * energy of the emulated call it made, if it is a native method's bridge. Bridge calls are
     * matched to their epochs in the order both ended (per thread and method); JNI_OnLoad's
     * epochs are not on any call here.
     */
    public double[] selfEnergyMicrojoules(ThreadCalls th) {
        List<Call> calls = th.calls();
        double[] out = new double[calls.size()];
        long[] nativeNanos = new long[calls.size()];
        long[] nativePicojoules = new long[calls.size()];
        Map<Integer, List<NativeEpoch>> byProbe = new LinkedHashMap<>();
        for (NativeEpoch e : epochs) if (e.tid() == th.tid()) byProbe.computeIfAbsent(e.probeId(), k -> new ArrayList<>()).add(e);
        for (Map.Entry<Integer, List<NativeEpoch>> e : byProbe.entrySet()) {
            List<Integer> idx = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) if (!calls.get(i).loop() && calls.get(i).probeId() == e.getKey()) idx.add(i);
            idx.sort((a, b) -> Long.compare(calls.get(a).endNanos(), calls.get(b).endNanos()));
            List<NativeEpoch> ep = e.getValue();
            for (int k = 0; k < Math.min(idx.size(), ep.size()); k++) {
                nativeNanos[idx.get(k)] = ep.get(k).estNanos();
                nativePicojoules[idx.get(k)] = ep.get(k).energyPicojoules();
            }
        }
        Map<Call, Integer> index = new java.util.IdentityHashMap<>();
        for (int i = 0; i < calls.size(); i++) index.put(calls.get(i), i);
        List<Long> childTime = new ArrayList<>();
        Sweep.walk(calls, new Sweep.Visitor() {
            @Override
            public void open(Call c, java.util.Deque<Call> s) {
                childTime.add(0L);
            }

            @Override
            public void close(Call c, java.util.Deque<Call> s) {
                long dur = c.endNanos() - c.startNanos();
                long self = dur - childTime.remove(childTime.size() - 1);
                if (!childTime.isEmpty()) childTime.set(childTime.size() - 1, childTime.get(childTime.size() - 1) + dur);
                int i = index.get(c);
                out[i] = energy.microjoules(Math.max(nativeNanos[i], self), nativeNanos[i], nativePicojoules[i]);
            }
        });
        return out;
    }

    /** Whether the session has any event records at all. */
    public boolean isEmpty() {
        for (ThreadCalls t : threads) if (!t.calls.isEmpty()) return false;
        return true;
    }

    /** Collects one thread's calls in start order (a slot is reserved when a call opens). */
    private static final class Builder extends EventReplay {
        final long tid;
        final String name;
        final List<Call> calls = new ArrayList<>();

        Builder(long tid, String name) {
            this.tid = tid;
            this.name = name;
        }

        @Override
        protected int opened(int probeId, boolean loop, long startNanos, long startCpuNanos) {
            calls.add(null); // placeholder keeps start order
            return calls.size() - 1;
        }

        @Override
        protected void closed(Call call, int slot) {
            calls.set(slot, call);
        }

        ThreadCalls finish() {
            closeAll();
            List<Call> done = new ArrayList<>(calls.size());
            for (Call c : calls) if (c != null) done.add(c);
            return new ThreadCalls(tid, name, done);
        }
    }
}
