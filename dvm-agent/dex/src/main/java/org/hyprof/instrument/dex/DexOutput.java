package org.hyprof.instrument.dex;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.jf.dexlib2.Opcodes;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.jf.dexlib2.ReferenceType;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.iface.MethodImplementation;
import org.jf.dexlib2.iface.instruction.DualReferenceInstruction;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.iface.reference.MethodProtoReference;
import org.jf.dexlib2.writer.io.MemoryDataStore;
import org.jf.dexlib2.writer.pool.DexPool;

/**
 * Pass 6, runtime injection and DEX writing. <b>Invariant:</b> every class ends up in exactly one
 * output DEX, no output DEX holds more than 65,536 method, field, type or prototype references,
 * and the runtime ({@code org.hyprof.runtime}, compiled to DEX by D8 at build time) is loadable
 * before the first probe runs: in a DEX file of its own, or first in {@code classes.dex} when the
 * app supports API levels below 21 (legacy multidex loads secondary files from app code, too late
 * for probes in the {@code Application} class).
 *
 * <p>Classes are interned one at a time between {@link DexPool#mark()} and
 * {@link DexPool#hasOverflowed()}; a class that would overflow its file is taken back
 * ({@link DexPool#reset()}) and spills into an extra DEX file instead. Each output keeps the
 * opcodes (and so the DEX version) of its input.
 */
final class DexOutput {
    /** Where the runtime's DEX is, inside the instrumenter jar. */
    static final String RUNTIME_DEX_RESOURCE = "hyprof-runtime.dex";

    private final Opcodes opcodes;
    private final int maxRefs;
    private DexPool main;
    private final List<DexPool> spills = new ArrayList<>();
    private int spilledClasses;

    /**
     * @param opcodes the input's opcodes
     * @param maxRefs reference limit per file (65,536 unless a test wants spills sooner)
     */
    DexOutput(Opcodes opcodes, int maxRefs) {
        this.opcodes = opcodes;
        this.maxRefs = maxRefs;
        this.main = new DexPool(opcodes);
    }

    /** Adds a class to the main file, or to a spill file when the main one is full. */
    void add(ClassDef cd) {
        if (tryAdd(main, cd)) return;
        spilledClasses++;
        if (!spills.isEmpty() && tryAdd(spills.get(spills.size() - 1), cd)) return;
        DexPool p = new DexPool(opcodes);
        if (!tryAdd(p, cd)) throw new IllegalStateException(cd.getType() + " alone has more than " + maxRefs + " references");
        spills.add(p);
    }

    private boolean tryAdd(DexPool p, ClassDef cd) {
        p.mark();
        if (opcodes.api >= 26) internProtos(p, cd);
        p.internClass(cd);
        if (!p.hasOverflowed(maxRefs)) return true;
        p.reset();
        return false;
    }

    /**
     * dexlib2 2.5.2 interns only the first reference of an instruction: the prototype of an
     * {@code invoke-polymorphic} (DEX 038+, API 26+) would be missing at write time.
     */
    private static void internProtos(DexPool p, ClassDef cd) {
        for (Method m : cd.getMethods()) {
            MethodImplementation impl = m.getImplementation();
            if (impl == null) continue;
            for (Instruction i : impl.getInstructions()) {
                if (i instanceof DualReferenceInstruction d && d.getReferenceType2() == ReferenceType.METHOD_PROTO)
                    p.protoSection.intern((MethodProtoReference) d.getReference2());
            }
        }
    }

    /** Adds every class of the runtime DEX (first, so nothing can push it out of this file). */
    void addRuntime(DexBackedDexFile runtime) {
        for (ClassDef cd : runtime.getClasses()) {
            if (!tryAdd(main, cd)) throw new IllegalStateException("no room for the runtime in the first DEX file");
        }
    }

    /** Adds a class to the main file before any app class can fill it (the piece's holder). */
    void addFirst(ClassDef cd) {
        if (!tryAdd(main, cd)) throw new IllegalStateException("no room for " + cd.getType() + " in the first DEX file");
    }

    int spilledClasses() {
        return spilledClasses;
    }

    /** The main file's bytes. */
    byte[] writeMain() throws IOException {
        return write(main);
    }

    /** The spill files' bytes, in order. */
    List<byte[]> writeSpills() throws IOException {
        List<byte[]> out = new ArrayList<>();
        for (DexPool p : spills) out.add(write(p));
        return out;
    }

    private static byte[] write(DexPool p) throws IOException {
        MemoryDataStore store = new MemoryDataStore();
        p.writeTo(store);
        return java.util.Arrays.copyOf(store.getBuffer(), store.getSize());
    }

    /** The runtime compiled to DEX at build time. */
    static byte[] runtimeDex() throws IOException {
        try (InputStream in = DexOutput.class.getResourceAsStream(RUNTIME_DEX_RESOURCE)) {
            if (in == null) throw new IOException(RUNTIME_DEX_RESOURCE + " is missing from the hyprof build");
            return in.readAllBytes();
        }
    }
}
