package org.hyprof.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hyprof.config.ConfigException;
import org.hyprof.config.ProfilingConfig;
import picocli.CommandLine.Option;

/** What to instrument and record: options shared by {@code profile} and {@code instrument}. */
public final class ConfigOptions {
    @Option(names = "--include", paramLabel = "PATTERN",
            description = "Classes to instrument (glob: * matches anything, dots included), e.g. 'com.example.*'. Repeatable; default: all.")
    List<String> include = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "PATTERN", description = "Classes not to instrument. Repeatable.")
    List<String> exclude = new ArrayList<>();

    @Option(names = "--config", paramLabel = "FILE",
            description = "Settings file (Java properties: include, exclude, mode, budget, resolutions, roots, minDuration, minCalls, maxDepth, timeAll, cpuClock, cpuSampleMicros). Options given here win.")
    Path config;

    @Option(names = "--resolution", paramLabel = "R", split = ",",
            description = "Probes that start on: process, thread, method, loop. Default: all for 'instrument' and hybrid runs; "
                    + "'profile': process, thread, method, and a loop's code is placed when it is switched on (ctl on, a zoom step).")
    List<String> resolutions = new ArrayList<>();

    @Option(names = "--root", paramLabel = "PATTERN",
            description = "Caller filter: record only inside calls of methods matching 'pkg.Class.method' (glob). Repeatable.")
    List<String> roots = new ArrayList<>();

    @Option(names = "--min-duration", paramLabel = "DUR", description = "Rule: record calls lasting at least DUR (e.g. 10us, 1ms).")
    String minDuration;

    @Option(names = "--min-calls", paramLabel = "N", description = "Rule: record a method after its N-th call on a thread.")
    Integer minCalls;

    @Option(names = "--max-depth", paramLabel = "N", description = "Rule: record calls at most N deep.")
    Integer maxDepth;

    @Option(names = "--time-all",
            description = {"Keep timing every method, however short its calls. By default a method whose calls are mostly",
                "shorter than 3 x the probe cost goes count-only after 1024 calls: its calls are still counted, but",
                "no longer timed (their time shows in the caller's exclusive time), since the probes would cost more",
                "than the call and distort its callers. Reports mark such rows 'c'."})
    boolean timeAll;

    @Option(names = "--clock", paramLabel = "MODE",
            description = "Thread CPU time beside wall time: 'sampled' (default: a sampler thread reads each thread's CPU"
                    + " clock every 2 ms, probes read no extra clock), 'dual' (every probe reads its thread's CPU clock too, as"
                    + " Android's dual-clock tracing does: exact per call, costs a system call per probe, calibrated and"
                    + " deducted) or 'off'. Runtime option cpuClock; the sampling period is cpuSampleMicros.")
    String clock;

    @Option(names = "--probe-sites", paramLabel = "FORM",
            description = "JVM class files: probe entries as 'indy' (default; invokedynamic sites that cost nothing while their probe is off, and a method with nested loops runs its timed calls in an outlined body so the clock reads do not slow its loops), 'indy-inline' (the same without outlined bodies) or 'static' (calls that test a flag; always used for class files older than Java 7). For measuring one against the other.")
    String probeSites;

    /** Builds the profiling config; errors become one-line {@link UserError}s. */
    public ProfilingConfig build() {
        try {
            ProfilingConfig c = new ProfilingConfig();
            if (config != null) c.load(config);
            for (String p : include) c.set("include", p, "--include");
            for (String p : exclude) c.set("exclude", p, "--exclude");
            if (!resolutions.isEmpty()) c.set("resolutions", String.join(";", resolutions), "--resolution");
            for (String r : roots) c.set("roots", r, "--root");
            if (minDuration != null) c.set("minDuration", minDuration, "--min-duration");
            if (minCalls != null) c.set("minCalls", minCalls.toString(), "--min-calls");
            if (maxDepth != null) c.set("maxDepth", maxDepth.toString(), "--max-depth");
            if (timeAll) c.set("timeAll", "true", "--time-all");
            if (probeSites != null) c.set("sites", probeSites, "--probe-sites");
            if (clock != null) c.set("cpuClock", clock, "--clock");
            return c;
        } catch (ConfigException e) {
            // a bad option value is bad usage (2), like the values picocli itself refuses; a bad file is bad input (1)
            throw new UserError(e.getMessage(), e.getMessage().startsWith("--") ? 2 : 1);
        }
    }

    /** The same settings as agent arguments ({@code key=value,...}). */
    public List<String> agentArgs() {
        List<String> a = new ArrayList<>();
        if (config != null) a.add("config=" + config.toAbsolutePath());
        for (String p : include) a.add("include=" + p);
        for (String p : exclude) a.add("exclude=" + p);
        if (!resolutions.isEmpty()) a.add("resolutions=" + String.join(";", resolutions));
        for (String r : roots) a.add("roots=" + r);
        if (minDuration != null) a.add("minDuration=" + minDuration);
        if (minCalls != null) a.add("minCalls=" + minCalls);
        if (maxDepth != null) a.add("maxDepth=" + maxDepth);
        if (timeAll) a.add("timeAll=true");
        if (probeSites != null) a.add("sites=" + probeSites);
        if (clock != null) a.add("cpuClock=" + clock);
        return a;
    }
}
