package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.*;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pieces instrumented one by one ({@link Hyprof#piece}): each numbers its probes from 1, the
 * runtime gives each a base so their ids never meet, and the session's manifest says which ids came
 * from which piece.
 */
class PieceTest {
    @TempDir Path dir;

    @AfterEach
    void reset() {
        Hyprof.reset();
    }

    /** A class loader whose resources are a piece's manifest (the class itself comes from the parent). */
    private ClassLoader piece(String key, String... probeLines) throws Exception {
        Path root = dir.resolve(key);
        Path m = root.resolve("META-INF/hyprof/pieces/" + key + "/manifest.tsv");
        Files.createDirectories(m.getParent());
        StringBuilder b = new StringBuilder("# hyprof manifest\n");
        for (String l : probeLines) b.append(l).append('\n');
        Files.write(m, b.toString().getBytes(StandardCharsets.UTF_8));
        return new URLClassLoader(new URL[] {root.toUri().toURL()}, null);
    }

    /** A class defined by {@code loader} (the piece's "holder" class stands in for any class of it). */
    private static Class<?> classOf(ClassLoader loader) throws Exception {
        return Class.forName("java.lang.Object", false, loader) == Object.class ? proxyClass(loader) : null;
    }

    private static Class<?> proxyClass(ClassLoader loader) {
        return java.lang.reflect.Proxy.getProxyClass(loader, Runnable.class);
    }

    @Test
    void twoPiecesNumberedFromOneGetDisjointIdsAndSayWhereTheyCameFrom() throws Exception {
        Options o = new Options();
        o.calibrate = false;
        o.snapshotMillis = 60_000;
        o.out = dir.resolve("s.hyprof").toString();
        assertTrue(Hyprof.start(o));
        ClassLoader a = piece("aaaa", "probe\t1\tmethod\tmethod\tapp.A\tf\t()V\t-1\t-1\t3\tA.java",
                "probe\t2\tloop\tloop\tapp.A\tf\t()V\t1\t0\t4\tA.java");
        ClassLoader b = piece("bbbb", "probe\t1\tmethod\tmethod\ttest.B\tg\t()V\t-1\t-1\t7\tB.java",
                "probe\t2\tloop\tloop\ttest.B\tg\t()V\t1\t0\t8\tB.java");
        int baseA = Hyprof.piece("aaaa", classOf(a));
        int baseB = Hyprof.piece("bbbb", classOf(b));
        assertEquals(0, baseA, "the first piece keeps its ids");
        assertEquals(2, baseB, "the second starts after the first's");
        assertEquals(baseA, Hyprof.piece("aaaa", classOf(a)), "one base per piece");
        assertEquals(5, Hyprof.probeCount());
        assertTrue(Hyprof.isOn(1) && Hyprof.isOn(2) && Hyprof.isOn(3));

        int tok = Probe.begin(baseB + 1);
        Probe.end(baseB + 1, tok);
        Hyprof.stop();
        String session = new String(Files.readAllBytes(dir.resolve("s.hyprof")), StandardCharsets.ISO_8859_1);
        assertTrue(session.contains("probe\t3\tmethod\tmethod\ttest.B\tg"), "B's probe 1 is id 3 in the session");
        assertTrue(session.contains("piece\tbbbb\t2\t2"), "the piece line");
        assertTrue(session.contains("probe\t4\tloop\tloop\ttest.B\tg\t()V\t3\t0\t8"), "a loop's method id moves too");

        assertTrue(session.contains("piece\taaaa\t0\t2"));
    }

    @Test
    void aPieceWithoutItsManifestStaysOffAndTakesNoOtherPiecesIds() throws Exception {
        Options o = new Options();
        o.calibrate = false;
        assertTrue(Hyprof.start(o));
        ClassLoader none = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null);
        int base = Hyprof.piece("cccc", classOf(none));
        assertEquals(0, base);
        assertFalse(Hyprof.isOn(base + 1));
        assertEquals(0, Probe.begin(base + 1), "unknown probes record nothing");
        assertThrows(Exception.class, () -> Bootstrap.pieceManifest(none, "../../etc"), "keys are hex only");
    }
}
