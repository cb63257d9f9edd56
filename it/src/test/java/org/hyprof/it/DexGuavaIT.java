package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hyprof.instrument.dex.DexTools;
import org.hyprof.instrument.dex.Fixtures;
import org.hyprof.instrument.dex.TypeCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scale: Guava (a real library from Maven Central, 33.4.0-jre, copied to target/scale by the
 * build) compiled to DEX by D8, instrumented by the command, checked by dexdump, dexlib2 and the
 * type check, then converted by dex2jar and run on the JVM with a deterministic slice of its API
 * ({@code guavaslice.GuavaSlice}): output unchanged, every enter matched by an exit.
 */
class DexGuavaIT {
    @TempDir Path dir;

    static final Path GUAVA = Path.of("target/scale/guava.jar");

    @Test
    void guavaInstrumentsCleanlyAndStillRuns() throws Exception {
        assertTrue(Files.exists(GUAVA), GUAVA + " is copied by the build (pre-integration-test)");
        byte[] dex = Fixtures.d8Jar(GUAVA, 26);
        Path in = dir.resolve("in"), out = dir.resolve("out");
        Files.createDirectories(in);
        Files.write(in.resolve("classes.dex"), dex);
        Cli c = Cli.run("instrument", in.toString(), "-o", out.toString());
        assertEquals(0, c.exit, c.err);
        assertTrue(c.err.matches("(?s).*methods [0-9]{5}, loops [0-9]{3,}.*"), c.err);
        byte[] probed = Files.readAllBytes(out.resolve("classes.dex"));
        assertEquals(Fixtures.open(dex).getClasses().size() + 1, Fixtures.open(probed).getClasses().size(), "and the piece's holder");
        if (DexTools.hasDexdump()) {
            DexTools.Dump d = DexTools.dexdump(out.resolve("classes.dex"));
            assertTrue(d.clean(), "dexdump: " + d.failures());
            assertTrue(d.instructions() > 200_000, "dexdump walked " + d.instructions() + " instructions");
        }
        byte[] runtime = Files.readAllBytes(out.resolve("classes2.dex"));
        assertEquals(List.of(), TypeCheck.introduced(Fixtures.open(dex), Fixtures.open(probed), Fixtures.open(runtime)),
                "type check of every instrumented Guava method");

        // run the slice on the original jar, then on instrumented Guava converted by dex2jar
        String slice = Cli.classpathOf(guavaslice.GuavaSlice.class);
        DexTools.Run plain = DexTools.java(List.of(), GUAVA + java.io.File.pathSeparator + slice, "guavaslice.GuavaSlice");
        assertEquals(0, plain.exit(), plain.err());
        Path raw = dir.resolve("guava-d2j.jar"), jar = dir.resolve("guava-probed.jar");
        DexTools.dex2jar(probed, raw);
        Path rt = dir.resolve("runtime-d2j.jar");
        DexTools.dex2jar(runtime, rt);
        DexTools.addToJar(raw, DexIT.besideResources(out), jar);
        Path session = dir.resolve("guava.hyprof");
        DexTools.Run run = DexTools.java(List.of("-Dhyprof.options=out=" + session + ",mode=events"),
                String.join(java.io.File.pathSeparator, jar.toString(), rt.toString(), slice), "guavaslice.GuavaSlice");
        assertEquals(0, run.exit(), run.err());
        assertEquals(plain.out(), run.out(), "Guava's output unchanged");
        Path db = dir.resolve("guava.db");
        assertEquals(0, Cli.run("import", session.toString(), "-o", db.toString()).exit);
        DexIT.assertEveryEnterMatched(db);
        Map<String, Map<String, String>> r = Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out);
        Map<String, String> check = r.get("com.google.common.base.Preconditions.checkArgument(boolean, java.lang.String, int)");
        assertEquals("3", check.get("throws"), "the slice's three failed preconditions, thrown through Guava");
        assertTrue(Long.parseLong(check.get("calls")) >= 3, check.toString());
        assertTrue(r.size() > 300, "Guava methods reported: " + r.size());
    }
}
