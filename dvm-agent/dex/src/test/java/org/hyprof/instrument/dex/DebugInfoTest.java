package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hyprof.config.ProfilingConfig;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.iface.debug.DebugItem;
import org.jf.dexlib2.iface.debug.EndLocal;
import org.jf.dexlib2.iface.debug.RestartLocal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debug info after instrumentation, checked by {@link DebugInfoCheck}: the Java fixtures compiled
 * by D8 in debug mode (locals, parameters reused as locals) and the smali fixtures.
 */
class DebugInfoTest {
    @TempDir Path dir;

    DexBackedDexFile instrument(byte[] dex, String name) throws Exception {
        Path in = dir.resolve(name + ".dex"), out = dir.resolve(name + "-out.dex");
        Files.write(in, dex);
        DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null);
        return Fixtures.open(Files.readAllBytes(out));
    }

    /** END_LOCAL/RESTART_LOCAL entries of {@code type}'s methods that name a parameter's arrival register. */
    static int parameterRegisterEntries(DexBackedDexFile dex, String type) {
        int n = 0;
        for (Method m : Smali.find(dex, type).getMethods()) {
            if (m.getImplementation() == null) continue;
            DebugInfoCheck.Trace t = new DebugInfoCheck.Trace(m);
            for (DebugItem d : t.items) {
                int r = d instanceof EndLocal e ? e.getRegister() : d instanceof RestartLocal x ? x.getRegister() : -1;
                if (t.implicit().containsKey(r)) n++;
            }
        }
        return n;
    }

    @Test
    void d8DebugOutputOfTheFixturesKeepsItsDebugInfo() throws Exception {
        byte[] dex = Fixtures.javaDebugDex();
        assertTrue(parameterRegisterEntries(Fixtures.open(dex), "Ldexfixtures/DebugLocals;") >= 2,
                "the fixture makes D8 end and restart parameters' locals");
        DebugInfoCheck.Report d8 = DebugInfoCheck.check(Fixtures.open(dex));
        assertEquals(List.of(), d8.violations(), "D8's own output");
        DexBackedDexFile out = instrument(dex, "java-debug");
        DebugInfoCheck.Report r = DebugInfoCheck.compare(Fixtures.open(dex), out);
        assertEquals(List.of(), r.violations());
        assertTrue(r.methods() > 40, "methods " + r.methods());
        DexTools.Read read = DexTools.readWithDebugInfo(Files.readAllBytes(dir.resolve("java-debug-out.dex")));
        assertEquals(List.of(), read.failures(), "dex2jar reads the debug info");
        assertEquals(r.methods(), read.methods() - abstractMethods(out), "dex2jar read every method");
    }

    static int abstractMethods(DexBackedDexFile d) {
        int n = 0;
        for (ClassDef cd : d.getClasses()) for (Method m : cd.getMethods()) if (m.getImplementation() == null) n++;
        return n;
    }

    @Test
    void releaseAndSmaliFixturesKeepTheirDebugInfo() throws Exception {
        for (byte[] dex : List.of(Fixtures.javaDex(), Fixtures.smaliDex())) {
            assertEquals(List.of(), DebugInfoCheck.check(Fixtures.open(dex)).violations());
            assertEquals(List.of(), DebugInfoCheck.compare(Fixtures.open(dex), instrument(dex, "fixture")).violations());
        }
    }
}
