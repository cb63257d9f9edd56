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
     * Monitor depth before each instruction (the highest over all paths, capped at 16); -1 for an
     * unreachable instruction. A probe placed where the depth is positive must stay inside the
     * catch-all that releases the monitor, or the verifier rejects the method. An exception edge
     * carries the depth from before the instruction, except from {@code monitor-exit}: its monitor
     * counts as released, as in ART's verifier.
     */
    static int[] monitorDepth(MethodCode c) {
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
            // an exception leaves with the monitors held before the instruction, except from
            // monitor-exit, whose monitor counts as released (as in ART's verifier)
            int thrown = c.insns[i].getOpcode() == Opcode.MONITOR_EXIT ? after : d;
            for (int s : c.exc[i]) if (thrown > depth[s]) { depth[s] = thrown; work.add(s); }
        }
        return depth;
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
