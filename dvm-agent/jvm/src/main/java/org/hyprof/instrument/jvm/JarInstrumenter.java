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
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Offline instrumentation of a jar: classes that pass the filter get probes, the runtime classes
 * are added, signatures are dropped (the classes changed), everything else is copied unchanged.
 * The output appears only when complete (written to a temporary file, then moved).
 *
 * <p>Each output is a {@link Piece}: its probes are numbered from 1 and its code adds the base id
 * the runtime gives the piece, so jars instrumented one by one (a library and its tests) run
 * together on one class path without sharing ids. Added beside the classes: the holder class
 * {@code org/hyprof/pieces/P_KEY.class}, the manifest {@code META-INF/hyprof/pieces/KEY/manifest.tsv}
 * (KEY: {@link Piece#keyOf}, from the manifest's probe lines, so the same input gives the same
 * key) and {@code META-INF/hyprof/runtime.properties} (start-up settings: of several pieces on a
 * class path, the first one found by the class loader wins, as for any resource). The single
 * {@code META-INF/hyprof/manifest.tsv} of earlier outputs is no longer written (the runtime still
 * reads it for them).
 *
 * <p>Two passes: the classes are rewritten with a placeholder key (the key comes from the manifest
 * they make), then written with the key put in ({@link #withKey}, no frame computation).
 */
public final class JarInstrumenter {
    /** What an instrumentation run did. */
    public record Summary(int classes, int instrumentedClasses, int methods, int probes, int loops,
                          org.hyprof.config.Manifest manifest, long inBytes, long outBytes, String pieceKey) {}

    private JarInstrumenter() {}

    /** Where the piece manifest of an output with piece key {@code key} is. */
    public static String manifestEntry(String key) {
        return new Piece(key).manifestEntry();
    }
    public static final String OPTIONS_ENTRY = "META-INF/hyprof/runtime.properties";

    /** The key the classes are rewritten with before the real one is known (never in an output). */
    private static final Piece PENDING = new Piece("pending-piece-key");

    /**
     * @param progress called with (entries done) as entries are rewritten; may be null
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
            java.util.List<ZipEntry> entries;
            try {
                entries = org.hyprof.instrument.ZipEntries.of(zip);
            } catch (ZipException e) {
                throw new IOException(in + ": not a jar/zip file (" + e.getMessage() + ")");
            }
            for (ZipEntry e : entries) {
                if (!e.isDirectory() && e.getName().endsWith(".class"))
                    classes.put(e.getName().substring(0, e.getName().length() - 6), read(zip, e, in));
            }
            ClassLoader sys = ClassLoader.getSystemClassLoader();
            ClassRewriter rewriter = new ClassRewriter(name -> {
                byte[] b = classes.get(name);
                return b != null ? b : TypeHierarchy.fromLoader(sys).apply(name);
            }, true).staticSites(cfg.staticSites).outline(cfg.outline);
            rewriter.piece(PENDING);
            ProbeIds ids = new ProbeIds();
            ProbeSet set = new ProbeSet(cfg);
            int total = 0, instrumented = 0, methods = 0, loops = 0;
            // pass 1: rewrite (entry name -> rewritten class, with the placeholder key)
            Map<String, byte[]> rewritten = new HashMap<>();
            int done = 0;
            for (ZipEntry e : entries) {
                String name = e.getName();
                if (progress != null && ++done % 200 == 0) progress.accept(done);
                if (!copied(name) || e.isDirectory() || !name.endsWith(".class") || name.startsWith("META-INF/")) continue;
                total++;
                if (name.startsWith(Piece.PACKAGE)) continue; // holders of an earlier run: copied unchanged
                String cls = name.substring(0, name.length() - 6).replace('/', '.');
                if (!cfg.classes.accepts(cls)) continue;
                ClassRewriter.Result r;
                try {
                    r = rewriter.rewrite(classes.get(name.substring(0, name.length() - 6)), ids::next);
                } catch (RuntimeException bad) {
                    // a class ASM cannot read: copied unchanged, listed like a skipped method
                    set.add(java.util.List.of(), java.util.List.of(new org.hyprof.config.SkippedMethod(cls, "*", "",
                            "class not readable, copied unchanged (" + oneLine(bad) + ")")));
                    continue;
                }
                set.add(r.probes(), r.skipped());
                if (r.bytes() != null) {
                    rewritten.put(name, r.bytes());
                    instrumented++;
                    for (ProbeInfo p : r.probes()) { if (p.loop()) loops++; else methods++; }
                }
            }
            String manifest = set.manifest().toText();
            Piece piece = new Piece(Piece.keyOf(manifest));
            // pass 2: write, the key put in
            Path tmp = org.hyprof.instrument.OutputFiles.tempBeside(out);
            try {
                try (OutputStream fo = Files.newOutputStream(tmp); JarOutputStream jo = new JarOutputStream(fo)) {
                    for (ZipEntry e : entries) {
                        String name = e.getName();
                        if (!copied(name)) continue;
                        byte[] data = rewritten.get(name);
                        if (data != null) data = withKey(data, piece);
                        else data = read(zip, e, in);
                        if (name.equals("META-INF/MANIFEST.MF")) data = stripDigests(data);
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
                    jo.putNextEntry(new JarEntry(piece.holder() + ".class"));
                    jo.write(piece.holderClass());
                    jo.closeEntry();
                    jo.putNextEntry(new JarEntry(piece.manifestEntry()));
                    jo.write(manifest.getBytes(StandardCharsets.UTF_8));
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
                    Files.size(in), Files.size(out), piece.key());
        }
    }

    /**
     * Entries of the input that go to the output (rewritten or not): all but signatures, hyprof's
     * own files and the runtime classes, which are written afresh.
     */
    private static boolean copied(String name) {
        return !isSignature(name) && !name.startsWith("META-INF/hyprof/") && !name.startsWith(RuntimeClasses.PACKAGE_PATH);
    }

    /**
     * A class rewritten with the placeholder key, with {@code piece}'s key instead: the holder's
     * name in {@code getstatic} and the key among the sites' bootstrap arguments (what
     * {@link MethodRewriter} puts in; nothing else changes, frames are copied as they are).
     */
    static byte[] withKey(byte[] rewritten, Piece piece) {
        ClassWriter cw = new ClassWriter(0);
        new ClassReader(rewritten).accept(new ClassVisitor(Opcodes.ASM9, cw) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, desc, sig, exceptions)) {
                    @Override
                    public void visitFieldInsn(int op, String owner, String field, String fieldDesc) {
                        super.visitFieldInsn(op, owner.equals(PENDING.holder()) ? piece.holder() : owner, field, fieldDesc);
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String n, String d, Handle bsm, Object... args) {
                        if (bsm.equals(MethodRewriter.PIECE_SITES) && PENDING.key().equals(args[0])) {
                            args = args.clone();
                            args[0] = piece.key();
                        }
                        super.visitInvokeDynamicInsn(n, d, bsm, args);
                    }
                };
            }
        }, 0);
        return cw.toByteArray();
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
