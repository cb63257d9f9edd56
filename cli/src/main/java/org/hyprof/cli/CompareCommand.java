package org.hyprof.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hyprof.correlate.Comparison;
import org.hyprof.correlate.NativeRunComparison;
import org.hyprof.correlate.Profile;
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
            "CSV columns: " + Comparison.COLUMNS})
public final class CompareCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A.db", description = "The first session (the ratios are B/A).") Path a;

    @Parameters(index = "1", paramLabel = "B.db", description = "The second session.") Path b;

    @Option(names = "--by", paramLabel = "WHAT",
            description = "method, or native (runs stored by 'hyprof native -o', paired by call). Default: method; native for "
                    + "sessions holding only native runs.")
    String by;

    @Option(names = "--format", defaultValue = "table", paramLabel = "F", description = "table or csv. Default: ${DEFAULT-VALUE}.")
    String format;

    @Option(names = "--top", defaultValue = "0", paramLabel = "N", description = "First N rows (0 = all).")
    int top;

    @Mixin NamingOptions naming;

    @Override
    public Integer call() {
        if (by != null && !by.equals("method") && !by.equals("native"))
            throw new UserError("--by: method or native, not '" + by + "'", 2);
        if (!format.equals("table") && !format.equals("csv")) throw new UserError("--format: table or csv, not '" + format + "'", 2);
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
        } catch (StoreException e) {
            throw new UserError(e.getMessage());
        }
        Comparison c = new Comparison(pa, pb);
        if (format.equals("csv")) c.csv(out, top);
        else c.table(out, top);
        return 0;
    }
}
