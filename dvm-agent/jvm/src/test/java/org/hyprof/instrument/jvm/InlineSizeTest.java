package org.hyprof.instrument.jvm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.hyprof.instrument.ProbeIds;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Stats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Methods the JIT would inline stay inlinable: where adding count-only loop activations up in the
 * code would push a method past HotSpot's inline size ({@link MethodRewriter#INLINE_SIZE}), and no
 * loop of it lies in another, it is rewritten without (fixtures.NearInlineSize), with the same
 * probe ids and exact counts.
 */
class InlineSizeTest {
    static final String N = "fixtures.NearInlineSize.";

    @BeforeEach
    void start() {
        Instrumented.startRuntime();
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    static ClassRewriter.Result rewrite(byte[] original, boolean staticSites) {
        return ClassRewriter.forLoader(InlineSizeTest.class.getClassLoader(), true).staticSites(staticSites)
                .rewrite(original, new ProbeIds()::next);
    }

    /** Each method's {@code code_length} in a class file, by name and descriptor (read as the JVM spec lays it out). */
    static Map<String, Integer> codeLengths(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        in.readInt(); // magic
        in.readInt(); // minor, major
        int cpCount = in.readUnsignedShort();
        String[] utf8 = new String[cpCount];
        for (int i = 1; i < cpCount; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
                case 5, 6 -> { in.skipBytes(8); i++; }
                case 7, 8, 16, 19, 20 -> in.skipBytes(2);
                case 15 -> in.skipBytes(3);
                default -> throw new IOException("constant pool tag " + tag);
            }
        }
        in.skipBytes(6); // access, this, super
        in.skipBytes(2 * in.readUnsignedShort()); // interfaces
        for (int f = in.readUnsignedShort(); f > 0; f--) {
            in.skipBytes(6);
            for (int a = in.readUnsignedShort(); a > 0; a--) { in.skipBytes(2); in.skipBytes(in.readInt()); }
        }
        Map<String, Integer> lengths = new HashMap<>();
        for (int m = in.readUnsignedShort(); m > 0; m--) {
            in.skipBytes(2);
            String name = utf8[in.readUnsignedShort()] + utf8[in.readUnsignedShort()];
            for (int a = in.readUnsignedShort(); a > 0; a--) {
                String attr = utf8[in.readUnsignedShort()];
                int length = in.readInt();
                if (attr.equals("Code")) {
                    in.skipBytes(4); // max stack, max locals
                    int code = in.readInt();
                    lengths.put(name, code);
                    in.skipBytes(length - 8);
                } else {
                    in.skipBytes(length);
                }
            }
        }
        return lengths;
    }

    private static ClassNode node(byte[] bytes) {
        ClassNode cn = new ClassNode();
        new ClassReader(bytes).accept(cn, 0);
        return cn;
    }

    private static int handOvers(MethodNode mn) {
        int n = 0;
        for (AbstractInsnNode i : mn.instructions)
            if (i instanceof MethodInsnNode m && m.owner.equals(MethodRewriter.LOOPS) && m.name.equals("loopsCounted")) n++;
        return n;
    }

    /** The estimate the rewriter decides by is the class file's code length, before and after the rewrite. */
    @Test
    void codeSizeIsTheClassFilesCodeLength() throws IOException {
        for (String c : new String[] {"fixtures.NearInlineSize", "fixtures.Loops", "fixtures.Workload"}) {
            byte[] original = Instrumented.classFile(c);
            for (byte[] bytes : new byte[][] {original, rewrite(original, false).bytes(), rewrite(original, true).bytes()}) {
                Map<String, Integer> lengths = codeLengths(bytes);
                for (MethodNode mn : node(bytes).methods) {
                    if (mn.instructions.size() == 0) continue;
                    assertEquals(lengths.get(mn.name + mn.desc), MethodRewriter.codeSize(mn.instructions), c + "." + mn.name + mn.desc);
                }
            }
        }
    }

    @Test
    void aMethodTheJitWouldInlineIsRewrittenWithoutAddingLoopsUp() throws Exception {
        byte[] original = Instrumented.classFile("fixtures.NearInlineSize");
        Map<String, Integer> before = codeLengths(original);
        ClassRewriter.Result indy = rewrite(original, false);
        Map<String, Integer> after = codeLengths(indy.bytes());
        Map<String, MethodNode> methods = new HashMap<>();
        for (MethodNode mn : node(indy.bytes()).methods)
            if (!mn.desc.contains(MethodRewriter.MARKER + ")")) methods.put(mn.name, mn); // the methods, not their bodies

        assertTrue(before.get("near(I)I") <= MethodRewriter.INLINE_SIZE, "near is inlinable plain: " + before);
        assertTrue(after.get("near(I)I") <= MethodRewriter.INLINE_SIZE, "and with its probes: " + after);
        assertEquals(0, handOvers(methods.get("near")), "near's count-only loops go to loopEnd");
        assertTrue(handOvers(methods.get("small")) > 0, "small's are added up: it stays small either way");
        assertTrue(before.get("nearNested(I)I") <= MethodRewriter.INLINE_SIZE, "nearNested is inlinable plain: " + before);
        assertTrue(after.get("nearNested(I)I") > MethodRewriter.INLINE_SIZE, "not with adding up: " + after);
        assertTrue(handOvers(methods.get("nearNested")) > 0, "its inner loop's many activations are added up all the same");
        assertTrue(before.get("large(I)I") > MethodRewriter.INLINE_SIZE, "large is too large plain: " + before);
        assertTrue(handOvers(methods.get("large")) > 0, "large's are added up: the JIT does not inline it anyway");
        assertEquals(rewrite(original, true).probes(), indy.probes(), "the same probes and ids as without invokedynamic");
        assertTrue(indy.skipped().isEmpty(), "nothing skipped: " + indy.skipped());
        Instrumented.verify(indy.bytes());
    }

    /** near's loop counted exactly in the form it got, timed and count-only. */
    @Test
    void itsLoopIsCountedExactly() throws Exception {
        Instrumented i = Instrumented.load("fixtures.NearInlineSize", Instrumented.Sites.INDY);
        java.lang.reflect.Method near = i.loaded.getMethod("near", int.class);
        assertEquals(fixtures.NearInlineSize.near(7), near.invoke(null, 7));
        assertEquals(1, i.stat(N + "near(I)I#loop0", Stats.CALLS));
        assertEquals(7, i.stat(N + "near(I)I#loop0", Stats.ITERATIONS));
        Hyprof.countOnly(i.id(N + "near(I)I#loop0"));
        for (int n = 0; n < 5; n++) assertEquals(fixtures.NearInlineSize.near(n), near.invoke(null, n));
        assertEquals(1, i.stat(N + "near(I)I#loop0", Stats.CALLS), "timed entries");
        assertEquals(5, i.stat(N + "near(I)I#loop0", Stats.COUNT_ONLY_CALLS), "count-only entries");
        assertEquals(7 + 0 + 1 + 2 + 3 + 4, i.stat(N + "near(I)I#loop0", Stats.ITERATIONS));
        assertEquals(6, i.stat(N + "near(I)I", Stats.CALLS));
    }

    /**
     * A class {@code gen.ManyLoops} whose {@code many(I)I} runs {@code loops} loops one after the
     * other ({@code for (i = 0; i < n; i++) s += i ^ k}), about 17 bytes each.
     */
    static byte[] manyLoops(int loops) {
        org.objectweb.asm.ClassWriter cw = new org.objectweb.asm.ClassWriter(org.objectweb.asm.ClassWriter.COMPUTE_FRAMES);
        cw.visit(org.objectweb.asm.Opcodes.V17, org.objectweb.asm.Opcodes.ACC_PUBLIC, "gen/ManyLoops", null, "java/lang/Object", null);
        org.objectweb.asm.MethodVisitor mv = cw.visitMethod(org.objectweb.asm.Opcodes.ACC_PUBLIC | org.objectweb.asm.Opcodes.ACC_STATIC,
                "many", "(I)I", null, null);
        mv.visitCode();
        mv.visitInsn(org.objectweb.asm.Opcodes.ICONST_0);
        mv.visitVarInsn(org.objectweb.asm.Opcodes.ISTORE, 1); // s
        for (int k = 0; k < loops; k++) {
            org.objectweb.asm.Label head = new org.objectweb.asm.Label(), out = new org.objectweb.asm.Label();
            mv.visitInsn(org.objectweb.asm.Opcodes.ICONST_0);
            mv.visitVarInsn(org.objectweb.asm.Opcodes.ISTORE, 2); // i
            mv.visitLabel(head);
            mv.visitVarInsn(org.objectweb.asm.Opcodes.ILOAD, 2);
            mv.visitVarInsn(org.objectweb.asm.Opcodes.ILOAD, 0);
            mv.visitJumpInsn(org.objectweb.asm.Opcodes.IF_ICMPGE, out);
            mv.visitVarInsn(org.objectweb.asm.Opcodes.ILOAD, 1);
            mv.visitVarInsn(org.objectweb.asm.Opcodes.ILOAD, 2);
            mv.visitIntInsn(org.objectweb.asm.Opcodes.SIPUSH, k);
            mv.visitInsn(org.objectweb.asm.Opcodes.IXOR);
            mv.visitInsn(org.objectweb.asm.Opcodes.IADD);
            mv.visitVarInsn(org.objectweb.asm.Opcodes.ISTORE, 1);
            mv.visitIincInsn(2, 1);
            mv.visitJumpInsn(org.objectweb.asm.Opcodes.GOTO, head);
            mv.visitLabel(out);
        }
        mv.visitVarInsn(org.objectweb.asm.Opcodes.ILOAD, 1);
        mv.visitInsn(org.objectweb.asm.Opcodes.IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /**
     * A method that loop code would push past the 8,000 bytes HotSpot compiles at all keeps its
     * loops listed with their ids, without code, and says why; with fewer loops the code stays.
     */
    @Test
    void aMethodTheJitWouldCompileKeepsItsLoopsWithoutCodeWhereTheirsWouldStopThat() throws Exception {
        byte[] huge = manyLoops(300);
        assertTrue(codeLengths(huge).get("many(I)I") <= MethodRewriter.HUGE_METHOD_LIMIT, "compiled plain");
        for (boolean staticSites : new boolean[] {false, true}) {
            ClassRewriter.Result r = rewrite(huge, staticSites);
            assertTrue(codeLengths(r.bytes()).get("many(I)I") <= MethodRewriter.HUGE_METHOD_LIMIT, "and with its probes");
            assertEquals(300, r.probes().stream().filter(org.hyprof.config.ProbeInfo::loop).count(), "every loop listed");
            assertEquals(1, r.skipped().size(), "one line says why: " + r.skipped());
            assertTrue(r.skipped().get(0).reason().contains("HugeMethodLimit"), r.skipped().get(0).reason());
            assertEquals(0, ClassRewriterTest.loopSites(r.bytes()), "no loop code");
            Instrumented.verify(r.bytes());
        }
        ClassRewriter.Result fewer = rewrite(manyLoops(20), false);
        assertTrue(fewer.skipped().isEmpty(), "20 loops keep their code: " + fewer.skipped());
        assertTrue(ClassRewriterTest.loopSites(fewer.bytes()) > 0);
    }
}
