package org.hyprof.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.concurrent.Callable;
import org.hyprof.export.AndroidTrace;
import org.hyprof.export.ChromeTrace;
import org.hyprof.export.Folded;
import org.hyprof.export.ParquetExport;
import org.hyprof.export.PerfettoTrace;
import org.hyprof.export.Speedscope;
import org.hyprof.analysis.CallStream;
import org.hyprof.analysis.CallTree;
import org.hyprof.correlate.TreeWriter;
import org.hyprof.export.TreeExport;
import java.util.function.Predicate;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;
import org.hyprof.store.StoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code hyprof export S.db --format trace|chrome|folded|speedscope|perfetto -o FILE}, and
 * {@code hyprof export S.db… --format parquet -o DIR [--label KEY=VALUE]…} (one directory per
 * session, see {@link ParquetExport}). Every format is written as the calls stream out of the
 * session ({@link CallStream}): memory does not grow with the session's size.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Write a session (recorded with --mode events) in a format other tools open.",
            "  trace       Android method trace v3 (Android Studio, dmtracedump, Perfetto); dual clock: each thread's",
            "              CPU time (--clock sampled|dual) beside the wall time; wall time in both without CPU time",
            "  chrome      Chrome Trace Event JSON (Perfetto UI, chrome://tracing)",
            "  folded      folded stacks (flamegraph.pl, speedscope, Perfetto)",
            "  speedscope  speedscope's JSON (evented profiles)",
            "              folded and speedscope also from an aggregate session's calling-context tree (one stack per",
            "              call path, weighted by --weight; speedscope: sampled profiles), and from an events session's",
            "              tree rebuilt from its log with --weight cpu|calls (speedscope: any --weight)",
            "  perfetto    Perfetto's protobuf trace (ui.perfetto.dev; can be merged with a system trace)",
            "  parquet     the session's tables (processes, threads, methods, loops, native epochs and blocks, events)",
            "              as Parquet files in DIR/<session id>/, one table per file over many sessions:",
            "              hyprof export a.db b.db --format parquet -o fleet --label build=813",
            "              duckdb -c \"SELECT * FROM read_parquet('fleet/*/methods.parquet')\"",
            "              (any session, aggregate or events mode; several sessions at once)"})
public final class ExportCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "S.db",
            description = "Session database recorded with --mode events (parquet: any sessions, one or more).") List<Path> sessions;

    @Option(names = "--format", required = true, paramLabel = "F", description = "trace, chrome, folded, speedscope, perfetto or parquet.")
    String format;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE", description = "File to write (parquet: a directory, made if missing).")
    Path out;

    @Option(names = "--label", paramLabel = "KEY=VALUE", mapFallbackValue = "",
            description = "parquet only: a label put in every row's labels map (e.g. build=813, device=pixel-7); repeatable.")
    Map<String, String> labels = new LinkedHashMap<>();

    @Option(names = "--pretty", description = "chrome only: indent the JSON (compact by default).")
    boolean pretty;

    @Option(names = "--thread", paramLabel = "NAME", description = "Only threads with this name.")
    String thread;

    @Option(names = "--process", paramLabel = "ID", description = "Only this process of the session ('trace' takes one; default: the first).")
    Long process;

    @Option(names = "--weight", paramLabel = "W",
            description = "folded and speedscope: time (µs in folded; the default), cpu (µs), energy (µJ) or calls: each stack's own"
                    + " (exclusive) figure. The other formats are timelines; chrome has energy as counter tracks.")
    String weight;

    /** The session's processes as --process takes them: "its processes: 1 app.Main (pid 42, events mode), …". */
    static String describe(List<ProcessInfo> ps) {
        StringBuilder b = new StringBuilder(ps.size() == 1 ? "its process: " : "its processes: ");
        int shown = 0;
        for (ProcessInfo p : ps) {
            if (shown++ == 10) {
                b.append(", … (").append(ps.size() - 10).append(" more)");
                break;
            }
            if (shown > 1) b.append(", ");
            b.append(p.id()).append(' ').append(p.name()).append(" (pid ").append(p.pid()).append(", ").append(p.mode()).append(" mode)");
        }
        return b.toString();
    }

    @Mixin NamingOptions naming;

    @Option(names = "--allow-damaged",
            description = "Export a session with damaged event chunks (checksum mismatch) without them, instead of stopping with exit 1.")
    boolean allowDamaged;

    /** {@code --format parquet}: each session into its own directory under {@code out} (every session is checked to exist first). */
    private int parquet() {
        if (pretty) throw new UserError("--pretty: only with --format chrome", 2);
        if (weight != null) throw new UserError("--weight: only with --format folded or speedscope", 2);
        if (thread != null || process != null)
            throw new UserError("--thread/--process: not with --format parquet (it writes every thread and process; filter in the query)", 2);
        for (Map.Entry<String, String> e : labels.entrySet()) {
            if (e.getKey().isEmpty() || e.getValue().isEmpty())
                throw new UserError("--label: '" + e.getKey() + "=" + e.getValue() + "' needs KEY=VALUE, both non-empty", 2);
        }
        for (Path s : sessions) if (!Files.exists(s)) throw new UserError(s + ": no such session");
        if (Files.exists(out) && !Files.isDirectory(out)) throw new UserError(out + ": not a directory (--format parquet writes a directory)");
        PrintWriter err = spec.commandLine().getErr();
        for (Path s : sessions) {
            try (Store store = Store.openReadOnly(s)) {
                if (store.processes().isEmpty()) throw new UserError(s + ": empty session (no process recorded)");
                DamagedChunks.check(store, s, store.processes(), allowDamaged, err);
                ParquetExport.Written w = ParquetExport.write(store, s, labels, out);
                err.println("hyprof: wrote " + w.directory() + " (" + s.getFileName() + ": "
                        + w.rows().entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", ")) + ")");
                err.flush();
            } catch (StoreException e) {
                throw new UserError(e.getMessage());
            } catch (IOException e) {
                throw new UserError(out + ": cannot write " + s.getFileName() + "'s tables: " + e.getMessage());
            }
        }
        return 0;
    }

    /** folded or speedscope from the session's calling-context tree (recorded, or rebuilt from an event log). */
    private int tree(Store store, Path session, String f) {
        CallTree t = CallTree.load(store, naming.style());
        if (t.source() == CallTree.Source.NONE)
            throw new UserError(session + ": " + TreeWriter.NO_TREE.replace("use --mode events", "use --mode events for event-based exports"));
        TreeExport.Weight w = TreeExport.Weight.parse(weight == null ? "time" : weight);
        Predicate<CallTree.Node> roots = r -> (process == null || r.processId() == process)
                && (thread == null || r.thread().equals(thread) || r.thread().endsWith("/" + thread));
        if (t.threads().stream().noneMatch(roots))
            throw new UserError(session + ": no calls recorded" + (thread != null ? " on thread '" + thread + "'" : ""));
        if (w == TreeExport.Weight.CPU && t.nodes().stream().noneMatch(n -> n.cpuInclNanos() != null))
            throw new UserError(session + ": --weight cpu: this session recorded no thread CPU time (profiled with --clock off, or before hyprof kept it)");
        try {
            OutputFile.write(out, tmp -> {
                if (f.equals("folded")) {
                    try (PrintWriter pw = new PrintWriter(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8))) {
                        TreeExport.folded(t, w, roots, pw);
                        if (pw.checkError()) throw new IOException("write failed");
                    }
                } else {
                    try (OutputStream o = DirectFileOutput.create(tmp)) {
                        TreeExport.speedscope(t, w, roots, session.getFileName().toString(), o);
                    }
                }
            });
        } catch (StoreException e) {
            throw new UserError(e.getMessage());
        }
        PrintWriter err = spec.commandLine().getErr();
        err.println("hyprof: wrote " + out + " (calling-context tree, " + (t.source() == CallTree.Source.RECORDED ? "recorded" : "rebuilt from the event log")
                + ", weight " + w.name().toLowerCase(Locale.ROOT) + (t.overflowCalls() > 0 ? "; " + t.overflowCalls() + " calls in " + CallTree.OTHER_PATHS : "") + ")");
        err.flush();
        return 0;
    }

    @Override
    public Integer call() {
        String f = format.toLowerCase(Locale.ROOT);
        if (!List.of("trace", "chrome", "folded", "speedscope", "perfetto", "parquet").contains(f))
            throw new UserError("--format: '" + format + "' is not one of trace, chrome, folded, speedscope, perfetto, parquet", 2);
        if (f.equals("parquet")) return parquet();
        if (sessions.size() > 1)
            throw new UserError("export: " + sessions.size() + " sessions given; --format " + f + " writes one session (only parquet takes several)", 2);
        if (!labels.isEmpty()) throw new UserError("--label: only with --format parquet", 2);
        Path session = sessions.get(0);
        if (pretty && !f.equals("chrome")) throw new UserError("--pretty: only with --format chrome", 2);
        if (weight != null) {
            if (!List.of("time", "cpu", "energy", "calls").contains(weight))
                throw new UserError("--weight: time, cpu, energy or calls, not '" + weight + "'", 2);
            if (!f.equals("folded") && !f.equals("speedscope"))
                throw new UserError("--weight: only with --format folded or speedscope (" + f + " is a timeline: it has no weights"
                        + (f.equals("chrome") ? "; its energy is in counter tracks)" : ")"), 2);
        }
        if (!Files.exists(session)) throw new UserError(session + ": no such session");
        OutputFile.check(out, session);
        List<CallStream> streams = new ArrayList<>();
        try (Store store = Store.openReadOnly(session)) {
            List<ProcessInfo> ps = store.processes();
            if (ps.isEmpty()) throw new UserError(session + ": empty session (no process recorded)");
            List<ProcessInfo> chosen = ps;
            if (process != null) {
                chosen = ps.stream().filter(p -> p.id() == process).toList();
                if (chosen.isEmpty()) throw new UserError(session + ": no process " + process + "; " + describe(ps));
            }
            DamagedChunks.check(store, session, chosen, allowDamaged, spec.commandLine().getErr());
            for (ProcessInfo p : chosen) {
                if (!p.mode().equals("events") && store.eventChunkCount(p.id()) == 0) continue;
                streams.add(CallStream.of(store, p, thread, naming.style()));
                if (f.equals("trace")) break;
            }
            boolean treeFormat = f.equals("folded") || f.equals("speedscope");
            // the event log gives time and energy timelines; an aggregate session, or another weight, comes from the tree
            if (treeFormat && (streams.isEmpty() || "cpu".equals(weight) || "calls".equals(weight) || f.equals("speedscope") && weight != null))
                return tree(store, session, f);
            if (streams.isEmpty())
                throw new UserError(session + (process != null ? ": process " + process : "") + ": recorded in aggregate mode: " + f
                        + " needs the calls themselves (profile again with --mode events)");
            if (streams.stream().allMatch(CallStream::isEmpty))
                throw new UserError(session + ": no calls recorded" + (thread != null ? " on thread '" + thread + "'" : ""));
            // the store stays open while the calls stream out of it into the file
            OutputFile.write(out, tmp -> {
                switch (f) {
                    case "trace" -> AndroidTrace.write(streams.get(0), tmp);
                    case "chrome" -> {
                        try (OutputStream o = DirectFileOutput.create(tmp)) {
                            ChromeTrace.write(streams, o, pretty);
                        }
                    }
                    case "folded" -> {
                        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8))) {
                            Folded.write(streams, w, "energy".equals(weight));
                            if (w.checkError()) throw new IOException("write failed");
                        }
                    }
                    case "perfetto" -> {
                        try (OutputStream o = DirectFileOutput.create(tmp)) {
                            PerfettoTrace.write(streams, o);
                        }
                    }
                    default -> {
                        try (OutputStream o = DirectFileOutput.create(tmp)) {
                            Speedscope.write(streams, session.getFileName().toString(), o);
                        }
                    }
                }
            });
        } catch (StoreException e) {
            throw new UserError(e.getMessage());
        }
        long drops = streams.stream().mapToLong(t -> t.eventDrops).sum();
        PrintWriter err = spec.commandLine().getErr();
        err.println("hyprof: wrote " + out + (drops > 0 ? " (" + drops + " events had been dropped by the budget: calls still open at the end are closed there)" : ""));
        err.flush();
        return 0;
    }
}
