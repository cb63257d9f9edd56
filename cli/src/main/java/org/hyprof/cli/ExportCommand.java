package org.hyprof.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.hyprof.export.AndroidTrace;
import org.hyprof.export.ChromeTrace;
import org.hyprof.export.Folded;
import org.hyprof.export.PerfettoTrace;
import org.hyprof.export.Speedscope;
import org.hyprof.analysis.CallStream;
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
 * {@code hyprof export S.db --format trace|chrome|folded|speedscope|perfetto -o FILE}. Every
 * format is written as the calls stream out of the session ({@link CallStream}): memory does not
 * grow with the session's size.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Write a session (recorded with --mode events) in a format other tools open.",
            "  trace       Android method trace v3 (Android Studio, dmtracedump, Perfetto)",
            "  chrome      Chrome Trace Event JSON (Perfetto UI, chrome://tracing)",
            "  folded      folded stacks (flamegraph.pl, speedscope, Perfetto)",
            "  speedscope  speedscope's JSON (evented profiles)",
            "  perfetto    Perfetto's protobuf trace (ui.perfetto.dev; can be merged with a system trace)"})
public final class ExportCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "S.db", description = "Session database recorded with --mode events.") Path session;

    @Option(names = "--format", required = true, paramLabel = "F", description = "trace, chrome, folded, speedscope or perfetto.")
    String format;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE", description = "File to write.")
    Path out;

    @Option(names = "--pretty", description = "chrome only: indent the JSON (compact by default).")
    boolean pretty;

    @Option(names = "--thread", paramLabel = "NAME", description = "Only threads with this name.")
    String thread;

    @Option(names = "--process", paramLabel = "ID", description = "Only this process of the session ('trace' takes one; default: the first).")
    Long process;

    @Option(names = "--weight", paramLabel = "W",
            description = "folded only: time (µs, the default) or energy (µJ). The other formats are timelines; chrome has energy as counter tracks.")
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

    @Override
    public Integer call() {
        String f = format.toLowerCase(Locale.ROOT);
        if (!List.of("trace", "chrome", "folded", "speedscope", "perfetto").contains(f))
            throw new UserError("--format: '" + format + "' is not one of trace, chrome, folded, speedscope, perfetto", 2);
        if (pretty && !f.equals("chrome")) throw new UserError("--pretty: only with --format chrome", 2);
        if (weight != null) {
            if (!weight.equals("time") && !weight.equals("energy")) throw new UserError("--weight: time or energy, not '" + weight + "'", 2);
            if (!f.equals("folded"))
                throw new UserError("--weight: only with --format folded (" + f + " is a timeline: it has no weights"
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
            if (streams.isEmpty())
                throw new UserError(session + (process != null ? ": process " + process : "") + ": recorded in aggregate mode: " + f
                        + " needs the calls themselves (profile again with --mode events)");
            if (streams.stream().allMatch(CallStream::isEmpty))
                throw new UserError(session + ": no calls recorded" + (thread != null ? " on thread '" + thread + "'" : ""));
            // the store stays open while the calls stream out of it into the file
            OutputFile.write(out, tmp -> {
                switch (f) {
                    case "trace" -> {
                        try (OutputStream o = Files.newOutputStream(tmp)) {
                            AndroidTrace.write(streams.get(0), o);
                        }
                    }
                    case "chrome" -> {
                        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
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
                        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                            PerfettoTrace.write(streams, o);
                        }
                    }
                    default -> {
                        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
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
