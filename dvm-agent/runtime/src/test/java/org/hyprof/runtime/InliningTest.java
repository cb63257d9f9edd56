package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.CodeSizeEvaluator;

/**
 * The recording paths that must stay out of the app's compiled code. HotSpot's C2 does not inline
 * a frequently called method of more than {@code FreqInlineSize} bytes of bytecode (325 by
 * default); below that, a frame's closing (with the calling-context tree's share of it) was
 * inlined at every loop exit of the app and made SciMark's FFT kernel compile for seconds and run
 * 20 % slower. A change that shrinks one of these methods under the limit must find another way
 * to keep it out of line.
 */
class InliningTest {
    /** C2's default FreqInlineSize on the JVMs we run on (17, 21). */
    private static final int FREQ_INLINE_SIZE = 325;

    @Test
    void frameOpeningAndClosingStayOutOfLine() throws IOException {
        Map<String, Integer> sizes = minCodeSizes(ThreadState.class);
        for (String m : new String[] {"close", "enter", "loopEnter", "countedSlow"}) {
            Integer size = sizes.get(m);
            assertTrue(size != null, "ThreadState." + m + " not found");
            assertTrue(size > FREQ_INLINE_SIZE,
                    "ThreadState." + m + " is " + size + " bytes of bytecode: C2 would inline it into the app's methods");
        }
    }

    /**
     * The other side: a count-only site inlines its fast path, and a method of a few such sites
     * must stay under C2's {@code InlineSmallCode} (2,500 bytes of compiled code) to be inlined into
     * its callers. At 208 + 49 bytes of bytecode (two compares of the path in two arrays, the flag,
     * the null test, the flush bound, the calibration's add), one site compiled to about 700
     * bytes, and CallHeavy's {@code a} (five sites) to 5,152: "already compiled into a big method",
     * and {@code small} ran 3-4x slower in the JVMs that compiled {@code a} first. At 152 + 42, 2,336
     * (the 42 are 35 since the table's lookup moved to {@code Recorder.tableSlot}, which C2 inlines).
     * At 130 + 41 (the hot thread's state tried before the table, one add for a path held and a
     * slot taken), {@code a} compiles to 1,824 bytes on the hot thread, 2,208-2,240 on another
     * (which compiles the table's branch too); at 152 + 47 it was 2,464-4,224 on another thread.
     * A change that grows either must be measured again (bench/README, 2026-12-02 (later)).
     */
    @Test
    void theCountOnlyFastPathStaysSmall() throws IOException {
        int state = minCodeSizes(ThreadState.class).get("countFast");
        int site = minCodeSizes(Recorder.class).get("countFast"); // the larger overload, under a config
        assertTrue(state <= 160, "ThreadState.countFast is " + state + " bytes of bytecode (130 measured)");
        assertTrue(site <= 48, "Recorder.countFast is " + site + " bytes of bytecode (41 measured)");
    }

    @Test
    void measuresTheBytecode() throws IOException {
        // the probe entry points are tiny and inlined: the measure must say so
        Map<String, Integer> sizes = minCodeSizes(Probe.class);
        assertTrue(sizes.get("end") < 35, "Probe.end: " + sizes.get("end"));
        assertEquals(1, minCodeSizes(InliningTest.Empty.class).get("run"));
    }

    /** The smallest code size of each method (by name; the largest overload wins). */
    private static Map<String, Integer> minCodeSizes(Class<?> type) throws IOException {
        Map<String, Integer> sizes = new HashMap<>();
        try (InputStream in = type.getResourceAsStream("/" + type.getName().replace('.', '/') + ".class")) {
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] ex) {
                    return new CodeSizeEvaluator(null) {
                        @Override
                        public void visitEnd() {
                            sizes.merge(name, getMinSize(), Math::max);
                        }
                    };
                }
            }, 0);
        }
        return sizes;
    }

    static final class Empty {
        static void run() {}
    }
}
