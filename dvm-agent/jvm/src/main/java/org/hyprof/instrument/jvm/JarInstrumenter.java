package org.hyprof.instrument.jvm;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.instrument.ProbeIds;
import org.hyprof.instrument.ProbeSet;
import org.hyprof.instrument.RuntimeClasses;

/**
 * Offline instrumentation of a jar: classes that pass the filter get probes, the runtime classes
 * and {@code META-INF/hyprof/manifest.tsv} + {@code runtime.properties} are added, signatures are
 * dropped (the classes changed), everything else is copied unchanged. The output appears only
 * when complete (written to a temporary file, then moved).
 */
public final class JarInstrumenter {
    /** What an instrumentation run did. */
    public record Summary(int classes, int instrumentedClasses, int methods, int probes, int loops,
                          org.hyprof.config.Manifest manifest, long inBytes, long outBytes) {}

    private JarInstrumenter() {}

    public static final String MANIFEST_ENTRY = "META-INF/hyprof/manifest.tsv";
    public static final String OPTIONS_ENTRY = "META-INF/hyprof/runtime.properties";

    /**
     * @param progress called with (entries done) as entries are processed; may be null
     */
    public static Summary instrument(Path in, Path out, ProfilingConfig cfg, Consumer<Integer> progress)
            throws IOException {
        Map<String, byte[]> classes = new HashMap<>();
        ZipFile zip;
        try {
            zip = new ZipFile(in.toFile());
        } catch (ZipException e) {
            throw new IOException(in + ": not a jar/zip file (" + e.getMessage() + ")");
        }
        try (zip) {
            for (ZipEntry e : java.util.Collections.list(zip.entries())) {
                if (!e.isDirectory() && e.getName().endsWith(".class"))
                    classes.put(e.getName().substring(0, e.getName().length() - 6), read(zip, e, in));
            }
            ClassLoader sys = ClassLoader.getSystemClassLoader();
            ClassRewriter rewriter = new ClassRewriter(name -> {
                byte[] b = classes.get(name);
                return b != null ? b : TypeHierarchy.fromLoader(sys).apply(name);
            }, true).staticSites(cfg.staticSites);
            ProbeIds ids = new ProbeIds();
            ProbeSet set = new ProbeSet(cfg);
            int total = 0, instrumented = 0, methods = 0, loops = 0;
            Path tmp = org.hyprof.instrument.OutputFiles.tempBeside(out);
            try {
                try (OutputStream fo = Files.newOutputStream(tmp); JarOutputStream jo = new JarOutputStream(fo)) {
                    int done = 0;
                    for (ZipEntry e : java.util.Collections.list(zip.entries())) {
                        String name = e.getName();
                        if (progress != null && ++done % 200 == 0) progress.accept(done);
                        if (isSignature(name) || name.startsWith("META-INF/hyprof/")) continue;
                        if (name.startsWith(RuntimeClasses.PACKAGE_PATH)) continue; // replaced below
                        byte[] data = read(zip, e, in);
                        if (name.equals("META-INF/MANIFEST.MF")) data = stripDigests(data);
                        else if (name.endsWith(".class") && !e.isDirectory() && !name.startsWith("META-INF/")) {
                            total++;
                            String cls = name.substring(0, name.length() - 6).replace('/', '.');
                            if (cfg.classes.accepts(cls)) {
                                ClassRewriter.Result r;
                                try {
                                    r = rewriter.rewrite(data, ids::next);
                                } catch (RuntimeException bad) {
                                    // a class ASM cannot read: copied unchanged, listed like a skipped method
                                    set.add(java.util.List.of(), java.util.List.of(new org.hyprof.config.SkippedMethod(cls, "*", "",
                                            "class not readable, copied unchanged (" + oneLine(bad) + ")")));
                                    r = new ClassRewriter.Result(null, cls, java.util.List.of(), java.util.List.of());
                                }
                                set.add(r.probes(), r.skipped());
                                if (r.bytes() != null) {
                                    data = r.bytes();
                                    instrumented++;
                                    for (ProbeInfo p : r.probes()) { if (p.loop()) loops++; else methods++; }
                                }
                            }
                        }
                        JarEntry je = new JarEntry(name);
                        je.setTime(e.getTime());
                        jo.putNextEntry(je);
                        if (!e.isDirectory()) jo.write(data);
                        jo.closeEntry();
                    }
                    for (Map.Entry<String, byte[]> rc : RuntimeClasses.read().entrySet()) {
                        jo.putNextEntry(new JarEntry(rc.getKey()));
                        jo.write(rc.getValue());
                        jo.closeEntry();
                    }
                    jo.putNextEntry(new JarEntry(MANIFEST_ENTRY));
                    jo.write(set.manifest().toText().getBytes(StandardCharsets.UTF_8));
                    jo.closeEntry();
                    jo.putNextEntry(new JarEntry(OPTIONS_ENTRY));
                    jo.write(set.runtimeProperties().getBytes(StandardCharsets.UTF_8));
                    jo.closeEntry();
                }
                org.hyprof.instrument.OutputFiles.moveIntoPlace(tmp, out);
            } finally {
                Files.deleteIfExists(tmp);
            }
            return new Summary(total, instrumented, methods, methods + loops, loops, set.manifest(),
                    Files.size(in), Files.size(out));
        }
    }

    /** An entry's bytes; a damaged entry is an error naming the jar and the entry. */
    private static byte[] read(ZipFile zip, ZipEntry e, Path in) throws IOException {
        try (InputStream s = zip.getInputStream(e)) {
            return s.readAllBytes();
        } catch (IOException x) {
            throw new IOException(in + ": " + e.getName() + ": damaged entry (" + oneLine(x) + ")", x);
        }
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m.lines().findFirst().orElse(""));
    }

    private static boolean isSignature(String name) {
        if (!name.startsWith("META-INF/") || name.indexOf('/', 9) >= 0) return false;
        String u = name.toUpperCase(java.util.Locale.ROOT);
        return u.endsWith(".SF") || u.endsWith(".RSA") || u.endsWith(".DSA") || u.endsWith(".EC")
                || u.startsWith("META-INF/SIG-");
    }

    /** Drops per-entry digests from the jar manifest: they no longer match the rewritten classes. */
    private static byte[] stripDigests(byte[] mf) throws IOException {
        Manifest m = new Manifest(new java.io.ByteArrayInputStream(mf));
        for (Attributes a : m.getEntries().values()) {
            a.keySet().removeIf(k -> k.toString().toUpperCase(java.util.Locale.ROOT).endsWith("-DIGEST"));
        }
        m.getEntries().values().removeIf(Attributes::isEmpty);
        var bo = new java.io.ByteArrayOutputStream();
        m.write(bo);
        return bo.toByteArray();
    }
}
