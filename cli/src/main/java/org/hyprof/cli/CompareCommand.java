package org.hyprof.cli;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hyprof.correlate.Comparison;
import org.hyprof.correlate.NativeRunComparison;
import org.hyprof.correlate.Profile;
import org.hyprof.export.HtmlReport;
import org.hyprof.store.Store;
import org.hyprof.store.StoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code hyprof compare A.db B.db}: two sessions side by side per method, with ratios B/A. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compare two sessions side by side per method, with ratios B/A.",
            "Calls, times, native instructions, cycles and energy of e.g. two CPU profiles, two architectures,",
            "or Java and JNI builds of the same program.",
            "CSV columns: " + Comparison.COLUMNS,
            "--format html -o FILE: one self-contained page with a differential flame graph (width A + B,",
            "colour B/A of the chosen weight) and the methods side by side."})
public final class CompareCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A.db", description = "The first session (the ratios are B/A).") Path a;

    @Parameters(index = "1", paramLabel = "B.db", description = "The second session.") Path b;

    @Option(names = "--by", paramLabel = "WHAT",
            description = "method, or native (runs stored by 'hyprof native -o', paired by call). Default: method; native for "
                    + "sessions holding only native runs.")
    String by;

    @Option(names = "--format", defaultValue = "table", paramLabel = "F",
            description = "table, csv or html (html needs -o FILE). Default: ${DEFAULT-VALUE}.")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "File to write (required by --format html).")
    Path output;

    @Option(names = "--prune", paramLabel = "PERCENT", defaultValue = "" + HtmlReport.DEFAULT_PRUNE_PERCENT,
            description = "html: leave out frames below PERCENT of the total in every weight. Default: ${DEFAULT-VALUE}.")
    double prunePercent;

    @Option(names = "--top", defaultValue = "0", paramLabel = "N", description = "First N rows (0 = all).")
    int top;

    @Mixin NamingOptions naming;

    @Override
    public Integer call() {
        if (by != null && !by.equals("method") && !by.equals("native"))
            throw new UserError("--by: method or native, not '" + by + "'", 2);
        boolean html = format.equals("html");
        if (!format.equals("table") && !format.equals("csv") && !html)
            throw new UserError("--format: table, csv or html, not '" + format + "'", 2);
        if (html && output == null) throw new UserError("--format html: needs -o FILE (a page is not printed to the terminal)", 2);
        if (!html && output != null) throw new UserError("-o: only with --format html (the other formats print; redirect them)", 2);
        if (html) {
            if ("native".equals(by)) throw new UserError("--format html: not for --by native (use --format table)", 2);
            ReportCommand.checkPrune(prunePercent);
            OutputFile.check(output, a, b);
        }
        PrintWriter out = spec.commandLine().getOut();
        Profile pa, pb;
        try (Store sa = Store.openReadOnly(a); Store sb = Store.openReadOnly(b)) {
            boolean nativeRuns = "native".equals(by) || by == null && sa.processes().isEmpty() && sb.processes().isEmpty()
                    && !sa.nativeRuns().isEmpty() && !sb.nativeRuns().isEmpty();
            if (nativeRuns) {
                if (sa.nativeRuns().isEmpty()) throw new UserError(a + ": no native runs (store some with 'hyprof native ... -o " + a + "')");
                if (sb.nativeRuns().isEmpty()) throw new UserError(b + ": no native runs (store some with 'hyprof native ... -o " + b + "')");
                NativeRunComparison c = new NativeRunComparison(sa.nativeRuns(), sb.nativeRuns());
                if (format.equals("csv")) c.csv(out);
                else c.table(out);
                return 0;
            }
            for (Store st : new Store[] {sa, sb})
                if (st.processes().isEmpty())
                    throw new UserError(st.file() + ": empty session (no process recorded"
                            + (st.nativeRuns().isEmpty() ? ")" : "; it holds native runs: compare them with --by native)"));
            pa = Profile.load(sa, naming.style());
            pb = Profile.load(sb, naming.style());
            if (html) {
                Profile fa = pa, fb = pb;
                OutputFile.write(output, tmp -> {
                    try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                        HtmlReport.writeComparison(sa, fa, sb, fb, naming.style(), prunePercent, w);
                    }
                });
                spec.commandLine().getErr().println("wrote " + output);
                return 0;
            }
        } catch (StoreException e) {
            throw new UserError(e.getMessage());
        }
        Comparison c = new Comparison(pa, pb);
        if (format.equals("csv")) c.csv(out, top);
        else c.table(out, top);
        return 0;
    }
}
