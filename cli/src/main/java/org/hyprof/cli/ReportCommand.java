package org.hyprof.cli;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.hyprof.analysis.CallTree;
import org.hyprof.correlate.LibraryReport;
import org.hyprof.correlate.NativeRunReport;
import org.hyprof.correlate.Profile;
import org.hyprof.correlate.ReportWriter;
import org.hyprof.correlate.TreeWriter;
import org.hyprof.export.HtmlReport;
import org.hyprof.store.Store;
import org.hyprof.store.StoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code hyprof report S.db}: tables of a stored session. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Per-method (or per-thread, per-process, per-loop) times of a session.",
            "Times are deducted (the probes' own calibrated cost taken out) unless --raw.",
            "Energy: Java code's exclusive time x the CPU power of the session's power profile (override",
            "with --power-profile etc.), plus native code's estimate from the CPU profile (hybrid runs).",
            "CSV columns (--by method): " + ReportWriter.METHOD_COLUMNS,
            "CSV columns (--by library): " + LibraryReport.COLUMNS + " (rows with an empty method: each library over all methods)",
            "--format html -o FILE: one self-contained page (flame graph and icicle of the calling-context tree,",
            "method table, native blocks, thread timeline of events sessions) that opens from file:// with no network."})
public final class ReportCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SESSION", description = "Session database (from 'hyprof profile' or 'hyprof import').")
    Path session;

    @Option(names = "--by", paramLabel = "WHAT", defaultValue = "method",
            description = "method, loop, thread, process, tree (the calling-context tree: one row per call path, indented),"
                    + " library (hybrid runs: native cost per library, the app's own and the system libraries (--userland bionic),"
                    + " overall and per native method), or native (runs stored by 'hyprof native -o'). Default: ${DEFAULT-VALUE}"
                    + " (native for a session holding only native runs).")
    String by;

    @Option(names = "--sort", paramLabel = "KEY",
            description = "excl (hotspots: time in the method itself), incl (with callees), calls or energy. Default: excl"
                    + " (--by tree: siblings by incl).")
    String sort;

    @Option(names = "--depth", paramLabel = "N", defaultValue = "0",
            description = "--by tree: show frames at most N deep (1 = top-level frames; 0 = all).")
    int depth;

    @Option(names = "--min-share", paramLabel = "PCT", defaultValue = "0",
            description = "--by tree: hide call paths with less than PCT %% of their thread's inclusive time.")
    double minSharePercent;

    @Option(names = "--callers", paramLabel = "M",
            description = "Who called method M, per caller: calls, inclusive time and share (from the calling-context tree)."
                    + " M as --by method names it, or a unique part of that name, or a glob (*, ?).")
    String callers;

    @Option(names = "--callees", paramLabel = "M", description = "What method M called, per callee (as --callers; both: a butterfly).")
    String callees;

    @Option(names = "--inclusive", description = "Native and energy figures inclusive of callees (CSV columns *_incl).")
    boolean inclusive;

    @Mixin PowerOptions power;

    @Mixin NamingOptions naming;

    @Option(names = "--top", paramLabel = "N", defaultValue = "0", description = "Show the first N rows (0 = all); --by tree: the N heaviest children of each node.")
    int top;

    @Option(names = "--format", paramLabel = "F", defaultValue = "table",
            description = "table, csv, json or html (html needs -o FILE). Default: ${DEFAULT-VALUE}.")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "File to write (required by --format html; others print).")
    Path output;

    @Option(names = "--prune", paramLabel = "PERCENT", defaultValue = "" + HtmlReport.DEFAULT_PRUNE_PERCENT,
            description = "html: leave out frames below PERCENT of the total in every weight (their count and time are stated;"
                    + " at most " + HtmlReport.MAX_FRAMES + " frames are kept). Default: ${DEFAULT-VALUE}.")
    double prunePercent;

    @Option(names = "--raw", description = "Table shows raw times (probe cost included); CSV/JSON always have both.")
    boolean raw;

    @Option(names = "--allow-damaged",
            description = "Report a session with damaged event chunks (checksum mismatch) instead of stopping with exit 1.")
    boolean allowDamaged;

    @Override
    public Integer call() {
        boolean nativeRuns = by.trim().equalsIgnoreCase("native");
        boolean tree = by.trim().equalsIgnoreCase("tree"), butterfly = callers != null || callees != null;
        boolean library = by.trim().equalsIgnoreCase("library");
        ReportWriter.By b = nativeRuns || tree || library ? ReportWriter.By.METHOD : parse(ReportWriter.By.class, by, "--by");
        Profile.Sort s = parse(Profile.Sort.class, sort == null ? "excl" : sort, "--sort");
        if (top < 0) throw new UserError("--top must be ≥ 0", 2);
        if (format.trim().equalsIgnoreCase("html")) {
            if (library) throw new UserError("--format html: not for --by library (use table, csv or json)", 2);
            if (tree || butterfly) throw new UserError("--format html: the page shows the tree and its callers itself; not with --by tree, --callers or --callees", 2);
            return html(nativeRuns);
        }
        ReportWriter.Format f = parse(ReportWriter.Format.class, format, "--format");
        if (output != null) throw new UserError("-o: only with --format html (the other formats print; redirect them)", 2);
        if (depth < 0) throw new UserError("--depth must be ≥ 0", 2);
        if (!(minSharePercent >= 0 && minSharePercent <= 100)) throw new UserError("--min-share must be within 0 … 100 (a percentage)", 2);
        if (!tree && (depth != 0 || minSharePercent != 0)) throw new UserError("--depth/--min-share: only with --by tree", 2);
        if (butterfly && (tree || nativeRuns || library)) throw new UserError("--callers/--callees: not with --by " + by.trim() + " (they are a view of their own)", 2);
        if (callers != null && callees != null && !callers.equals(callees))
            throw new UserError("--callers and --callees name different methods; give one, or the same for a butterfly", 2);
        try (Store store = Store.openReadOnly(session)) {
            PrintWriter out = spec.commandLine().getOut();
            if (tree || butterfly) return tree(store, out, f, tree ? (sort == null ? null : s) : null);
            if (library) {
                LibraryReport r = LibraryReport.load(store, naming.style(), top);
                r.write(f, out);
                if (!r.any() && f != ReportWriter.Format.TABLE) {
                    spec.commandLine().getErr().println("hyprof: " + session + ": " + LibraryReport.NONE);
                    spec.commandLine().getErr().flush();
                }
                return 0;
            }
            if (nativeRuns || store.processes().isEmpty() && !store.nativeRuns().isEmpty()) {
                new NativeRunReport(store.nativeRuns()).write(f, out);
                return 0;
            }
            long damaged = DamagedChunks.check(store, session, store.processes(), allowDamaged, spec.commandLine().getErr());
            Profile p = power.given() ? Profile.load(store, power.model(), naming.style()) : Profile.load(store, naming.style());
            new ReportWriter(p, b, s, top, raw, inclusive).damagedEventChunks(damaged).write(f, out);
        } catch (StoreException e) {
            throw new UserError(e.getMessage());
        }
        return 0;
    }

    /** {@code --format html}: the self-contained page, written through a temporary file. */
    private Integer html(boolean nativeRuns) {
        if (output == null) throw new UserError("--format html: needs -o FILE (a page is not printed to the terminal)", 2);
        if (nativeRuns) throw new UserError("--format html: not for --by native (native runs have their own table; use --format table)", 2);
        checkPrune(prunePercent);
        OutputFile.check(output, session);
        try (Store store = Store.openReadOnly(session)) {
            if (store.processes().isEmpty())
                throw new UserError(session + ": empty session (no process recorded" + (store.nativeRuns().isEmpty() ? ")"
                        : "; it holds native runs: see them with --by native)"));
            DamagedChunks.check(store, session, store.processes(), allowDamaged, spec.commandLine().getErr());
            Profile p = power.given() ? Profile.load(store, power.model(), naming.style()) : Profile.load(store, naming.style());
            OutputFile.write(output, tmp -> {
                try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                    HtmlReport.writeSession(store, p, naming.style(), prunePercent, w);
                }
            });
        } catch (StoreException e) {
            throw new UserError(e.getMessage());
        }
        spec.commandLine().getErr().println("wrote " + output);
        return 0;
    }

    static void checkPrune(double percent) {
        if (!(percent >= 0 && percent <= 100)) throw new UserError("--prune: " + percent + " is not a percentage between 0 and 100", 2);
    }

    /** {@code --by tree}, {@code --callers}, {@code --callees}: views of the calling-context tree. */
    private int tree(Store store, PrintWriter out, ReportWriter.Format f, Profile.Sort siblings) {
        DamagedChunks.check(store, session, store.processes(), allowDamaged, spec.commandLine().getErr());
        CallTree t = power.given() ? CallTree.load(store, naming.style(), power.model()) : CallTree.load(store, naming.style());
        if (callers == null && callees == null) {
            int clock = t.nodes().stream().anyMatch(n -> n.cpuInclNanos() != null) ? Profile.load(store, naming.style()).cpuClock() : 0;
            new TreeWriter(t, siblings, new TreeWriter.Limits(depth, minSharePercent / 100, top), raw, inclusive, clock).write(f, out);
            if (t.source() == CallTree.Source.NONE && f != ReportWriter.Format.TABLE) {
                spec.commandLine().getErr().println("hyprof: " + session + ": " + TreeWriter.NO_TREE);
                spec.commandLine().getErr().flush();
            }
            return 0;
        }
        if (t.source() == CallTree.Source.NONE) throw new UserError(session + ": " + TreeWriter.NO_TREE);
        String m = callers != null ? callers : callees;
        String method;
        try {
            method = TreeWriter.resolve(t, m);
        } catch (IllegalArgumentException e) {
            throw new UserError(session + ": " + (callers != null ? "--callers" : "--callees") + ": " + e.getMessage());
        }
        TreeWriter.butterfly(t, method, callers != null, callees != null, f, out);
        return 0;
    }

    static <E extends Enum<E>> E parse(Class<E> type, String value, String option) {
        try {
            return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            StringBuilder ok = new StringBuilder();
            for (E c : type.getEnumConstants()) ok.append(ok.length() > 0 ? ", " : "").append(c.name().toLowerCase(Locale.ROOT));
            throw new UserError(option + ": '" + value + "' is not one of " + ok, 2);
        }
    }
}
