package org.hyprof.instrument.dex;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.instrument.ProbeIds;
import org.hyprof.instrument.ProbeSet;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.writer.DexWriter;

/**
 * Instruments Android code offline: an APK, one DEX file, or a directory of DEX files. Every
 * {@code classes*.dex} is rewritten ({@link ClassRewriter}); the runtime is added as its own
 * {@code classesN.dex} (into {@code classes.dex} when the app's minSdk is below 21, and into the
 * one output file for a single DEX). Other APK entries are copied unchanged; signature files are
 * dropped (the APK must be signed again).
 *
 * <p>Every output is a <em>piece</em> ({@link PieceHolder}): its probes are numbered from 1 and
 * its code adds the base the runtime gives the piece, read from its holder class
 * {@code org.hyprof.pieces.P_KEY} in the first DEX file, so DEX files, APK splits or libraries
 * instrumented one by one keep their own probes in one process. The key is the first 16 hex digits
 * of the SHA-256 of the manifest's probe lines: instrumenting the same input the same way gives
 * the same key. The manifest and the runtime's start-up settings go into the APK as
 * {@code assets/hyprof/pieces/KEY/manifest.tsv} and {@code assets/hyprof/runtime.properties}
 * (where the runtime looks for them through its class loader); for DEX files, beside the output
 * as {@code OUT.resources/} (a class-path root: {@code META-INF/hyprof/pieces/KEY/manifest.tsv},
 * {@code META-INF/hyprof/runtime.properties}); and always as {@code OUT.manifest.tsv}.
 *
 * <p>The output appears only when complete (written to a temporary file or directory, then
 * moved). Unreadable input is a {@link DexInputException} whose message is one line naming the
 * input and the problem.
 *
 * <p>This class is the orchestration: read the inputs, rewrite their classes, add the runtime,
 * spill at the 64K limit, name the output files, summarize. Reading and writing files are
 * {@link AppInput} and {@link AppOutput} (zip entries, aligned writing, assets, signature files).
 */
public final class DexInstrumenter {
    private DexInstrumenter() {}

    /** What the input is. */
    public enum Kind { APK, DEX, DIRECTORY }

    /** The runtime's start-up settings inside an instrumented APK. */
    public static final String OPTIONS_ASSET = "assets/hyprof/runtime.properties";

    /** Where the manifest of the piece {@code pieceKey} goes inside an instrumented APK. */
    public static String manifestAsset(String pieceKey) {
        return PieceHolder.asset(pieceKey);
    }

    /**
     * Where the manifest of the piece {@code pieceKey} is found on a class path: under
     * {@code OUT.resources/} beside a DEX output, and in a jar made from DEX code.
     */
    public static String manifestResource(String pieceKey) {
        return PieceHolder.resource(pieceKey);
    }
    /** Lowest API level on which every {@code classesN.dex} is loaded by the platform. */
    public static final int NATIVE_MULTIDEX_API = 21;

    /** Progress: methods looked at so far, of the total. */
    public interface Progress {
        void methods(int done, int total);
    }

    /**
     * What an instrumentation run did.
     *
     * @param kind            input kind
     * @param classes         classes in the input
     * @param instrumentedClasses classes with at least one probe
     * @param methods         methods that got probes
     * @param loops           loops that got probes
     * @param manifest        probes and skipped methods
     * @param inBytes         input size (file, or sum of DEX files for a directory)
     * @param outBytes        output size
     * @param dexInBytes      sum of the input DEX files
     * @param dexOutBytes     sum of the output DEX files (the runtime only where it shares a file with app classes)
     * @param runtimeBytes    size of the runtime's DEX
     * @param dexFiles        output DEX files in order, with where the runtime went
     * @param minSdk          the minSdk the layout was chosen for
     * @param spilledClasses  classes moved to an extra DEX file (64 K reference limit)
     * @param notes           things the user should know (one line each)
     * @param pieceKey        the output's piece key: 16 hex digits of the SHA-256 of its manifest's
     *                        probe lines, so the same input instrumented the same way gets the same
     *                        key ({@link #manifestAsset}, {@link #manifestResource})
     */
    public record Summary(Kind kind, int classes, int instrumentedClasses, int methods, int loops, Manifest manifest,
                          long inBytes, long outBytes, long dexInBytes, long dexOutBytes, long runtimeBytes,
                          List<String> dexFiles, int minSdk, int spilledClasses, List<String> notes, String pieceKey) {}

    /** Input that cannot be instrumented; the message is one line naming it and the problem. */
    public static final class DexInputException extends IOException {
        private static final long serialVersionUID = 1L;

        public DexInputException(String message) {
            super(message);
        }
    }

    /** The kind of input, from its contents; null when it is none of them. */
    public static Kind kindOf(Path in) throws IOException {
        if (Files.isDirectory(in)) return Kind.DIRECTORY;
        byte[] head = new byte[8];
        try (InputStream s = Files.newInputStream(in)) {
            int n = s.readNBytes(head, 0, 8);
            if (n >= 8 && DexFiles.hasMagic(head)) return Kind.DEX;
            if (n >= 4 && head[0] == 'P' && head[1] == 'K') return Kind.APK;
        }
        String name = in.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".dex")) return Kind.DEX;
        if (name.endsWith(".apk")) return Kind.APK;
        return null;
    }

    /**
     * Instruments {@code in} into {@code out} (same kind) and writes {@code OUT.manifest.tsv}
     * beside it.
     *
     * @param minSdk   the app's minSdk when known better than its manifest; null = from the
     *                 manifest (APK) or 21 (DEX files)
     * @param progress may be null
     */
    public static Summary instrument(Path in, Path out, ProfilingConfig cfg, Integer minSdk, Progress progress)
            throws IOException {
        return instrument(in, out, cfg, minSdk, progress, DexWriter.MAX_POOL_SIZE);
    }

    /** As above, with a lower reference limit per DEX file (tests make spills happen sooner). */
    static Summary instrument(Path in, Path out, ProfilingConfig cfg, Integer minSdk, Progress progress, int maxRefs)
            throws IOException {
        return instrument(in, out, cfg, minSdk, progress, maxRefs, 1);
    }

    /** As above, numbering the probes from {@code firstId} (tests reach the wider encodings of the ids). */
    static Summary instrument(Path in, Path out, ProfilingConfig cfg, Integer minSdk, Progress progress, int maxRefs,
                              int firstId) throws IOException {
        Kind kind = kindOf(in);
        if (kind == null) throw new DexInputException(in + ": not an APK, a DEX file or a directory of DEX files");
        AppInput input = AppInput.read(in, kind, minSdk);
        List<String> notes = new ArrayList<>(input.notes());
        Opened opened = open(in, input.dexFiles(), notes);

        byte[] runtime = DexOutput.runtimeDex();
        boolean mergeRuntime = kind == Kind.DEX || input.minSdk() < NATIVE_MULTIDEX_API;
        ProbeSet set = new ProbeSet(cfg);
        Written all = rewrite(in, input.dexFiles(), opened, cfg, new ProbeIds(firstId), set, mergeRuntime ? runtime : null,
                progress, maxRefs);
        if (all.spilled > 0) notes.add(all.spilled + " classes moved to extra DEX files (64K reference limit)");
        long dexOut = 0;
        for (AppOutput.Dex d : all.outputs) dexOut += d.bytes().length;
        for (byte[] s : all.spillFiles) dexOut += s.length;

        // name the extra files after the highest classesN.dex of the input
        List<AppOutput.Dex> outputs = new ArrayList<>(all.outputs);
        int next = nextDexNumber(outputs);
        List<String> listing = new ArrayList<>();
        for (AppOutput.Dex d : outputs) listing.add(d.name() + (mergeRuntime && d == outputs.get(0) ? " (with the runtime)" : ""));
        for (byte[] s : all.spillFiles) {
            String name = "classes" + next++ + ".dex";
            outputs.add(new AppOutput.Dex(name, s));
            listing.add(name + " (spilled classes)");
        }
        if (!mergeRuntime) {
            String name = "classes" + next + ".dex";
            outputs.add(new AppOutput.Dex(name, runtime));
            listing.add(name + " (the runtime)");
        }
        if (kind == Kind.DEX && outputs.size() > 1)
            throw new DexInputException(in + ": the code and the runtime need " + outputs.size()
                    + " DEX files (64K reference limit); give a directory of DEX files or an APK instead");

        AppOutput.write(kind, in, out, outputs, set.manifest().toText(), all.pieceKey, set.runtimeProperties());
        notes.add("piece " + all.pieceKey + ": its probe ids follow those of pieces instrumented on their own that the"
                + " program loaded before it");
        if (kind != Kind.APK)
            notes.add("put " + beside(out, ".resources").getFileName() + "/ on the class path (or its contents into a jar made"
                    + " from the DEX code); in an APK: " + beside(out, ".manifest.tsv").getFileName() + " as "
                    + manifestAsset(all.pieceKey) + " and " + beside(out, ".runtime.properties").getFileName() + " as "
                    + OPTIONS_ASSET);
        long outBytes = kind == Kind.DIRECTORY ? outputs.stream().mapToLong(d -> d.bytes().length).sum() : Files.size(out);
        return new Summary(kind, all.classes, all.instrumented, all.methods, all.loops, set.manifest(), input.inBytes(),
                outBytes, opened.dexInBytes, dexOut, runtime.length, listing, input.minSdk(), all.spilled, notes, all.pieceKey);
    }

    /** {@code OUT.suffix} beside the output file or directory. */
    public static Path beside(Path out, String suffix) {
        return AppOutput.beside(out, suffix);
    }

    /** The input DEX files opened and checked, with the number of methods that have code. */
    private record Opened(List<DexBackedDexFile> dexes, int methods, long dexInBytes) {}

    /**
     * Opens and checks every input DEX file ({@link DexFiles#read}: a damaged one is refused before
     * anything is rewritten); input hyprof already instrumented is refused.
     */
    private static Opened open(Path in, List<AppInput.Dex> inputs, List<String> notes) throws DexInputException {
        List<DexBackedDexFile> dexes = new ArrayList<>();
        long dexIn = 0;
        int total = 0;
        for (AppInput.Dex i : inputs) {
            DexBackedDexFile d;
            try {
                d = DexFiles.read(i.bytes(), i.display(), notes);
            } catch (DexFiles.DexException e) {
                throw new DexInputException(e.getMessage());
            }
            try {
                for (ClassDef cd : d.getClasses()) {
                    if (cd.getType().equals(ProbeCode.PROBE_TYPE))
                        throw new DexInputException(in + ": already instrumented by hyprof (contains org.hyprof.runtime.Probe)");
                    for (Method m : cd.getMethods()) if (m.getImplementation() != null) total++;
                }
            } catch (RuntimeException e) {
                throw damaged(i.display(), null, e);
            }
            dexes.add(d);
            dexIn += i.bytes().length;
        }
        return new Opened(dexes, total, dexIn);
    }

    /** What rewriting every input DEX file gave: the rewritten files, spill files, counts and the piece key. */
    private static final class Written {
        final List<AppOutput.Dex> outputs = new ArrayList<>();
        final List<byte[]> spillFiles = new ArrayList<>();
        int classes, instrumented, methods, loops, spilled;
        String pieceKey;
    }

    /**
     * Rewrites every class and writes each input DEX file again under its own name: the runtime
     * first in the first file when {@code runtime} is given, then the piece's holder
     * ({@link PieceHolder}), classes beyond the reference limit into spill files. Two stages on
     * two threads: rewriting (ids in class order) feeds the writer, which keeps every rewritten
     * class until the last one is done: the piece key, which the code names, comes from the whole
     * manifest.
     */
    private static Written rewrite(Path in, List<AppInput.Dex> inputs, Opened opened, ProfilingConfig cfg, ProbeIds ids,
                                   ProbeSet set, byte[] runtime, Progress progress, int maxRefs) throws IOException {
        Written all = new Written();
        int done = 0;
        BlockingQueue<Rewritten> queue = new ArrayBlockingQueue<>(512);
        List<String> names = inputs.stream().map(AppInput.Dex::display).toList();
        PieceHolder.Base base = new PieceHolder.Base();
        Thread producer = new Thread(() -> rewriteAll(opened.dexes, names, cfg, ids, base, queue), "hyprof-dex-rewriter");
        producer.setDaemon(true);
        producer.start();
        List<List<ClassDef>> classes = new ArrayList<>();
        try {
            for (int k = 0; k < opened.dexes.size(); k++) {
                List<ClassDef> these = new ArrayList<>();
                for (Rewritten r; (r = take(queue)).classDef != null; ) {
                    all.classes++;
                    done += r.methods;
                    if (r.result != null) {
                        set.add(r.result.probes(), r.result.skipped());
                        if (!r.result.probes().isEmpty()) all.instrumented++;
                        for (ProbeInfo p : r.result.probes()) { if (p.loop()) all.loops++; else all.methods++; }
                    }
                    these.add(r.classDef);
                    if (progress != null) progress.methods(done, opened.methods);
                }
                classes.add(these);
            }
        } finally {
            producer.interrupt();
        }
        all.pieceKey = PieceHolder.key(set.manifest().toText());
        base.resolve(all.pieceKey);
        for (int k = 0; k < opened.dexes.size(); k++) {
            DexOutput o = new DexOutput(opened.dexes.get(k).getOpcodes(), maxRefs);
            if (runtime != null && k == 0) {
                try {
                    o.addRuntime(new DexBackedDexFile(null, runtime));
                } catch (IllegalStateException e) {
                    throw new DexInputException(in + ": no room for the runtime in " + inputs.get(0).name() + " ("
                            + e.getMessage() + ")");
                }
            }
            if (k == 0) {
                try {
                    o.addFirst(PieceHolder.holder(all.pieceKey));
                } catch (IllegalStateException e) {
                    throw new DexInputException(in + ": no room for the piece's holder class in " + inputs.get(0).name());
                }
            }
            for (ClassDef cd : classes.get(k)) {
                try {
                    o.add(cd);
                } catch (RuntimeException e) {
                    throw new DexInputException(inputs.get(k).display() + ": cannot write "
                            + ClassRewriter.dotted(cd.getType()) + " (" + e.getMessage() + ")");
                }
            }
            classes.set(k, null);
            all.outputs.add(new AppOutput.Dex(inputs.get(k).name(), o.writeMain()));
            all.spillFiles.addAll(o.writeSpills());
            all.spilled += o.spilledClasses();
        }
        return all;
    }

    /** One class on its way from the rewriter to the writer; a null class ends a DEX file. */
    private record Rewritten(ClassDef classDef, ClassRewriter.Result result, int methods, IOException failure) {}

    private static void rewriteAll(List<DexBackedDexFile> dexes, List<String> names, ProfilingConfig cfg, ProbeIds ids,
                                   PieceHolder.Base base, BlockingQueue<Rewritten> queue) {
        String current = null, type = null;
        try {
            List<ClassDef> all = new ArrayList<>();
            for (DexBackedDexFile d : dexes) all.addAll(d.getClasses());
            Set<String> threadEntries = LambdaThreadEntries.scan(all);
            for (int k = 0; k < dexes.size(); k++) {
                current = names.get(k);
                for (ClassDef cd : dexes.get(k).getClasses()) {
                    type = cd.getType();
                    Rewritten r;
                    if (cfg.classes.accepts(ClassRewriter.dotted(cd.getType()))) {
                        ClassRewriter.Result res = ClassRewriter.rewrite(cd, ids, base, threadEntries);
                        r = new Rewritten(res.classDef(), res, res.methods(), null);
                    } else {
                        int n = 0;
                        for (Method m : cd.getMethods()) if (m.getImplementation() != null) n++;
                        r = new Rewritten(cd, null, n, null);
                    }
                    queue.put(r);
                }
                type = null;
                queue.put(new Rewritten(null, null, 0, null));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            try {
                queue.put(new Rewritten(null, null, 0, damaged(current, type, e)));
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A DEX file whose checksum is right but whose contents dexlib2 cannot decode (a corrupt
     * offset, an index out of range): one line naming the file and, when known, the class.
     */
    private static DexInputException damaged(String display, String classType, RuntimeException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
        return new DexInputException(display + ": damaged DEX" + (classType != null ? " in " + ClassRewriter.dotted(classType) : "")
                + " (" + m + ")");
    }

    private static Rewritten take(BlockingQueue<Rewritten> queue) throws IOException {
        try {
            Rewritten r = queue.take();
            if (r.failure != null) throw r.failure;
            return r;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted");
        }
    }

    /** The number after the highest {@code classesN.dex} among the outputs (at least 2). */
    private static int nextDexNumber(List<AppOutput.Dex> outputs) {
        int max = 1;
        for (AppOutput.Dex d : outputs) {
            int n = AppInput.dexNumber(d.name());
            if (n != Integer.MAX_VALUE) max = Math.max(max, n);
        }
        return max + 1;
    }
}
