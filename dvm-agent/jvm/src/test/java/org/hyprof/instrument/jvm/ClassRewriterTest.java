package org.hyprof.instrument.jvm;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import org.hyprof.config.ProbeInfo;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Snapshot;
import org.hyprof.runtime.Stats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.objectweb.asm.Opcodes;

/** Instruments fixtures.Workload with ASM (every probe-site form), runs it, and checks exact counts. */
class ClassRewriterTest {
    Map<String, ProbeInfo> byName;
    Class<?> workload;

    void instrumentAndLoad(Instrumented.Sites sites) throws Exception {
        Instrumented i = Instrumented.load("fixtures.Workload", sites);
        byName = i.byName;
        workload = i.loaded;
    }

    @BeforeEach
    void start() {
        Hyprof.reset();
        Options o = new Options();
        o.calibrate = false;
        Hyprof.start(o);
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    long stat(String name, int field) {
        ProbeInfo p = byName.get(name);
        assertNotNull(p, "no probe " + name + " in " + byName.keySet());
        return Hyprof.snapshot().total(p.id(), field);
    }

    @ParameterizedTest
    @EnumSource(Instrumented.Sites.class)
    void outputUnchangedAndCountsExact(Instrumented.Sites sites) throws Exception {
        instrumentAndLoad(sites);
        Method run = workload.getMethod("run");
        int expected = fixtures.Workload.run(); // the uninstrumented original
        assertEquals(expected, run.invoke(null));

        String W = "fixtures.Workload.";
        assertEquals(1, stat(W + "run()I", Stats.CALLS));
        assertEquals(177, stat(W + "fib(I)I", Stats.CALLS));
        assertEquals(1, stat(W + "fib(I)I", Stats.OUTER_CALLS));
        // nested(): outer loop 10 iterations; inner entered 9 times (i=3 continues before it)
        assertEquals(1, stat(W + "nested()I#loop0", Stats.CALLS));
        assertEquals(10, stat(W + "nested()I#loop0", Stats.ITERATIONS));
        assertEquals(9, stat(W + "nested()I#loop1", Stats.CALLS));
        assertEquals(8 * 5 + 2, stat(W + "nested()I#loop1", Stats.ITERATIONS));
        assertEquals(1, stat(W + "doWhile()I#loop0", Stats.CALLS));
        assertEquals(3, stat(W + "doWhile()I#loop0", Stats.ITERATIONS));
        assertEquals(1, stat(W + "doWhileFirst(I)I#loop0", Stats.CALLS), "a loop entered from the method entry");
        assertEquals(3, stat(W + "doWhileFirst(I)I#loop0", Stats.ITERATIONS));
        assertEquals(1, stat(W + "returnFromLoop()I#loop0", Stats.CALLS));
        assertEquals(2, stat(W + "returnFromLoop()I#loop0", Stats.ITERATIONS));
        assertEquals(2, stat(W + "tryCatchFinally(I)I", Stats.CALLS));
        assertEquals(0, stat(W + "tryCatchFinally(I)I", Stats.THROWS));
        assertEquals(2, stat(W + "syncBlock(I)I", Stats.CALLS));
        assertEquals(1, stat(W + "syncBlock(I)I", Stats.THROWS));
        // constructors: () once; (Z) throws after super (recorded, by exception);
        // (String) throws before this(): no probe fired; ("abc") once, via (I)
        assertEquals(1, stat(W + "<init>()V", Stats.CALLS));
        assertEquals(1, stat(W + "<init>(Z)V", Stats.CALLS));
        assertEquals(1, stat(W + "<init>(Z)V", Stats.THROWS));
        assertEquals(1, stat(W + "<init>(Ljava/lang/String;)V", Stats.CALLS));
        assertEquals(1, stat(W + "<init>(I)V", Stats.CALLS));
        assertEquals(2, stat(W + "check(Ljava/lang/String;)I", Stats.CALLS));
        assertEquals(1, stat(W + "check(Ljava/lang/String;)I", Stats.THROWS));
        assertEquals(4, stat(W + "sw(I)I", Stats.CALLS));
        assertEquals(1, stat(W + "wide(JDIJ)J", Stats.CALLS));
        // exception through several instrumented frames: every enter matched
        assertEquals(4, stat(W + "deep(I)V", Stats.CALLS));
        assertEquals(4, stat(W + "deep(I)V", Stats.THROWS));
        assertEquals(1, stat(W + "catchDeep()I", Stats.CALLS));
        assertEquals(0, stat(W + "catchDeep()I", Stats.THROWS));
        for (Snapshot.ThreadData t : Hyprof.snapshot().threads) assertEquals(0, t.depthDrops);
    }

    /**
     * Loops without their code (the agent's start with loops off, {@link LoopPlacer}): the same
     * probes, ids and names as with the code, no loop site in any method, and the rewrite with
     * the code from the same ids (the agent's retransformation) gives the same probes again. Run,
     * the class without loop code counts its method calls exactly and no loop.
     */
    @ParameterizedTest
    @EnumSource(value = Instrumented.Sites.class, names = {"INDY", "STATIC"})
    void loopsWithoutTheirCodeKeepTheirIdsAndNames(Instrumented.Sites sites) throws Exception {
        byte[] original;
        try (java.io.InputStream in = getClass().getResourceAsStream("/fixtures/Workload.class")) {
            original = in.readAllBytes();
        }
        org.hyprof.instrument.ProbeIds ids = new org.hyprof.instrument.ProbeIds(40);
        java.util.List<Integer> taken = new java.util.ArrayList<>();
        ClassRewriter.Result without = ClassRewriter.forLoader(getClass().getClassLoader(), true)
                .staticSites(sites == Instrumented.Sites.STATIC).loopCode(false)
                .rewrite(original, () -> { int id = ids.next(); taken.add(id); return id; });
        int[] next = {0};
        ClassRewriter.Result with = ClassRewriter.forLoader(getClass().getClassLoader(), true)
                .staticSites(sites == Instrumented.Sites.STATIC)
                .rewrite(original, () -> taken.get(next[0]++));
        assertEquals(taken.size(), next[0], "the rewrite with loop code asks for the same number of ids");
        assertEquals(with.probes(), without.probes(), "same probes, ids, names and lines");
        assertEquals(with.skipped(), without.skipped());
        assertTrue(without.probes().stream().filter(ProbeInfo::loop).count() >= 6, "the loops are listed: " + without.probes());
        assertEquals(0, loopSites(without.bytes()), "no loop code");
        assertTrue(loopSites(with.bytes()) > 0, "loop code in the rewrite with it");
        Instrumented.verify(without.bytes());

        Instrumented i = Instrumented.load("fixtures.Workload", sites, false);
        byName = i.byName;
        assertEquals(fixtures.Workload.run(), i.loaded.getMethod("run").invoke(null));
        assertEquals(177, stat("fixtures.Workload.fib(I)I", Stats.CALLS));
        assertEquals(4, stat("fixtures.Workload.deep(I)V", Stats.THROWS));
        assertEquals(0, stat("fixtures.Workload.nested()I#loop0", Stats.CALLS), "a loop without code records nothing");
        assertEquals(0, stat("fixtures.Workload.nested()I#loop1", Stats.ITERATIONS));
    }

    /**
     * A back edge adds the loop's step to its count ({@code cntL += stepL}), never a constant
     * ({@code iinc cntL 1}): while the loop's probe is off its entry site is the constant 0, so the
     * step and the count are constants the JIT drops; with {@code iinc} the count stayed live for
     * the catch-all handler and cost FFT and sparse matmult 10–20 % with every probe off
     * ({@code MethodRewriter.loopBegin}). Each loop of Workload (six, nested ones among them) has
     * such an edge, and no scratch local but the add-up counts is ever incremented by a constant.
     */
    @ParameterizedTest
    @EnumSource(value = Instrumented.Sites.class, names = {"INDY", "STATIC"})
    void backEdgesAddTheStepNotAConstant(Instrumented.Sites sites) throws Exception {
        byte[] original = Instrumented.classFile("fixtures.Workload");
        java.util.Map<String, Integer> ownLocals = new java.util.HashMap<>();
        org.objectweb.asm.tree.ClassNode before = new org.objectweb.asm.tree.ClassNode();
        new org.objectweb.asm.ClassReader(original).accept(before, 0);
        for (org.objectweb.asm.tree.MethodNode mn : before.methods) ownLocals.put(mn.name + mn.desc, mn.maxLocals);
        org.hyprof.instrument.ProbeIds ids = new org.hyprof.instrument.ProbeIds(40);
        ClassRewriter.Result r = ClassRewriter.forLoader(getClass().getClassLoader(), true)
                .staticSites(sites == Instrumented.Sites.STATIC).rewrite(original, ids::next);
        org.objectweb.asm.tree.ClassNode after = new org.objectweb.asm.tree.ClassNode();
        new org.objectweb.asm.ClassReader(r.bytes()).accept(after, 0);
        java.util.Set<String> steppedCounts = new java.util.HashSet<>(); // method and local
        java.util.Map<String, Integer> methodCounts = new java.util.HashMap<>(), bodyCounts = new java.util.HashMap<>(); // stepped counts a method
        int stepEdges = 0;
        for (org.objectweb.asm.tree.MethodNode mn : after.methods) {
            Integer own = ownLocals.get(Instrumented.originalKey(after, mn));
            if (own == null) continue;
            if (mn.desc.contains(MethodRewriter.MARKER + ")")) own++; // an outlined body: the marker's slot
            org.objectweb.asm.tree.AbstractInsnNode[] code = mn.instructions.toArray();
            java.util.Set<Integer> counts = new java.util.HashSet<>();
            for (int k = 3; k < code.length; k++) {
                // iload cnt; iload step; iadd; istore cnt — both scratch locals (after the method's own)
                if (code[k].getOpcode() != Opcodes.ISTORE || code[k - 1].getOpcode() != Opcodes.IADD) continue;
                if (!(code[k - 3] instanceof org.objectweb.asm.tree.VarInsnNode a) || a.getOpcode() != Opcodes.ILOAD) continue;
                if (!(code[k - 2] instanceof org.objectweb.asm.tree.VarInsnNode b) || b.getOpcode() != Opcodes.ILOAD) continue;
                int cnt = ((org.objectweb.asm.tree.VarInsnNode) code[k]).var;
                if (a.var == cnt && cnt > own && b.var > own && b.var != cnt) {
                    counts.add(cnt);
                    stepEdges++;
                }
            }
            for (org.objectweb.asm.tree.AbstractInsnNode i : code)
                if (i instanceof org.objectweb.asm.tree.IincInsnNode inc)
                    assertFalse(counts.contains(inc.var), mn.name + ": back-edge count " + inc.var + " incremented by a constant");
            boolean body = mn.desc.contains(MethodRewriter.MARKER + ")");
            if (body) bodyCounts.put(Instrumented.originalKey(after, mn), counts.size());
            else {
                methodCounts.put(mn.name + mn.desc, counts.size());
                for (int c : counts) steppedCounts.add(mn.name + mn.desc + " local " + c);
            }
        }
        long loops = r.probes().stream().filter(ProbeInfo::loop).count();
        assertEquals(6, loops);
        assertEquals(loops, steppedCounts.size(), "every loop's count goes up by its step");
        assertEquals(sites == Instrumented.Sites.INDY, !bodyCounts.isEmpty(), "outlined bodies with invokedynamic only: " + bodyCounts);
        for (java.util.Map.Entry<String, Integer> e : bodyCounts.entrySet())
            assertEquals(methodCounts.get(e.getKey()), e.getValue(), "a body steps the counts its method does: " + e.getKey());
        assertTrue(stepEdges >= loops, "a stepped back edge per loop at least: " + stepEdges);
    }

    /** Loop entries and ends in the class (invokedynamic or static). */
    static int loopSites(byte[] bytes) {
        org.objectweb.asm.tree.ClassNode cn = new org.objectweb.asm.tree.ClassNode();
        new org.objectweb.asm.ClassReader(bytes).accept(cn, 0);
        int n = 0;
        for (org.objectweb.asm.tree.MethodNode mn : cn.methods) {
            for (org.objectweb.asm.tree.AbstractInsnNode i : mn.instructions) {
                if (i instanceof org.objectweb.asm.tree.InvokeDynamicInsnNode d && d.name.startsWith("loop")) n++;
                if (i instanceof org.objectweb.asm.tree.MethodInsnNode m && (m.owner.equals(MethodRewriter.LOOPS) || m.name.startsWith("loop"))) n++;
            }
        }
        return n;
    }

    @Test
    void resolutionsAreClassified() throws Exception {
        instrumentAndLoad(Instrumented.Sites.INDY);
        assertEquals("method", byName.get("fixtures.Workload.run()I").resolution().label());
        List<ProbeInfo> loops = byName.values().stream().filter(ProbeInfo::loop).toList();
        assertEquals(6, loops.size(), loops.toString());
        for (ProbeInfo l : loops) assertTrue(l.line() > 0, "loop line known: " + l);
        // named by their first source line (fixtures/Workload.java: nested's loops start on 40 and 42)
        var names = org.hyprof.config.MethodNames.names(loops, org.hyprof.config.MethodNames.Style.JAVA);
        assertTrue(names.containsValue("fixtures.Workload.nested()#loop@40"), names.toString());
        assertTrue(names.containsValue("fixtures.Workload.nested()#loop@42"), names.toString());
    }
}
