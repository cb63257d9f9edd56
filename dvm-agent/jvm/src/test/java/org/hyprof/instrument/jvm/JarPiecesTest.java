package org.hyprof.instrument.jvm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.instrument.RuntimeClasses;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Stats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Jars instrumented one by one ({@link JarInstrumenter}, {@link Piece}): a library jar and an app
 * jar that calls it, each numbered from 1, run together on one class path and keep their
 * identities: each piece's probes get ids of their own, names and exact counts are right for both,
 * and the session says which ids came from which piece.
 */
class JarPiecesTest {
    @TempDir Path dir;

    @BeforeEach
    @AfterEach
    void reset() {
        Hyprof.reset();
    }

    /** A jar of test classes. */
    private Path jar(String name, String... classes) throws Exception {
        return jar(name, 0, classes);
    }

    /** A jar of test classes, their class file major version set to {@code major} (0: as compiled). */
    private Path jar(String name, int major, String... classes) throws Exception {
        Path jar = dir.resolve(name);
        try (OutputStream fo = Files.newOutputStream(jar); JarOutputStream jo = new JarOutputStream(fo)) {
            for (String c : classes) {
                String entry = c.replace('.', '/') + ".class";
                try (InputStream in = getClass().getResourceAsStream("/" + entry)) {
                    byte[] b = in.readAllBytes();
                    if (major != 0) {
                        b[6] = 0; // major version, big-endian u2 at offset 6
                        b[7] = (byte) major;
                    }
                    jo.putNextEntry(new JarEntry(entry));
                    jo.write(b);
                    jo.closeEntry();
                }
            }
        }
        return jar;
    }

    private static Map<String, byte[]> entries(Path jar) throws Exception {
        Map<String, byte[]> m = new HashMap<>();
        try (ZipFile z = new ZipFile(jar.toFile())) {
            for (ZipEntry e : java.util.Collections.list(z.entries())) {
                try (InputStream in = z.getInputStream(e)) {
                    m.put(e.getName(), in.readAllBytes());
                }
            }
        }
        return m;
    }

    /** Loads the fixtures and the holders from the given jars, everything else (the runtime) from the test's loader. */
    private static ClassLoader piecesLoader(Path... jars) throws Exception {
        URL[] urls = new URL[jars.length];
        for (int i = 0; i < jars.length; i++) urls[i] = jars[i].toUri().toURL();
        return new URLClassLoader(urls, JarPiecesTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (!name.startsWith("fixtures.pieces.") && !name.startsWith("org.hyprof.pieces."))
                    return super.loadClass(name, resolve);
                synchronized (getClassLoadingLock(name)) {
                    Class<?> c = findLoadedClass(name);
                    return c != null ? c : findClass(name);
                }
            }
        };
    }

    /** An instrumented jar: its key, manifest and probes by display name (local ids). */
    private record Out(Path jar, String key, Manifest manifest, Map<String, ProbeInfo> byName) {
        int local(String name) {
            ProbeInfo p = byName.get(name);
            assertNotNull(p, "no probe " + name + " in " + byName.keySet());
            return p.id();
        }
    }

    private Out instrument(Path in, String out, String agentArgs) throws Exception {
        Path o = dir.resolve(out);
        JarInstrumenter.Summary s = JarInstrumenter.instrument(in, o, ProfilingConfig.parseAgentArgs(agentArgs), null);
        Map<String, byte[]> e = entries(o);
        String key = s.pieceKey();
        assertTrue(key.matches("[0-9a-f]{16}"), key);
        byte[] m = e.get("META-INF/hyprof/pieces/" + key + "/manifest.tsv");
        assertNotNull(m, "the piece manifest in " + e.keySet());
        assertEquals(s.manifest().toText(), new String(m, StandardCharsets.UTF_8));
        assertFalse(e.containsKey("META-INF/hyprof/manifest.tsv"), "no single class-path manifest");
        assertTrue(e.containsKey(JarInstrumenter.OPTIONS_ENTRY));
        assertTrue(e.containsKey("org/hyprof/pieces/P_" + key + ".class"), "the holder class");
        for (Map.Entry<String, byte[]> c : e.entrySet()) {
            if (!c.getKey().endsWith(".class") || c.getKey().startsWith(RuntimeClasses.PACKAGE_PATH)) continue;
            Instrumented.verify(c.getValue());
            assertFalse(new String(c.getValue(), StandardCharsets.ISO_8859_1).contains("pending"),
                    c.getKey() + " keeps no placeholder");
        }
        Map<String, ProbeInfo> byName = new HashMap<>();
        for (ProbeInfo p : s.manifest().probes()) byName.put(Instrumented.key(p), p);
        return new Out(o, key, s.manifest(), byName);
    }

    /**
     * @param major class file major version of the fixtures (0: as compiled, 61): 50 gets static
     *              sites, 48 cannot {@code ldc} a class (only the holder does, at version 52)
     */
    @ParameterizedTest
    @CsvSource({"'', 0", "sites=static, 0", "'', 50", "'', 48"})
    void twoJarsInstrumentedOneByOneRunTogetherWithTheirOwnIdsAndNames(String agentArgs, int major) throws Exception {
        Out lib = instrument(jar("lib.jar", major, "fixtures.pieces.Lib"), "lib-hyprof.jar", agentArgs);
        Out app = instrument(jar("app.jar", major, "fixtures.pieces.App"), "app-hyprof.jar", agentArgs);
        assertNotEquals(lib.key(), app.key());
        assertEquals(1, lib.local("fixtures.pieces.Lib.<init>()V"), "each piece numbers from 1");
        assertEquals(1, app.local("fixtures.pieces.App.<init>()V"));
        byte[] appClass = entries(app.jar()).get("fixtures/pieces/App.class");
        if (major == 0)
            Instrumented.checkSites(appClass, agentArgs.isEmpty() ? Instrumented.Sites.INDY : Instrumented.Sites.STATIC);
        else if (major == 50)
            Instrumented.checkSites(appClass, Instrumented.Sites.VERSION_50);
        else
            assertEquals(major, ((appClass[6] & 0xff) << 8) | (appClass[7] & 0xff), "class file version kept");

        Path session = dir.resolve("s.hyprof");
        Options o = new Options();
        o.calibrate = false;
        o.snapshotMillis = 60_000;
        o.out = session.toString();
        assertTrue(Hyprof.start(o));
        ClassLoader loader = piecesLoader(app.jar(), lib.jar());
        Class<?> main = loader.loadClass("fixtures.pieces.App");
        assertSame(loader, main.getClassLoader(), "the instrumented App");
        assertEquals(fixtures.pieces.App.run(4), main.getMethod("run", int.class).invoke(null, 4));

        int appBase = base(loader, app.key()), libBase = base(loader, lib.key());
        assertEquals(0, appBase, "the first piece to run keeps its ids");
        assertEquals(app.manifest().probes().size(), libBase, "the second starts after the first's");
        assertEquals(1, calls(appBase, app, "fixtures.pieces.App.run(I)I", Stats.CALLS));
        assertEquals(1, calls(appBase, app, "fixtures.pieces.App.run(I)I#loop0", Stats.CALLS));
        assertEquals(4, calls(appBase, app, "fixtures.pieces.App.run(I)I#loop0", Stats.ITERATIONS));
        assertEquals(4, calls(libBase, lib, "fixtures.pieces.Lib.sumSquares(I)I", Stats.CALLS));
        assertEquals(4, calls(libBase, lib, "fixtures.pieces.Lib.sumSquares(I)I#loop0", Stats.CALLS));
        assertEquals(0 + 1 + 2 + 3, calls(libBase, lib, "fixtures.pieces.Lib.sumSquares(I)I#loop0", Stats.ITERATIONS));
        assertEquals(0 + 1 + 2 + 3, calls(libBase, lib, "fixtures.pieces.Lib.square(I)I", Stats.CALLS));
        assertEquals(0, calls(libBase, lib, "fixtures.pieces.Lib.<init>()V", Stats.CALLS));
        // a timed call of a method with nested loops runs its outlined body, linked by the piece's key
        assertEquals(fixtures.pieces.Lib.grid(5), loader.loadClass("fixtures.pieces.Lib").getMethod("grid", int.class).invoke(null, 5));
        assertEquals(1, calls(libBase, lib, "fixtures.pieces.Lib.grid(I)I", Stats.CALLS));
        assertEquals(5, calls(libBase, lib, "fixtures.pieces.Lib.grid(I)I#loop1", Stats.CALLS));
        assertEquals(25, calls(libBase, lib, "fixtures.pieces.Lib.grid(I)I#loop1", Stats.ITERATIONS));
        assertEquals(0, calls(appBase, app, "fixtures.pieces.App.<init>()V", Stats.CALLS));

        Hyprof.stop();
        String text = new String(Files.readAllBytes(session), StandardCharsets.ISO_8859_1);
        int n = app.manifest().probes().size();
        assertTrue(text.contains("piece\t" + app.key() + "\t0\t" + n), "the app piece in the session");
        assertTrue(text.contains("piece\t" + lib.key() + "\t" + n + "\t" + lib.manifest().probes().size()), "the library piece");
        int square = libBase + lib.local("fixtures.pieces.Lib.square(I)I");
        assertTrue(square > n, "disjoint ids");
        assertTrue(text.contains("probe\t" + square + "\tmethod\t"), "the library's probe under its moved id");
        assertTrue(text.matches("(?s).*probe\t" + square + "\tmethod\t[a-z]+\tfixtures\\.pieces\\.Lib\tsquare\t\\(I\\)I.*"),
                "named as the library's method");
    }

    private static int base(ClassLoader loader, String key) throws Exception {
        return Class.forName("org.hyprof.pieces.P_" + key, true, loader).getField("BASE").getInt(null);
    }

    private static long calls(int base, Out piece, String name, int field) {
        return Hyprof.snapshot().total(base + piece.local(name), field);
    }

    @Test
    void theSameInputGetsTheSameKeyAndBytes() throws Exception {
        Path in = jar("lib.jar", "fixtures.pieces.Lib");
        Out a = instrument(in, "a.jar", ""), b = instrument(in, "b.jar", "");
        assertEquals(a.key(), b.key());
        assertEquals(Piece.keyOf(a.manifest().toText()), a.key(), "the key comes from the manifest");
        Map<String, byte[]> ea = entries(a.jar()), eb = entries(b.jar());
        assertEquals(ea.keySet(), eb.keySet());
        for (String e : ea.keySet()) assertArrayEquals(ea.get(e), eb.get(e), e);
        Out other = instrument(jar("both.jar", "fixtures.pieces.Lib", "fixtures.pieces.App"), "c.jar", "");
        assertNotEquals(a.key(), other.key(), "other probes, another key");
    }

    @Test
    void theKeyDependsOnProbeLinesOnly() {
        String probes = "probe\t1\tmethod\tmethod\ta.B\tf\t()V\t-1\t-1\t3\tB.java\n";
        assertEquals(Piece.keyOf("# hyprof manifest\n" + probes), Piece.keyOf(probes + "skip\ta.B\tg\t()V\tnative method\n"));
        assertNotEquals(Piece.keyOf(probes), Piece.keyOf(probes.replace("\t3\t", "\t4\t")));
    }
}
