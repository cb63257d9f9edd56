package org.hyprof.instrument.dex;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.iface.instruction.OneRegisterInstruction;
import org.jf.dexlib2.iface.instruction.ReferenceInstruction;
import org.jf.dexlib2.iface.instruction.RegisterRangeInstruction;
import org.jf.dexlib2.iface.instruction.TwoRegisterInstruction;
import org.jf.dexlib2.iface.instruction.formats.Instruction35c;
import org.jf.dexlib2.iface.reference.MethodReference;

/**
 * Forward analyses over a {@link MethodCode}'s control-flow graph that the passes need to place
 * code safely: which instructions are reachable and whether a monitor may be held there, and, in
 * constructors, where {@code this} gets initialized. Exception edges carry the state from
 * <em>before</em> the throwing instruction, as the verifier's do.
 */
final class Dataflow {
    private Dataflow() {}

    /**
     * Monitor depths: before each instruction (the highest over all paths, capped at 16; -1 where
     * unreachable) and at each handler's entry. A probe placed where a monitor is held must stay
     * under the catch-all that releases it (else the verifier rejects the method), and only if
     * that handler is already entered holding as many monitors: a new exception edge with another
     * depth would give the handler mismatched monitor stacks. An exception edge carries the depth
     * from before the instruction; {@code monitor-exit} has none: ART's verifier treats it as
     * unable to throw (its only failures would have failed the matching {@code monitor-enter}).
     */
    static final class Monitors {
        static final int NONE = -1, MIXED = -2;
        private final MethodCode c;
        /** Depth before each instruction. */
        final int[] depth;
        /** Depth at which exception edges enter each handler: NONE, MIXED or a depth. */
        final int[] handlerEntry;

        private Monitors(MethodCode c, int[] depth, int[] handlerEntry) {
            this.c = c;
            this.depth = depth;
            this.handlerEntry = handlerEntry;
        }

        boolean reachable(int i) {
            return depth[i] >= 0;
        }

        /** Depth after instruction i on its normal edges. */
        int after(int i) {
            return Dataflow.after(c, i, depth[i]);
        }

        /**
         * Coverage for code inserted at instruction i's place that runs with {@code d} monitors
         * held: none but the method's handler when d = 0; else the catch-all of i's try item, if
         * it has one that is entered with d monitors held; null when there is none.
         */
        Edits.Cover cover(int i, int d, boolean underHandler) {
            if (d == 0) return underHandler ? new Edits.Cover(-1, true) : Edits.Cover.NONE;
            int h = c.catchAllOf(i);
            return h >= 0 && handlerEntry[h] == d ? new Edits.Cover(c.tryOf[i], underHandler) : null;
        }
    }

    static Monitors monitors(MethodCode c) {
        int[] depth = new int[c.n];
        Arrays.fill(depth, -1);
        ArrayDeque<Integer> work = new ArrayDeque<>();
        depth[0] = 0;
        work.add(0);
        while (!work.isEmpty()) {
            int i = work.poll();
            int d = depth[i];
            int after = after(c, i, d);
            for (int s : c.succ[i]) if (after > depth[s]) { depth[s] = after; work.add(s); }
            if (c.insns[i].getOpcode() == Opcode.MONITOR_EXIT) continue;
            for (int s : c.exc[i]) if (d > depth[s]) { depth[s] = d; work.add(s); }
        }
        int[] entry = new int[c.n];
        Arrays.fill(entry, Monitors.NONE);
        for (int i = 0; i < c.n; i++) {
            if (depth[i] < 0 || c.insns[i].getOpcode() == Opcode.MONITOR_EXIT) continue;
            int t = depth[i];
            for (int h : c.exc[i]) entry[h] = entry[h] == Monitors.NONE || entry[h] == t ? t : Monitors.MIXED;
        }
        return new Monitors(c, depth, entry);
    }

    /** Monitor depth after instruction i, given depth d before it. */
    static int after(MethodCode c, int i, int d) {
        Opcode op = c.insns[i].getOpcode();
        if (op == Opcode.MONITOR_ENTER) return Math.min(d + 1, 16);
        if (op == Opcode.MONITOR_EXIT) return Math.max(d - 1, 0);
        return d;
    }


    /** Where a constructor initializes {@code this}. */
    record ConstructorInit(int superCall, boolean[] initialized) {}

    /**
     * Finds the one {@code invoke-direct <init>} whose receiver holds the uninitialized
     * {@code this} (which arrives in {@code thisRegister} and may be copied by {@code move-object})
     * and marks the instructions that only run after it.
     */
    static ConstructorInit constructorInit(MethodCode c, int thisRegister) throws Skip {
        final int unreached = 0, uninit = 1, init = 2, conflict = 3;
        int[] state = new int[c.n];
        BitSet[] regs = new BitSet[c.n];
        BitSet start = new BitSet();
        start.set(thisRegister);
        state[0] = uninit;
        regs[0] = start;
        ArrayDeque<Integer> work = new ArrayDeque<>();
        work.add(0);
        BitSet calls = new BitSet();
        while (!work.isEmpty()) {
            int i = work.poll();
            int st = state[i];
            BitSet r = regs[i];
            int outState = st;
            BitSet out = r;
            if (st == uninit) {
                Instruction in = c.insns[i];
                Opcode op = in.getOpcode();
                int receiver = -1;
                if ((op == Opcode.INVOKE_DIRECT || op == Opcode.INVOKE_DIRECT_RANGE)
                        && ((MethodReference) ((ReferenceInstruction) in).getReference()).getName().equals("<init>")) {
                    receiver = op == Opcode.INVOKE_DIRECT ? ((Instruction35c) in).getRegisterC()
                            : ((RegisterRangeInstruction) in).getStartRegister();
                }
                if (receiver >= 0 && r.get(receiver)) {
                    calls.set(i);
                    outState = init;
                    out = null;
                } else if (op.setsRegister()) {
                    int a = ((OneRegisterInstruction) in).getRegisterA();
                    boolean copy = (op == Opcode.MOVE_OBJECT || op == Opcode.MOVE_OBJECT_FROM16 || op == Opcode.MOVE_OBJECT_16)
                            && r.get(((TwoRegisterInstruction) in).getRegisterB());
                    if (copy != r.get(a) || (op.setsWideRegister() && r.get(a + 1))) {
                        out = (BitSet) r.clone();
                        out.set(a, copy);
                        if (op.setsWideRegister()) out.clear(a + 1);
                    }
                }
            }
            for (int s : c.succ[i]) merge(s, outState, out, state, regs, work);
            for (int s : c.exc[i]) merge(s, st, r, state, regs, work);
        }
        int found = calls.cardinality();
        if (found == 0) throw new Skip("constructor without a super()/this() call on this");
        if (found > 1) throw new Skip("constructor with " + found + " super()/this() call sites");
        boolean[] initialized = new boolean[c.n];
        for (int i = 0; i < c.n; i++) {
            if (state[i] == conflict) throw new Skip("constructor that initializes this on some paths only");
            initialized[i] = state[i] == init;
        }
        return new ConstructorInit(calls.nextSetBit(0), initialized);
    }

    private static void merge(int s, int st, BitSet r, int[] state, BitSet[] regs, ArrayDeque<Integer> work) {
        final int unreached = 0, uninit = 1, init = 2, conflict = 3;
        int old = state[s];
        if (old == conflict) return;
        if (old == unreached) {
            state[s] = st;
            regs[s] = r;
            work.add(s);
        } else if (old != st) {
            state[s] = conflict;
            regs[s] = null;
            work.add(s);
        } else if (st == uninit && !r.equals(regs[s])) {
            BitSet both = (BitSet) regs[s].clone();
            both.and(r);
            if (!both.equals(regs[s])) {
                regs[s] = both;
                work.add(s);
            }
        }
    }
}
