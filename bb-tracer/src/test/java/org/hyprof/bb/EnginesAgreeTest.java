package org.hyprof.bb;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.junit.jupiter.api.Test;

/**
 * Both engines are Unicorn 2 and must count the same: for each kernel on each instruction set,
 * the same result, the same blocks (by address, size and instruction set) executed the same
 * number of times, hence the same instructions, categories and estimates. Counting in C
 * (libunicorn) only moves where the increment happens.
 */
class EnginesAgreeTest {
    record Call(String symbol, List<Emulator.Arg> args) {}

    static final List<Call> CALLS = List.of(
            new Call("count_loop", List.of(Emulator.Arg.ofInt(1000))),
            new Call("int_kernel", List.of(Emulator.Arg.ofInt(5000))),
            new Call("kernel_fft", List.of(Emulator.Arg.ofInt(64), Emulator.Arg.ofInt(2))),
            new Call("kernel_sor", List.of(Emulator.Arg.ofInt(20), Emulator.Arg.ofInt(3))),
            new Call("kernel_sparse", List.of(Emulator.Arg.ofInt(100), Emulator.Arg.ofInt(500), Emulator.Arg.ofInt(2))),
            new Call("mix_args", List.of(Emulator.Arg.ofInt(3), Emulator.Arg.ofFloat(1.5f), Emulator.Arg.ofDouble(2.25), Emulator.Arg.ofLong(7))));

    /** One call's executions as "address/size/thumb" → count, independent of index order. */
    static TreeMap<String, Long> blocks(Tracer t, NativeRun r) {
        TreeMap<String, Long> m = new TreeMap<>();
        long[] c = r.result().counts().counts();
        for (int i = 0; i < c.length; i++) {
            if (c[i] == 0) continue;
            BlockCounter k = t.emulator.counter;
            m.put(Long.toHexString(k.address(i)) + "/" + k.size(i) + (k.isThumb(i) ? "/T" : ""), c[i]);
        }
        return m;
    }

    @Test
    void sameBlocksSameCountsSameResults() {
        List<Engine> engines = Engines.all();
        assumeTrue(engines.contains(Engine.LIBUNICORN), "the libunicorn engine is built where libunicorn-dev is installed");
        for (Path so : new Path[] {TracerTest.ARM, TracerTest.THUMB, TracerTest.ARM64}) {
            try (Tracer a = Tracer.open(so, null, Engine.UNIDBG); Tracer b = Tracer.open(so, null, Engine.LIBUNICORN)) {
                for (int round = 0; round < 2; round++) { // the second round runs translated code again
                    for (Call c : CALLS) {
                        NativeRun x = a.call(c.symbol(), c.args()), y = b.call(c.symbol(), c.args());
                        String what = so.getFileName() + " " + so.getParent().getFileName() + " " + c.symbol();
                        assertEquals(x.result().r0(), y.result().r0(), what + ": r0");
                        assertEquals(x.result().fp0(), y.result().fp0(), what + ": d0");
                        assertEquals(blocks(a, x), blocks(b, y), what + ": blocks");
                        assertTrue(x.blocks() > 0, what);
                        assertEquals(x.blocks(), y.blocks(), what);
                        assertEquals(x.categories(), y.categories(), what);
                        assertEquals(x.estimate(), y.estimate(), what);
                    }
                }
                assertEquals(a.emulator.counter.executed(), b.emulator.counter.executed(), "blocks over all calls, " + so);
            }
        }
    }

    /**
     * The same with Android's system libraries (issue 16): libc's and libm's blocks (malloc, sin,
     * cos, memset …) are counted alike by both engines, and so is each library's share.
     */
    @Test
    void systemLibraryCodeToo() {
        List<Engine> engines = Engines.all();
        assumeTrue(engines.contains(Engine.LIBUNICORN), "the libunicorn engine is built where libunicorn-dev is installed");
        for (Path so : new Path[] {TracerTest.ARM, TracerTest.THUMB, TracerTest.ARM64}) {
            try (Tracer a = Tracer.open(so, null, Engine.UNIDBG, org.hyprof.bb.emu.Userland.BIONIC);
                 Tracer b = Tracer.open(so, null, Engine.LIBUNICORN, org.hyprof.bb.emu.Userland.BIONIC)) {
                for (Call c : CALLS) {
                    NativeRun x = a.call(c.symbol(), c.args()), y = b.call(c.symbol(), c.args());
                    String what = so.getFileName() + " " + so.getParent().getFileName() + " " + c.symbol() + " (bionic)";
                    assertEquals(x.result().r0(), y.result().r0(), what + ": r0");
                    assertEquals(x.result().fp0(), y.result().fp0(), what + ": d0");
                    assertEquals(blocks(a, x), blocks(b, y), what + ": blocks");
                    assertEquals(x.libraries(), y.libraries(), what);
                }
                NativeRun fft = a.call("kernel_fft", List.of(Emulator.Arg.ofInt(64), Emulator.Arg.ofInt(2)));
                assertTrue(fft.libraries().get("libm.so").instructions() > 0, so + ": " + fft.libraries());
                assertTrue(fft.libraries().get("libc.so").instructions() > 0, so + ": " + fft.libraries());
                // the library's own blocks are the ones it runs on the stubs
                try (Tracer stubs = Tracer.open(so, null, Engine.UNIDBG)) {
                    NativeRun z = stubs.call("kernel_fft", List.of(Emulator.Arg.ofInt(64), Emulator.Arg.ofInt(2)));
                    assertEquals(z.estimate().instructions(), fft.libraries().get(so.getFileName().toString()).instructions(), so.toString());
                    assertEquals(z.result().fp0(), fft.result().fp0(), so.toString());
                }
            }
        }
    }
}
