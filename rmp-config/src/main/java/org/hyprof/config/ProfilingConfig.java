package org.hyprof.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.hyprof.runtime.Options;

/**
 * What to profile and how: the model behind agent arguments and config files.
 *
 * <p>Settings (agent argument {@code key=value,key=value}; config file: Java properties):
 * <table>
 * <caption>settings</caption>
 * <tr><td>include, exclude</td><td>class patterns ({@link Glob}), several separated by {@code ;}</td></tr>
 * <tr><td>mode</td><td>{@code aggregate} (default) or {@code events}</td></tr>
 * <tr><td>budget</td><td>event-log size for events mode, e.g. {@code 64m} (default 64m)</td></tr>
 * <tr><td>keep</td><td>events mode: {@code first} (default: events past the budget are dropped) or
 *     {@code last} (a flight recorder: the oldest are overwritten, the last kept)</td></tr>
 * <tr><td>maxAge</td><td>with {@code keep=last}: events older than this are not kept, e.g. {@code 10s}</td></tr>
 * <tr><td>statsBudget</td><td>bytes of per-thread aggregate pages all live threads may hold, e.g.
 *     {@code 64m} (default 32m); past it activations needing a new page are dropped and counted</td></tr>
 * <tr><td>treeNodes</td><td>nodes the calling-context tree may keep over all live threads (default
 *     80000, at most 64 MB with the nodes' histograms; 0 = no tree); calls on new paths past it are counted in an
 *     {@code (other paths)} frame under the deepest kept node</td></tr>
 * <tr><td>out</td><td>session file the runtime writes</td></tr>
 * <tr><td>resolutions</td><td>which probes start on: {@code process;thread;method;loop} (default all;
 * the JVM agent outside hybrid runs: {@code process;thread;method}, each loop's code placed when it
 * is switched on)</td></tr>
 * <tr><td>roots</td><td>caller-filter roots: method patterns matched against
 *     {@code pkg.Class.method}, {@code pkg.Class.method(int, long[])} or {@code pkg.Class.method(desc)}
 *     (see {@link MethodNames#matchable}), separated by {@code ;}</td></tr>
 * <tr><td>minDuration, minCalls, maxDepth</td><td>rules (see DESIGN.md §3)</td></tr>
 * <tr><td>snapshotMillis, recalibrateMillis, calibrate, process</td><td>runtime tuning</td></tr>
 * <tr><td>connect, token, tokenFile</td><td>stream to a collector at {@code HOST:PORT} (live control), with
 *     its token, or the file holding it (e.g. {@code S.db.token}; without either, {@code HYPROF_TOKEN})</td></tr>
 * <tr><td>exitGraceMillis, spillDir</td><td>at exit, how long to keep trying a collector that is away
 *     (default 3000 ms), and where to write the spill file of what it has not acknowledged (default: the
 *     working directory; an Android app's files directory)</td></tr>
 * <tr><td>timeAll</td><td>{@code true}: keep timing every probe; by default a probe whose calls are
 *     mostly shorter than 3 × the probe cost goes count-only (calls counted, not timed)</td></tr>
 * <tr><td>cpuClock, cpuSampleMicros</td><td>how thread CPU time is measured: {@code sampled} (default; a
 *     sampler thread reads each thread's CPU clock every {@code cpuSampleMicros}, default 2000),
 *     {@code dual} (every probe event reads its thread's CPU clock) or {@code off}</td></tr>
 * <tr><td>nativeLibs, abi, cpu, engine, userland, nativeLimit, nativeSandbox</td><td>hybrid run: the app's native libraries (a directory), the ABI
 *     ({@code arm64-v8a}|{@code armeabi-v7a}), the CPU profile native code is costed with, the
 *     emulator engine ({@code libunicorn}|{@code unidbg}|{@code auto}), what libc/libm calls run on
 *     ({@code bionic}, the default, or {@code stubs}) and the limits of each native
 *     call (instructions and wall time, e.g. {@code 10g;120s}; checked by bb-tracer), and the directory
 *     native code's files live in (bionic; default a temporary one)</td></tr>
 * <tr><td>sites</td><td>JVM class files: how a probe's entry is emitted, {@code indy} (default: an
 *     {@code invokedynamic} site that costs nothing while its probe is off, and methods with nested loops
 *     run their timed calls in an outlined body), {@code indy-inline} (the same without outlined
 *     bodies) or {@code static} (a call that tests the probe's flag; class files older than Java 7
 *     always get it), to measure one against the other</td></tr>
 * <tr><td>config</td><td>(agent argument only) a properties file read first; arguments override</td></tr>
 * </table>
 */
public final class ProfilingConfig {
    private static final Set<String> KEYS = Set.of("include", "exclude", "mode", "budget", "keep", "maxAge", "out", "resolutions",
            "roots", "minDuration", "minCalls", "maxDepth", "snapshotMillis", "recalibrateMillis", "calibrate",
            "process", "config", "connect", "token", "tokenFile", "exitGraceMillis", "spillDir", "statsBudget", "treeNodes", "timeAll", "cpuClock", "cpuSampleMicros", "nativeLibs", "abi", "cpu", "engine", "userland", "nativeLimit", "nativeSandbox", "sites");
    /** Settings of a hybrid run (passed to bb-tracer inside the agent, not to the runtime). */
    private static final Set<String> HYBRID_KEYS = Set.of("nativeLibs", "abi", "cpu", "engine", "userland", "nativeLimit", "nativeSandbox");

    public final ClassFilter classes = new ClassFilter();
    public final Set<Resolution> resolutions = EnumSet.allOf(Resolution.class);
    public final List<Glob> roots = new ArrayList<>();
    /** Runtime settings in runtime terms (already validated). */
    public final Options runtime = new Options();
    /** JVM class files: probe entries as {@code invokestatic} calls instead of {@code invokedynamic} sites ({@code sites=static}). */
    public boolean staticSites;
    /** JVM class files: methods with nested loops get outlined bodies for their timed calls ({@code sites=indy}, the default; not {@code indy-inline}). */
    public boolean outline = true;
    /** Hybrid-run settings ({@code nativeLibs}, {@code abi}, {@code cpu}, {@code engine}, {@code userland}, {@code nativeLimit}, {@code nativeSandbox}); empty unless hybrid. */
    public final Map<String, String> hybrid = new LinkedHashMap<>();

    private boolean resolutionsGiven;

    /**
     * Whether {@code resolutions} was set (an argument, a config file). Not set, the JVM agent
     * starts with loops off and places their code when one is switched on; everything else
     * starts with every resolution on.
     */
    public boolean resolutionsGiven() {
        return resolutionsGiven;
    }

    /** Whether native methods run in bb-tracer (a native-libraries directory is set). */
    public boolean isHybrid() {
        return hybrid.containsKey("nativeLibs");
    }

    /** Parses an agent argument string; {@code null} or empty gives the defaults. */
    public static ProfilingConfig parseAgentArgs(String args) {
        ProfilingConfig c = new ProfilingConfig();
        if (args == null || args.isBlank()) return c;
        Map<String, String> kv = new LinkedHashMap<>();
        for (String part : args.split(",")) {
            if (part.isBlank()) continue;
            int eq = part.indexOf('=');
            if (eq <= 0) throw new ConfigException("agent argument: expected key=value, got '" + part + "'");
            kv.merge(part.substring(0, eq).trim(), part.substring(eq + 1).trim(), (a, b) -> a + ";" + b);
        }
        String file = kv.remove("config");
        if (file != null) c.load(Path.of(file));
        for (Map.Entry<String, String> e : kv.entrySet()) c.set(e.getKey(), e.getValue(), "agent argument");
        return c;
    }

    /** Reads a properties file; errors name the file. */
    public ProfilingConfig load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file + ": no such config file");
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException(file + ": cannot read config: " + e.getMessage());
        }
        for (String k : p.stringPropertyNames()) {
            if (k.equals("config")) throw new ConfigException(file + ": 'config' cannot be nested");
            set(k, p.getProperty(k), file.toString());
        }
        return this;
    }

    /** Applies one setting; {@code where} names its source in error messages. */
    public ProfilingConfig set(String key, String value, String where) {
        if (!KEYS.contains(key))
            throw new ConfigException(where + ": unknown setting '" + oneLine(key) + "' (known: " + String.join(", ", KEYS.stream().sorted().toList()) + ")");
        try {
            switch (key) {
                case "include" -> split(value).forEach(classes::include);
                case "exclude" -> split(value).forEach(classes::exclude);
                case "resolutions" -> {
                    resolutionsGiven = true;
                    resolutions.clear();
                    for (String r : split(value.replace(':', ';'))) resolutions.add(Resolution.parse(r));
                }
                case "roots" -> split(value).forEach(r -> roots.add(new Glob(r)));
                case "sites" -> {
                    if (!value.equals("indy") && !value.equals("indy-inline") && !value.equals("static"))
                        throw new IllegalArgumentException("expected indy, indy-inline or static, got '" + value + "'");
                    staticSites = value.equals("static");
                    outline = value.equals("indy");
                }
                case "config" -> load(Path.of(value));
                default -> {
                    if (HYBRID_KEYS.contains(key)) hybrid.put(key, value);
                    else runtime.set(key, value);
                }
            }
        } catch (IllegalArgumentException e) {
            String m = e.getMessage() == null ? "bad value '" + value + "'" : e.getMessage();
            throw new ConfigException(oneLine(where + ": " + (m.startsWith(key + " ") ? m : key + ": " + m)));
        } catch (ConfigException e) {
            if (e.getMessage().startsWith(where) && e.getMessage().indexOf('\n') < 0) throw e;
            throw new ConfigException(oneLine(e.getMessage().startsWith(where) ? e.getMessage() : where + ": " + key + ": " + e.getMessage()));
        }
        return this;
    }

    /** An error message on one line: a key or value from a properties file may hold line breaks (escaped there). */
    private static String oneLine(String s) {
        return s.replace("\r", "\\r").replace("\n", "\\n");
    }

    /** Whether a probe starts on. */
    public boolean initiallyOn(ProbeInfo p) {
        return resolutions.contains(p.resolution());
    }

    /** Whether a method probe is a caller-filter root. */
    public boolean isRoot(ProbeInfo p) {
        if (p.loop()) return false;
        String[] names = MethodNames.matchable(p); // either spelling: Java signature or JVM descriptor
        for (Glob g : roots) for (String n : names) if (g.matches(n)) return true;
        return false;
    }

    private static List<String> split(String v) {
        List<String> r = new ArrayList<>();
        for (String s : v.split(";")) if (!s.isBlank()) r.add(s.trim());
        return r;
    }
}
