package org.hyprof.instrument.dex;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.jar.Attributes;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.hyprof.instrument.OutputFiles;
import org.hyprof.instrument.dex.DexInstrumenter.Kind;

/**
 * What the instrumenter writes, in the input's shape: an APK (the input's entries copied in
 * order, its DEX entries replaced and new ones appended, stored entries aligned by
 * {@link ZipWriter}, v1 signature files dropped and per-entry digests stripped from
 * {@code MANIFEST.MF}, the piece's manifest and the runtime settings added as assets), one DEX
 * file, or a directory of DEX files; and {@code OUT.manifest.tsv} beside the output. When there is
 * no APK to hold them, the manifest and settings also go beside the output as a class-path root,
 * {@code OUT.resources/} ({@code META-INF/hyprof/pieces/KEY/manifest.tsv},
 * {@code META-INF/hyprof/runtime.properties}), plus {@code OUT.runtime.properties}: a program run
 * from the DEX code (a jar made from it, a test) finds them through its class loader as it would
 * in an APK.
 *
 * <p>The output appears only when complete: it is written to a temporary file or directory beside
 * it, then moved into place.
 */
final class AppOutput {
    private AppOutput() {}

    /**
     * One output DEX file.
     *
     * @param name  its file or entry name ({@code classes3.dex})
     * @param bytes its contents
     */
    record Dex(String name, byte[] bytes) {}

    /**
     * Writes the output and the files beside it.
     *
     * @param in       the input (an APK's other entries are copied from it)
     * @param dexFiles the output DEX files in order (exactly one for {@link Kind#DEX})
     * @param manifest the probe manifest's text
     * @param pieceKey the output's piece key ({@link PieceHolder})
     * @param options  the runtime's start-up settings ({@code runtime.properties})
     */
    static void write(Kind kind, Path in, Path out, List<Dex> dexFiles, String manifest, String pieceKey, String options)
            throws IOException {
        switch (kind) {
            case APK -> writeApk(in, out, dexFiles, manifest, pieceKey, options);
            case DEX -> writeAtomically(out, dexFiles.get(0).bytes);
            case DIRECTORY -> writeDirectory(out, dexFiles);
        }
        Files.writeString(beside(out, ".manifest.tsv"), manifest);
        if (kind != Kind.APK) {
            Files.writeString(beside(out, ".runtime.properties"), options);
            writeResources(beside(out, RESOURCES_SUFFIX), manifest, pieceKey, options);
        }
    }

    /** The class-path root beside a DEX output. */
    static final String RESOURCES_SUFFIX = ".resources";
    static final String OPTIONS_RESOURCE = "META-INF/hyprof/runtime.properties";

    /**
     * {@code root/META-INF/hyprof/pieces/KEY/manifest.tsv} and {@code runtime.properties}; the
     * piece manifests an earlier run left there are removed (only those files).
     */
    private static void writeResources(Path root, String manifest, String pieceKey, String options) throws IOException {
        Path pieces = root.resolve("META-INF/hyprof/pieces");
        if (Files.isDirectory(pieces)) {
            try (Stream<Path> s = Files.list(pieces)) {
                for (Path d : (Iterable<Path>) s::iterator) {
                    Files.deleteIfExists(d.resolve("manifest.tsv"));
                    if (Files.isDirectory(d)) {
                        try (Stream<Path> left = Files.list(d)) {
                            if (left.findAny().isEmpty()) Files.delete(d);
                        }
                    }
                }
            }
        }
        Path m = root.resolve(PieceHolder.resource(pieceKey));
        Files.createDirectories(m.getParent());
        Files.writeString(m, manifest);
        Files.writeString(root.resolve(OPTIONS_RESOURCE), options);
    }

    /** {@code OUT.suffix} beside the output file or directory. */
    static Path beside(Path out, String suffix) {
        Path abs = out.toAbsolutePath().normalize();
        return abs.resolveSibling(abs.getFileName() + suffix);
    }

    private static void writeApk(Path in, Path out, List<Dex> dexes, String manifest, String pieceKey, String options)
            throws IOException {
        Path tmp = OutputFiles.tempBeside(out);
        try {
            try (ZipFile zip = AppInput.openZip(in); ZipWriter w = new ZipWriter(Files.newOutputStream(tmp))) {
                boolean dexDeflated = true;
                List<String> written = new ArrayList<>();
                for (ZipEntry e : AppInput.entries(zip, in)) {
                    String name = e.getName();
                    if (isSignature(name) || name.startsWith("assets/hyprof/")) continue;
                    boolean deflate = e.getMethod() == ZipEntry.DEFLATED;
                    Dex dex = null;
                    for (Dex d : dexes) if (d.name.equals(name)) dex = d;
                    if (dex != null) {
                        dexDeflated = deflate;
                        w.add(name, dex.bytes, deflate);
                        written.add(name);
                        continue;
                    }
                    byte[] data = AppInput.read(zip, e, in);
                    if (name.equals("META-INF/MANIFEST.MF")) data = stripDigests(data);
                    w.add(name, data, deflate);
                }
                for (Dex d : dexes) if (!written.contains(d.name)) w.add(d.name, d.bytes, dexDeflated);
                w.add(PieceHolder.asset(pieceKey), manifest.getBytes(StandardCharsets.UTF_8), true);
                w.add(DexInstrumenter.OPTIONS_ASSET, options.getBytes(StandardCharsets.UTF_8), true);
            }
            OutputFiles.moveIntoPlace(tmp, out);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void writeAtomically(Path out, byte[] data) throws IOException {
        Path tmp = OutputFiles.tempBeside(out);
        try {
            Files.write(tmp, data);
            OutputFiles.moveIntoPlace(tmp, out);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void writeDirectory(Path out, List<Dex> dexes) throws IOException {
        Path parent = out.toAbsolutePath().getParent();
        Path tmp = Files.createTempDirectory(parent, ".hyprof-dex-");
        try {
            for (Dex d : dexes) Files.write(tmp.resolve(d.name), d.bytes);
            if (Files.isDirectory(out)) {
                // replace only what an earlier run wrote: the DEX files
                try (Stream<Path> s = Files.list(out)) {
                    for (Path p : (Iterable<Path>) s::iterator) if (p.toString().endsWith(".dex")) Files.delete(p);
                }
                for (Dex d : dexes) Files.move(tmp.resolve(d.name), out.resolve(d.name), StandardCopyOption.REPLACE_EXISTING);
            } else {
                OutputFiles.moveIntoPlace(tmp, out);
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
