package org.hyprof.bb;

import static org.hyprof.bb.SandboxTest.call;
import static org.hyprof.bb.SandboxTest.i;
import static org.hyprof.bb.SandboxTest.sample;
import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Userland;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * libdl's stand-in answers the queries C++ exception unwinders make (issue 16, item 2), on
 * {@code samples/native/src/dl.c}: {@code dl_iterate_phdr} reports every loaded library with its
 * program headers (the callback runs in the emulator, counted in the call, and a non-zero return
 * stops the walk), {@code dladdr} names the library and function of an address, and ARM's
 * {@code dl_unwind_find_exidx} gives the library's {@code PT_ARM_EXIDX}. Both ABIs, both engines.
 */
class DlTest {
    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void theLinkersQueriesSeeEveryLoadedLibrary(String abi) {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(sample(abi, "libdl-test.so"), null, engine, Userland.BIONIC)) {
                List<Emulator.Module> modules = t.emulator.modules;
                assertEquals(List.of("libdl-test.so", "libm.so", "libc.so"), modules.stream().map(Emulator.Module::name).toList(), engine.id);
                long loads = modules.stream().mapToLong(m -> m.image().segments.size()).sum();
                NativeRun all = t.call("phdr_walk", List.of(i(0)));
                assertEquals(modules.size() * 10000 + loads * 100 + 1, (int) all.returnValue(), engine.id);
                // the callback is the library's own code, counted in the call that walked
                assertTrue(all.functions().containsKey("visit"), engine.id + ": " + all.functions().keySet());

                long firstTwo = modules.get(0).image().segments.size() + modules.get(1).image().segments.size();
                assertEquals(2 * 10000 + firstTwo * 100 + 1, call(t, "phdr_walk", i(2)), engine.id + ": stops at a non-zero return");
                assertEquals(abi.equals("arm64-v8a") ? 32 : 16, call(t, "phdr_info_size"), engine.id);
                assertEquals(1, call(t, "dladdr_self"), engine.id);
                long exidx = modules.get(0).image().exidxSize / 8;
                assertEquals(abi.equals("arm64-v8a") ? 0 : exidx, call(t, "exidx_entries"), engine.id);
                if (abi.equals("armeabi-v7a")) assertTrue(exidx > 0, "the fixture has unwind tables");
            }
        }
    }
}
