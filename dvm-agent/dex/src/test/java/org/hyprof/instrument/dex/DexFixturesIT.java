package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hyprof.config.ProfilingConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every instrumented fixture through the real tools: {@code dexdump -d} finds nothing wrong, the
 * debug info checks out ({@link DebugInfoCheck}, dex2jar reading it), and converted by dex2jar it runs on the JVM with the runtime (injected as DEX, converted with the
 * rest) printing exactly what the uninstrumented program prints. Session contents (call and
 * iteration counts, matched enters) are checked by the command-line tests (tui {@code DexIT}).
 */
class DexFixturesIT {
    @TempDir Path dir;

    /** Instruments, dexdumps and runs one fixture; returns the instrumented program's output. */
    String roundTrip(String name, byte[] dex, String main) throws Exception {
        Path in = dir.resolve(name + ".dex"), out = dir.resolve(name + "-hyprof.dex");
        Files.write(in, dex);
        DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null);
        assertEquals(List.of(), DebugInfoCheck.compare(Fixtures.open(dex), Fixtures.open(Files.readAllBytes(out))).violations());
        if (DexTools.hasDexdump()) {
            DexTools.Dump d = DexTools.dexdump(out);
            assertTrue(d.clean(), "dexdump on " + name + ": exit " + d.exit() + " " + d.failures());
            assertTrue(d.instructions() > 100, "dexdump disassembled " + d.instructions());
        }
        Path plainJar = dir.resolve(name + ".jar"), jar = dir.resolve(name + "-hyprof.jar"), run = dir.resolve(name + "-run.jar");
        DexTools.dex2jar(dex, plainJar);
        DexTools.dex2jar(Files.readAllBytes(out), jar);
        // the runtime finds its manifest and settings as class-path resources, as in a jar or APK
        DexTools.addToJar(jar, DexTools.besideResources(out), run);
        DexTools.Run plain = DexTools.java(List.of(), plainJar.toString(), main);
        assertEquals(0, plain.exit(), plain.err());
        Path session = dir.resolve(name + ".hyprof");
        DexTools.Run probed = DexTools.java(List.of("-Dhyprof.options=out=" + session), run.toString(), main);
        assertEquals(0, probed.exit(), probed.err());
        assertEquals(plain.out(), probed.out(), "program output unchanged");
        assertTrue(Files.size(session) > 100, "the injected runtime wrote a session: " + probed.err());
        return probed.out();
    }

    @Test
    void javaFixturesRunUnchanged() throws Exception {
        String out = roundTrip("java", Fixtures.javaDex(), "dexfixtures.Main");
        assertTrue(out.contains("loops "), out);
    }

    /** The fixtures as D8 compiles them in debug mode: locals and parameters reused as locals. */
    @Test
    void debugBuildOfTheJavaFixturesRunsUnchanged() throws Exception {
        String out = roundTrip("java-debug", Fixtures.javaDebugDex(), "dexfixtures.Main");
        assertTrue(out.contains("debug locals "), out);
    }

    @Test
    void smaliFixturesRunUnchanged() throws Exception {
        String out = roundTrip("smali", Fixtures.smaliDex(), "smalifix.SmaliMain");
        assertEquals(List.of("0", "45", "15", "20", "11", "2", "217", "5", "-1", "-1", "96"), out.lines().toList());
    }

    @Test
    void dexdumpIsInstalled() {
        assumeTrue(DexTools.hasDexdump(), "dexdump is installed by .ci/run");
        assertTrue(Files.isExecutable(DexTools.DEXDUMP));
    }

    static String text(Path p) throws Exception {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }
}
