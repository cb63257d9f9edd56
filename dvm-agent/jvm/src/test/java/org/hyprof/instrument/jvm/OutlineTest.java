package org.hyprof.instrument.jvm;

import static org.hyprof.instrument.jvm.Instrumented.call;
import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.hyprof.instrument.ProbeIds;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Stats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Outlined bodies ({@link MethodRewriter#split}): a method with loops becomes a wrapper holding
 * its probe and a private static synthetic body holding its code; run on the JVM, every method
 * returns what the plain one does, with exact counts, its lock, its exceptions and its stack
 * trace's names and lines, and the body is called through a kept call exactly while the method's
 * probe is timed.
 */
class OutlineTest {
    static final String O = "fixtures.Outlining.";
    static final String MARKER = MethodRewriter.MARKER;

    @BeforeEach
    void start() {
        Instrumented.startRuntime();
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    private static ClassNode node(byte[] bytes) {
        ClassNode cn = new ClassNode();
        new ClassReader(bytes).accept(cn, 0);
        return cn;
    }

    private static Map<String, MethodNode> byKey(ClassNode cn) {
        Map<String, MethodNode> m = new HashMap<>();
        for (MethodNode mn : cn.methods) m.put(mn.name + mn.desc, mn);
        return m;
    }

    @Test
    void methodsWithLoopsGetABodyAndKeepTheirOwnNameDescriptorAndFlags() throws Exception {
        Instrumented in = Instrumented.load("fixtures.Outlining", Instrumented.Sites.INDY);
        Map<String, MethodNode> before = byKey(node(Instrumented.classFile("fixtures.Outlining")));
        Map<String, MethodNode> after = byKey(node(in.bytes));
        String self = "Lfixtures/Outlining;";
        Map<String, String> bodies = Map.of(
                "mixed(JIDLjava/lang/String;)J", "mixed(" + self + "JIDLjava/lang/String;" + MARKER + ")J",
                "locked(I)I", "locked(" + self + "I" + MARKER + ")I",
                "throwsAt(I)I", "throwsAt(I" + MARKER + ")I",
                "bump([I)V", "bump([I" + MARKER + ")V",
                "joined([Ljava/lang/String;)Ljava/lang/String;", "joined(" + self + "[Ljava/lang/String;" + MARKER + ")Ljava/lang/String;",
                "tree(I)D", "tree(I" + MARKER + ")D",
                "callEach(ILjava/lang/Runnable;)I", "callEach(ILjava/lang/Runnable;" + MARKER + ")I");
        for (Map.Entry<String, String> e : bodies.entrySet()) {
            MethodNode wrapper = after.get(e.getKey()), body = after.get(e.getValue());
            assertNotNull(body, "a body for " + e.getKey() + " in " + after.keySet());
            assertEquals(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, body.access, e.getValue());
            assertEquals(before.get(e.getKey()).access, wrapper.access, "the wrapper keeps the method's flags: " + e.getKey());
            // called by a plain invokestatic, and too large for C2 to inline into the wrapper
            String bodyName = e.getValue().substring(0, e.getValue().indexOf('(')), bodyDesc = e.getValue().substring(bodyName.length());
            long calls = java.util.stream.StreamSupport.stream(wrapper.instructions.spliterator(), false)
                    .filter(i -> i instanceof org.objectweb.asm.tree.MethodInsnNode m && m.getOpcode() == Opcodes.INVOKESTATIC
                            && m.owner.equals("fixtures/Outlining") && m.name.equals(bodyName) && m.desc.equals(bodyDesc))
                    .count();
            assertEquals(1, calls, "one static call of the body in " + e.getKey());
            assertTrue(MethodRewriter.codeSize(body.instructions) >= MethodRewriter.BODY_MIN_SIZE,
                    e.getValue() + ": " + MethodRewriter.codeSize(body.instructions) + " bytes, inlined by C2 at most " + MethodRewriter.INLINE_SIZE);
        }
        assertTrue((after.get("locked(I)I").access & Opcodes.ACC_SYNCHRONIZED) != 0, "the wrapper holds the lock");
        assertEquals(before.size() + bodies.size(), after.size(), "one body per method with nested loops, none else: " + after.keySet());
        assertFalse(after.containsKey("single(I" + MARKER + ")I"), "one loop, none inside it: no body");
        assertFalse(after.containsKey("<init>(I" + MARKER + ")V"), "a constructor is never outlined");
    }

    @Test
    void outlinedMethodsReturnWhatPlainOnesDoWithExactCounts() throws Throwable {
        Instrumented in = Instrumented.load("fixtures.Outlining", Instrumented.Sites.INDY);
        fixtures.Outlining plain = new fixtures.Outlining(3);
        Object o = in.loaded.getConstructor(int.class).newInstance(3);
        Class<?> c = in.loaded;
        assertEquals(plain.mixed(10L, 50, 1.5, "ab"), call(o, c, "mixed", new Class<?>[] {long.class, int.class, double.class, String.class},
                10L, 50, 1.5, "ab"));
        assertEquals(plain.locked(100), call(o, c, "locked", new Class<?>[] {int.class}, 100));
        int[] a = {1, 2, 3}, b = {1, 2, 3};
        fixtures.Outlining.bump(a);
        call(null, c, "bump", new Class<?>[] {int[].class}, (Object) b);
        assertArrayEquals(a, b);
        String[] parts = {"x", "y"};
        assertEquals(plain.joined(parts), call(o, c, "joined", new Class<?>[] {String[].class}, (Object) parts));
        assertEquals(fixtures.Outlining.tree(6), call(null, c, "tree", new Class<?>[] {int.class}, 6));
        assertEquals(plain.noLoop(5), call(o, c, "noLoop", new Class<?>[] {int.class}, 5));

        assertEquals(1, in.stat(O + "mixed(JIDLjava/lang/String;)J", Stats.CALLS));
        assertEquals(50, in.stat(O + "mixed(JIDLjava/lang/String;)J#loop1", Stats.ITERATIONS));
        assertEquals(1, in.stat(O + "locked(I)I", Stats.CALLS));
        assertEquals(100, in.stat(O + "locked(I)I#loop1", Stats.ITERATIONS));
        assertEquals(3, in.stat(O + "bump([I)V#loop1", Stats.ITERATIONS));
        assertEquals(127, in.stat(O + "tree(I)D", Stats.CALLS), "every call of the recursion, through the wrapper");
        assertEquals(63, in.stat(O + "tree(I)D#loop1", Stats.CALLS), "the loop of every call but the leaves");
        assertEquals(1, in.stat(O + "noLoop(I)I", Stats.CALLS));
        assertEquals(0, in.stat(O + "tree(I)D", Stats.THROWS));
    }

    @Test
    void anExceptionInTheBodyLeavesThroughTheMethodWithItsNameAndLines() throws Throwable {
        Instrumented in = Instrumented.load("fixtures.Outlining", Instrumented.Sites.INDY);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> call(null, in.loaded, "throwsAt", new Class<?>[] {int.class}, 5));
        assertEquals("at 5", e.getMessage());
        StackTraceElement[] st = e.getStackTrace();
        assertEquals("throwsAt", st[0].getMethodName(), "the body's frame: " + List.of(st));
        assertEquals(fixtures.Outlining.THROW_LINE, st[0].getLineNumber());
        assertEquals("throwsAt", st[1].getMethodName(), "then the method's: " + List.of(st));
        assertEquals(fixtures.Outlining.THROW_LINE - 3, st[1].getLineNumber(), "at the method's first line");
        assertEquals(1, in.stat(O + "throwsAt(I)I", Stats.CALLS));
        assertEquals(1, in.stat(O + "throwsAt(I)I", Stats.THROWS));
        assertEquals(2, in.stat(O + "throwsAt(I)I#loop1", Stats.CALLS));
        assertEquals(10, in.stat(O + "throwsAt(I)I#loop1", Stats.ITERATIONS), "the loop closed by the body's catch-all too");
        assertEquals(1, in.stat(O + "throwsAt(I)I#loop0", Stats.CALLS));
    }

    /**
     * Where {@code callEach} runs, seen from inside: "own code" when it has one frame (the method
     * ran its own code), "body" when the outlined body's frame (its descriptor ends with the
     * marker) lies right above the method's: called directly, no frame between.
     */
    private static String howCalled() {
        return StackWalker.getInstance(Set.of(StackWalker.Option.SHOW_HIDDEN_FRAMES)).walk(frames -> {
            List<StackWalker.StackFrame> f = frames.toList();
            int body = -1;
            for (int i = 0; i < f.size(); i++) {
                if (!f.get(i).getClassName().equals("fixtures.Outlining") || !f.get(i).getMethodName().equals("callEach")) continue;
                boolean isBody = f.get(i).getDescriptor().endsWith(MARKER + ")I");
                if (body < 0 && isBody) body = i;
                else if (body < 0) return "own code";
                else return i == body + 1 && !isBody ? "body" : "frames between: " + f;
            }
            return "not found";
        });
    }

    @Test
    void aTimedActivationRunsTheBodyAnyOtherTheMethodsOwnCode() throws Throwable {
        Instrumented in = Instrumented.load("fixtures.Outlining", Instrumented.Sites.INDY);
        int id = in.id(O + "callEach(ILjava/lang/Runnable;)I");
        List<String> seen = new ArrayList<>();
        Runnable r = () -> seen.add(howCalled());
        Class<?>[] t = {int.class, Runnable.class};
        assertEquals(1, call(null, in.loaded, "callEach", t, 2, r));
        Hyprof.setOn(id, false);
        assertEquals(1, call(null, in.loaded, "callEach", t, 2, r));
        Hyprof.setOn(id, true);
        assertEquals(1, call(null, in.loaded, "callEach", t, 2, r));
        Hyprof.countOnly(id);
        assertEquals(1, call(null, in.loaded, "callEach", t, 2, r));
        assertEquals(List.of("body", "body", "own code", "own code", "body", "body", "own code", "own code"), seen,
                "timed, off, timed again, count-only");
        assertEquals(2, in.stat(O + "callEach(ILjava/lang/Runnable;)I", Stats.CALLS), "the timed calls");
        assertEquals(1, in.stat(O + "callEach(ILjava/lang/Runnable;)I", Stats.COUNT_ONLY_CALLS), "the counted one");
    }

    @Test
    void interfaceMethodsGetPrivateStaticBodies() throws Throwable {
        Instrumented in = Instrumented.load("fixtures.Summer", Instrumented.Sites.INDY);
        Map<String, MethodNode> after = byKey(node(in.bytes));
        MethodNode body = after.get("sum(Lfixtures/Summer;[I" + MARKER + ")I");
        assertNotNull(body, "the default method's body: " + after.keySet());
        assertEquals(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, body.access);
        assertNotNull(after.get("count([II" + MARKER + ")I"), "the static method's body: " + after.keySet());
        // a class implementing the rewritten interface, in a loader that sees it
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "fixtures/SummerImpl", null, "java/lang/Object", new String[] {"fixtures/Summer"});
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        byte[] impl = cw.toByteArray();
        ClassLoader l = new ClassLoader(in.loaded.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                if (!name.equals("fixtures.SummerImpl")) throw new ClassNotFoundException(name);
                return defineClass(name, impl, 0, impl.length);
            }
        };
        Object s = l.loadClass("fixtures.SummerImpl").getConstructor().newInstance();
        int[] a = {1, 2, 3, 2};
        assertEquals(8, call(s, in.loaded, "sum", new Class<?>[] {int[].class}, (Object) a));
        assertEquals(2, call(null, in.loaded, "count", new Class<?>[] {int[].class, int.class}, a, 2));
        assertEquals(1, in.stat("fixtures.Summer.sum([I)I", Stats.CALLS));
        assertEquals(4, in.stat("fixtures.Summer.sum([I)I#loop1", Stats.ITERATIONS));
        assertEquals(1, in.stat("fixtures.Summer.count([II)I", Stats.CALLS));
    }

    /**
     * The agent rewrites a class first without loop code and, when a loop probe goes on, again
     * with it (a retransformation, which cannot add or remove a method): both rewrites must have
     * the same methods.
     */
    @Test
    void bothOfTheAgentsRewritesHaveTheSameMethods() throws Exception {
        for (String c : new String[] {"fixtures.Outlining", "fixtures.Summer", "fixtures.Loops", "fixtures.Workload", "fixtures.NearInlineSize"}) {
            byte[] original = Instrumented.classFile(c);
            List<Set<String>> sets = new ArrayList<>();
            for (boolean loopCode : new boolean[] {false, true}) {
                ClassRewriter.Result r = ClassRewriter.forLoader(getClass().getClassLoader(), true).loopCode(loopCode)
                        .rewrite(original, new ProbeIds()::next);
                Set<String> methods = new TreeSet<>();
                for (MethodNode mn : node(r.bytes()).methods) methods.add(mn.access + " " + mn.name + mn.desc);
                sets.add(methods);
                Instrumented.verify(r.bytes());
            }
            assertEquals(sets.get(0), sets.get(1), c);
            assertTrue(sets.get(0).stream().anyMatch(m -> m.contains(MARKER)), c + " has outlined bodies");
        }
    }

    /** Asked not to outline ({@link ClassRewriter#outline}), or with static sites, a class gets no bodies. */
    @Test
    void noBodiesWithoutOutliningOrWithStaticSites() throws Exception {
        byte[] original = Instrumented.classFile("fixtures.Outlining");
        for (ClassRewriter rw : new ClassRewriter[] {
                ClassRewriter.forLoader(getClass().getClassLoader(), true).outline(false),
                ClassRewriter.forLoader(getClass().getClassLoader(), true).staticSites(true)}) {
            byte[] bytes = rw.rewrite(original, new ProbeIds()::next).bytes();
            for (MethodNode mn : node(bytes).methods) assertFalse(mn.desc.contains(MARKER), mn.name + mn.desc);
            Instrumented.verify(bytes);
        }
    }
}
