package org.hyprof.live;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.HashMap;
import org.hyprof.config.ConfigException;
import org.hyprof.config.Glob;
import org.hyprof.config.MethodNames;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Zoom;
import org.hyprof.control.ControlState;
import org.hyprof.control.Result;
import org.hyprof.correlate.MethodRow;
import org.hyprof.correlate.Profile;
import org.hyprof.correlate.ReportWriter;
import org.hyprof.store.ProcessInfo;

/**
 * The commands of {@code hyprof ctl}, run by the collector against its {@link LiveSession}:
 *
 * <pre>
 * processes                          the session's processes: id, pid, process, status, connected,
 *                                    threads (that recorded methods, as in reports), probes, zoom
 *                                    level, and what the status means
 * probes [PATTERN]                   probes with id, kind, resolution, state and counts
 * on PATTERN | off PATTERN           switch probes (report names, glob)
 * zoom-in ID | zoom-out | scope      RMP zoom: process → thread → method → loop and back
 * root PATTERN | root none           caller filter
 * rule min-duration=DUR | min-calls=N | max-depth=N | none
 * stats [--format table|csv|json] [--by method|loop|thread|process] [--top N]
 * dump                               a fresh snapshot, and the events each thread's flight-recorder
 *                                    log keeps (--keep last), sent at its next event
 * </pre>
 *
 * Options before the command: {@code --process ID} picks one process (default: every connected
 * process for changes, every process of the session for {@code processes}, {@code probes} and
 * {@code stats}; zoom needs exactly one), {@code --timeout-ms N} bounds waits for agents (default
 * 2000). {@code processes}, {@code probes} and {@code stats} first ask the agents concerned for a
 * fresh snapshot.
 */
final class CommandInterpreter {
    private final LiveSession live;

    CommandInterpreter(LiveSession live) {
        this.live = live;
    }

    Result execute(List<String> argv) {
        StringWriter buf = new StringWriter();
        PrintWriter out = new PrintWriter(buf);
        List<String> args = new ArrayList<>(argv);
        Long process = null;
        long timeout = 2000;
        try {
            while (!args.isEmpty() && args.get(0).startsWith("--")) {
                String o = args.remove(0);
                if (args.isEmpty()) throw new ConfigException(o + " needs a value");
                switch (o) {
                    case "--process" -> process = parseLong(o, args.remove(0));
                    case "--timeout-ms" -> timeout = parseLong(o, args.remove(0));
                    default -> throw new ConfigException("unknown option " + o);
                }
            }
            if (args.isEmpty()) throw new ConfigException("no command (processes, probes, on, off, zoom-in, zoom-out, scope, root, rule, stats)");
            String cmd = args.remove(0);
            switch (cmd) {
                case "processes" -> processes(out, process, timeout);
                case "probes" -> probes(out, process, args.isEmpty() ? "*" : args.get(0), timeout);
                case "on", "off" -> {
                    String pattern = one(cmd, args);
                    for (LiveSession.Proc p : targets(process)) {
                        ControlState s = live.change(p.id, cur -> Zoom.setFlags(cur, p.manifest(), pattern, cmd.equals("on")), timeout);
                        out.printf(Locale.ROOT, "process %d: %d probes on%n", p.id, s.on().cardinality());
                    }
                }
                case "zoom-in" -> {
                    LiveSession.Proc p = single(process);
                    int target = args.isEmpty() ? -1 : (int) parseLong("zoom-in", args.get(0));
                    if (target < 0 && p.scope().inProcess()) throw new ConfigException("zoom-in needs a probe id");
                    ControlState s = live.zoomIn(p.id, target, timeout);
                    out.printf(Locale.ROOT, "process %d: %s level, %d probes on%s%n", p.id, p.scope().level().label(),
                            s.on().cardinality(), s.roots().length > 0 ? ", root " + s.roots()[0] : "");
                }
                case "zoom-out" -> {
                    LiveSession.Proc p = single(process);
                    ControlState s = live.zoomOut(p.id, timeout);
                    out.printf(Locale.ROOT, "process %d: %s level, %d probes on%n", p.id, p.scope().level().label(), s.on().cardinality());
                }
                case "scope" -> {
                    for (LiveSession.Proc p : targets(process))
                        out.printf(Locale.ROOT, "process %d: %s level%s%n", p.id, p.scope().level().label(),
                                p.scope().root() >= 0 ? ", root " + p.scope().root() : "");
                }
                case "root" -> {
                    String pattern = one(cmd, args);
                    for (LiveSession.Proc p : targets(process)) {
                        ControlState s = live.change(p.id, cur -> Zoom.setRoots(cur, p.manifest(), pattern.equals("none") ? null : pattern), timeout);
                        out.printf(Locale.ROOT, "process %d: %d roots%n", p.id, s.roots().length);
                    }
                }
                case "rule" -> {
                    String rule = one(cmd, args);
                    for (LiveSession.Proc p : targets(process)) {
                        ControlState s = live.change(p.id, cur -> Zoom.setRule(cur, rule), timeout);
                        out.printf(Locale.ROOT, "process %d: min-duration=%dns min-calls=%d max-depth=%d%n", p.id,
                                s.minDurationNanos(), s.minCalls(), s.maxDepth());
                    }
                }
                case "stats" -> stats(out, process, args, timeout);
                case "dump" -> {
                    int n = live.dump(process, timeout);
                    out.printf(Locale.ROOT, "dump requested: %d process%s answered; each thread sends the events its log keeps"
                            + " (--keep last) at its next event%n", n, n == 1 ? "" : "es");
                }
                default -> throw new ConfigException("unknown command '" + cmd + "'");
            }
            out.flush();
            return new Result(0, buf.toString());
        } catch (ConfigException e) {
            return new Result(1, e.getMessage() + "\n");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(1, "interrupted\n");
        }
    }

    private void processes(PrintWriter out, Long process, long timeout) throws InterruptedException {
        live.refresh(process, timeout);
        out.println("id,pid,process,status,connected,threads,probes,level,meaning");
        for (LiveSession.Proc p : process != null ? List.of(live.proc(process)) : live.processes()) {
            out.printf(Locale.ROOT, "%d,%d,%s,%s,%s,%d,%d,%s,%s%n", p.id, p.hello.pid(), csvField(p.hello.process()), p.status(),
                    p.connected(), p.threadCount(), p.ingest.probeCount(), p.scope().level().label(),
                    ProcessInfo.meaning(p.status()));
        }
    }

    private void probes(PrintWriter out, Long process, String pattern, long timeout) throws InterruptedException {
        live.refresh(process, timeout);
        Glob g = new Glob(pattern);
        out.println("process,id,kind,resolution,state,calls,iterations,probe");
        for (LiveSession.Proc p : targets(process, false)) {
            Map<String, MethodRow> rows = new HashMap<>(); // this process's counts only
            for (MethodRow r : live.profile(p.id).methods()) rows.put(r.method(), r);
            Manifest m = p.manifest();
            ControlState s = p.state();
            Map<Integer, String> names = MethodNames.names(m.probes(), MethodNames.Style.JAVA); // as the profile's rows
            for (ProbeInfo i : m.probes()) {
                String name = names.get(i.id());
                if (!matchesAny(g, MethodNames.matchable(i))) continue;
                MethodRow r = rows.get(name);
                out.printf(Locale.ROOT, "%d,%d,%s,%s,%s,%d,%d,%s%n", p.id, i.id(), i.kindLabel(), i.resolution().label(),
                        s == null ? "?" : s.isOn(i.id()) ? "on" : "off", r == null ? 0 : r.calls(),
                        r == null ? 0 : r.iterations(), csvField(name)); // Java names hold ", "
            }
        }
    }

    private void stats(PrintWriter out, Long process, List<String> args, long timeout) throws InterruptedException {
        String format = "table", by = "method";
        int top = 0;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (i + 1 >= args.size()) throw new ConfigException("stats: " + a + " needs a value");
            switch (a) {
                case "--format" -> format = args.get(++i);
                case "--by" -> by = args.get(++i);
                case "--top" -> top = (int) parseLong(a, args.get(++i));
                default -> throw new ConfigException("stats: unknown option " + a);
            }
        }
        live.refresh(process, timeout);
        Profile p = process == null ? live.profile() : live.profile(process);
        try {
            new ReportWriter(p, ReportWriter.By.valueOf(by.toUpperCase(Locale.ROOT)), Profile.Sort.EXCL, top, false)
                    .write(ReportWriter.Format.valueOf(format.toUpperCase(Locale.ROOT)), out);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("stats: bad --format or --by (" + format + ", " + by + ")");
        }
    }

    private List<LiveSession.Proc> targets(Long process) {
        return targets(process, true);
    }

    private List<LiveSession.Proc> targets(Long process, boolean connectedOnly) {
        if (process != null) return List.of(live.proc(process));
        List<LiveSession.Proc> r = new ArrayList<>();
        for (LiveSession.Proc p : live.processes()) if (!connectedOnly || p.connected()) r.add(p);
        if (r.isEmpty()) throw new ConfigException(connectedOnly ? "no process is connected" : "no process in this session");
        return r;
    }

    private LiveSession.Proc single(Long process) {
        List<LiveSession.Proc> t = targets(process);
        if (t.size() != 1) throw new ConfigException(t.size() + " processes are connected: pick one with --process ID");
        return t.get(0);
    }

    private static String one(String cmd, List<String> args) {
        if (args.size() != 1) throw new ConfigException(cmd + " takes one argument");
        return args.get(0);
    }

    private static long parseLong(String what, String v) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(what + ": '" + v + "' is not a number");
        }
    }

    /** A name from an agent as a CSV field: control characters escaped, quoted if it holds a comma or quote. */
    static String csvField(String raw) {
        String s = org.hyprof.correlate.Printable.of(raw);
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0) return s;
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** Whether {@code g} matches one of a probe's spellings (Java signature, JVM descriptor). */
    private static boolean matchesAny(Glob g, String[] names) {
        for (String n : names) if (g.matches(n)) return true;
        return false;
    }
}
