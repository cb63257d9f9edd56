package org.hyprof.instrument.jvm;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.CountDownLatch;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.instrument.ProbeIds;
import org.hyprof.instrument.ProbeSet;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Stats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The token API as the rewriter emits it (fixtures.Loops), run on the JVM in every probe-site
 * form: a loop's iterations are exactly the back edges taken however it is left (break, return,
 * exception caught outside the method or inside it, continue of an outer loop), in recursion
 * too, and an activation is counted exactly when its entry was recorded, whatever is switched
 * while it runs.
 */
class LoopTokensTest {
    static final String L = "fixtures.Loops.";
    Instrumented loops;

    @BeforeEach
    void start() {
        Instrumented.startRuntime();
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    private Object call(String name, Class<?>[] types, Object... args) throws Throwable {
        return Instrumented.call(null, loops.loaded, name, types, args);
    }

    private Object call(String name) throws Throwable {
        return call(name, new Class<?>[0]);
    }

    private void assertLoop(String loop, long entries, long iterations) {
        assertEquals(entries, loops.stat(L + loop, Stats.CALLS), loop + " entries");
        assertEquals(iterations, loops.stat(L + loop, Stats.ITERATIONS), loop + " iterations");
    }

    @ParameterizedTest
    @EnumSource(Instrumented.Sites.class)
    void loopsLeftByBreakReturnAndContinueOfAnOuterLoop(Instrumented.Sites sites) throws Throwable {
        loops = Instrumented.load("fixtures.Loops", sites);
        assertEquals(fixtures.Loops.breakOut(), call("breakOut"));
        assertLoop("breakOut()I#loop0", 1, 4);
        assertEquals(fixtures.Loops.returnNested(), call("returnNested"));
        assertLoop("returnNested()I#loop0", 1, 2);
        assertLoop("returnNested()I#loop1", 3, 5 + 5 + 3);
        assertEquals(fixtures.Loops.continueOuter(), call("continueOuter"));
        assertLoop("continueOuter()I#loop0", 1, 4);
        assertLoop("continueOuter()I#loop1", 4, 0 + 1 + 2 + 3);
        assertEquals(3, call("returnInTry", new Class<?>[] {int.class}, 3));
        assertLoop("returnInTry(I)I#loop0", 1, 3);
        for (String m : new String[] {"breakOut()I", "returnNested()I", "continueOuter()I", "returnInTry(I)I"}) {
            assertEquals(1, loops.stat(L + m, Stats.CALLS), m);
            assertEquals(0, loops.stat(L + m, Stats.THROWS), m);
        }
    }

    @ParameterizedTest
    @EnumSource(Instrumented.Sites.class)
    void loopsLeftByAnException(Instrumented.Sites sites) throws Throwable {
        loops = Instrumented.load("fixtures.Loops", sites);
        assertThrows(IllegalStateException.class, () -> call("throwNested"));
        assertLoop("throwNested()I#loop0", 1, 1);
        assertLoop("throwNested()I#loop1", 2, 5 + 2);
        assertEquals(1, loops.stat(L + "throwNested()I", Stats.CALLS));
        assertEquals(1, loops.stat(L + "throwNested()I", Stats.THROWS));

        assertThrows(IllegalStateException.class, () -> call("throwNestedInCallee"));
        assertLoop("throwNestedInCallee()I#loop0", 1, 1);
        assertLoop("throwNestedInCallee()I#loop1", 2, 5 + 2);
        assertEquals(1, loops.stat(L + "throwNestedInCallee()I", Stats.CALLS));
        assertEquals(1, loops.stat(L + "throwNestedInCallee()I", Stats.THROWS));

        assertEquals(fixtures.Loops.catchAfterLoops(), call("catchAfterLoops"));
        assertLoop("catchAfterLoops()I#loop0", 1, 3);
        assertLoop("catchAfterLoops()I#loop1", 4, 4 + 4 + 4 + 1);
        assertLoop("catchAfterLoops()I#loop2", 1, 2);
        assertEquals(1, loops.stat(L + "catchAfterLoops()I", Stats.CALLS));
        assertEquals(0, loops.stat(L + "catchAfterLoops()I", Stats.THROWS));
    }

    /** Count-only loops: entries counted as count-only calls, iterations as for timed ones. */
    private void assertCounted(String loop, long entries, long iterations) {
        assertEquals(0, loops.stat(L + loop, Stats.CALLS), loop + " timed entries");
        assertEquals(entries, loops.stat(L + loop, Stats.COUNT_ONLY_CALLS), loop + " entries");
        assertEquals(iterations, loops.stat(L + loop, Stats.ITERATIONS), loop + " iterations");
    }

    /**
     * Loops switched to count-only before they run (with invokedynamic entries the code adds their
     * activations up and hands them over at the enclosing timed loop's end and at the method's
     * exits): the same exact entries and iterations, however they are left — the inner loops
     * alone (their outer loop timed) and every loop.
     */
    @ParameterizedTest
    @EnumSource(Instrumented.Sites.class)
    void countOnlyLoopsAreCountedExactlyHoweverTheyAreLeft(Instrumented.Sites sites) throws Throwable {
        loops = Instrumented.load("fixtures.Loops", sites);
        for (String inner : new String[] {"returnNested()I#loop1", "continueOuter()I#loop1", "throwNested()I#loop1",
                "throwNestedInCallee()I#loop1", "catchAfterLoops()I#loop1"})
            Hyprof.countOnly(loops.id(L + inner));
        for (int round = 1; round <= 2; round++) {
            assertEquals(fixtures.Loops.returnNested(), call("returnNested"));
            assertLoop("returnNested()I#loop0", round, round * 2);
            assertCounted("returnNested()I#loop1", round * 3, round * (5 + 5 + 3));
            assertEquals(fixtures.Loops.continueOuter(), call("continueOuter"));
            assertLoop("continueOuter()I#loop0", round, round * 4);
            assertCounted("continueOuter()I#loop1", round * 4, round * (0 + 1 + 2 + 3));
            assertThrows(IllegalStateException.class, () -> call("throwNested"));
            assertCounted("throwNested()I#loop1", round * 2, round * (5 + 2));
            assertThrows(IllegalStateException.class, () -> call("throwNestedInCallee"));
            assertCounted("throwNestedInCallee()I#loop1", round * 2, round * (5 + 2));
            assertEquals(fixtures.Loops.catchAfterLoops(), call("catchAfterLoops"));
            assertCounted("catchAfterLoops()I#loop1", round * 4, round * (4 + 4 + 4 + 1));
        }
        stop(); // every loop count-only, from a fresh start
        start();
        loops = Instrumented.load("fixtures.Loops", sites);
        for (ProbeInfo p : loops.byName.values()) if (p.loop()) Hyprof.countOnly(p.id());
        assertEquals(fixtures.Loops.breakOut(), call("breakOut"));
        assertCounted("breakOut()I#loop0", 1, 4);
        assertEquals(fixtures.Loops.returnNested(), call("returnNested"));
        assertCounted("returnNested()I#loop0", 1, 2);
        assertCounted("returnNested()I#loop1", 3, 5 + 5 + 3);
        assertEquals(fixtures.Loops.continueOuter(), call("continueOuter"));
        assertCounted("continueOuter()I#loop1", 4, 0 + 1 + 2 + 3);
        assertEquals(3, call("returnInTry", new Class<?>[] {int.class}, 3));
        assertCounted("returnInTry(I)I#loop0", 1, 3);
        assertThrows(IllegalStateException.class, () -> call("throwNested"));
        assertCounted("throwNested()I#loop0", 1, 1);
        assertCounted("throwNested()I#loop1", 2, 5 + 2);
        assertEquals(fixtures.Loops.catchAfterLoops(), call("catchAfterLoops"));
        assertCounted("catchAfterLoops()I#loop0", 1, 3);
        assertCounted("catchAfterLoops()I#loop2", 1, 2);
        assertEquals(fixtures.Loops.rec(2), call("rec", new Class<?>[] {int.class}, 2));
        assertCounted("rec(I)I#loop0", 13, 13 * 3);
        for (String m : new String[] {"breakOut()I", "returnNested()I", "continueOuter()I", "returnInTry(I)I", "throwNested()I",
                "catchAfterLoops()I"})
            assertEquals(1, loops.stat(L + m, Stats.CALLS), m);
    }

    /**
     * More count-only activations inside one activation of a timed loop than the code keeps before
     * handing them over ({@code OutOfLineLoops.ACTIVATIONS}): handed over on the way and at the
     * end, none lost, none twice.
     */
    @ParameterizedTest
    @EnumSource(Instrumented.Sites.class)
    void manyCountOnlyActivationsInsideOneTimedOne(Instrumented.Sites sites) throws Throwable {
        loops = Instrumented.load("fixtures.Loops", sites);
        Hyprof.countOnly(loops.id(L + "manyInner(I)I#loop1"));
        int n = 3 * org.hyprof.runtime.OutOfLineLoops.ACTIVATIONS + 5;
        assertEquals(fixtures.Loops.manyInner(n), call("manyInner", new Class<?>[] {int.class}, n));
        assertLoop("manyInner(I)I#loop0", 1, n);
        assertCounted("manyInner(I)I#loop1", n, 3L * n);
    }

    /**
     * The code adds activations and iterations up in one long (activations in its low bits):
     * activations of more iterations each than those bits hold, past the hand-over bound, keep
     * both counts exact.
     */
    @ParameterizedTest
    @EnumSource(Instrumented.Sites.class)
    void countOnlyActivationsOfManyIterationsEachKeepBothCountsExact(Instrumented.Sites sites) throws Throwable {
        loops = Instrumented.load("fixtures.Loops", sites);
        Hyprof.countOnly(loops.id(L + "wideInner(II)I#loop1"));
        int n = org.hyprof.runtime.OutOfLineLoops.ACTIVATIONS + 2, m = 5000;
        assertEquals(fixtures.Loops.wideInner(n, m), call("wideInner", new Class<?>[] {int.class, int.class}, n, m));
        assertLoop("wideInner(II)I#loop0", 1, n);
        assertCounted("wideInner(II)I#loop1", n, (long) m * n);
    }

    @ParameterizedTest
    @EnumSource(Instrumented.Sites.class)
    void aRecursiveMethodWithALoop(Instrumented.Sites sites) throws Throwable {
        loops = Instrumented.load("fixtures.Loops", sites);
        assertEquals(fixtures.Loops.rec(2), call("rec", new Class<?>[] {int.class}, 2));
        assertEquals(13, loops.stat(L + "rec(I)I", Stats.CALLS));
        assertEquals(1, loops.stat(L + "rec(I)I", Stats.OUTER_CALLS));
        assertLoop("rec(I)I#loop0", 13, 13 * 3);
        assertEquals(1, loops.stat(L + "rec(I)I#loop0", Stats.OUTER_CALLS));
    }

    /** Runs latched(again = 2) on this thread while another thread switches its method probe once it waits. */
    private void latchedWhileSwitching(boolean onAfter) throws Throwable {
        int method = loops.id(L + "latched(Ljava/util/concurrent/CountDownLatch;Ljava/util/concurrent/CountDownLatch;I)I");
        Hyprof.setOn(method, !onAfter);
        CountDownLatch reached = new CountDownLatch(1), go = new CountDownLatch(1);
        Thread switcher = new Thread(() -> {
            try {
                reached.await();
                Hyprof.setOn(method, onAfter);
                go.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "switcher");
        switcher.start();
        Class<?> latch = CountDownLatch.class;
        assertEquals(3, call("latched", new Class<?>[] {latch, latch, int.class}, reached, go, 2));
        switcher.join();
    }

    @ParameterizedTest
    @EnumSource(Instrumented.Sites.class)
    void anActivationRunningWhenItsProbeIsSwitchedOnIsLeftOut(Instrumented.Sites sites) throws Throwable {
        loops = Instrumented.load("fixtures.Loops", sites);
        latchedWhileSwitching(true);
        String m = L + "latched(Ljava/util/concurrent/CountDownLatch;Ljava/util/concurrent/CountDownLatch;I)I";
        // the waiting activation began while off: left out; its two callees began while on: counted
        assertEquals(2, loops.stat(m, Stats.CALLS));
        assertEquals(2, loops.stat(m, Stats.OUTER_CALLS), "not nested in a frame that was never opened");
        assertEquals(0, loops.stat(m, Stats.THROWS));
        assertLoop("latched(Ljava/util/concurrent/CountDownLatch;Ljava/util/concurrent/CountDownLatch;I)I#loop0", 3, 2);
    }

    @ParameterizedTest
    @EnumSource(Instrumented.Sites.class)
    void anActivationRunningWhenItsProbeIsSwitchedOffIsCountedInFull(Instrumented.Sites sites) throws Throwable {
        loops = Instrumented.load("fixtures.Loops", sites);
        latchedWhileSwitching(false);
        String m = L + "latched(Ljava/util/concurrent/CountDownLatch;Ljava/util/concurrent/CountDownLatch;I)I";
        // the waiting activation began while on: counted; its two callees began while off: not
        assertEquals(1, loops.stat(m, Stats.CALLS));
        assertEquals(1, loops.stat(m, Stats.OUTER_CALLS));
        assertLoop("latched(Ljava/util/concurrent/CountDownLatch;Ljava/util/concurrent/CountDownLatch;I)I#loop0", 3, 2);
    }

    /**
     * A return that a handler inside the loop covers lies in the loop's body (javac never emits
     * one; other compilers may): the loop is closed before the method's end. Built with ASM:
     * {@code for (i = 0; ; i++) try { if (i == stop) return i; } catch (Throwable t) {}}, the
     * try range including the ireturn.
     */
    @ParameterizedTest
    @EnumSource(value = Instrumented.Sites.class, names = {"INDY", "STATIC"})
    void aReturnInsideTheLoopsBody(Instrumented.Sites sites) throws Throwable {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "fixtures/ReturnInBody", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "run", "(I)I", null, null);
        mv.visitCode();
        Label head = new Label(), from = new Label(), to = new Label(), next = new Label(), handler = new Label();
        mv.visitTryCatchBlock(from, to, handler, "java/lang/Throwable");
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, 1);
        mv.visitLabel(head);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitJumpInsn(Opcodes.IF_ICMPNE, next);
        mv.visitLabel(from);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitLabel(to);
        mv.visitLabel(next);
        mv.visitIincInsn(1, 1);
        mv.visitJumpInsn(Opcodes.GOTO, head);
        mv.visitLabel(handler);
        mv.visitInsn(Opcodes.POP);
        mv.visitJumpInsn(Opcodes.GOTO, next);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        ClassRewriter.Result r = ClassRewriter.forLoader(getClass().getClassLoader(), true)
                .staticSites(sites == Instrumented.Sites.STATIC).rewrite(cw.toByteArray(), new ProbeIds()::next);
        ProbeSet set = new ProbeSet(new ProfilingConfig());
        set.defineInRuntime(r.probes(), r.skipped(), set.add(r.probes(), r.skipped()));
        Instrumented.verify(r.bytes());
        Instrumented.checkSites(r.bytes(), sites);
        ProbeInfo loop = r.probes().stream().filter(ProbeInfo::loop).findFirst().orElseThrow();
        ProbeInfo method = r.probes().stream().filter(p -> p.methodName().equals("run")).findFirst().orElseThrow();
        byte[] bytes = r.bytes();
        Class<?> c = new ClassLoader(getClass().getClassLoader()) {
            Class<?> define() {
                return defineClass("fixtures.ReturnInBody", bytes, 0, bytes.length);
            }
        }.define();
        assertEquals(5, c.getMethod("run", int.class).invoke(null, 5));
        assertEquals(1, Hyprof.snapshot().total(loop.id(), Stats.CALLS));
        assertEquals(5, Hyprof.snapshot().total(loop.id(), Stats.ITERATIONS));
        assertEquals(1, Hyprof.snapshot().total(method.id(), Stats.CALLS));
    }
}
