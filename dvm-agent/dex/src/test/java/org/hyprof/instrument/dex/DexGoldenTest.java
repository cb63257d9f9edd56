package org.hyprof.instrument.dex;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.testing.Golden;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.jf.dexlib2.iface.ClassDef;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The instrumented smali fixtures as baksmali text, against golden files grouped by the pass
 * each one shows best (src/test/resources/golden/dex/PASS/CLASS.smali). Regenerate with
 * {@code mvn verify -Dhyprof.regenerateGoldens=true} and review the diff.
 */
class DexGoldenTest {
    @TempDir static Path dir;
    static DexBackedDexFile out;

    @BeforeAll
    static void instrument() throws Exception {
        Path in = dir.resolve("smali.dex"), o = dir.resolve("smali-hyprof.dex");
        Files.write(in, Fixtures.smaliDex());
        DexInstrumenter.instrument(in, o, new ProfilingConfig(), null, null);
        out = Fixtures.open(Files.readAllBytes(o));
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(),
                DebugInfoCheck.compare(Fixtures.open(Fixtures.smaliDex()), out).violations());
    }

    static void golden(String pass, String cls) throws Exception {
        Golden.check("dex/" + pass + "/" + cls + ".smali", Smali.text(Smali.find(out, "Lsmalifix/" + cls + ";")));
    }

    /**
     * Arguments copied down from above the grown frame; probe registers past v15 take
     * invoke-static/range; a loop past v255 is left without probes.
     */
    @Test
    void registerShift() throws Exception {
        golden("register-shift", "BigRegisters");
    }

    /** Registers set at entry, begin after the super() call made through a copy of this; end before every return. */
    @Test
    void entryExit() throws Exception {
        golden("entry-exit", "CtorThrow");
    }

    /**
     * The catch-all appended after a typed handler, closing the loop before endThrow; a handler that
     * only returns keeps its end probe.
     */
    @Test
    void exceptionalExit() throws Exception {
        golden("exceptional-exit", "MoveResultExit");
    }

    /**
     * Loop probes: entry edge at method entry, trampolines for switch cases, counters on back
     * edges, loopEnd after the monitor handler's move-exception and under its catch-all.
     */
    @Test
    void loops() throws Exception {
        golden("loops", "LoopAtZero");
        golden("loops", "Payloads");
        golden("loops", "MonitorLoop");
    }

    /**
     * Debug info (D8 debug mode): after the argument copies each named parameter's local starts
     * in the register the original code uses (where D8's {@code .end local}/{@code .restart local}
     * name it) and ends in its arrival register; lines stay on their instructions, probes take
     * the line of the instruction they precede, a trampoline the line of its target.
     */
    @Test
    void debugInfo() throws Exception {
        Path in = dir.resolve("java-debug.dex"), o = dir.resolve("java-debug-hyprof.dex");
        Files.write(in, Fixtures.javaDebugDex());
        DexInstrumenter.instrument(in, o, new ProfilingConfig(), null, null);
        DexBackedDexFile d = Fixtures.open(Files.readAllBytes(o));
        Golden.check("dex/debug-info/DebugLocals.smali", Smali.text(Smali.find(d, "Ldexfixtures/DebugLocals;")));
    }

    /**
     * The piece's holder class: {@code BASE = Hyprof.piece("KEY", P_KEY.class)} in its static
     * initializer; the key is the fixture's (it changes when the fixture's probes do).
     */
    @Test
    void pieceHolder() throws Exception {
        ClassDef holder = null;
        for (ClassDef cd : out.getClasses()) if (cd.getType().startsWith("Lorg/hyprof/pieces/P_")) holder = cd;
        org.junit.jupiter.api.Assertions.assertNotNull(holder, "the holder class");
        Golden.check("dex/pieces/holder.smali", Smali.text(holder));
    }

    /** Where the runtime goes in a multidex APK and in one below API 21, and what else the APK holds. */
    @Test
    void runtimeInjection() throws Exception {
        StringBuilder b = new StringBuilder();
        for (int minSdk : new int[] {21, 19}) {
            Path in = dir.resolve("app" + minSdk + ".apk"), o = dir.resolve("app" + minSdk + "-hyprof.apk");
            TestApk.write(in, TestApk.entries("org.hyprof.fixture", minSdk, Fixtures.smaliDex(), Fixtures.smaliDex()));
            // the same classes twice would clash in one process, not in separate DEX files of a fixture
            DexInstrumenter.Summary s = DexInstrumenter.instrument(in, o, new ProfilingConfig(), null, null);
            b.append("minSdk ").append(minSdk).append(": ").append(String.join(", ", s.dexFiles())).append('\n');
            try (ZipFile z = new ZipFile(o.toFile())) {
                for (ZipEntry e : Collections.list(z.entries())) {
                    b.append("  ").append(e.getMethod() == ZipEntry.STORED ? "stored   " : "deflated ").append(e.getName());
                    if (e.getName().endsWith(".dex")) {
                        DexBackedDexFile d = Fixtures.open(z.getInputStream(e).readAllBytes());
                        int runtime = 0, holders = 0;
                        for (ClassDef cd : d.getClasses()) {
                            if (cd.getType().startsWith("Lorg/hyprof/runtime/")) runtime++;
                            if (cd.getType().startsWith("Lorg/hyprof/pieces/")) holders++;
                        }
                        b.append(" (").append(d.getClasses().size() - runtime - holders).append(" app classes")
                                .append(holders > 0 ? ", the piece's holder" : "")
                                .append(runtime > 0 ? ", the runtime" : "").append(')');
                    }
                    b.append('\n');
                }
            }
        }
        Golden.check("dex/runtime-injection/apk-layout.txt", b.toString());
    }
}
