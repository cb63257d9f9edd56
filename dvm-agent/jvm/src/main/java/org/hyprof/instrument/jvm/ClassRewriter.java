package org.hyprof.instrument.jvm;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;
import org.hyprof.config.Classifier;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.config.SkippedMethod;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Instruments one class file: every method with code gets entry/exit/exceptional-exit probes and
 * loop probes ({@link MethodRewriter}); methods that cannot be rewritten are left unchanged and
 * reported. Thread-safe if {@code ids} is.
 */
public final class ClassRewriter {
    /**
     * @param bytes    the rewritten class, or null when nothing changed
     * @param probes   probes placed (method probes and loop probes)
     * @param skipped  methods left unchanged, with reasons
     */
    public record Result(byte[] bytes, String className, List<ProbeInfo> probes, List<SkippedMethod> skipped) {}

    private final TypeHierarchy hierarchy;
    private final boolean loops;
    private boolean hybrid;
    private boolean staticSites;
    private Piece piece;

    /**
     * Hybrid runs: native methods get a body that calls the emulator (and probes like any other
     * method), and System.loadLibrary/load calls go to the emulator.
     */
    public ClassRewriter hybrid(boolean on) {
        this.hybrid = on;
        return this;
    }

    /**
     * Probe entries as {@code invokestatic Probe.begin/loopBegin} instead of {@code invokedynamic}
     * sites (which class files older than Java 7 always get): to measure one against the other.
     */
    public ClassRewriter staticSites(boolean on) {
        this.staticSites = on;
        return this;
    }

    /**
     * False: loops get their probe ids and manifest entries but no code (see
     * {@link MethodRewriter#loopCode}); the agent rewrites the class again, with the same ids, when
     * one of its loop probes is switched on.
     */
    public ClassRewriter loopCode(boolean on) {
        this.loopCode = on;
        return this;
    }

    private boolean loopCode = true;

    /**
     * Whether methods with nested loops get an outlined body (default true; invokedynamic sites
     * only): a copy of the method's code that its timed activations run, called through a site the
     * JIT keeps, so the loops compile without the method's clock reads; other activations run the
     * method's own code ({@link MethodRewriter#outline}, {@code org.hyprof.runtime.Outlined}).
     * Interfaces need class files of Java 8 or later (private static interface methods).
     */
    public ClassRewriter outline(boolean on) {
        this.outline = on;
        return this;
    }

    private boolean outline = true;

    /** Whether {@code cn}'s methods with nested loops get outlined bodies ({@link #outline}; interfaces since class file 52). */
    private boolean outlines(ClassNode cn, boolean indy) {
        boolean itf = (cn.access & Opcodes.ACC_INTERFACE) != 0;
        return outline && indy && (!itf || (cn.version & 0xFFFF) >= Opcodes.V1_8);
    }

    /**
     * Ids handed out are local to {@code piece} (a jar instrumented on its own): the code adds the
     * piece's base, read from its holder class at run time ({@link Piece}). Null (the default):
     * ids of the one namespace, as the agent hands them out. Not with {@link #hybrid} (whose native
     * bridges pass their id as a constant; hybrid runs use the agent).
     */
    ClassRewriter piece(Piece piece) {
        this.piece = piece;
        return this;
    }

    /**
     * @param classBytes internal name → class bytes (for frame computation; null when unknown)
     * @param loops      place loop probes
     */
    public ClassRewriter(Function<String, byte[]> classBytes, boolean loops) {
        this.hierarchy = new TypeHierarchy(classBytes);
        this.loops = loops;
    }

    /** A rewriter that looks classes up through a class loader's resources. */
    public static ClassRewriter forLoader(ClassLoader loader, boolean loops) {
        return new ClassRewriter(TypeHierarchy.fromLoader(loader), loops);
    }

    /** A copy of {@code mn} (its own instructions and labels), to rewrite again from the original. */
    private static MethodNode copy(MethodNode mn) {
        MethodNode c = new MethodNode(Opcodes.ASM9, mn.access, mn.name, mn.desc, mn.signature,
                mn.exceptions.toArray(new String[0]));
        mn.accept(c);
        return c;
    }

    /**
     * Rewrites method {@code m} of {@code cn} in place, and once more from its original in a smaller
     * form where the probes' code pushes it past a limit of HotSpot's JIT that the original is
     * within: past {@link MethodRewriter#INLINE_SIZE} (hot callees inlined), without adding
     * count-only loops up in the code, unless a loop lies inside another; past {@link MethodRewriter#HUGE_METHOD_LIMIT} (compiled at
     * all), that, then the loops without code (listed, with their ids, and the reason in
     * {@code loopSkips}). A method the JIT stops inlining or compiling runs several times slower
     * with every probe off. The same code gives the same loops in the same order, so a rewrite
     * again gets the same ids.
     *
     * <p>A method with nested loops that {@link #outline} applies to also gets its outlined body: the
     * original rewritten once more in the variant kept, as a body ({@link MethodRewriter#bodyOnly},
     * {@link MethodRewriter#asBody}). Where the dispatch to it pushes the method past the limit
     * (and leaving the adding-up out is not enough), the method is rewritten without the dispatch
     * and keeps the body unused.
     */
    private Rewritten rewriteMethod(ClassNode cn, int m, boolean indy, IntSupplier ids) throws MethodRewriter.Skip {
        MethodNode mn = cn.methods.get(m);
        MethodNode original = (loops && loopCode) || outlines(cn, indy) ? copy(mn) : null;
        int originalSize = MethodRewriter.codeSize(mn.instructions);
        List<Integer> handed = new ArrayList<>();
        MethodRewriter first = rewriter(cn, mn, indy);
        MethodRewriter.Placed placed = first.rewrite(() -> { int id = ids.getAsInt(); handed.add(id); return id; }, loops);
        int limit = originalSize <= MethodRewriter.INLINE_SIZE ? MethodRewriter.INLINE_SIZE
                : originalSize <= MethodRewriter.HUGE_METHOD_LIMIT ? MethodRewriter.HUGE_METHOD_LIMIT : Integer.MAX_VALUE;
        boolean outlined = placed.outlined(); // qualifies for a body, whichever variant is kept
        UnaryOperator<MethodRewriter> how = UnaryOperator.identity(); // the variant kept: the body is rewritten the same way
        int size = MethodRewriter.codeSize(mn.instructions);
        if (original != null && size > limit) {
            // smaller variants in order: without adding up, without the dispatch, without both; past
            // HugeMethodLimit, without loop code; the first within the limit is kept
            List<UnaryOperator<MethodRewriter>> variants = new ArrayList<>();
            boolean addUpOff = first.addedUp() && !first.nestedLoops(); // loops inside loops: adding up keeps their many activations cheap
            if (addUpOff) variants.add(r -> r.addUp(false));
            if (outlined) variants.add(r -> r.outline(false));
            if (addUpOff && outlined) variants.add(r -> r.addUp(false).outline(false));
            UnaryOperator<MethodRewriter> noLoopCode = r -> r.loopCode(false);
            if (limit == MethodRewriter.HUGE_METHOD_LIMIT && loops && loopCode && !placed.loops().isEmpty()) variants.add(noLoopCode);
            for (UnaryOperator<MethodRewriter> v : variants) {
                MethodNode c = copy(original);
                MethodRewriter.Placed again = rewriteAgain(cn, c, indy, handed, v);
                if (again == null || (v != noLoopCode && MethodRewriter.codeSize(c.instructions) > limit)) continue;
                cn.methods.set(m, c);
                how = v;
                placed = again;
                if (v == noLoopCode) {
                    List<String> skips = new ArrayList<>(again.loopSkips());
                    skips.add(again.loops().size() + " loop(s) without code: with it the method would be about " + size
                            + " bytes of bytecode (" + originalSize + " without), past the " + MethodRewriter.HUGE_METHOD_LIMIT
                            + " HotSpot compiles (HugeMethodLimit)");
                    placed = new MethodRewriter.Placed(again.methodId(), again.loops(), skips, again.outlined());
                }
                break;
            }
        }
        if (!outlined) return new Rewritten(placed, null);
        // the body: made for every method that qualifies, so both of the agent's rewrites (without
        // and with loop code) have the same methods, as a retransformation requires; a variant
        // without the dispatch keeps it unused
        UnaryOperator<MethodRewriter> variant = how;
        MethodNode b = copy(original);
        if (rewriteAgain(cn, b, indy, handed, r -> variant.apply(r).bodyOnly(true)) == null) return new Rewritten(placed, null);
        return new Rewritten(placed, rewriter(cn, b, indy).asBody());
    }

    /** A rewritten method and its outlined body (null: none). */
    private record Rewritten(MethodRewriter.Placed placed, MethodNode body) {}

    /** A rewriter of {@code mn} set up as this class rewriter is. */
    private MethodRewriter rewriter(ClassNode cn, MethodNode mn, boolean indy) {
        return new MethodRewriter(cn.name, mn, indy, piece).loopCode(loopCode).outline(outlines(cn, indy))
                .itf((cn.access & Opcodes.ACC_INTERFACE) != 0);
    }

    /** {@code mn} (an original) rewritten as {@code how} says with the ids {@code handed} out before; null if it asks for others. */
    private MethodRewriter.Placed rewriteAgain(ClassNode cn, MethodNode mn, boolean indy, List<Integer> handed,
                                               UnaryOperator<MethodRewriter> how) {
        int[] next = {0};
        try {
            MethodRewriter.Placed p = how.apply(rewriter(cn, mn, indy)).rewrite(() -> handed.get(next[0]++), loops);
            return next[0] == handed.size() ? p : null;
        } catch (MethodRewriter.Skip | IndexOutOfBoundsException e) { // the first rewrite passed: not expected
            return null;
        }
    }

    /** Rewrites {@code classBytes}; {@code ids} hands out probe ids. */
    public Result rewrite(byte[] classBytes, IntSupplier ids) {
        if (hybrid && piece != null) throw new IllegalStateException("hybrid rewriting of a piece");
        Set<String> tooLarge = new HashSet<>();
        while (true) {
            ClassNode cn = new ClassNode();
            new ClassReader(classBytes).accept(cn, ClassReader.SKIP_FRAMES);
            String dotted = cn.name.replace('/', '.');
            if ((cn.access & Opcodes.ACC_MODULE) != 0)
                return new Result(null, dotted, List.of(), List.of());
            List<ProbeInfo> probes = new ArrayList<>();
            List<SkippedMethod> skipped = new ArrayList<>();
            String superName = cn.superName == null ? null : cn.superName.replace('/', '.');
            List<String> ifaces = cn.interfaces.stream().map(s -> s.replace('/', '.')).toList();
            String source = cn.sourceFile == null ? "" : cn.sourceFile;
            Set<String> threadBodies = threadEntryBodies(cn);
            boolean indy = !staticSites && (cn.version & 0xFFFF) >= Opcodes.V1_7; // invokedynamic since class file 51
            List<MethodNode> bodies = new ArrayList<>();
            for (int m = 0; m < cn.methods.size(); m++) {
                MethodNode mn = cn.methods.get(m);
                if ((mn.access & Opcodes.ACC_ABSTRACT) != 0) continue;
                IntSupplier methodIds = ids;
                if ((mn.access & Opcodes.ACC_NATIVE) != 0) {
                    if (!hybrid) {
                        skipped.add(new SkippedMethod(dotted, mn.name, mn.desc, "native method (runs in bb-tracer in a hybrid run)"));
                        continue;
                    }
                    int nativeId = ids.getAsInt(); // the bridge passes the method's own probe id
                    NativeBridge.bridge(cn.name, mn, nativeId);
                    boolean[] first = {true};
                    methodIds = () -> { if (first[0]) { first[0] = false; return nativeId; } return ids.getAsInt(); };
                }
                if (hybrid) NativeBridge.redirectLoads(mn);
                if ((mn.access & Opcodes.ACC_BRIDGE) != 0) {
                    skipped.add(new SkippedMethod(dotted, mn.name, mn.desc, "bridge method (its target has probes)"));
                    continue;
                }
                if (tooLarge.contains(mn.name + mn.desc)) {
                    skipped.add(new SkippedMethod(dotted, mn.name, mn.desc, "method too large with probes (64 KiB code limit)"));
                    continue;
                }
                AbstractInsnNode[] before = mn.instructions.toArray();
                try {
                    Rewritten rw = rewriteMethod(cn, m, indy, methodIds);
                    MethodRewriter.Placed placed = rw.placed();
                    mn = cn.methods.get(m);
                    if (rw.body() != null) bodies.add(rw.body());
                    Resolution res = Classifier.classify(dotted, superName, ifaces, mn.name, mn.desc,
                            (mn.access & Opcodes.ACC_STATIC) != 0, threadBodies.contains(mn.name + mn.desc));
                    probes.add(new ProbeInfo(placed.methodId(), false, res, dotted, mn.name, mn.desc, -1, -1,
                            MethodRewriter.firstLine(before), source));
                    int k = 0;
                    for (int[] l : placed.loops()) {
                        probes.add(new ProbeInfo(l[0], true, Resolution.LOOP, dotted, mn.name, mn.desc,
                                placed.methodId(), k++, l[1], source));
                    }
                    for (String s : placed.loopSkips())
                        skipped.add(new SkippedMethod(dotted, mn.name, mn.desc, s));
                } catch (MethodRewriter.Skip s) {
                    skipped.add(new SkippedMethod(dotted, mn.name, mn.desc, s.getMessage()));
                }
            }
            cn.methods.addAll(bodies); // after the loop over the methods: bodies are not rewritten again
            if (probes.isEmpty()) return new Result(null, dotted, probes, skipped);
            ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
                @Override
                protected String getCommonSuperClass(String a, String b) {
                    return hierarchy.commonSuperClass(a, b);
                }
            };
            try {
                cn.accept(cw);
                return new Result(cw.toByteArray(), dotted, probes, skipped);
            } catch (MethodTooLargeException e) {
                if (!tooLarge.add(e.getMethodName() + e.getDescriptor())) throw e;
            } catch (ClassTooLargeException e) {
                List<SkippedMethod> all = new ArrayList<>();
                for (MethodNode mn : cn.methods)
                    all.add(new SkippedMethod(dotted, mn.name, mn.desc, "class constant pool too large with probes"));
                return new Result(null, dotted, List.of(), all);
            }
        }
    }

    /**
     * Pass before rewriting (reads only): the methods of this class (name + descriptor) that are
     * the implementation of a lambda or method reference bound by {@code invokedynamic} through
     * {@code LambdaMetafactory} to a thread-entry functional interface
     * ({@link Classifier#isThreadEntryBinding}). The bootstrap arguments name the erased SAM type
     * and the implementation handle; the consumer is the first method invoked after the
     * {@code invokedynamic} (within a few instructions that push further arguments). Limit: a
     * method reference to another class's method ({@code Other::work}) is not followed, since that
     * class is rewritten on its own.
     */
    static Set<String> threadEntryBodies(ClassNode cn) {
        Set<String> bodies = new HashSet<>();
        for (MethodNode mn : cn.methods) {
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                if (!(i instanceof InvokeDynamicInsnNode indy) || !indy.bsm.getOwner().equals("java/lang/invoke/LambdaMetafactory")
                        || indy.bsmArgs.length < 3 || !(indy.bsmArgs[0] instanceof Type sam) || !(indy.bsmArgs[1] instanceof Handle impl))
                    continue;
                if (!impl.getOwner().equals(cn.name)) continue;
                String samInterface = Type.getReturnType(indy.desc).getClassName();
                if (Classifier.isThreadEntryBinding(samInterface, indy.name, sam.getDescriptor(), consumer(indy)))
                    bodies.add(impl.getName() + impl.getDesc());
            }
        }
        return bodies;
    }

    /** The method (dotted owner + "." + name) the value pushed by {@code at} is passed to next, or null. */
    private static String consumer(AbstractInsnNode at) {
        int budget = 8;
        for (AbstractInsnNode i = at.getNext(); i != null && budget > 0; i = i.getNext()) {
            if (i.getOpcode() < 0) continue; // labels, line numbers, frames
            if (i instanceof MethodInsnNode m) return m.owner.replace('/', '.') + "." + m.name;
            if (i instanceof InvokeDynamicInsnNode || i instanceof JumpInsnNode || i.getOpcode() == Opcodes.ATHROW) return null;
            budget--;
        }
        return null;
    }

}
