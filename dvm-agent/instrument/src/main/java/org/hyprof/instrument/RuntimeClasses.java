package org.hyprof.instrument;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.hyprof.runtime.Probe;

/** The runtime's class files, to embed in an instrumented jar (or to dex for an APK). */
public final class RuntimeClasses {
    private RuntimeClasses() {}

    public static final String PACKAGE_PATH = "org/hyprof/runtime/";

    /**
     * Entry name → bytes of every class of the runtime ({@code org.hyprof.runtime} and its
     * subpackages, e.g. the chunk codecs), read from where Probe came from: the runtime jar, or
     * its classes directory in a reactor build.
     */
    public static Map<String, byte[]> read() throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        Path src;
        try {
            src = Path.of(Probe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IOException("cannot locate the hyprof runtime classes", e);
        }
        if (Files.isDirectory(src)) {
            Path root = src;
            try (Stream<Path> s = Files.walk(src.resolve(PACKAGE_PATH))) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    String n = root.relativize(p).toString().replace(java.io.File.separatorChar, '/');
                    if (n.endsWith(".class")) out.put(n, Files.readAllBytes(p));
                }
            }
        } else {
            try (JarFile jar = new JarFile(src.toFile())) {
                for (JarEntry e : (Iterable<JarEntry>) jar.stream()::iterator) {
                    String n = e.getName();
                    if (n.startsWith(PACKAGE_PATH) && n.endsWith(".class")) {
                        try (InputStream in = jar.getInputStream(e)) {
                            out.put(n, in.readAllBytes());
                        }
                    }
                }
            }
        }
        if (!out.containsKey(PACKAGE_PATH + "Probe.class")) throw new IOException("hyprof runtime classes not found in " + src);
        return out;
    }
}
