package org.hyprof.instrument.dex;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.jar.Attributes;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.instrument.OutputFiles;
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
 * one output file for a single DEX); the probe manifest and the runtime's start-up settings go
 * into the APK as {@code assets/hyprof/manifest.tsv} and {@code assets/hyprof/runtime.properties}
 * (where the runtime looks for them through its class loader) and beside the output. Other APK
 * entries are copied unchanged; signature files are dropped (the APK must be signed again).
 *
 * <p>The output appears only when complete (written to a temporary file or directory, then
 * moved). Unreadable input is a {@link DexInputException} whose message is one line naming the
 * input and the problem.
 */
public final class DexInstrumenter {
    private DexInstrumenter() {}

    /** What the input is. */
    public enum Kind { APK, DEX, DIRECTORY }

    /** Entry names inside an instrumented APK. */
    public static final String MANIFEST_ASSET = "assets/hyprof/manifest.tsv";
    public static final String OPTIONS_ASSET = "assets/hyprof/runtime.properties";
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
     */
    public record Summary(Kind kind, int classes, int instrumentedClasses, int methods, int loops, Manifest manifest,
                          long inBytes, long outBytes, long dexInBytes, long dexOutBytes, long runtimeBytes,
                          List<String> dexFiles, int minSdk, int spilledClasses, List<String> notes) {}

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
        Kind kind = kindOf(in);
        if (kind == null) throw new DexInputException(in + ": not an APK, a DEX file or a directory of DEX files");
        List<String> notes = new ArrayList<>();
        List<Input> inputs = new ArrayList<>();
        int sdk;
        long inBytes = 0;
        if (kind == Kind.APK) {
            sdk = readApk(in, inputs, minSdk, notes);
            inBytes = Files.size(in);
        } else if (kind == Kind.DEX) {
            byte[] b = Files.readAllBytes(in);
            inputs.add(new Input(in.getFileName().toString(), in.toString(), b));
            sdk = minSdk != null ? minSdk : NATIVE_MULTIDEX_API;
            inBytes = b.length;
        } else {
            readDirectory(in, inputs);
            sdk = minSdk != null ? minSdk : NATIVE_MULTIDEX_API;
            for (Input i : inputs) inBytes += i.bytes.length;
        }
        List<DexBackedDexFile> dexes = new ArrayList<>();
        long dexIn = 0;
        int total = 0;
        for (Input i : inputs) {
            DexBackedDexFile d;
            try {
                d = DexFiles.read(i.bytes, i.display);
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
                throw damaged(i.display, null, e);
            }
            dexes.add(d);
            dexIn += i.bytes.length;
        }

        byte[] runtime = DexOutput.runtimeDex();
        DexBackedDexFile runtimeDex = new DexBackedDexFile(null, runtime);
        boolean mergeRuntime = kind == Kind.DEX || sdk < NATIVE_MULTIDEX_API;

        ProbeIds ids = new ProbeIds();
        ProbeSet set = new ProbeSet(cfg);
        int classes = 0, instrumented = 0, methods = 0, loops = 0, done = 0, spilled = 0;
        List<Named> outputs = new ArrayList<>();
        List<byte[]> spillFiles = new ArrayList<>();
        // two stages on two threads: rewriting (ids in class order) feeds interning and writing
        BlockingQueue<Rewritten> queue = new ArrayBlockingQueue<>(512);
        List<String> names = inputs.stream().map(Input::display).toList();
        Thread producer = new Thread(() -> rewriteAll(dexes, names, cfg, ids, queue), "hyprof-dex-rewriter");
        producer.setDaemon(true);
        producer.start();
        try {
            for (int k = 0; k < dexes.size(); k++) {
                DexOutput o = new DexOutput(dexes.get(k).getOpcodes(), maxRefs);
                if (mergeRuntime && k == 0) {
                    try {
                        o.addRuntime(runtimeDex);
                    } catch (IllegalStateException e) {
                        throw new DexInputException(in + ": no room for the runtime in " + inputs.get(0).name + " ("
                                + e.getMessage() + ")");
                    }
                }
                for (Rewritten r; (r = take(queue)).classDef != null; ) {
                    classes++;
                    done += r.methods;
                    if (r.result != null) {
                        set.add(r.result.probes(), r.result.skipped());
                        if (!r.result.probes().isEmpty()) instrumented++;
                        for (ProbeInfo p : r.result.probes()) { if (p.loop()) loops++; else methods++; }
                    }
                    try {
                        o.add(r.classDef);
                    } catch (RuntimeException e) {
                        throw new DexInputException(inputs.get(k).display + ": cannot write "
                                + ClassRewriter.dotted(r.classDef.getType()) + " (" + e.getMessage() + ")");
                    }
                    if (progress != null) progress.methods(done, total);
                }
                outputs.add(new Named(inputs.get(k).name, o.writeMain()));
                spillFiles.addAll(o.writeSpills());
                spilled += o.spilledClasses();
            }
        } finally {
            producer.interrupt();
        }
        if (spilled > 0) notes.add(spilled + " classes moved to extra DEX files (64K reference limit)");
        long dexOut = 0;
        for (Named n : outputs) dexOut += n.bytes.length;
        for (byte[] s : spillFiles) dexOut += s.length;

        // name the extra files after the highest classesN.dex of the input
        int next = nextDexNumber(outputs);
        List<String> listing = new ArrayList<>();
        for (Named n : outputs) listing.add(n.name + (mergeRuntime && n == outputs.get(0) ? " (with the runtime)" : ""));
        for (byte[] s : spillFiles) {
            String name = "classes" + next++ + ".dex";
            outputs.add(new Named(name, s));
            listing.add(name + " (spilled classes)");
        }
        if (!mergeRuntime) {
            String name = "classes" + next + ".dex";
            outputs.add(new Named(name, runtime));
            listing.add(name + " (the runtime)");
        }
        if (kind == Kind.DEX && outputs.size() > 1)
            throw new DexInputException(in + ": the code and the runtime need " + outputs.size()
                    + " DEX files (64K reference limit); give a directory of DEX files or an APK instead");

        String manifestText = set.manifest().toText();
        String options = set.runtimeProperties();
        switch (kind) {
            case APK -> writeApk(in, out, outputs, manifestText, options);
            case DEX -> writeAtomically(out, outputs.get(0).bytes);
            case DIRECTORY -> writeDirectory(out, outputs);
        }
        Files.writeString(beside(out, ".manifest.tsv"), manifestText);
        if (kind != Kind.APK) {
            Files.writeString(beside(out, ".runtime.properties"), options);
            notes.add("put " + beside(out, ".manifest.tsv").getFileName() + " and " + beside(out, ".runtime.properties").getFileName()
                    + " into the APK as " + MANIFEST_ASSET + " and " + OPTIONS_ASSET + " when packaging");
        }
        long outBytes = kind == Kind.DIRECTORY ? outputs.stream().mapToLong(n -> n.bytes.length).sum() : Files.size(out);
        return new Summary(kind, classes, instrumented, methods, loops, set.manifest(), inBytes, outBytes, dexIn, dexOut,
                runtime.length, listing, sdk, spilled, notes);
    }

    /** {@code OUT.suffix} beside the output file or directory. */
    public static Path beside(Path out, String suffix) {
        Path abs = out.toAbsolutePath().normalize();
        return abs.resolveSibling(abs.getFileName() + suffix);
    }

    private record Input(String name, String display, byte[] bytes) {}

    /** One class on its way from the rewriter to the writer; a null class ends a DEX file. */
    private record Rewritten(ClassDef classDef, ClassRewriter.Result result, int methods, IOException failure) {}

    private static void rewriteAll(List<DexBackedDexFile> dexes, List<String> names, ProfilingConfig cfg, ProbeIds ids,
                                   BlockingQueue<Rewritten> queue) {
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
                        ClassRewriter.Result res = ClassRewriter.rewrite(cd, ids, threadEntries);
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

    private record Named(String name, byte[] bytes) {}

    private static final Pattern CLASSES_DEX = Pattern.compile("classes(\\d*)\\.dex");

    private static int dexNumber(String name) {
        Matcher m = CLASSES_DEX.matcher(name);
        if (!m.matches()) return Integer.MAX_VALUE;
        return m.group(1).isEmpty() ? 1 : Integer.parseInt(m.group(1));
    }

    private static int nextDexNumber(List<Named> outputs) {
        int max = 1;
        for (Named n : outputs) if (dexNumber(n.name) != Integer.MAX_VALUE) max = Math.max(max, dexNumber(n.name));
        return max + 1;
    }

    private static int readApk(Path in, List<Input> inputs, Integer minSdk, List<String> notes) throws IOException {
        Integer fromManifest = null;
        try (ZipFile zip = openZip(in)) {
            List<ZipEntry> dex = new ArrayList<>();
            for (ZipEntry e : Collections.list(zip.entries())) {
                if (!e.isDirectory() && CLASSES_DEX.matcher(e.getName()).matches()) dex.add(e);
                if (e.getName().equals("AndroidManifest.xml")) {
                    try {
                        fromManifest = AndroidManifest.parse(read(zip, e, in)).minSdk;
                    } catch (IllegalArgumentException | IndexOutOfBoundsException bad) {
                        throw new DexInputException(in + ": AndroidManifest.xml: not binary XML (" + bad.getMessage() + ")");
                    }
                }
            }
            if (dex.isEmpty()) throw new DexInputException(in + ": no classes.dex inside (not an APK with code)");
            dex.sort(Comparator.comparingInt((ZipEntry e) -> dexNumber(e.getName())));
            for (ZipEntry e : dex) inputs.add(new Input(e.getName(), in + "!/" + e.getName(), read(zip, e, in)));
        }
        if (minSdk != null) return minSdk;
        if (fromManifest != null) return fromManifest;
        notes.add("no AndroidManifest.xml: assuming minSdk " + NATIVE_MULTIDEX_API + " (the runtime gets its own DEX file; --min-sdk overrides)");
        return NATIVE_MULTIDEX_API;
    }

    private static ZipFile openZip(Path in) throws DexInputException {
        try {
            return new ZipFile(in.toFile());
        } catch (IOException e) {
            throw new DexInputException(in + ": not an APK/zip file (" + e.getMessage() + ")");
        }
    }

    private static byte[] read(ZipFile zip, ZipEntry e, Path in) throws DexInputException {
        try (InputStream s = zip.getInputStream(e)) {
            return s.readAllBytes();
        } catch (IOException bad) {
            throw new DexInputException(in + "!/" + e.getName() + ": cannot read (" + bad.getMessage() + ")");
        }
    }

    private static void readDirectory(Path in, List<Input> inputs) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(in)) {
            files = s.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".dex"))
                    .sorted(Comparator.comparingInt((Path p) -> dexNumber(p.getFileName().toString()))
                            .thenComparing(p -> p.getFileName().toString()))
                    .toList();
        }
        if (files.isEmpty()) throw new DexInputException(in + ": no .dex files in this directory");
        for (Path p : files) inputs.add(new Input(p.getFileName().toString(), p.toString(), Files.readAllBytes(p)));
    }

    private static void writeApk(Path in, Path out, List<Named> dexes, String manifest, String options) throws IOException {
        Path tmp = OutputFiles.tempBeside(out);
        try {
            try (ZipFile zip = openZip(in); ZipWriter w = new ZipWriter(Files.newOutputStream(tmp))) {
                boolean dexDeflated = true;
                List<String> written = new ArrayList<>();
                for (ZipEntry e : Collections.list(zip.entries())) {
                    String name = e.getName();
                    if (isSignature(name) || name.startsWith("assets/hyprof/")) continue;
                    boolean deflate = e.getMethod() == ZipEntry.DEFLATED;
                    Named dex = null;
                    for (Named d : dexes) if (d.name.equals(name)) dex = d;
                    if (dex != null) {
                        dexDeflated = deflate;
                        w.add(name, dex.bytes, deflate);
                        written.add(name);
                        continue;
                    }
                    byte[] data = read(zip, e, in);
                    if (name.equals("META-INF/MANIFEST.MF")) data = stripDigests(data);
                    w.add(name, data, deflate);
                }
                for (Named d : dexes) if (!written.contains(d.name)) w.add(d.name, d.bytes, dexDeflated);
                w.add(MANIFEST_ASSET, manifest.getBytes(StandardCharsets.UTF_8), true);
                w.add(OPTIONS_ASSET, options.getBytes(StandardCharsets.UTF_8), true);
            }
            move(tmp, out);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void writeAtomically(Path out, byte[] data) throws IOException {
        Path tmp = OutputFiles.tempBeside(out);
        try {
            Files.write(tmp, data);
            move(tmp, out);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void writeDirectory(Path out, List<Named> dexes) throws IOException {
        Path parent = out.toAbsolutePath().getParent();
        Path tmp = Files.createTempDirectory(parent, ".hyprof-dex-");
        try {
            for (Named d : dexes) Files.write(tmp.resolve(d.name), d.bytes);
            if (Files.isDirectory(out)) {
                // replace only what an earlier run wrote: the DEX files
                try (Stream<Path> s = Files.list(out)) {
                    for (Path p : (Iterable<Path>) s::iterator) if (p.toString().endsWith(".dex")) Files.delete(p);
                }
                for (Named d : dexes) Files.move(tmp.resolve(d.name), out.resolve(d.name), StandardCopyOption.REPLACE_EXISTING);
            } else {
                move(tmp, out);
            }
        } finally {
            if (Files.exists(tmp)) {
                try (Stream<Path> s = Files.list(tmp)) {
                    for (Path p : (Iterable<Path>) s::iterator) Files.deleteIfExists(p);
                }
                Files.deleteIfExists(tmp);
            }
        }
    }

    private static void move(Path tmp, Path out) throws IOException {
        OutputFiles.moveIntoPlace(tmp, out);
    }

    /** v1 signature files: they no longer match, and apksigner writes new ones. */
    static boolean isSignature(String name) {
        if (!name.startsWith("META-INF/") || name.indexOf('/', 9) >= 0) return false;
        String u = name.toUpperCase(Locale.ROOT);
        return u.endsWith(".SF") || u.endsWith(".RSA") || u.endsWith(".DSA") || u.endsWith(".EC")
                || u.startsWith("META-INF/SIG-");
    }

    /** Drops per-entry digests from a jar manifest: they no longer match the rewritten entries. */
    private static byte[] stripDigests(byte[] mf) throws IOException {
        java.util.jar.Manifest m = new java.util.jar.Manifest(new ByteArrayInputStream(mf));
        for (Attributes a : m.getEntries().values())
            a.keySet().removeIf(k -> k.toString().toUpperCase(Locale.ROOT).endsWith("-DIGEST"));
        m.getEntries().values().removeIf(Attributes::isEmpty);
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        m.write(bo);
        return bo.toByteArray();
    }
}
