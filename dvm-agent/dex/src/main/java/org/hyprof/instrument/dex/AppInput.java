package org.hyprof.instrument.dex;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.hyprof.instrument.ZipEntries;
import org.hyprof.instrument.dex.DexInstrumenter.DexInputException;
import org.hyprof.instrument.dex.DexInstrumenter.Kind;

/**
 * What the instrumenter reads: the DEX files of an APK (its {@code classes*.dex} entries), of a
 * directory (its {@code *.dex} files) or one DEX file, in load order ({@code classes.dex},
 * {@code classes2.dex}, …), and the minSdk the layout is chosen for. Only bytes here: the DEX
 * contents are checked and opened by {@link DexFiles}.
 *
 * @param dexFiles the DEX files in load order
 * @param minSdk   the minSdk given, else the APK manifest's, else 21
 * @param inBytes  input size (the file, or the sum of the DEX files of a directory)
 * @param notes    things the user should know (one line each)
 */
record AppInput(List<Dex> dexFiles, int minSdk, long inBytes, List<String> notes) {
    /**
     * One input DEX file.
     *
     * @param name    its file or entry name ({@code classes2.dex})
     * @param display how errors name it ({@code app.apk!/classes2.dex}, or the file's path)
     * @param bytes   its contents
     */
    record Dex(String name, String display, byte[] bytes) {}

    private static final Pattern CLASSES_DEX = Pattern.compile("classes(\\d*)\\.dex");

    /** Reads {@code in}, an input of the given kind; {@code minSdk} null = from the APK manifest, or 21. */
    static AppInput read(Path in, Kind kind, Integer minSdk) throws IOException {
        List<Dex> dexFiles = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int fallback = minSdk != null ? minSdk : DexInstrumenter.NATIVE_MULTIDEX_API;
        switch (kind) {
            case APK -> {
                int sdk = readApk(in, dexFiles, minSdk, notes);
                return new AppInput(dexFiles, sdk, Files.size(in), notes);
            }
            case DEX -> {
                byte[] b = Files.readAllBytes(in);
                dexFiles.add(new Dex(in.getFileName().toString(), in.toString(), b));
                return new AppInput(dexFiles, fallback, b.length, notes);
            }
            default -> {
                readDirectory(in, dexFiles);
                long inBytes = 0;
                for (Dex d : dexFiles) inBytes += d.bytes.length;
                return new AppInput(dexFiles, fallback, inBytes, notes);
            }
        }
    }

    /** N of {@code classesN.dex} ({@code classes.dex} is 1); any other name sorts last. */
    static int dexNumber(String name) {
        Matcher m = CLASSES_DEX.matcher(name);
        if (!m.matches()) return Integer.MAX_VALUE;
        return m.group(1).isEmpty() ? 1 : Integer.parseInt(m.group(1));
    }

    private static int readApk(Path in, List<Dex> dexFiles, Integer minSdk, List<String> notes) throws IOException {
        Integer fromManifest = null;
        try (ZipFile zip = openZip(in)) {
            List<ZipEntry> dex = new ArrayList<>();
            for (ZipEntry e : entries(zip, in)) {
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
            for (ZipEntry e : dex) dexFiles.add(new Dex(e.getName(), in + "!/" + e.getName(), read(zip, e, in)));
        }
        if (minSdk != null) return minSdk;
        if (fromManifest != null) return fromManifest;
        notes.add("no AndroidManifest.xml: assuming minSdk " + DexInstrumenter.NATIVE_MULTIDEX_API
                + " (the runtime gets its own DEX file; --min-sdk overrides)");
        return DexInstrumenter.NATIVE_MULTIDEX_API;
    }

    /** Opens an APK; a file that is not a zip is a one-line input error. */
    static ZipFile openZip(Path in) throws DexInputException {
        try {
            return new ZipFile(in.toFile());
        } catch (IOException e) {
            throw new DexInputException(in + ": not an APK/zip file (" + e.getMessage() + ")");
        }
    }

    /** The entries of an APK opened with {@link #openZip}; one that cannot be decoded is a one-line input error. */
    static List<ZipEntry> entries(ZipFile zip, Path in) throws DexInputException {
        try {
            return ZipEntries.of(zip);
        } catch (java.util.zip.ZipException e) {
            throw new DexInputException(in + ": not an APK/zip file (" + e.getMessage() + ")");
        }
    }

    /** One entry's bytes; an unreadable entry is a one-line input error naming it. */
    static byte[] read(ZipFile zip, ZipEntry e, Path in) throws DexInputException {
        try (InputStream s = zip.getInputStream(e)) {
            return s.readAllBytes();
        } catch (IOException bad) {
            throw new DexInputException(in + "!/" + e.getName() + ": cannot read (" + bad.getMessage() + ")");
        }
    }

    private static void readDirectory(Path in, List<Dex> dexFiles) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(in)) {
            files = s.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".dex"))
                    .sorted(Comparator.comparingInt((Path p) -> dexNumber(p.getFileName().toString()))
                            .thenComparing(p -> p.getFileName().toString()))
                    .toList();
        }
        if (files.isEmpty()) throw new DexInputException(in + ": no .dex files in this directory");
        for (Path p : files) dexFiles.add(new Dex(p.getFileName().toString(), p.toString(), Files.readAllBytes(p)));
    }
}
