package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.hyprof.config.Manifest;
import org.hyprof.config.MethodNames;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.config.SkippedMethod;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.iface.instruction.ReferenceInstruction;
import org.jf.dexlib2.iface.reference.MethodReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fixtures instrumented in-process: re-read by dexlib2, type-checked and debug-info-checked. */
class DexRewriteTest {
    @TempDir Path dir;

    static DexBackedDexFile runtime() throws Exception {
        return Fixtures.open(DexOutput.runtimeDex());
    }

    DexInstrumenter.Summary instrument(byte[] dex, String name) throws Exception {
        Path in = dir.resolve(name + ".dex");
        Files.write(in, dex);
        return DexInstrumenter.instrument(in, dir.resolve(name + "-out.dex"), new ProfilingConfig(), null, null);
    }

    /** Every instruction, try item and debug item of every class decodes. */
    static int reread(DexBackedDexFile d) {
        int n = 0;
        for (ClassDef cd : d.getClasses()) {
            for (Method m : cd.getMethods()) {
                if (m.getImplementation() == null) continue;
                for (Instruction i : m.getImplementation().getInstructions()) { assertNotNull(i.getOpcode()); n++; }
                m.getImplementation().getTryBlocks().forEach(t -> assertFalse(t.getExceptionHandlers().isEmpty()));
                m.getImplementation().getDebugItems().forEach(x -> assertTrue(x.getCodeAddress() >= 0));
            }
        }
        return n;
    }

    /** The Probe methods the code calls, by name: only the token API, never the id-only one. */
    static Set<String> probeCalls(DexBackedDexFile d) {
        Set<String> names = new TreeSet<>();
        for (ClassDef cd : d.getClasses()) {
            for (Method m : cd.getMethods()) {
                if (m.getImplementation() == null) continue;
                for (Instruction i : m.getImplementation().getInstructions()) {
                    if (i instanceof ReferenceInstruction r
                            && r.getReference() instanceof MethodReference mr
                            && mr.getDefiningClass().equals(ProbeCode.PROBE_TYPE))
                        names.add(mr.getName() + "(" + String.join("", mr.getParameterTypes()) + ")" + mr.getReturnType());
                }
            }
        }
        return names;
    }

    @Test
    void javaFixturesInstrumentAndTypeCheck() throws Exception {
        byte[] original = Fixtures.javaDex();
        DexInstrumenter.Summary s = instrument(original, "java");
        byte[] out = Files.readAllBytes(dir.resolve("java-out.dex"));
        DexBackedDexFile d = Fixtures.open(out);
        assertTrue(reread(d) > 0);
        assertEquals(Fixtures.open(original).getOpcodes().api, d.getOpcodes().api, "DEX version kept");
        List<TypeCheck.Violation> bad = TypeCheck.introduced(Fixtures.open(original), d, runtime());
        assertEquals(List.of(), bad);
        assertEquals(List.of(), DebugInfoCheck.compare(Fixtures.open(original), d).violations());
        assertEquals(Set.of("begin(I)I", "end(II)V", "endThrow(II)V", "loopBegin(I)I", "loopEnd(III)V"), probeCalls(d));
        Manifest m = s.manifest();
        assertEquals(List.of("dexfixtures.Sync.syncBlock(I)I: loop at line 18: inside a synchronized region without a catch-all that can take probes",
                "dexfixtures.Threads$Task.call()Ljava/lang/Object;: bridge method (its target has probes)"),
                m.skipped().stream().map(k -> k.methodKey() + ": " + k.reason()).sorted().toList());
        assertTrue(s.methods() > 40, "methods " + s.methods());
        assertTrue(s.loops() >= 10, "loops " + s.loops());
        // loops are named by their first source line (D8 keeps the line table): Loops.nested's
        // outer loop starts on line 12 (dexfixtures/Loops.java)
        var names = MethodNames.names(m.probes(), MethodNames.Style.JAVA);
        List<ProbeInfo> nested = m.probes().stream()
                .filter(p -> p.loop() && p.className().equals("dexfixtures.Loops") && p.methodName().equals("nested")).toList();
        assertEquals(2, nested.size(), nested.toString());
        assertEquals("dexfixtures.Loops.nested(int)#loop@12", names.get(nested.get(0).id()));
        // the inner loop: 14 in the source; D8's line table gives one of its instructions 13
        assertTrue(Set.of("dexfixtures.Loops.nested(int)#loop@13", "dexfixtures.Loops.nested(int)#loop@14")
                .contains(names.get(nested.get(1).id())), names.get(nested.get(1).id()));
        // a method D8 left without line entries: its loops are named by index
        for (ProbeInfo l : m.probes())
            if (l.loop() && l.line() <= 0) assertTrue(names.get(l.id()).endsWith("#loop" + l.loopIndex()), names.get(l.id()));
    }

    @Test
    void smaliFixturesInstrumentAndTypeCheck() throws Exception {
        byte[] original = Fixtures.smaliDex();
        DexInstrumenter.Summary s = instrument(original, "smali");
        DexBackedDexFile d = Fixtures.open(Files.readAllBytes(dir.resolve("smali-out.dex")));
        assertTrue(reread(d) > 0);
        assertEquals(List.of(), TypeCheck.introduced(Fixtures.open(original), d, runtime()));
        assertEquals(List.of(), DebugInfoCheck.compare(Fixtures.open(original), d).violations());
        assertEquals(Set.of("begin(I)I", "end(II)V", "endThrow(II)V", "loopBegin(I)I", "loopEnd(III)V"), probeCalls(d));
        assertEquals(List.of("smalifix.BigRegisters.tooMany(I)I: registers + scratch exceed 256 (255 registers; const/move-exception need v0-v255)",
                        "smalifix.BigRegisters.twoLoops250(I)I: loop at line -1: no 8-bit registers left for its token and counter (250 registers)"),
                s.manifest().skipped().stream().map(k -> k.methodKey() + ": " + k.reason()).sorted().toList());
        assertEquals(6, s.loops(), "every smali loop but the one without registers has probes");
    }
}
