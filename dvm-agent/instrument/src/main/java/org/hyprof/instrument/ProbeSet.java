package org.hyprof.instrument;

import java.util.ArrayList;
import java.util.List;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.config.SkippedMethod;
import org.hyprof.runtime.Hyprof;

/**
 * Probes placed so far, and what the runtime must know of them: kinds, initial flags (from the
 * config's resolutions) and caller-filter roots (from its root patterns).
 */
public final class ProbeSet {
    private final ProfilingConfig config;
    private final Manifest manifest = new Manifest();
    private final List<Integer> roots = new ArrayList<>();
    private final java.util.Map<Integer, ProbeInfo> byId = new java.util.HashMap<>();

    public ProbeSet(ProfilingConfig config) {
        this.config = config;
    }

    public Manifest manifest() {
        return manifest;
    }

    /** The probe with this id, or null. */
    public ProbeInfo probe(int id) {
        return byId.get(id);
    }

    /** Root probe ids so far. */
    public int[] roots() {
        return roots.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Records probes and skips of one class; returns true when new roots were found. */
    public boolean add(List<ProbeInfo> probes, List<SkippedMethod> skipped) {
        boolean newRoot = false;
        for (ProbeInfo p : probes) {
            manifest.add(p);
            byId.put(p.id(), p);
            if (config.isRoot(p)) { roots.add(p.id()); newRoot = true; }
        }
        skipped.forEach(manifest::addSkipped);
        return newRoot;
    }

    /**
     * Makes probes known to the running runtime (the agent's case): ids {@code first..} with kinds
     * and initial flags, plus their manifest lines for the session.
     */
    public void defineInRuntime(List<ProbeInfo> probes, List<SkippedMethod> skipped, boolean newRoots) {
        if (!probes.isEmpty()) {
            int first = Integer.MAX_VALUE, last = -1;
            for (ProbeInfo p : probes) { first = Math.min(first, p.id()); last = Math.max(last, p.id()); }
            byte[] kinds = new byte[last - first + 1];
            boolean[] on = new boolean[kinds.length];
            for (ProbeInfo p : probes) {
                kinds[p.id() - first] = p.loop() ? Hyprof.LOOP : Hyprof.METHOD;
                on[p.id() - first] = config.initiallyOn(p);
            }
            Hyprof.defineProbes(first, kinds, on, Manifest.lines(probes, skipped));
        } else if (!skipped.isEmpty()) {
            Hyprof.defineProbes(0, new byte[0], new boolean[0], Manifest.lines(probes, skipped));
        }
        if (newRoots) Hyprof.setRoots(roots());
    }

    /** Start-up settings an offline-instrumented program runs with (see the runtime's Options). */
    public String runtimeProperties() {
        StringBuilder b = new StringBuilder("# hyprof runtime settings; -Dhyprof.options=k=v,... overrides\n");
        var o = config.runtime;
        if (o.out != null) b.append("out=").append(o.out).append('\n');
        b.append("mode=").append(o.events ? "events" : "aggregate").append('\n');
        b.append("budget=").append(o.budgetBytes).append('\n');
        b.append("resolutions=").append(String.join(":", config.resolutions.stream().map(r -> r.label()).toList())).append('\n');
        int[] rootIds = roots();
        if (rootIds.length > 0) {
            b.append("roots=");
            for (int i = 0; i < rootIds.length; i++) b.append(i > 0 ? ":" : "").append(rootIds[i]);
            b.append('\n');
        }
        if (o.minDurationNanos > 0) b.append("minDuration=").append(o.minDurationNanos).append('\n');
        if (o.minCalls > 0) b.append("minCalls=").append(o.minCalls).append('\n');
        if (o.maxDepth > 0) b.append("maxDepth=").append(o.maxDepth).append('\n');
        if (o.timeAll) b.append("timeAll=true\n");
        if (o.connect != null) b.append("connect=").append(o.connect).append('\n');
        if (o.token != null) b.append("token=").append(o.token).append('\n');
        return b.toString();
    }
}
