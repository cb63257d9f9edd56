package org.hyprof.instrument.jvm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipFile;
import org.hyprof.config.ProfilingConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code sites} setting reaches the rewriter on the offline path ({@code hyprof instrument --probe-sites}). */
class JarInstrumenterSitesTest {
    @TempDir Path dir;

    private byte[] instrumented(String agentArgs) throws Exception {
        Path in = dir.resolve("in.jar"), out = dir.resolve("out-" + agentArgs.replaceAll("\\W", "_") + ".jar");
        if (!Files.exists(in)) {
            try (OutputStream fo = Files.newOutputStream(in); JarOutputStream jo = new JarOutputStream(fo);
                 InputStream c = getClass().getResourceAsStream("/fixtures/Loops.class")) {
                jo.putNextEntry(new JarEntry("fixtures/Loops.class"));
                jo.write(c.readAllBytes());
                jo.closeEntry();
            }
        }
        JarInstrumenter.instrument(in, out, ProfilingConfig.parseAgentArgs(agentArgs), null);
        try (ZipFile z = new ZipFile(out.toFile()); InputStream c = z.getInputStream(z.getEntry("fixtures/Loops.class"))) {
            return c.readAllBytes();
        }
    }

    @Test
    void indyByDefaultStaticWhenAskedFor() throws Exception {
        Instrumented.checkSites(instrumented(""), Instrumented.Sites.INDY);
        Instrumented.checkSites(instrumented("sites=indy"), Instrumented.Sites.INDY);
        byte[] s = instrumented("sites=static");
        Instrumented.checkSites(s, Instrumented.Sites.STATIC);
        Instrumented.verify(s);
    }
}
