package org.hyprof.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.config.SkippedMethod;
import org.hyprof.instrument.jvm.JarInstrumenter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code hyprof instrument IN -o OUT}: rewrite a jar once, with every probe compiled in. */
@Command(name = "instrument", mixinStandardHelpOptions = true,
        description = {"Add probes to a jar (every method entry, exit, exceptional exit and loop).",
            "The output runs without the agent: the runtime is embedded and starts at the first probe,",
            "writing hyprof-<pid>.hyprof (override with -Dhyprof.options=out=FILE). Load it with 'hyprof import'.",
            "The probe manifest is also written beside the output (OUT.manifest.tsv)."})
public final class InstrumentCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "IN", description = "Input jar.")
    Path in;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT", description = "Output jar.")
    Path out;

    @Option(names = "--list-skipped", description = "List every method left without probes, with the reason.")
    boolean listSkipped;

    @Option(names = "--quiet", description = "No progress or summary.")
    boolean quiet;

    @Mixin ConfigOptions options;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.exists(in)) throw new UserError(in + ": no such file");
        if (Files.isDirectory(in)) throw new UserError(in + ": is a directory (expected a .jar)");
        if (in.toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize()))
            throw new UserError(out + ": output must differ from the input");
        ProfilingConfig cfg = options.build();
        JarInstrumenter.Summary s = JarInstrumenter.instrument(in, out, cfg, quiet ? null : done -> {
            err.print("\rhyprof: " + done + " entries...");
            err.flush();
        });
        Path manifestFile = out.resolveSibling(out.getFileName() + ".manifest.tsv");
        Files.writeString(manifestFile, s.manifest().toText());
        if (!quiet) {
            err.print("\r");
            printSummary(err, s.classes(), s.instrumentedClasses(), s.methods(), s.loops(), s.manifest(),
                    s.inBytes(), s.outBytes(), listSkipped);
            err.println("wrote " + out + " and " + manifestFile);
        }
        err.flush();
        return 0;
    }

    /** The summary every instrumenter prints: counts, skipped methods and size growth. */
    static void printSummary(PrintWriter err, int classes, int instrumented, int methods, int loops, Manifest m,
                             long inBytes, long outBytes, boolean listAll) {
        err.printf("classes %d (instrumented %d), methods %d, loops %d, probes %d, skipped %d, size %,d -> %,d bytes (%+.1f%%)%n",
                classes, instrumented, methods, loops, methods + loops, m.skipped().size(), inBytes, outBytes,
                inBytes == 0 ? 0.0 : 100.0 * (outBytes - inBytes) / inBytes);
        int shown = 0;
        for (SkippedMethod sk : m.skipped()) {
            if (!listAll && shown == 5) {
                err.println("  ... " + (m.skipped().size() - 5) + " more (--list-skipped shows all)");
                break;
            }
            err.println("  skipped " + sk.methodKey() + ": " + sk.reason());
            shown++;
        }
    }
}
