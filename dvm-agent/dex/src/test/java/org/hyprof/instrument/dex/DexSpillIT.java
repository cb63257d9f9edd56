package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hyprof.config.ProfilingConfig;
import org.jf.dexlib2.AccessFlags;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.Opcodes;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.immutable.ImmutableClassDef;
import org.jf.dexlib2.immutable.ImmutableMethod;
import org.jf.dexlib2.immutable.ImmutableMethodImplementation;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction10x;
import org.jf.dexlib2.writer.io.MemoryDataStore;
import org.jf.dexlib2.writer.pool.DexPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DEX file a few references short of the 65,536 method-reference limit: the probes' own
 * references push it over, and the classes that no longer fit spill into a new DEX file instead
 * of the write failing.
 */
class DexSpillIT {
    @TempDir Path dir;

    static final int LIMIT = 1 << 16;

    /** {@code classes} classes of {@code perClass} empty static methods each, plus a rest class. */
    static byte[] nearTheLimit(int methodRefs) throws Exception {
        DexPool pool = new DexPool(Opcodes.forApi(21));
        int perClass = 500, made = 0, k = 0;
        ImmutableMethodImplementation ret = new ImmutableMethodImplementation(0,
                List.of(new ImmutableInstruction10x(Opcode.RETURN_VOID)), null, null);
        while (made < methodRefs) {
            String type = String.format("Lspill/C%03d;", k++);
            List<ImmutableMethod> methods = new ArrayList<>();
            for (int m = 0; m < perClass && made < methodRefs; m++, made++)
                methods.add(new ImmutableMethod(type, "m" + m, null, "V", AccessFlags.PUBLIC.getValue() | AccessFlags.STATIC.getValue(),
                        null, null, ret));
            pool.internClass(new ImmutableClassDef(type, AccessFlags.PUBLIC.getValue(), "Ljava/lang/Object;", null,
                    null, null, null, methods));
        }
        MemoryDataStore store = new MemoryDataStore();
        pool.writeTo(store);
        return java.util.Arrays.copyOf(store.getBuffer(), store.getSize());
    }

    static Set<String> types(DexBackedDexFile d) {
        Set<String> s = new HashSet<>();
        for (ClassDef cd : d.getClasses()) s.add(cd.getType());
        return s;
    }

    @Test
    void classesSpillIntoANewDexFileNearTheLimit() throws Exception {
        byte[] dex = nearTheLimit(LIMIT - 2);
        DexBackedDexFile original = Fixtures.open(dex);
        assertEquals(LIMIT - 2, original.getMethodSection().size(), "input is 2 references short of the limit");
        Path in = dir.resolve("in"), out = dir.resolve("out");
        Files.createDirectories(in);
        Files.write(in.resolve("classes.dex"), dex);
        DexInstrumenter.Summary s = DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null);
        assertEquals(List.of("classes.dex", "classes2.dex (spilled classes)", "classes3.dex (the runtime)"), s.dexFiles());
        assertEquals(LIMIT - 2, s.methods(), "every method has probes");
        assertTrue(s.spilledClasses() > 0);
        Set<String> all = new HashSet<>();
        int count = 0;
        for (String f : List.of("classes.dex", "classes2.dex")) {
            DexBackedDexFile d = Fixtures.open(Files.readAllBytes(out.resolve(f)));
            assertTrue(d.getMethodSection().size() <= LIMIT, f + ": " + d.getMethodSection().size() + " method references");
            count += d.getClasses().size();
            all.addAll(types(d));
            if (DexTools.hasDexdump()) {
                DexTools.Dump dump = DexTools.dexdump(out.resolve(f));
                assertTrue(dump.clean(), f + ": " + dump.failures());
            }
        }
        assertTrue(all.remove("Lorg/hyprof/pieces/P_" + s.pieceKey() + ";"), "the piece's holder");
        assertEquals(types(original), all, "every class in exactly one file");
        assertEquals(original.getClasses().size() + 1, count, "and the holder, once");
    }
}
