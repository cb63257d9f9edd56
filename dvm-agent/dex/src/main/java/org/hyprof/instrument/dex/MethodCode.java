package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.iface.ExceptionHandler;
import org.jf.dexlib2.iface.MethodImplementation;
import org.jf.dexlib2.iface.TryBlock;
import org.jf.dexlib2.iface.debug.DebugItem;
import org.jf.dexlib2.iface.debug.LineNumber;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.iface.instruction.OffsetInstruction;
import org.jf.dexlib2.iface.instruction.SwitchElement;
import org.jf.dexlib2.iface.instruction.SwitchPayload;

/**
 * The original code of one method, decoded once and read by every pass: instructions by index,
 * their code addresses, branch and switch targets as instruction indices, the try items, and the
 * control-flow graph with normal edges (fall-through, branch, switch) and exception edges (from
 * each instruction that can throw to the handlers of its try item). Nothing here is modified.
 */
final class MethodCode {
    /** One try item: a code-address range and its handlers (typed ones first, a catch-all last). */
    static final class TryItem {
        final int startAddress, endAddress;
        final String[] types; // null = catch-all
        final int[] handlers; // instruction indices
        /** Index into types/handlers of the catch-all, or -1. */
        final int catchAll;

        TryItem(int startAddress, int endAddress, String[] types, int[] handlers) {
            this.startAddress = startAddress;
            this.endAddress = endAddress;
            this.types = types;
            this.handlers = handlers;
            int c = -1;
            for (int i = 0; i < types.length; i++) if (types[i] == null) c = i;
            this.catchAll = c;
        }
    }

    final int registerCount;
    final Instruction[] insns;
    /** Code address of each instruction; addr[n] = code units of the method. */
    final int[] addr;
    final int n;
    /** For goto/if-*: target index; for switch and fill-array-data: payload index; else -1. */
    final int[] target;
    /** For packed/sparse-switch instructions: the target index of each payload element. */
    final int[][] switchTargets;
    final boolean[] payload;
    final TryItem[] tries;
    /** Try item covering each instruction, or -1. */
    final int[] tryOf;
    final int[][] succ;
    final int[][] exc;
    /** True for handler entry points (targets of exception edges). */
    final boolean[] handlerEntry;
    final List<DebugItem> debug;

    MethodCode(MethodImplementation impl) throws Skip {
        registerCount = impl.getRegisterCount();
        List<Instruction> list = new ArrayList<>();
        for (Instruction i : impl.getInstructions()) list.add(i);
        n = list.size();
        if (n == 0) throw new Skip("no code");
        insns = list.toArray(new Instruction[0]);
        addr = new int[n + 1];
        for (int i = 0; i < n; i++) {
            Opcode op = insns[i].getOpcode();
            if (op.odexOnly()) throw new Skip("optimized (odex) instruction " + op.name);
            addr[i + 1] = addr[i] + insns[i].getCodeUnits();
        }
        int[] indexAt = new int[addr[n] + 1];
        Arrays.fill(indexAt, -1);
        for (int i = 0; i <= n; i++) indexAt[addr[i]] = i;

        target = new int[n];
        Arrays.fill(target, -1);
        switchTargets = new int[n][];
        payload = new boolean[n];
        int[] payloadReferrer = new int[n];
        Arrays.fill(payloadReferrer, -1);
        for (int i = 0; i < n; i++) {
            Instruction in = insns[i];
            Opcode op = in.getOpcode();
            if (op == Opcode.PACKED_SWITCH_PAYLOAD || op == Opcode.SPARSE_SWITCH_PAYLOAD || op == Opcode.ARRAY_PAYLOAD) {
                payload[i] = true;
                continue;
            }
            if (in instanceof OffsetInstruction off) {
                int t = at(indexAt, addr[i] + off.getCodeOffset());
                if (t < 0 || t >= n) throw new Skip("malformed code: branch to a non-instruction at " + addr[i]);
                target[i] = t;
            }
        }
        for (int i = 0; i < n; i++) {
            Opcode op = insns[i].getOpcode();
            boolean sw = op == Opcode.PACKED_SWITCH || op == Opcode.SPARSE_SWITCH;
            if (!sw && op != Opcode.FILL_ARRAY_DATA) continue;
            int p = target[i];
            Opcode want = op == Opcode.PACKED_SWITCH ? Opcode.PACKED_SWITCH_PAYLOAD
                    : op == Opcode.SPARSE_SWITCH ? Opcode.SPARSE_SWITCH_PAYLOAD : Opcode.ARRAY_PAYLOAD;
            if (insns[p].getOpcode() != want) throw new Skip("malformed code: " + op.name + " without its payload");
            if (payloadReferrer[p] >= 0) throw new Skip("payload shared by two instructions");
            payloadReferrer[p] = i;
            if (sw) {
                List<? extends SwitchElement> els = ((SwitchPayload) insns[p]).getSwitchElements();
                int[] ts = new int[els.size()];
                for (int k = 0; k < ts.length; k++) {
                    int t = at(indexAt, addr[i] + els.get(k).getOffset());
                    if (t < 0 || t >= n || payload[t]) throw new Skip("malformed code: switch target at " + addr[i]);
                    ts[k] = t;
                }
                switchTargets[i] = ts;
            }
        }

        List<? extends TryBlock<? extends ExceptionHandler>> blocks = impl.getTryBlocks();
        tries = new TryItem[blocks.size()];
        tryOf = new int[n];
        Arrays.fill(tryOf, -1);
        handlerEntry = new boolean[n];
        for (int k = 0; k < tries.length; k++) {
            TryBlock<? extends ExceptionHandler> b = blocks.get(k);
            List<? extends ExceptionHandler> hs = b.getExceptionHandlers();
            String[] types = new String[hs.size()];
            int[] handlers = new int[hs.size()];
            for (int h = 0; h < types.length; h++) {
                types[h] = hs.get(h).getExceptionType();
                int t = at(indexAt, hs.get(h).getHandlerCodeAddress());
                if (t < 0 || t >= n || payload[t]) throw new Skip("malformed code: handler outside the code");
                handlers[h] = t;
                handlerEntry[t] = true;
            }
            int start = b.getStartCodeAddress(), end = start + b.getCodeUnitCount();
            tries[k] = new TryItem(start, end, types, handlers);
            int first = at(indexAt, start);
            if (first < 0 || end > addr[n] || end <= start) throw new Skip("malformed code: try item outside the code");
            for (int i = first; i < n && addr[i] < end; i++) {
                if (tryOf[i] >= 0) throw new Skip("malformed code: overlapping try items");
                tryOf[i] = k;
            }
        }

        succ = new int[n][];
        exc = new int[n][];
        int[] none = new int[0];
        for (int i = 0; i < n; i++) {
            Opcode op = insns[i].getOpcode();
            int[] s;
            if (payload[i]) s = none;
            else if (isGoto(op)) s = new int[] {target[i]};
            else if (isIf(op)) s = target[i] == i + 1 ? new int[] {i + 1} : new int[] {target[i], i + 1};
            else if (op == Opcode.PACKED_SWITCH || op == Opcode.SPARSE_SWITCH) {
                int[] ts = Arrays.copyOf(switchTargets[i], switchTargets[i].length + 1);
                ts[ts.length - 1] = i + 1;
                s = Arrays.stream(ts).distinct().toArray();
            } else if (op == Opcode.NOP && (i + 1 == n || payload[i + 1])) s = none; // alignment before a payload
            else if (op.canContinue()) s = new int[] {i + 1};
            else s = none;
            for (int t : s) {
                if (t >= n || payload[t]) throw new Skip("malformed code: execution runs off the code at " + addr[i]);
            }
            succ[i] = s;
            exc[i] = tryOf[i] >= 0 && op.canThrow() && !payload[i]
                    ? Arrays.stream(tries[tryOf[i]].handlers).distinct().toArray() : none;
        }
        List<DebugItem> d = new ArrayList<>();
        for (DebugItem item : impl.getDebugItems()) d.add(item);
        debug = d;
    }

    private static int at(int[] indexAt, int address) {
        return address < 0 || address >= indexAt.length ? -1 : indexAt[address];
    }

    static boolean isGoto(Opcode op) {
        return op == Opcode.GOTO || op == Opcode.GOTO_16 || op == Opcode.GOTO_32;
    }

    static boolean isIf(Opcode op) {
        return op.format == org.jf.dexlib2.Format.Format21t || op.format == org.jf.dexlib2.Format.Format22t;
    }

    static boolean isReturn(Opcode op) {
        return op == Opcode.RETURN_VOID || op == Opcode.RETURN || op == Opcode.RETURN_WIDE
                || op == Opcode.RETURN_OBJECT || op == Opcode.RETURN_VOID_NO_BARRIER;
    }

    static boolean isMoveResult(Opcode op) {
        return op == Opcode.MOVE_RESULT || op == Opcode.MOVE_RESULT_WIDE || op == Opcode.MOVE_RESULT_OBJECT;
    }

    /**
     * The first source line of a loop: the smallest line of its instructions (a compiler may put a
     * loop's condition, its header, after the body: the header's line is not where the loop
     * starts in the source); the header's line when none of them has one.
     */
    int firstLineOf(java.util.BitSet body, int header) {
        int[] lines = lines();
        int min = Integer.MAX_VALUE;
        for (int i = body.nextSetBit(0); i >= 0 && i < n; i = body.nextSetBit(i + 1))
            if (lines[i] > 0) min = Math.min(min, lines[i]);
        return min != Integer.MAX_VALUE ? min : lineAt(header);
    }

    private int[] lineCache;

    /** Each instruction's line from the line table (the last entry at or before it), -1 before the first. */
    private int[] lines() {
        if (lineCache != null) return lineCache;
        int[] out = new int[n];
        java.util.Arrays.fill(out, -1);
        List<LineNumber> entries = new ArrayList<>();
        for (DebugItem d : debug) if (d instanceof LineNumber ln) entries.add(ln);
        entries.sort(java.util.Comparator.comparingInt(DebugItem::getCodeAddress));
        int k = 0, line = -1;
        for (int i = 0; i < n; i++) {
            while (k < entries.size() && entries.get(k).getCodeAddress() <= addr[i]) line = entries.get(k++).getLineNumber();
            out[i] = line;
        }
        return lineCache = out;
    }

    /** The first source line of the method, or -1. */
    int firstLine() {
        for (DebugItem d : debug) if (d instanceof LineNumber ln) return ln.getLineNumber();
        return -1;
    }

    /**
     * The source line of instruction i: an entry at its address, else the last one before it,
     * else (compilers often leave a loop's first block without one) the first one after it; -1
     * when the method has no line numbers.
     */
    int lineAt(int i) {
        int before = -1;
        for (DebugItem d : debug) {
            if (!(d instanceof LineNumber ln)) continue;
            if (d.getCodeAddress() > addr[i]) return before >= 0 ? before : ln.getLineNumber();
            before = ln.getLineNumber();
        }
        return before;
    }

    /** The catch-all handler index of instruction i's try item, or -1. */
    int catchAllOf(int i) {
        if (tryOf[i] < 0) return -1;
        TryItem t = tries[tryOf[i]];
        return t.catchAll < 0 ? -1 : t.handlers[t.catchAll];
    }
}
