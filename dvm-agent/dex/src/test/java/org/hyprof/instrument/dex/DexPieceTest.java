package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hyprof.config.ProfilingConfig;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.iface.instruction.ReferenceInstruction;
import org.jf.dexlib2.iface.reference.FieldReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every output is a piece ({@link PieceHolder}): its key comes from its manifest's probe lines,
 * its holder is in the first DEX file, every probe id register starts from the holder's
 * {@code BASE}, and its manifest goes where the runtime looks for it.
 */
class DexPieceTest {
    @TempDir Path dir;

    DexInstrumenter.Summary instrument(byte[] dex, String name) throws Exception {
        Path in = dir.resolve(name + ".dex");
        Files.write(in, dex);
        return DexInstrumenter.instrument(in, dir.resolve(name + "-out.dex"), new ProfilingConfig(), null, null);
    }

    @Test
    void theSameInputInstrumentedTheSameWayGetsTheSameKey() throws Exception {
        DexInstrumenter.Summary a = instrument(Fixtures.smaliDex(), "a"), b = instrument(Fixtures.smaliDex(), "b");
        assertTrue(a.pieceKey().matches("[0-9a-f]{16}"), a.pieceKey());
        assertEquals(a.pieceKey(), b.pieceKey());
        assertArrayEquals(Files.readAllBytes(dir.resolve("a-out.dex")), Files.readAllBytes(dir.resolve("b-out.dex")),
                "the same output, byte for byte");
        String manifest = Files.readString(DexInstrumenter.beside(dir.resolve("a-out.dex"), ".manifest.tsv"));
        assertEquals(PieceHolder.key(manifest), a.pieceKey(), "SHA-256 of the probe lines");
        assertEquals(a.pieceKey(), PieceHolder.key(manifest.replace("skip\t", "skip\tx")), "only probe lines count");
        assertNotEquals(a.pieceKey(), instrument(Fixtures.javaDex(), "j").pieceKey(), "another input, another key");
        ProfilingConfig fewer = new ProfilingConfig().set("exclude", "smalifix.B*", "test");
        Path in = dir.resolve("a.dex");
        assertNotEquals(a.pieceKey(), DexInstrumenter.instrument(in, dir.resolve("f-out.dex"), fewer, null, null).pieceKey(),
                "other probes, another key");
    }

    @Test
    void aDexOutputCarriesItsManifestAsAClassPathRoot() throws Exception {
        DexInstrumenter.Summary s = instrument(Fixtures.smaliDex(), "r");
        Path out = dir.resolve("r-out.dex");
        Map<String, byte[]> r = DexTools.besideResources(out);
        assertEquals(List.of("META-INF/hyprof/pieces/" + s.pieceKey() + "/manifest.tsv", "META-INF/hyprof/runtime.properties"),
                new ArrayList<>(r.keySet()));
        assertEquals(DexInstrumenter.manifestResource(s.pieceKey()), r.keySet().iterator().next());
        assertArrayEquals(Files.readAllBytes(DexInstrumenter.beside(out, ".manifest.tsv")), r.get(DexInstrumenter.manifestResource(s.pieceKey())));
        assertTrue(s.notes().stream().anyMatch(n -> n.contains("r-out.dex.resources/ on the class path")), s.notes().toString());

        // instrumented again with other settings: the old piece's manifest goes
        Path in = dir.resolve("r.dex");
        DexInstrumenter.Summary t = DexInstrumenter.instrument(in, out, new ProfilingConfig().set("exclude", "smalifix.B*", "test"), null, null);
        assertEquals(List.of("META-INF/hyprof/pieces/" + t.pieceKey() + "/manifest.tsv", "META-INF/hyprof/runtime.properties"),
                new ArrayList<>(DexTools.besideResources(out).keySet()));
    }

    /** The instructions every rewritten method starts with (after the argument copies) read P_KEY.BASE. */
    @Test
    void everyMethodIdStartsFromTheHoldersBase() throws Exception {
        DexInstrumenter.Summary s = instrument(Fixtures.javaDex(), "ids");
        DexBackedDexFile d = Fixtures.open(Files.readAllBytes(dir.resolve("ids-out.dex")));
        String holder = PieceHolder.type(s.pieceKey());
        int methods = 0;
        for (ClassDef cd : d.getClasses()) {
            if (cd.getType().startsWith("Lorg/hyprof/")) continue;
            for (Method m : cd.getMethods()) {
                if (m.getImplementation() == null) continue;
                for (Instruction i : m.getImplementation().getInstructions()) {
                    if (i.getOpcode() == Opcode.SGET && ((ReferenceInstruction) i).getReference() instanceof FieldReference f
                            && f.getDefiningClass().equals(holder) && f.getName().equals("BASE")) {
                        methods++;
                        break;
                    }
                }
            }
        }
        assertEquals(s.methods(), methods, "one sget of BASE per method with probes");
    }

    /**
     * Local ids past 127 and past 16 bits take {@code const} into the exception register and
     * {@code add-int}; the code still type-checks (and dexdump reads it).
     */
    @Test
    void wideLocalIdsTypeCheck() throws Exception {
        for (int first : new int[] {200, 70_000}) {
            Path in = dir.resolve("w.dex"), out = dir.resolve("w" + first + "-out.dex");
            Files.write(in, Fixtures.smaliDex());
            DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null, org.jf.dexlib2.writer.DexWriter.MAX_POOL_SIZE, first);
            DexBackedDexFile d = Fixtures.open(Files.readAllBytes(out));
            assertEquals(List.of(), TypeCheck.introduced(Fixtures.open(Fixtures.smaliDex()), d, DexRewriteTest.runtime()), "first id " + first);
            boolean addInt = false;
            for (ClassDef cd : d.getClasses())
                for (Method m : cd.getMethods())
                    if (m.getImplementation() != null)
                        for (Instruction i : m.getImplementation().getInstructions()) addInt |= i.getOpcode() == Opcode.ADD_INT;
            assertTrue(addInt, "const + add-int used for first id " + first);
            if (DexTools.hasDexdump()) assertTrue(DexTools.dexdump(out).clean(), "dexdump, first id " + first);
        }
    }

    @Test
    void idsAreAddedInTheSmallestEncoding() {
        assertEquals(List.of(Opcode.ADD_INT_LIT8), ops(ProbeCode.add(200, 200, 127, 199)));
        assertEquals(List.of(Opcode.ADD_INT_LIT16), ops(ProbeCode.add(5, 5, 128, 4)));
        assertEquals(List.of(Opcode.CONST_16, Opcode.ADD_INT), ops(ProbeCode.add(16, 16, 128, 15)));
        assertEquals(List.of(Opcode.CONST, Opcode.ADD_INT), ops(ProbeCode.add(5, 5, 70_000, 4)));
    }

    private static List<Opcode> ops(List<Instruction> code) {
        return code.stream().map(Instruction::getOpcode).toList();
    }
}
