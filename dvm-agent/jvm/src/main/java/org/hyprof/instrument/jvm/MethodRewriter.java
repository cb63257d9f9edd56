package org.hyprof.instrument.jvm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import org.hyprof.instrument.loops.LoopFinder;
import org.hyprof.runtime.OutOfLineLoops;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
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
 * <li><b>scratch locals</b> — the method's token {@code tok} and, per loop, its token
 *     {@code tokL}, back-edge count {@code cntL} and step {@code stepL} get fresh int locals after the method's own,
 *     each set to 0 by the method's first instructions (before a constructor's {@code super()}:
 *     int locals may be written there). So every local the probes read is definitely assigned
 *     wherever the verifier looks, and a loop's {@code tokL} is 0 whenever control is outside it:
 *     never entered, or closed by the code below.</li>
 * <li><b>loop probes</b> — code is placed on CFG <em>edges</em>: on a fall-through edge it goes
 *     between the two instructions, on a jump edge into a trampoline ({@code code; goto target})
 *     that the jump is retargeted to. So every probe runs exactly when its edge is taken, and no
 *     original instruction moves relative to another. Entry edge (into the header from outside):
 *     {@code tokL = loopBegin(); cntL = 0; stepL = tokL != 0 ? 1 : 0}; back edge:
 *     {@code cntL += stepL} (no call; see {@link #loopBegin(Probed)} for why not {@code cntL++}); exit edge:
 *     {@code loopEnd(id, tokL, cntL); tokL = 0} (with invokedynamic entries a count-only loop's
 *     activation is added up in locals instead and handed over later; see {@link #loopEnd}),
 *     inner loops first, before any entry or back edge
 *     of an outer loop on the same edge. An exception edge cannot carry code: a handler outside a
 *     loop whose try range covers part of it is reached through a handler trampoline
 *     ({@code loopEnd; tokL = 0} for each such loop, then {@code goto handler}), which is a no-op
 *     for exceptions thrown outside the loop since their {@code tokL} is 0.</li>
 * <li><b>entry/exit probes</b> — {@code tok = begin()} at the start (constructors: right after the
 *     {@code super()}/{@code this()} call, so {@code this} is never used uninitialized) and
 *     {@code end(id, tok)} before every return, preceded by {@code loopEnd} of each loop whose
 *     body holds the return (innermost first; a return lies in a natural loop's body only when a
 *     handler inside the loop covers it, so no edge of it leaves the loop).</li>
 * <li><b>exceptional exit</b> — one catch-all handler ({@code loopEnd} of every loop, innermost
 *     first, then {@code endThrow(id, tok); athrow}) appended <em>last</em> in the exception table
 *     over the whole body after {@code begin}, so the method's own handlers still see their
 *     exceptions first. Loops already closed have {@code tokL == 0}, which the runtime ignores.</li>
 * </ol>
 * {@code begin} and {@code loopBegin} are {@code invokedynamic} sites bootstrapped by
 * {@code ProbeSites} (constant 0 while their probe is off, so the JIT drops them and the exit's
 * test), or {@code invokestatic Probe.begin/loopBegin(I)I} in class files older than Java 7 and
 * when static sites are asked for. Next to {@code invokedynamic} entries, {@code loopEnd} is
 * {@code OutOfLineLoops.loopEnd} (a path the JIT keeps out of the method), else
 * {@code Probe.loopEnd}. Stack map frames and max stack are recomputed by the class
 * writer.
 * <p>In a {@link Piece} (a jar instrumented on its own) every id is local to the piece and the
 * code adds the piece's base: each pushed id is {@code getstatic P_KEY.BASE; local; iadd} (a
 * static final of an initialized class, which C2 folds to a constant), and the {@code begin} sites
 * are bootstrapped with {@code (KEY, local)} ({@code ProbeSites.bootstrap} finds the base itself).
 */
final class MethodRewriter {
    static final String PROBE = "org/hyprof/runtime/Probe";
    /**
     * Loop ends next to {@code invokedynamic} entries: the runtime's path that the JIT keeps out of
     * the app's method (a method's exits hold a loop end per loop, and inlined they made C2 compile
     * for a long time; see {@code OutOfLineLoops}).
     */
    static final String LOOPS = "org/hyprof/runtime/OutOfLineLoops";
    /** Bootstrap of the {@code begin}/{@code loopBegin} sites; static argument: the probe id. */
    static final Handle SITES = new Handle(Opcodes.H_INVOKESTATIC, "org/hyprof/runtime/ProbeSites", "bootstrap",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;I)Ljava/lang/invoke/CallSite;",
            false);
    /** Bootstrap of the sites of a {@link Piece}; static arguments: the piece key and the local probe id. */
    static final Handle PIECE_SITES = new Handle(Opcodes.H_INVOKESTATIC, "org/hyprof/runtime/ProbeSites", "bootstrap",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;I)"
                    + "Ljava/lang/invoke/CallSite;", false);

    /** A method that cannot be rewritten safely: it is left unchanged and listed with this reason. */
    static final class Skip extends Exception {
        private static final long serialVersionUID = 1L;

        Skip(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * What the rewrite placed: the method's probe id, its loops (header line, id), and whether a
     * timed activation of the method runs an outlined body ({@link #outline}) or, with
     * {@link #bodyOnly}, whether the code is such a body's.
     */
    record Placed(int methodId, List<int[]> loops, List<String> loopSkips, boolean outlined) {}

    /** The outlined body's marker parameter ({@code org.hyprof.runtime.Outlined}). */
    static final String MARKER = "Lorg/hyprof/runtime/Outlined;";

    /**
     * A loop with probes: its id and its locals — its token, back-edge count and the step the
     * count goes up by (1 while the activation is recorded, else 0), and with invokedynamic
     * entries the count-only activations and their iterations the code adds up, both in one long
     * ({@code accLocal}, two slots: see {@link OutOfLineLoops#ACTIVATION_BITS}).
     */
    private record Probed(LoopFinder.Loop loop, int id, int tokLocal, int countLocal, int stepLocal, int accLocal) {}

    /**
     * Local slots per loop: token, count and step; where the code adds count-only activations up,
     * also their one long accumulator.
     */
    private int slotsPerLoop() {
        return addUp ? 5 : 3;
    }

    /**
     * Whether the code adds count-only loop activations up ({@code COUNT_IN_CODE} tokens, with
     * invokedynamic entries). Not where every exit's hand-over of every loop would make the method
     * large (loops × exits above {@link #ADD_UP_LIMIT}): there a count-only activation's token goes
     * to {@code loopEnd}, which counts it, one call each.
     */
    private boolean addUp;
    static final int ADD_UP_LIMIT = 256; // each exit hands over every loop: about 24 bytes a loop
    /** False: count-only activations go to {@code loopEnd} whatever the method's size ({@link #addUp(boolean)}). */
    private boolean addUpAllowed = true;

    /**
     * HotSpot's C2 inlines a hot callee only if its bytecode is at most this many bytes
     * ({@code -XX:FreqInlineSize}'s default on x86-64 and AArch64). The code that adds count-only
     * loop activations up is about 80 bytes a loop; where it pushes a method the app's JIT would
     * inline past this, and no loop of the method lies in another ({@link #nestedLoops}), the
     * method is rewritten without it ({@code ClassRewriter}): SciMark's
     * {@code Random.initialize} grew from 125 to 369 bytes, was no longer inlined into the
     * constructor, the {@code Random} escaped, its synchronized {@code nextDouble} kept its lock,
     * and Monte Carlo ran 5× slower with every probe off.
     */
    static final int INLINE_SIZE = 325;

    /**
     * HotSpot compiles no method whose bytecode is longer than this ({@code -XX:HugeMethodLimit},
     * with {@code DontCompileHugeMethods} on by default): such a method runs interpreted for good.
     * Loop code can grow a method with many loops several times over.
     */
    static final int HUGE_METHOD_LIMIT = 8000;

    /**
     * Whether the code may add count-only loop activations up (default true); false makes every
     * count-only activation a {@code loopEnd} call, as in methods above {@link #ADD_UP_LIMIT}.
     */
    MethodRewriter addUp(boolean allowed) {
        this.addUpAllowed = allowed;
        return this;
    }

    /** Whether the last {@link #rewrite} added count-only loop activations up in the code. */
    boolean addedUp() {
        return addUp;
    }

    /**
     * Whether a probed loop of the last {@link #rewrite} lies inside another: its activations
     * come many to a call of the method, and adding them up in the code is what keeps their
     * count cheap (a call each through {@code loopEnd} made SciMark's sparse matmult 4× slower
     * with every probe on, and is charged more than it costs: OverheadIT's {@code loops} −99 %).
     */
    boolean nestedLoops() {
        for (Probed q : byDepth)
            for (Probed p : byDepth)
                if (q != p && inside(q, p)) return true;
        return false;
    }

    /**
     * The size in bytes of {@code insns} as a class file's code, as the class writer emits it
     * (short forms of loads, stores and constants; {@code goto_w} never): what the JIT compares
     * with {@link #INLINE_SIZE}. An {@code ldc} is taken as 2 bytes, so in a class of more than 255
     * constants, whose later ones the writer loads by {@code ldc_w}, it can be a few bytes short.
     */
    static int codeSize(InsnList insns) {
        int size = 0;
        for (AbstractInsnNode i : insns) {
            int op = i.getOpcode();
            if (op < 0) continue; // labels, line numbers, frames
            size += switch (i.getType()) {
                case AbstractInsnNode.INT_INSN -> op == Opcodes.SIPUSH ? 3 : 2;
                case AbstractInsnNode.VAR_INSN -> {
                    int v = ((VarInsnNode) i).var;
                    yield v <= 3 && op != Opcodes.RET ? 1 : v < 256 ? 2 : 4;
                }
                case AbstractInsnNode.IINC_INSN -> {
                    IincInsnNode n = (IincInsnNode) i;
                    yield n.var < 256 && n.incr >= Byte.MIN_VALUE && n.incr <= Byte.MAX_VALUE ? 3 : 6;
                }
                case AbstractInsnNode.LDC_INSN -> {
                    Object c = ((LdcInsnNode) i).cst;
                    yield c instanceof Long || c instanceof Double ? 3 : 2;
                }
                case AbstractInsnNode.TYPE_INSN, AbstractInsnNode.FIELD_INSN, AbstractInsnNode.JUMP_INSN -> 3;
                case AbstractInsnNode.METHOD_INSN -> op == Opcodes.INVOKEINTERFACE ? 5 : 3;
                case AbstractInsnNode.INVOKE_DYNAMIC_INSN -> 5;
                case AbstractInsnNode.MULTIANEWARRAY_INSN -> 4;
                // the opcode, padding to a multiple of 4, then default, bounds or pair count, and the table
                case AbstractInsnNode.TABLESWITCH_INSN -> 1 + (3 - size % 4) + 12 + 4 * ((TableSwitchInsnNode) i).labels.size();
                case AbstractInsnNode.LOOKUPSWITCH_INSN -> 1 + (3 - size % 4) + 8 + 8 * ((LookupSwitchInsnNode) i).labels.size();
                default -> 1;
            };
        }
        return size;
    }

    private final String owner;
    private final MethodNode mn;
    private final boolean indy;
    private final Piece piece;

    /**
     * @param indy  {@code begin}/{@code loopBegin} as invokedynamic sites (class files of Java 7 and later only)
     * @param piece the piece whose local ids {@code nextId} hands out, or null for ids of the one
     *              namespace (the agent's)
     */
    MethodRewriter(String owner, MethodNode mn, boolean indy, Piece piece) {
        this.owner = owner;
        this.mn = mn;
        this.indy = indy;
        this.piece = piece;
    }

    /**
     * Whether loop probes get code ({@code true}, the default). False: the loops are found and
     * their ids handed out and returned exactly as with code, but the method gets none of it — the
     * agent places loop code only when a loop probe is switched on ({@link LoopPlacer}), so loops
     * that are off cost nothing, not even in the interpreter.
     */
    MethodRewriter loopCode(boolean on) {
        this.loopCode = on;
        return this;
    }

    private boolean loopCode = true;

    /**
     * Whether a method with a loop inside another ({@link #nested}) hands its timed activations to
     * an outlined body (default false; only with invokedynamic entries, never a constructor or
     * class initializer): right after
     * {@code tok = begin()} the method gets {@code if (tok != 0) { r = body(args..., null);
     * end(id, tok); return r; }}, a static call that the JIT keeps (see {@link #padForCall}),
     * and the method's code, probes and all, follows as usual for activations that are not
     * timed. With its probe off the token is the constant 0, the JIT drops the dispatch and
     * compiles, and inlines, the method as before; while it is timed the code after
     * the dispatch never runs, the JIT prunes it, and the method's loops run in the body, a
     * compiled unit of its own without the clock reads ({@code org.hyprof.runtime.Outlined} says
     * why that matters). The body is the same method rewritten with {@link #bodyOnly} and made a
     * static method by {@link #asBody}.
     *
     * <p>Why not the body for every activation, the method a mere wrapper: a body reached only by
     * a call from a wrapper that has no loop of its own is inlined by C2 only while it is at most
     * {@code MaxInlineSize} (35 bytes): such a wrapper, called a few times, is never profiled, so
     * its call looks cold. SciMark's {@code Random.initialize} (200 bytes) was then not inlined
     * into the constructor, the {@code Random} escaped, its synchronized {@code nextDouble} kept
     * its lock, and Monte Carlo ran at 0.37–0.47 of plain with every probe off.
     */
    MethodRewriter outline(boolean allowed) {
        this.outlineAllowed = allowed;
        return this;
    }

    private boolean outlineAllowed;

    /**
     * The code of an outlined body ({@link #outline}): the method's loop probes as usual, no entry
     * or exit probe (the method has them), and a catch-all that closes open loops and rethrows.
     * Only for a method that {@link #outline} would dispatch, rewritten with the same ids.
     */
    MethodRewriter bodyOnly(boolean on) {
        this.bodyOnly = on;
        return this;
    }

    private boolean bodyOnly;

    /** Slots of the method's parameters (and receiver). */
    private int argSlots() {
        // the size includes a slot for the receiver whether there is one or not
        return (Type.getArgumentsAndReturnSizes(mn.desc) >> 2) - ((mn.access & Opcodes.ACC_STATIC) != 0 ? 1 : 0);
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
        int tok = mn.maxLocals;
        List<LoopFinder.Loop> found = withLoops || outlineAllowed || bodyOnly ? findLoops(succ, excSucc) : List.of();
        // a body of its own only for a method with nested loops (see nested): where the entry's call costs them (see Outlined)
        outlined = (outlineAllowed || bodyOnly) && indy && !ctor && !mn.name.equals("<clinit>") && nested(found)
                && argSlots() + 1 <= 255;
        if (bodyOnly && !outlined) throw new Skip("no outlined body for this method"); // not expected: callers ask only for those
        boolean body = bodyOnly;

        // ---- loop probes on edges (and handler trampolines)
        List<int[]> placedLoops = new ArrayList<>();
        List<String> loopSkips = new ArrayList<>();
        List<Probed> byDepth = withLoops
                ? placeLoops(code, frames, found, succ, excSucc, nextId, tok + 1, placedLoops, loopSkips, ctor)
                : List.of();
        mn.maxLocals = tok + 1 + slotsPerLoop() * byDepth.size();

        // ---- scratch locals: all 0 from the method's first instruction on
        InsnList init = new InsnList();
        init.add(new InsnNode(Opcodes.ICONST_0));
        init.add(new VarInsnNode(Opcodes.ISTORE, tok));
        for (Probed p : byDepth) {
            for (int local : new int[] {p.tokLocal, p.countLocal, p.stepLocal}) {
                init.add(new InsnNode(Opcodes.ICONST_0));
                init.add(new VarInsnNode(Opcodes.ISTORE, local));
            }
            if (addUp) {
                init.add(new InsnNode(Opcodes.LCONST_0));
                init.add(new VarInsnNode(Opcodes.LSTORE, p.accLocal));
            }
        }

        // ---- entry, exits, exceptional exit (an outlined body: the method has its own)
        LabelNode start = new LabelNode();
        InsnList enter = new InsnList();
        if (!body) {
            enter.add(begin(methodId, "begin"));
            enter.add(new VarInsnNode(Opcodes.ISTORE, tok));
        }
        enter.add(start);
        if (outlined && !body) enter.add(dispatch(methodId, tok, firstLine(code))); // in the try range: the catch-all ends a timed call that throws
        enter.add(entryLoops); // loops whose header is the first instruction: entered from the method entry
        if (entryAfter == null) insns.insert(enter);
        else insns.insert(entryAfter, enter);
        insns.insert(init);
        for (int i = 0; i < n; i++) {
            int op = code[i].getOpcode();
            if (op < Opcodes.IRETURN || op > Opcodes.RETURN) continue;
            InsnList exit = new InsnList();
            for (Probed p : byDepth) if (p.loop.body.get(i)) exit.add(loopEnd(p));
            exit.add(handOver(byDepth));
            if (!body) exit.add(end(methodId, tok, "end"));
            insns.insertBefore(code[i], exit);
        }
        LabelNode end = new LabelNode();
        insns.add(trampolines);
        insns.add(end);
        if (!body || !byDepth.isEmpty()) {
            LabelNode handler = new LabelNode();
            insns.add(handler);
            for (Probed p : byDepth) insns.add(loopEnd(p));
            insns.add(handOver(byDepth));
            if (!body) insns.add(end(methodId, tok, "endThrow"));
            insns.add(new InsnNode(Opcodes.ATHROW));
            mn.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
        }
        return new Placed(methodId, placedLoops, loopSkips, outlined);
    }

    /** Whether the last {@link #rewrite} dispatched timed activations to an outlined body, or wrote one ({@link #outline}, {@link #bodyOnly}). */
    private boolean outlined;

    /** The descriptor of the method's outlined body: the receiver (if any), the parameters, the marker. */
    private String bodyDesc() {
        StringBuilder d = new StringBuilder("(");
        if ((mn.access & Opcodes.ACC_STATIC) == 0) d.append('L').append(owner).append(';');
        for (Type t : Type.getArgumentTypes(mn.desc)) d.append(t.getDescriptor());
        return d.append(MARKER).append(')').append(Type.getReturnType(mn.desc).getDescriptor()).toString();
    }

    /** The first source line of a method's code, -1 if none. */
    static int firstLine(AbstractInsnNode[] code) {
        for (AbstractInsnNode i : code) if (i instanceof LineNumberNode ln) return ln.line;
        return -1;
    }

    /** {@code if (tok != 0) { r = body(args..., null); end(id, tok); return r; }} ({@link #outline}). */
    private InsnList dispatch(int methodId, int tok, int line) {
        InsnList l = new InsnList();
        LabelNode here = new LabelNode(), notTimed = new LabelNode();
        l.add(here);
        if (line > 0) l.add(new LineNumberNode(line, here)); // the method's frame in a stack trace: its first line
        l.add(new VarInsnNode(Opcodes.ILOAD, tok));
        l.add(new JumpInsnNode(Opcodes.IFEQ, notTimed));
        l.add(loadArgs((mn.access & Opcodes.ACC_STATIC) != 0, Type.getArgumentTypes(mn.desc)));
        // a plain static call: the body is too large for C2 to inline into the method (see
        // padForCall), so the call is kept and the body compiled on its own
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, owner, mn.name, bodyDesc(), itf));
        l.add(end(methodId, tok, "end"));
        l.add(new InsnNode(Type.getReturnType(mn.desc).getOpcode(Opcodes.IRETURN)));
        l.add(notTimed);
        return l;
    }

    /** Whether the owner is an interface (an outlined body's handle says so). */
    private boolean itf;

    MethodRewriter itf(boolean isInterface) {
        this.itf = isInterface;
        return this;
    }

    /** Pushes the receiver (if any), every parameter and the marker (null): the body's arguments. */
    private static InsnList loadArgs(boolean isStatic, Type[] params) {
        InsnList l = new InsnList();
        int slot = 0;
        if (!isStatic) l.add(new VarInsnNode(Opcodes.ALOAD, slot++));
        for (Type t : params) {
            l.add(new VarInsnNode(t.getOpcode(Opcodes.ILOAD), slot));
            slot += t.getSize();
        }
        l.add(new InsnNode(Opcodes.ACONST_NULL));
        return l;
    }

    /**
     * Whether a loop lies inside another: the methods {@link #outline} gives a body. Why only
     * those: their inner loops are where a clock read at the method's entry cost most (sparse
     * matmult, FFT, LU), while a body called through a kept call takes the method's arguments out
     * of the caller's sight: SciMark's {@code Random.initialize} (one loop of 17 iterations)
     * outlined let the {@code Random} escape, its synchronized {@code nextDouble} kept its lock,
     * and Monte Carlo ran at 0.18 of plain with method probes on, against 0.25 without outlining.
     */
    private static boolean nested(List<LoopFinder.Loop> loops) {
        for (LoopFinder.Loop q : loops)
            for (LoopFinder.Loop p : loops)
                if (p != q && inside(q.body, p.body)) return true;
        return false;
    }

    /** The natural loops of the method's control-flow graph ({@link LoopFinder}). */
    private static List<LoopFinder.Loop> findLoops(List<List<Integer>> succ, List<List<Integer>> excSucc) {
        int n = succ.size();
        int[][] normal = new int[n][];
        int[][] exceptional = new int[n][];
        for (int i = 0; i < n; i++) {
            normal[i] = succ.get(i).stream().mapToInt(Integer::intValue).toArray();
            exceptional[i] = excSucc.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        return LoopFinder.find(normal, exceptional);
    }

    /**
     * The outlined body made of a method that {@link #rewrite} with {@link #bodyOnly} left: a
     * {@code private static synthetic} method of the same name whose parameters are the receiver
     * (if any), the method's own and the marker {@link #MARKER}, with the method's code, exception
     * table and local variables (those past the parameters one slot up, for the marker). The
     * method node given is emptied.
     */
    MethodNode asBody() {
        int args = argSlots();
        int access = Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC | (mn.access & Opcodes.ACC_STRICT);
        MethodNode body = new MethodNode(Opcodes.ASM9, access, mn.name, bodyDesc(), null, null);
        body.instructions.add(mn.instructions); // moves them
        body.tryCatchBlocks = mn.tryCatchBlocks;
        body.localVariables = mn.localVariables;
        body.visibleLocalVariableAnnotations = mn.visibleLocalVariableAnnotations;
        body.invisibleLocalVariableAnnotations = mn.invisibleLocalVariableAnnotations;
        body.maxLocals = mn.maxLocals + 1;
        body.maxStack = mn.maxStack;
        for (AbstractInsnNode i : body.instructions) { // the marker takes slot args
            if (i instanceof VarInsnNode v && v.var >= args) v.var++;
            else if (i instanceof IincInsnNode v && v.var >= args) v.var++;
        }
        if (body.localVariables != null)
            for (org.objectweb.asm.tree.LocalVariableNode v : body.localVariables) if (v.index >= args) v.index++;
        for (List<org.objectweb.asm.tree.LocalVariableAnnotationNode> l : java.util.Arrays.asList(
                body.visibleLocalVariableAnnotations, body.invisibleLocalVariableAnnotations)) {
            if (l == null) continue;
            for (org.objectweb.asm.tree.LocalVariableAnnotationNode a : l)
                for (int k = 0; k < a.index.size(); k++) if (a.index.get(k) >= args) a.index.set(k, a.index.get(k) + 1);
        }
        padForCall(body, args);
        mn.tryCatchBlocks = new ArrayList<>();
        mn.localVariables = null;
        return body;
    }

    /**
     * The size an outlined body is padded to at least ({@link #padForCall}): above
     * {@link #INLINE_SIZE}, with a margin for {@link #codeSize}'s short count of {@code ldc_w}.
     */
    static final int BODY_MIN_SIZE = INLINE_SIZE + 16;

    /**
     * Makes a body of fewer than {@link #BODY_MIN_SIZE} bytes that long: {@code if (marker == null)
     * goto code;} then {@code nop}s, which never run (the marker is always null). Why: the method
     * calls its body with a plain {@code invokestatic} (its timed activations only), and C2 inlines
     * a hot callee of up to {@code FreqInlineSize} (325) bytes of bytecode; a body inlined into the
     * method would put its loops back behind the entry's clock read, which is what outlining
     * avoids ({@code org.hyprof.runtime.Outlined}). C2 prunes the branch never taken, so the
     * padding compiles to nothing. Before, the call went through an {@code invokedynamic} site
     * whose target C2 could not see through: about 3.5 ns a timed call, and the JDK generated that
     * site's method-handle code for each new body type at its first timed call (about 1 ms each in
     * a cold JVM).
     */
    private static void padForCall(MethodNode body, int markerSlot) {
        int size = codeSize(body.instructions);
        if (size >= BODY_MIN_SIZE) return;
        InsnList pad = new InsnList();
        LabelNode code = new LabelNode();
        pad.add(new VarInsnNode(Opcodes.ALOAD, markerSlot));
        pad.add(new JumpInsnNode(Opcodes.IFNULL, code));
        for (int i = size + 1 + 3; i < BODY_MIN_SIZE; i++) pad.add(new InsnNode(Opcodes.NOP)); // aload: 1 byte (or 2), ifnull: 3
        pad.add(code);
        body.instructions.insert(pad);
        body.maxStack = Math.max(body.maxStack, 1);
    }

    private final InsnList trampolines = new InsnList();
    /** The probed loops, innermost first (set by placeLoops). */
    private List<Probed> byDepth = List.of();
    /** Entry-edge code of loops whose header is instruction 0 (the method entry is their entry edge). */
    private final InsnList entryLoops = new InsnList();

    /**
     * Places the loop probes; returns the loops that got them, innermost first (a loop inside
     * another has a smaller body). Their locals are {@code firstLocal, firstLocal + 1, ...}.
     */
    private List<Probed> placeLoops(AbstractInsnNode[] code, Frame<BasicValue>[] frames, List<LoopFinder.Loop> loops,
                                    List<List<Integer>> succ, List<List<Integer>> excSucc,
                                    java.util.function.IntSupplier nextId, int firstLocal,
                                    List<int[]> placed, List<String> skips, boolean ctor) {
        int n = code.length;
        if (loops.isEmpty()) return List.of();
        int exits = 1; // the exceptional exit
        for (AbstractInsnNode i : code) if (i.getOpcode() >= Opcodes.IRETURN && i.getOpcode() <= Opcodes.RETURN) exits++;
        addUp = addUpAllowed && indy && (long) loops.size() * exits <= ADD_UP_LIMIT;
        // exception edges into a header cannot carry code: such loops get no probes
        boolean[] handlerTarget = new boolean[n];
        for (List<Integer> l : excSucc) for (int t : l) handlerTarget[t] = true;

        List<Probed> kept = new ArrayList<>(); // code order
        for (LoopFinder.Loop l : loops) {
            if (handlerTarget[l.header]) { skips.add("loop at " + lineOf(code, l.header) + ": entered by an exception edge"); continue; }
            // in a constructor the entry probe comes after super()/this(), so it cannot enter a loop before it
            if (l.header == 0 && ctor) { skips.add("loop at " + lineOf(code, l.header) + ": before super()/this()"); continue; }
            int id = nextId.getAsInt(); // ids in code order
            int local = firstLocal + slotsPerLoop() * kept.size();
            kept.add(new Probed(l, id, local, local + 1, local + 2, local + 3));
            placed.add(new int[] {id, firstLineOf(code, l.body, l.header)}); // names the loop: #loop@LINE
        }
        if (!loopCode) return List.of(); // ids and names as with code, the method left as it is
        List<Probed> byDepth = new ArrayList<>(kept);
        byDepth.sort((a, b) -> Integer.compare(a.loop.body.cardinality(), b.loop.body.cardinality()));
        this.byDepth = byDepth;

        // edge (u -> v) -> its code: exits (inner first), then entries and back edges
        Map<Long, InsnList> onEdge = new LinkedHashMap<>();
        // handler index -> loops its exception edges leave (inner first)
        Map<Integer, List<Probed>> onHandler = new LinkedHashMap<>();
        for (Probed p : byDepth) {
            for (int u = 0; u < n; u++) {
                if (frames[u] == null || !p.loop.body.get(u)) continue;
                for (int v : succ.get(u))
                    if (!p.loop.body.get(v)) edge(onEdge, u, v).add(loopEndAndClear(p));
                for (int v : excSucc.get(u)) {
                    if (p.loop.body.get(v)) continue;
                    List<Probed> h = onHandler.computeIfAbsent(v, k -> new ArrayList<>());
                    if (!h.contains(p)) h.add(p);
                }
            }
        }
        for (Probed p : kept) {
            LoopFinder.Loop l = p.loop;
            if (l.header == 0) entryLoops.add(loopBegin(p));
            for (int u = 0; u < n; u++) {
                if (frames[u] == null) continue;
                for (int v : succ.get(u)) {
                    if (v != l.header) continue;
                    if (l.body.get(u)) edge(onEdge, u, v).add(backEdge(p));
                    else edge(onEdge, u, v).add(loopBegin(p));
                }
            }
        }
        for (Map.Entry<Long, InsnList> e : onEdge.entrySet()) {
            int u = (int) (e.getKey() >>> 32), v = (int) (long) e.getKey();
            placeOnEdge(code, u, v, e.getValue());
        }
        for (Map.Entry<Integer, List<Probed>> e : onHandler.entrySet()) {
            LabelNode target = (LabelNode) code[e.getKey()];
            LabelNode tramp = new LabelNode();
            trampolines.add(tramp);
            for (Probed p : e.getValue()) trampolines.add(loopEndAndClear(p));
            trampolines.add(new JumpInsnNode(Opcodes.GOTO, target));
            for (TryCatchBlockNode t : mn.tryCatchBlocks) if (t.handler == target) t.handler = tramp;
        }
        return byDepth;
    }

    private static InsnList edge(Map<Long, InsnList> m, int u, int v) {
        return m.computeIfAbsent(((long) u << 32) | (v & 0xffffffffL), k -> new InsnList());
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

    /** A copy of probe code, its own labels (the hand-over's branches) replaced by fresh ones. */
    private static InsnList copy(InsnList probes) {
        Map<LabelNode, LabelNode> labels = new java.util.HashMap<>();
        for (AbstractInsnNode i : probes) if (i instanceof LabelNode lab) labels.put(lab, new LabelNode());
        InsnList c = new InsnList();
        for (AbstractInsnNode i : probes) c.add(i.clone(labels));
        return c;
    }

    /** {@code begin}/{@code loopBegin} of probe {@code id}: leaves the token on the stack. */
    private InsnList begin(int id, String method) {
        InsnList l = new InsnList();
        if (indy) {
            l.add(piece == null ? new InvokeDynamicInsnNode(method, "()I", SITES, id)
                    : new InvokeDynamicInsnNode(method, "()I", PIECE_SITES, piece.key(), id));
        } else {
            l.add(pushId(id));
            l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, method, "(I)I", false));
        }
        return l;
    }

    /** {@code end}/{@code endThrow(id, tok)}. */
    private InsnList end(int id, int tokLocal, String method) {
        InsnList l = new InsnList();
        l.add(pushId(id));
        l.add(new VarInsnNode(Opcodes.ILOAD, tokLocal));
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, method, "(II)V", false));
        return l;
    }

    /**
     * A loop's entry edge: {@code tokL = loopBegin(); cntL = 0; stepL = (tokL | -tokL) >>> 31}
     * (1 when the token is not 0, without a branch).
     *
     * <p>Why a step and not {@code cntL++}: while the loop's probe is off its entry site is the
     * constant 0, and the JIT folds every use of the count away but one: an exception inside the
     * loop (an array index out of bounds, a null) reaches the method's catch-all handler, which
     * hands {@code cntL} to {@code loopEnd}, so the count was live at every instruction that may
     * throw and kept in a register, added to on every iteration. SciMark with every probe off, one
     * JVM taking turns ({@code bench/kernel-ab.sh}): FFT 0.77 and LU 0.88 of plain with
     * {@code cntL++}, 1.08 and 1.03 with the step (bench/README, "the all-off cost found"). The
     * step of an off loop is the constant 0, so its count is the
     * constant 0 and nothing is left; in a loop that is on it is a register that does not change
     * in the loop, and {@code cntL += stepL} costs what {@code cntL++} did.
     */
    private InsnList loopBegin(Probed p) {
        InsnList l = begin(p.id, "loopBegin");
        l.add(new VarInsnNode(Opcodes.ISTORE, p.tokLocal));
        l.add(new InsnNode(Opcodes.ICONST_0));
        l.add(new VarInsnNode(Opcodes.ISTORE, p.countLocal));
        l.add(new VarInsnNode(Opcodes.ILOAD, p.tokLocal));
        l.add(new InsnNode(Opcodes.DUP));
        l.add(new InsnNode(Opcodes.INEG));
        l.add(new InsnNode(Opcodes.IOR));
        l.add(pushInt(31));
        l.add(new InsnNode(Opcodes.IUSHR));
        l.add(new VarInsnNode(Opcodes.ISTORE, p.stepLocal));
        return l;
    }

    /** A loop's back edge: {@code cntL += stepL} (see {@link #loopBegin(Probed)}). */
    private static InsnList backEdge(Probed p) {
        InsnList l = new InsnList();
        l.add(new VarInsnNode(Opcodes.ILOAD, p.countLocal));
        l.add(new VarInsnNode(Opcodes.ILOAD, p.stepLocal));
        l.add(new InsnNode(Opcodes.IADD));
        l.add(new VarInsnNode(Opcodes.ISTORE, p.countLocal));
        return l;
    }

    /**
     * {@code loopEnd(id, tokL, cntL)}. With invokedynamic entries a count-only loop's token is the
     * site's constant {@code COUNT_IN_CODE}, and its activation is added up in the loop's own
     * locals instead (the JIT folds the test away):
     * {@code if (tokL == COUNT_IN_CODE) { accL += ((cntL & 0xffffffffL) << ACTIVATION_BITS) + 1; if (((int) accL
     * & ACTIVATIONS) == ACTIVATIONS) hand over; } else { hand over the loops inside; loopEnd(id, tokL,
     * cntL); }} — the loops inside are handed over before a timed (or unrecorded) activation of
     * this one ends, so they go to the frame they ran in.
     *
     * <p>Why one long for activations and iterations: each count-only loop's accumulators are live
     * across every loop around it, and two of them (an int and a long) were one value too many
     * there. In CallHeavy's {@code sieve} (its outer loop timed, its inner loop count-only) C2 then
     * kept the iterations' long in an XMM register and moved it to a general one and back on every
     * iteration of the inner loop: 2.2× plain in one JVM, against 1.1× when it did not.
     */
    private InsnList loopEnd(Probed p) {
        InsnList l = new InsnList();
        LabelNode timed = new LabelNode(), done = new LabelNode();
        if (addUp) {
            l.add(new VarInsnNode(Opcodes.ILOAD, p.tokLocal));
            l.add(pushInt(OutOfLineLoops.COUNT_IN_CODE));
            l.add(new JumpInsnNode(Opcodes.IF_ICMPNE, timed));
            l.add(new VarInsnNode(Opcodes.LLOAD, p.accLocal));
            l.add(new VarInsnNode(Opcodes.ILOAD, p.countLocal));
            l.add(new InsnNode(Opcodes.I2L));
            l.add(new LdcInsnNode(0xffffffffL)); // unsigned: a count past 2³¹ must not borrow from the activations
            l.add(new InsnNode(Opcodes.LAND));
            l.add(pushInt(OutOfLineLoops.ACTIVATION_BITS));
            l.add(new InsnNode(Opcodes.LSHL));
            l.add(new InsnNode(Opcodes.LADD));
            l.add(new InsnNode(Opcodes.LCONST_1));
            l.add(new InsnNode(Opcodes.LADD));
            l.add(new InsnNode(Opcodes.DUP2));
            l.add(new VarInsnNode(Opcodes.LSTORE, p.accLocal));
            l.add(new InsnNode(Opcodes.L2I));
            l.add(pushInt(OutOfLineLoops.ACTIVATIONS));
            l.add(new InsnNode(Opcodes.IAND));
            l.add(pushInt(OutOfLineLoops.ACTIVATIONS));
            l.add(new JumpInsnNode(Opcodes.IF_ICMPLT, done));
            l.add(handOver(p)); // every ACTIVATIONS activations: seen while an outer loop runs on
            l.add(new JumpInsnNode(Opcodes.GOTO, done));
            l.add(timed);
            for (Probed q : byDepth) if (q != p && inside(q, p)) l.add(handOver(q));
        }
        l.add(pushId(p.id));
        l.add(new VarInsnNode(Opcodes.ILOAD, p.tokLocal));
        l.add(new VarInsnNode(Opcodes.ILOAD, p.countLocal));
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, indy ? LOOPS : PROBE, "loopEnd", "(III)V", false));
        if (addUp) l.add(done);
        return l;
    }

    /** Whether loop q lies inside loop p (its body a part of p's). */
    private static boolean inside(Probed q, Probed p) {
        return inside(q.loop.body, p.loop.body);
    }

    /** Whether the loop body {@code q} is a part of {@code p}. */
    private static boolean inside(java.util.BitSet q, java.util.BitSet p) {
        java.util.BitSet outside = (java.util.BitSet) q.clone();
        outside.andNot(p);
        return outside.isEmpty();
    }

    /** {@link #handOver(Probed)} of every loop (at the method's exits); nothing without invokedynamic entries. */
    private InsnList handOver(List<Probed> loops) {
        InsnList l = new InsnList();
        if (addUp) for (Probed p : loops) l.add(handOver(p));
        return l;
    }

    /**
     * {@code if (accL != 0) { loopsCounted(id, (int) accL & ACTIVATIONS, accL >>> ACTIVATION_BITS);
     * accL = 0; }}: the count-only activations the code added up, and their iterations, go to the
     * runtime.
     */
    private InsnList handOver(Probed p) {
        InsnList l = new InsnList();
        LabelNode none = new LabelNode();
        l.add(new VarInsnNode(Opcodes.LLOAD, p.accLocal));
        l.add(new InsnNode(Opcodes.LCONST_0));
        l.add(new InsnNode(Opcodes.LCMP));
        l.add(new JumpInsnNode(Opcodes.IFEQ, none));
        l.add(pushId(p.id));
        l.add(new VarInsnNode(Opcodes.LLOAD, p.accLocal));
        l.add(new InsnNode(Opcodes.L2I));
        l.add(pushInt(OutOfLineLoops.ACTIVATIONS));
        l.add(new InsnNode(Opcodes.IAND));
        l.add(new VarInsnNode(Opcodes.LLOAD, p.accLocal));
        l.add(pushInt(OutOfLineLoops.ACTIVATION_BITS));
        l.add(new InsnNode(Opcodes.LUSHR));
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, LOOPS, "loopsCounted", "(IIJ)V", false));
        l.add(new InsnNode(Opcodes.LCONST_0));
        l.add(new VarInsnNode(Opcodes.LSTORE, p.accLocal));
        l.add(none);
        return l;
    }

    /** A loop's exit edge: {@code loopEnd(id, tokL, cntL); tokL = 0} (so a later loopEnd of it is a no-op). */
    private InsnList loopEndAndClear(Probed p) {
        InsnList l = loopEnd(p);
        l.add(new InsnNode(Opcodes.ICONST_0));
        l.add(new VarInsnNode(Opcodes.ISTORE, p.tokLocal));
        return l;
    }

    /** Pushes probe id {@code id}: a constant, or in a piece {@code P_KEY.BASE + id}. */
    private InsnList pushId(int id) {
        InsnList l = new InsnList();
        if (piece != null) {
            l.add(new FieldInsnNode(Opcodes.GETSTATIC, piece.holder(), Piece.BASE, "I"));
            l.add(pushInt(id));
            l.add(new InsnNode(Opcodes.IADD));
        } else {
            l.add(pushInt(id));
        }
        return l;
    }

    private static AbstractInsnNode pushInt(int v) {
        if (v >= -1 && v <= 5) return new InsnNode(Opcodes.ICONST_0 + v);
        if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) return new IntInsnNode(Opcodes.BIPUSH, v);
        if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) return new IntInsnNode(Opcodes.SIPUSH, v);
        return new LdcInsnNode(v);
    }

    /** Source line of the instruction at index i: the line entry right after it, else the one before. */
    /**
     * The first source line of a loop: the smallest line of its instructions (javac and others
     * may put a loop's condition, its header, after the body); the header's line when none has one.
     */
    static int firstLineOf(AbstractInsnNode[] code, java.util.BitSet body, int header) {
        int line = -1, min = Integer.MAX_VALUE;
        for (int i = 0; i < code.length; i++) {
            if (code[i] instanceof LineNumberNode ln) line = ln.line;
            else if (code[i].getOpcode() >= 0 && body.get(i) && line > 0) min = Math.min(min, line);
        }
        return min != Integer.MAX_VALUE ? min : lineOf(code, header);
    }

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
