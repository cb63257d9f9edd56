package org.hyprof.bb;

import static org.hyprof.bb.SandboxTest.call;
import static org.hyprof.bb.SandboxTest.i;
import static org.hyprof.bb.SandboxTest.sample;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.hyprof.bb.elf.ElfImage;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Userland;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The relocations of thread-local storage and ifuncs (issue 16, item 1), on
 * {@code samples/native/src/relocs.c}: every TLS model's relocations (general-dynamic through
 * AArch64 TLS descriptors and ARM's {@code __tls_get_addr}, AArch64's traditional dialect,
 * initial-exec) and {@code IRELATIVE}, with results equal to the same C run under qemu-user
 * against glibc ({@code samples/native/reference/relocs-qemu.txt}). Both ABIs, both engines.
 */
class RelocationsTest {
    static final Path REFERENCE = Path.of("../samples/native/reference/relocs-qemu.txt");

    /** "abi function arg" → the value qemu-user gave. */
    static Map<String, Long> reference() throws IOException {
        Map<String, Long> m = new HashMap<>();
        for (String line : Files.readAllLines(REFERENCE)) {
            if (line.startsWith("#") || line.isBlank()) continue;
            int last = line.lastIndexOf(' ');
            m.put(line.substring(0, last), Long.parseLong(line.substring(last + 1)));
        }
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void theFixtureHasEveryTlsRelocationAndIrelative(String abi) {
        Set<Integer> types = new TreeSet<>();
        for (ElfImage.Reloc r : ElfImage.read(sample(abi, "librelocs.so")).relocations) types.add(r.type());
        Set<Integer> expected = abi.equals("arm64-v8a")
                ? Set.of(1028, 1029, 1030, 1031, 1032) // TLS_DTPMOD64, TLS_DTPREL64, TLS_TPREL64, TLSDESC, IRELATIVE
                : Set.of(17, 18, 19, 160);              // TLS_DTPMOD32, TLS_DTPOFF32, TLS_TPOFF32, IRELATIVE
        assertTrue(types.containsAll(expected), abi + ": " + types);
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void threadLocalsAndIfuncsGiveWhatQemuGives(String abi) throws IOException {
        Map<String, Long> ref = reference();
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(sample(abi, "librelocs.so"), null, engine, Userland.BIONIC)) {
                assertEquals(ref.get(abi + " tls_bump 3"), call(t, "tls_bump", i(3)), engine.id);
                // two emulated threads: each starts from the initial values; the caller's go on
                assertEquals(ref.get(abi + " tls_threads 2"), call(t, "tls_threads", i(2)), engine.id);
                assertEquals(ref.get(abi + " ifunc_check"), call(t, "ifunc_check"), engine.id);
                assertEquals(2, call(t, "ifunc_resolver_runs"), engine.id + ": once per IRELATIVE, at load");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void endedThreadsGiveTheirTlsAreasBack(String abi) {
        try (Tracer t = Tracer.open(sample(abi, "librelocs.so"), null, Engine.UNIDBG, Userland.BIONIC)) {
            // 2 threads a call, 40 calls: more threads than there are areas (pthread_create would fail: -1, -2)
            for (int k = 0; k < 40; k++) {
                long v = call(t, "tls_threads", i(1));
                assertTrue(v > 0, k + ": " + v);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void withStubsTheMainThreadHasTlsAndTheResolverRunsCounted(String abi) throws IOException {
        Map<String, Long> ref = reference();
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(sample(abi, "librelocs.so"), null, engine, Userland.STUBS)) {
                // nothing else runs at load: the resolvers' blocks are what was counted
                assertTrue(t.emulator.counter.executed() > 0, engine.id);
                assertEquals(ref.get(abi + " tls_bump 3"), call(t, "tls_bump", i(3)), engine.id);
                assertEquals(ref.get(abi + " ifunc_check"), call(t, "ifunc_check"), engine.id);
            }
        }
    }

    /**
     * {@code samples/native/src/packed.c} linked by lld with {@code --pack-dyn-relocs=android+relr}:
     * its RELATIVE relocations come from DT_RELR, its symbol relocations from Android's APS2
     * stream, and decoded they are what the same object linked unpacked holds in its REL/RELA
     * sections (counted by type and symbol with readelf: 48 ABS of {@code values}, 8 RELATIVE …);
     * the pointer tables they fill work.
     */
    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void packedRelocationsAreDecodedAndApplied(String abi) {
        boolean arm64 = abi.equals("arm64-v8a");
        int abs = arm64 ? 257 : 2, globDat = arm64 ? 1025 : 21, relative = arm64 ? 1027 : 23;
        Map<String, Long> expected = new java.util.TreeMap<>(Map.of(abs + " values", 48L, relative + " -", 8L, abs + " abs", 1L,
                abs + " pointers", 1L, abs + " strlen", 1L, globDat + " absolute", 1L, globDat + " length_of", 1L));
        expected.putAll(Map.of(globDat + " self_pointers", 1L, globDat + " values", 1L, globDat + " words", 1L));
        Map<String, Long> decoded = new java.util.TreeMap<>();
        for (ElfImage.Reloc r : ElfImage.read(sample(abi, "libpacked.so")).relocations)
            decoded.merge(r.type() + " " + (r.symbol() == null ? "-" : r.symbol()), 1L, Long::sum);
        assertEquals(expected, decoded, abi);
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(sample(abi, "libpacked.so"), null, engine, Userland.BIONIC)) {
                assertEquals(1128 + 38 + 7, call(t, "packed_sum"), engine.id);
            }
        }
    }

    @Test
    void aDamagedPackedStreamIsRefusedInOneLine() {
        Path android = BionicTest.INVALID.resolve("packed-android.so");
        NativeException e = assertThrows(NativeException.class, () -> ElfImage.read(android));
        assertEquals(android + ": damaged ELF file (Android packed relocations without the APS2 magic)", e.getMessage());
    }
}
