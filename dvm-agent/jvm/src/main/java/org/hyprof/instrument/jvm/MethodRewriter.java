package org.hyprof.instrument.jvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import org.hyprof.instrument.loops.LoopFinder;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Rewrites one method (ASM tree API) in passes, each keeping one invariant:
 * <ol>
 * <li><b>analysis</b> — the instruction-level control-flow graph (normal and exception edges) and
 *     the constructor's {@code super()}/{@code this()} call come from ASM's {@link Analyzer}; the
 *     method is left alone if the analyzer rejects it.</li>
 * <li><b>loop probes</b> — code is placed on CFG <em>edges</em>: on a fall-through edge it goes
 *     between the two instructions, on a jump edge into a trampoline ({@code probe; goto target})
 *     that the jump is retargeted to. So every probe runs exactly when its edge is taken, and no
 *     original instruction moves relative to another.</li>
 * <li><b>entry/exit probes</b> — {@code enter} at the start (constructors: right after the
 *     {@code super()}/{@code this()} call, so {@code this} is never used uninitialized) and
 *     {@code exit} before every return.</li>
 * <li><b>exceptional exit</b> — one catch-all handler ({@code exitThrow; athrow}) appended
 *     <em>last</em> in the exception table over the whole body after {@code enter}, so the
 *     method's own handlers still see their exceptions first.</li>
 * </ol>
 * Stack map frames and max stack are recomputed by the class writer.
 */
final class MethodRewriter {
    static final String PROBE = "org/hyprof/runtime/Probe";

    /** A method that cannot be rewritten safely: it is left unchanged and listed with this reason. */
    static final class Skip extends Exception {
        private static final long serialVersionUID = 1L;

        Skip(String reason) {
            super(reason, null, false, false);
        }
    }

    /** What the rewrite placed: the method's probe id and its loops (header line, id). */
    record Placed(int methodId, List<int[]> loops, List<String> loopSkips) {}

    private final String owner;
    private final MethodNode mn;

    MethodRewriter(String owner, MethodNode mn) {
        this.owner = owner;
        this.mn = mn;
    }

    /**
     * Rewrites the method in place. {@code nextId} supplies probe ids (method first, then loops in
     * code order). Every {@link Skip} is thrown before the first change, so a skipped method is
     * left exactly as it was.
     */
    Placed rewrite(java.util.function.IntSupplier nextId, boolean withLoops) throws Skip {
        InsnList insns = mn.instructions;
        if (insns.size() == 0) throw new Skip("no code");
        for (AbstractInsnNode i : insns) {
            if (i.getOpcode() == Opcodes.JSR || i.getOpcode() == Opcodes.RET)
                throw new Skip("jsr/ret subroutine (pre-Java-6 bytecode)");
        }
        AbstractInsnNode[] code = insns.toArray();
        int n = code.length;
        List<List<Integer>> succ = new ArrayList<>(n);
        List<List<Integer>> excSucc = new ArrayList<>(n);
        for (int i = 0; i < n; i++) { succ.add(new ArrayList<>(2)); excSucc.add(new ArrayList<>(0)); }
        boolean ctor = mn.name.equals("<init>");
        CtorInterpreter interp = new CtorInterpreter(ctor);
        Analyzer<BasicValue> an = new Analyzer<>(interp) {
            @Override
            protected void newControlFlowEdge(int insn, int successor) {
                if (!succ.get(insn).contains(successor)) succ.get(insn).add(successor);
            }

            @Override
            protected boolean newControlFlowExceptionEdge(int insn, int successor) {
                if (!excSucc.get(insn).contains(successor)) excSucc.get(insn).add(successor);
                return true;
            }
        };
        Frame<BasicValue>[] frames;
        try {
            frames = an.analyze(owner, mn);
        } catch (AnalyzerException | RuntimeException e) {
            throw new Skip("bytecode analysis failed: " + e.getMessage());
        }

        // ---- constructor: find the super()/this() call on the uninitialized this
        AbstractInsnNode entryAfter = null;
        if (ctor) {
            List<AbstractInsnNode> calls = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (frames[i] == null || code[i].getOpcode() != Opcodes.INVOKESPECIAL) continue;
                MethodInsnNode m = (MethodInsnNode) code[i];
                if (!m.name.equals("<init>")) continue;
                int args = Type.getArgumentTypes(m.desc).length;
                Frame<BasicValue> f = frames[i];
                if (f.getStack(f.getStackSize() - 1 - args) == CtorInterpreter.UNINIT_THIS) calls.add(m);
            }
            if (calls.isEmpty()) throw new Skip("constructor without a super()/this() call on this");
            if (calls.size() > 1) throw new Skip("constructor with " + calls.size() + " super()/this() call sites");
            entryAfter = calls.get(0);
        }

        int methodId = nextId.getAsInt();

        // ---- loop probes on edges
        List<int[]> placedLoops = new ArrayList<>();
        List<String> loopSkips = new ArrayList<>();
        if (withLoops) placeLoops(code, frames, succ, excSucc, nextId, placedLoops, loopSkips, ctor);

        // ---- entry, exits, exceptional exit
        LabelNode start = new LabelNode();
        InsnList enter = probe(methodId, "enter");
        enter.add(start);
        enter.add(entryLoops); // loops whose header is the first instruction: entered from the method entry
        if (entryAfter == null) insns.insert(enter);
        else insns.insert(entryAfter, enter);
        for (AbstractInsnNode i : code) {
            int op = i.getOpcode();
            if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) insns.insertBefore(i, probe(methodId, "exit"));
        }
        LabelNode end = new LabelNode();
        insns.add(trampolines);
        insns.add(end);
        LabelNode handler = new LabelNode();
        insns.add(handler);
        insns.add(probe(methodId, "exitThrow"));
        insns.add(new InsnNode(Opcodes.ATHROW));
        mn.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
        return new Placed(methodId, placedLoops, loopSkips);
    }

    private final InsnList trampolines = new InsnList();
    /** loopEnter probes of loops whose header is instruction 0 (the method entry is their entry edge). */
    private final InsnList entryLoops = new InsnList();

    private void placeLoops(AbstractInsnNode[] code, Frame<BasicValue>[] frames, List<List<Integer>> succ,
                            List<List<Integer>> excSucc, java.util.function.IntSupplier nextId,
                            List<int[]> placed, List<String> skips, boolean ctor) {
        int n = code.length;
        int[][] normal = new int[n][];
        int[][] exceptional = new int[n][];
        for (int i = 0; i < n; i++) {
            normal[i] = succ.get(i).stream().mapToInt(Integer::intValue).toArray();
            exceptional[i] = excSucc.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        List<LoopFinder.Loop> loops = LoopFinder.find(normal, exceptional);
        if (loops.isEmpty()) return;
        // exception edges into a header cannot carry code: such loops get no probes
        boolean[] handlerTarget = new boolean[n];
        for (List<Integer> l : excSucc) for (int t : l) handlerTarget[t] = true;

        // edge (u -> v) -> ordered probe calls; exits (inner first), then iter/enter
        Map<Long, List<String[]>> onEdge = new LinkedHashMap<>();
        List<LoopFinder.Loop> kept = new ArrayList<>();
        for (LoopFinder.Loop l : loops) {
            if (handlerTarget[l.header]) { skips.add("loop at " + lineOf(code, l.header) + ": entered by an exception edge"); continue; }
            // in a constructor the entry probe comes after super()/this(), so it cannot enter a loop before it
            if (l.header == 0 && ctor) { skips.add("loop at " + lineOf(code, l.header) + ": before super()/this()"); continue; }
            kept.add(l);
        }
        // innermost first: a loop inside another has a smaller body
        List<LoopFinder.Loop> byDepth = new ArrayList<>(kept);
        byDepth.sort((a, b) -> Integer.compare(a.body.cardinality(), b.body.cardinality()));
        Map<LoopFinder.Loop, Integer> ids = new HashMap<>();
        for (LoopFinder.Loop l : kept) { // ids in code order
            int id = nextId.getAsInt();
            ids.put(l, id);
            placed.add(new int[] {id, lineOf(code, l.header)});
        }
        for (LoopFinder.Loop l : byDepth) {
            String id = Integer.toString(ids.get(l));
            for (int u = 0; u < n; u++) {
                if (frames[u] == null) continue;
                for (int v : succ.get(u)) {
                    boolean uIn = l.body.get(u), vIn = l.body.get(v);
                    if (uIn && !vIn) add(onEdge, u, v, "loopExit", id);
                }
            }
        }
        for (LoopFinder.Loop l : kept) {
            String id = Integer.toString(ids.get(l));
            if (l.header == 0) entryLoops.add(probe(ids.get(l), "loopEnter"));
            for (int u = 0; u < n; u++) {
                if (frames[u] == null) continue;
                for (int v : succ.get(u)) {
                    if (v != l.header) continue;
                    add(onEdge, u, v, l.body.get(u) ? "loopIter" : "loopEnter", id);
                }
            }
        }
        for (Map.Entry<Long, List<String[]>> e : onEdge.entrySet()) {
            int u = (int) (e.getKey() >>> 32), v = (int) (long) e.getKey();
            InsnList probes = new InsnList();
            for (String[] p : e.getValue()) probes.add(probe(Integer.parseInt(p[1]), p[0]));
            placeOnEdge(code, u, v, probes);
        }
    }

    private static void add(Map<Long, List<String[]>> m, int u, int v, String kind, String id) {
        m.computeIfAbsent(((long) u << 32) | (v & 0xffffffffL), k -> new ArrayList<>()).add(new String[] {kind, id});
    }

    /** Puts code on edge u -> v: between them for a fall-through, in a trampoline for a jump. */
    private void placeOnEdge(AbstractInsnNode[] code, int u, int v, InsnList probes) {
        AbstractInsnNode from = code[u];
        AbstractInsnNode to = code[v];
        boolean jumpTo = false;
        if (from instanceof JumpInsnNode j && j.label == to) jumpTo = true;
        if (from instanceof TableSwitchInsnNode t && (t.dflt == to || t.labels.contains(to))) jumpTo = true;
        if (from instanceof LookupSwitchInsnNode t && (t.dflt == to || t.labels.contains(to))) jumpTo = true;
        boolean fallsThrough = u + 1 == v && fallsThrough(from);
        if (jumpTo) {
            LabelNode tramp = new LabelNode();
            trampolines.add(tramp);
            trampolines.add(copy(probes));
            trampolines.add(new JumpInsnNode(Opcodes.GOTO, (LabelNode) to));
            if (from instanceof JumpInsnNode j) j.label = tramp;
            else if (from instanceof TableSwitchInsnNode t) retarget(t.labels, to, tramp, t.dflt == to, x -> t.dflt = x);
            else if (from instanceof LookupSwitchInsnNode t) retarget(t.labels, to, tramp, t.dflt == to, x -> t.dflt = x);
        }
        if (fallsThrough) mn.instructions.insert(from, copy(probes));
    }

    private static void retarget(List<LabelNode> labels, AbstractInsnNode to, LabelNode tramp, boolean dflt,
                                 java.util.function.Consumer<LabelNode> setDflt) {
        for (ListIterator<LabelNode> it = labels.listIterator(); it.hasNext(); ) if (it.next() == to) it.set(tramp);
        if (dflt) setDflt.accept(tramp);
    }

    private static boolean fallsThrough(AbstractInsnNode i) {
        int op = i.getOpcode();
        if (op < 0) return true; // label, line number, frame
        if (op == Opcodes.GOTO || op == Opcodes.ATHROW || op == Opcodes.TABLESWITCH || op == Opcodes.LOOKUPSWITCH)
            return false;
        return !(op >= Opcodes.IRETURN && op <= Opcodes.RETURN);
    }

    private static InsnList copy(InsnList probes) {
        InsnList c = new InsnList();
        for (AbstractInsnNode i : probes) c.add(i.clone(Map.of()));
        return c;
    }

    static InsnList probe(int id, String method) {
        InsnList l = new InsnList();
        l.add(pushInt(id));
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, method, "(I)V", false));
        return l;
    }

    private static AbstractInsnNode pushInt(int v) {
        if (v >= -1 && v <= 5) return new InsnNode(Opcodes.ICONST_0 + v);
        if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) return new IntInsnNode(Opcodes.BIPUSH, v);
        if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) return new IntInsnNode(Opcodes.SIPUSH, v);
        return new LdcInsnNode(v);
    }

    /** Source line of the instruction at index i: the line entry right after it, else the one before. */
    static int lineOf(AbstractInsnNode[] code, int i) {
        for (int k = i; k < code.length && (k == i || code[k].getOpcode() < 0); k++)
            if (code[k] instanceof LineNumberNode ln) return ln.line;
        for (int k = i; k >= 0; k--)
            if (code[k] instanceof LineNumberNode ln) return ln.line;
        return -1;
    }

    /**
     * Tracks the constructor's uninitialized {@code this}: local 0 starts as {@link #UNINIT_THIS}
     * (a value of its own type, so merging it with any other value loses the mark).
     */
    static final class CtorInterpreter extends BasicInterpreter {
        static final BasicValue UNINIT_THIS = new BasicValue(Type.getObjectType("hyprof/uninitialized-this"));
        private final boolean ctor;

        CtorInterpreter(boolean ctor) {
            super(Opcodes.ASM9);
            this.ctor = ctor;
        }

        @Override
        public BasicValue newParameterValue(boolean isInstanceMethod, int local, Type type) {
            if (ctor && isInstanceMethod && local == 0) return UNINIT_THIS;
            return super.newParameterValue(isInstanceMethod, local, type);
        }

        @Override
        public BasicValue merge(BasicValue v, BasicValue w) {
            if (v == UNINIT_THIS || w == UNINIT_THIS) return v == w ? v : BasicValue.UNINITIALIZED_VALUE;
            return super.merge(v, w);
        }
    }
}
