package org.hyprof.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.config.SkippedMethod;
import org.hyprof.instrument.dex.DebugSigner;
import org.hyprof.instrument.dex.DexInstrumenter;
import org.hyprof.instrument.jvm.JarInstrumenter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code hyprof instrument IN -o OUT}: rewrite a jar, an APK or DEX files once, with every probe compiled in. */
@Command(name = "instrument", mixinStandardHelpOptions = true,
        description = {"Add probes to a jar, an APK, a DEX file or a directory of DEX files.",
            "Every method entry, exit, exceptional exit and loop gets one. The output runs without the agent:",
            "the runtime is embedded and starts at the first probe.",
            "Jar: writes hyprof-<pid>.hyprof (override with -Dhyprof.options=out=FILE). Each jar is a piece",
            "with probe ids of its own: jars instrumented one by one (a library and its tests) run together",
            "on one class path and are told apart in the session.",
            "APK: every classes*.dex is rewritten, the runtime is added as its own classesN.dex (in",
            "classes.dex when minSdk < 21), the manifest and settings go to assets/hyprof/; signatures are",
            "removed: sign again (--sign-debug). On the device the session file is written to the app's",
            "files directory (or streamed with --config F containing connect=HOST:PORT).",
            "DEX file: rewritten with the runtime inside. Directory: every *.dex rewritten, runtime added;",
            "the manifest and settings go beside it as a class-path root, OUT.resources/META-INF/hyprof/.",
            "Each output is a piece with its own probe ids (pieces instrumented one by one run together).",
            "The probe manifest is also written beside the output (OUT.manifest.tsv). Load sessions with",
            "'hyprof import'."})
public final class InstrumentCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "IN", description = "Input: a .jar, an .apk, a .dex file or a directory of .dex files.")
    Path in;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT", description = "Output, of the same kind as the input.")
    Path out;

    @Option(names = "--list-skipped", description = "List every method left without probes, with the reason.")
    boolean listSkipped;

    @Option(names = "--quiet", description = "No progress or summary.")
    boolean quiet;

    @Option(names = "--sign-debug",
            description = "APK: sign the output with the Android debug key through apksigner (when apksigner is installed; otherwise say how).")
    boolean signDebug;

    @Option(names = "--debug-keystore", paramLabel = "FILE",
            description = "Keystore for --sign-debug (default ~/.android/debug.keystore, created when missing; alias androiddebugkey, password android).")
    Path keystore;

    @Option(names = "--min-sdk", paramLabel = "N",
            description = "APK/DEX: the app's minSdk when its manifest does not say (below 21 the runtime goes into classes.dex).")
    Integer minSdk;

    @Mixin ConfigOptions options;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.exists(in)) throw new UserError(in + ": no such file or directory");
        if (in.toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize()))
            throw new UserError(out + ": output must differ from the input");
        OutputFile.checkDirectory(out); // an output directory (of a directory of DEX files) may exist: only its parent is checked
        ProfilingConfig cfg = options.build();
        if (isDex(in)) return dex(err, cfg);
        if (signDebug) throw new UserError("--sign-debug applies to APKs, not to " + in);
        JarInstrumenter.Summary s;
        try {
            s = JarInstrumenter.instrument(in, out, cfg, quiet || !interactive() ? null : done -> {
                err.print("\rhyprof: " + done + " entries...");
                err.flush();
            });
        } catch (IOException e) {
            // a damaged jar (not a zip, truncated, an entry that does not inflate) names the input;
            // anything else failed writing the output
            if (!quiet && interactive()) err.print("\r");
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new UserError(m.startsWith(in.toString()) ? m : out + ": cannot write (" + m + ")");
        }
        Path manifestFile = out.resolveSibling(out.getFileName() + ".manifest.tsv");
        Files.writeString(manifestFile, s.manifest().toText());
        if (!quiet) {
            err.print("\r");
            printSummary(err, s.classes(), s.instrumentedClasses(), s.methods(), s.loops(), s.manifest(),
                    s.inBytes(), s.outBytes(), listSkipped);
            err.println("wrote " + out + " (piece " + s.pieceKey() + ") and " + manifestFile);
        }
        err.flush();
        return 0;
    }

    /** An APK, a DEX file or a directory goes to the DEX instrumenter; a jar of class files does not. */
    static boolean isDex(Path in) throws IOException {
        if (Files.isDirectory(in)) return true;
        DexInstrumenter.Kind k = DexInstrumenter.kindOf(in);
        if (k == DexInstrumenter.Kind.DEX) return true;
        String name = in.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".apk")) return true;
        if (k != DexInstrumenter.Kind.APK) return false;
        // a zip: DEX inside makes it an APK (or an archive of DEX files), class files a jar
        try (ZipFile z = new ZipFile(in.toFile())) {
            boolean classes = false;
            for (ZipEntry e : org.hyprof.instrument.ZipEntries.of(z)) {
                if (e.getName().matches("classes\\d*\\.dex")) return true;
                classes |= e.getName().endsWith(".class");
            }
            if (!classes && !name.endsWith(".jar"))
                throw new UserError(in + ": no classes*.dex or .class files inside (nothing to instrument)");
            return false;
        } catch (java.util.zip.ZipException e) {
            return false; // the jar path reports it
        }
    }

    private Integer dex(PrintWriter err, ProfilingConfig cfg) throws IOException {
        DexInstrumenter.Summary s;
        Progress bar = quiet || !interactive() ? null : new Progress(err);
        try {
            s = DexInstrumenter.instrument(in, out, cfg, minSdk, bar);
        } catch (DexInstrumenter.DexInputException e) {
            if (bar != null) bar.clear();
            throw new UserError(e.getMessage());
        } catch (NoSuchFileException e) {
            if (bar != null) bar.clear();
            throw new UserError(e.getFile() + ": no such file or directory");
        }
        if (bar != null) bar.clear();
        Path manifestFile = DexInstrumenter.beside(out, ".manifest.tsv");
        if (!quiet) {
            printSummary(err, s.classes(), s.instrumentedClasses(), s.methods(), s.loops(), s.manifest(),
                    s.inBytes(), s.outBytes(), listSkipped);
            err.printf("DEX %,d -> %,d bytes (%+.1f%%), runtime %,d bytes; minSdk %d: %s%n", s.dexInBytes(), s.dexOutBytes(),
                    s.dexInBytes() == 0 ? 0.0 : 100.0 * (s.dexOutBytes() - s.dexInBytes()) / s.dexInBytes(),
                    s.runtimeBytes(), s.minSdk(), String.join(", ", s.dexFiles()));
            for (String n : s.notes()) err.println("note: " + n);
        }
        if (signDebug) {
            if (s.kind() != DexInstrumenter.Kind.APK) {
                err.println("hyprof: --sign-debug ignored: " + out + " is not an APK");
            } else {
                Path ks = keystore != null ? keystore : DebugSigner.defaultKeystore();
                Path apksigner = DebugSigner.findApksigner();
                if (apksigner == null) {
                    err.println("hyprof: apksigner not found, " + out + " is unsigned: " + DebugSigner.howToSign(out, ks));
                } else {
                    try {
                        String done = DebugSigner.sign(apksigner, out, ks, s.minSdk());
                        if (!quiet) err.println(done);
                    } catch (IOException e) {
                        throw new UserError(out + ": written but not signed: " + e.getMessage());
                    }
                }
            }
        } else if (s.kind() == DexInstrumenter.Kind.APK && !quiet) {
            err.println("note: " + out + " is unsigned; sign it before installing (--sign-debug does it with the debug key)");
        }
        if (!quiet) err.println("wrote " + out + " and " + manifestFile);
        err.flush();
        return 0;
    }

    /** Progress is drawn for a person at a terminal, not into logs and pipes. */
    private static boolean interactive() {
        return System.console() != null;
    }

    /** A progress bar on stderr for inputs with many methods; redrawn at most once per percent. */
    static final class Progress implements DexInstrumenter.Progress {
        private static final int MIN_METHODS = 2000, WIDTH = 30;
        private final PrintWriter err;
        private int shown = -1;
        private boolean drawn;

        Progress(PrintWriter err) {
            this.err = err;
        }

        @Override
        public void methods(int done, int total) {
            if (total < MIN_METHODS) return;
            int pct = (int) (100L * done / total);
            if (pct == shown) return;
            shown = pct;
            int filled = pct * WIDTH / 100;
            err.printf(Locale.ROOT, "\rhyprof: [%s%s] %3d%% %,d/%,d methods", "#".repeat(filled), "-".repeat(WIDTH - filled), pct, done, total);
            err.flush();
            drawn = true;
        }

        void clear() {
            if (!drawn) return;
            err.print("\r" + " ".repeat(WIDTH + 48) + "\r");
            err.flush();
            drawn = false;
        }
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
