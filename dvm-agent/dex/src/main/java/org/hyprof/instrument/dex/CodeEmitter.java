package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.iface.ExceptionHandler;
import org.jf.dexlib2.iface.MethodImplementation;
import org.jf.dexlib2.iface.TryBlock;
import org.jf.dexlib2.iface.debug.DebugItem;
import org.jf.dexlib2.iface.debug.EndLocal;
import org.jf.dexlib2.iface.debug.LineNumber;
import org.jf.dexlib2.iface.debug.RestartLocal;
import org.jf.dexlib2.iface.debug.SetSourceFile;
import org.jf.dexlib2.iface.debug.StartLocal;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.iface.instruction.OneRegisterInstruction;
import org.jf.dexlib2.iface.instruction.SwitchElement;
import org.jf.dexlib2.iface.instruction.SwitchPayload;
import org.jf.dexlib2.iface.instruction.TwoRegisterInstruction;
import org.jf.dexlib2.base.BaseExceptionHandler;
import org.jf.dexlib2.base.BaseTryBlock;
import org.jf.dexlib2.immutable.debug.ImmutableEndLocal;
import org.jf.dexlib2.immutable.debug.ImmutableEpilogueBegin;
import org.jf.dexlib2.immutable.debug.ImmutableLineNumber;
import org.jf.dexlib2.immutable.debug.ImmutablePrologueEnd;
import org.jf.dexlib2.immutable.debug.ImmutableRestartLocal;
import org.jf.dexlib2.immutable.debug.ImmutableSetSourceFile;
import org.jf.dexlib2.immutable.debug.ImmutableStartLocal;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction10t;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction10x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction20t;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction21t;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction22t;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction30t;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction31t;
import org.jf.dexlib2.immutable.instruction.ImmutablePackedSwitchPayload;
import org.jf.dexlib2.immutable.instruction.ImmutableSparseSwitchPayload;
import org.jf.dexlib2.immutable.instruction.ImmutableSwitchElement;

/**
 * Pass 5, layout. <b>Invariant:</b> the emitted code does what the original did plus the inserted
 * code, at the places {@link Edits} names: every branch, switch case, payload reference, handler
 * and debug entry points where it pointed before (or to its trampoline), and every instruction
 * keeps its exception handlers, in their order.
 *
 * <p>Order: for each original instruction i, {@code edgeIn[i]}, i's label, {@code before[i]}, i;
 * then trampolines (of branches and of handlers), then the exceptional-exit handler. {@code goto}s take the smallest form that
 * reaches (re-laid out until stable); payloads are 4-byte aligned with a {@code nop}. A method
 * that no longer fits — an {@code if-*} past ±32 K code units, a try range over 65,535 units — is
 * skipped. Try items are rebuilt from scratch per instruction: original instructions keep their
 * item's handlers plus the appended catch-all where they are covered and the item has none;
 * inserted code gets only the catch-all its {@link Edits.Cover} names. Consecutive instructions
 * with equal handler lists form one try item, typed handlers first and the catch-all last.
 */
final class CodeEmitter {
    private static final int ORIG = 0, NEW = 1, LABEL = 2, TRAMP_GOTO = 3;
    private static final ImmutableInstruction10x NOP = new ImmutableInstruction10x(Opcode.NOP);

    private final MethodCode c;
    private final Edits e;

    // nodes, as parallel arrays
    private int count;
    private int[] kind = new int[64];
    private int[] arg = new int[64];          // ORIG: index; LABEL: label id; TRAMP_GOTO: target label id
    private Instruction[] insn = new Instruction[64];
    private Edits.Cover[] cover = new Edits.Cover[64];
    private int[] size, address, pad;
    private final int[] labelAddr;
    /** Node of each original instruction. */
    private final int[] origNode;
    /** First node of the code in front of each original instruction ({@code edgeIn}, label, {@code before}). */
    private final int[] frontNode;
    /** Node of each trampoline's label. */
    private final int[] trampolineNode;
    /** The node right after the argument copies at method entry. */
    private int afterEntryMoves = -1;
    private final int endLabel, handlerLabel;

    private CodeEmitter(MethodCode c, Edits e) {
        this.c = c;
        this.e = e;
        endLabel = c.n;
        handlerLabel = c.n + 1 + e.trampolines.size();
        labelAddr = new int[handlerLabel + 1];
        origNode = new int[c.n];
        frontNode = new int[c.n];
        trampolineNode = new int[e.trampolines.size()];
    }

    /** The rewritten code. */
    static MethodImplementation emit(MethodCode c, Edits e, int registerCount) throws Skip {
        return new CodeEmitter(c, e).run(registerCount);
    }

    private MethodImplementation run(int registerCount) throws Skip {
        for (int i = 0; i < c.n; i++) {
            frontNode[i] = count;
            List<Edits.Chunk> in = e.edgeIn.get(i);
            if (i == 0 && in != null) afterEntryMoves = count + e.entryMoves;
            if (in != null) for (Edits.Chunk ch : in) chunk(ch);
            add(LABEL, i, null, null);
            if (e.before[i] != null) chunk(e.before[i]);
            origNode[i] = count;
            add(ORIG, i, c.insns[i], null);
        }
        add(LABEL, endLabel, null, null);
        for (int t = 0; t < e.trampolines.size(); t++) {
            Edits.Trampoline tr = e.trampolines.get(t);
            trampolineNode[t] = count;
            add(LABEL, c.n + 1 + t, null, null);
            chunk(tr.chunk());
            add(TRAMP_GOTO, tr.target(), null, tr.chunk().cover());
        }
        if (e.handler != null) {
            add(LABEL, handlerLabel, null, null);
            for (Instruction h : e.handler) add(NEW, 0, h, Edits.Cover.NONE);
        }
        layout();
        List<Instruction> out = instructions();
        return new Code(registerCount, out, tryBlocks(), debugItems());
    }

    private void chunk(Edits.Chunk ch) {
        for (Instruction i : ch.code()) add(NEW, 0, i, ch.cover());
    }

    private void add(int k, int a, Instruction i, Edits.Cover cv) {
        if (count == kind.length) {
            int m = count * 2;
            kind = Arrays.copyOf(kind, m);
            arg = Arrays.copyOf(arg, m);
            insn = Arrays.copyOf(insn, m);
            cover = Arrays.copyOf(cover, m);
        }
        kind[count] = k;
        arg[count] = a;
        insn[count] = i;
        cover[count] = cv;
        count++;
    }

    private boolean isVariableGoto(int k) {
        return kind[k] == TRAMP_GOTO || (kind[k] == ORIG && MethodCode.isGoto(insn[k].getOpcode()));
    }

    /** The label a goto node jumps to. */
    private int gotoLabel(int k) {
        if (kind[k] == TRAMP_GOTO) return arg[k];
        int i = arg[k];
        return branchLabel(i, c.target[i]);
    }

    /** Label id of original branch i's target t: t itself, or its trampoline. */
    private int branchLabel(int i, int t) {
        int tr = e.trampolineFor(i, t);
        return tr < 0 ? t : c.n + 1 + tr;
    }

    private void layout() throws Skip {
        size = new int[count];
        address = new int[count];
        pad = new int[count];
        for (int k = 0; k < count; k++) {
            if (kind[k] == LABEL) size[k] = 0;
            else if (isVariableGoto(k)) size[k] = 1;
            else size[k] = insn[k].getCodeUnits();
        }
        boolean changed = true;
        while (changed) {
            int a = 0;
            for (int k = 0; k < count; k++) {
                pad[k] = kind[k] == ORIG && c.payload[arg[k]] && (a & 1) != 0 ? 1 : 0;
                address[k] = a + pad[k];
                if (kind[k] == LABEL) labelAddr[arg[k]] = a;
                a = address[k] + size[k];
            }
            // a payload's label is the payload itself, after its padding
            for (int k = 0; k < count; k++) if (kind[k] == ORIG && pad[k] != 0) labelAddr[arg[k]] = address[k];
            changed = false;
            for (int k = 0; k < count; k++) {
                if (!isVariableGoto(k)) continue;
                int off = labelAddr[gotoLabel(k)] - address[k];
                int need = off == 0 ? 3 : off >= Byte.MIN_VALUE && off <= Byte.MAX_VALUE ? 1
                        : off >= Short.MIN_VALUE && off <= Short.MAX_VALUE ? 2 : 3;
                if (need > size[k]) { size[k] = need; changed = true; }
            }
        }
    }

    private List<Instruction> instructions() throws Skip {
        List<Instruction> out = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            if (kind[k] == LABEL) continue;
            if (pad[k] != 0) out.add(NOP);
            if (kind[k] == NEW) { out.add(insn[k]); continue; }
            if (kind[k] == TRAMP_GOTO) { out.add(jump(k)); continue; }
            int i = arg[k];
            Instruction in = insn[k];
            Opcode op = in.getOpcode();
            if (MethodCode.isGoto(op)) out.add(jump(k));
            else if (MethodCode.isIf(op)) {
                int off = labelAddr[branchLabel(i, c.target[i])] - address[k];
                if (off < Short.MIN_VALUE || off > Short.MAX_VALUE || off == 0)
                    throw new Skip("too large with probes (a branch past ±32K code units)");
                if (op.format == org.jf.dexlib2.Format.Format21t)
                    out.add(new ImmutableInstruction21t(op, ((OneRegisterInstruction) in).getRegisterA(), off));
                else
                    out.add(new ImmutableInstruction22t(op, ((TwoRegisterInstruction) in).getRegisterA(),
                            ((TwoRegisterInstruction) in).getRegisterB(), off));
            } else if (op == Opcode.PACKED_SWITCH || op == Opcode.SPARSE_SWITCH || op == Opcode.FILL_ARRAY_DATA) {
                out.add(new ImmutableInstruction31t(op, ((OneRegisterInstruction) in).getRegisterA(),
                        labelAddr[c.target[i]] - address[k]));
            } else if (op == Opcode.PACKED_SWITCH_PAYLOAD || op == Opcode.SPARSE_SWITCH_PAYLOAD) {
                out.add(payload(i, (SwitchPayload) in));
            } else out.add(in);
        }
        return out;
    }

    private Instruction jump(int k) {
        int off = labelAddr[gotoLabel(k)] - address[k];
        return switch (size[k]) {
            case 1 -> new ImmutableInstruction10t(Opcode.GOTO, off);
            case 2 -> new ImmutableInstruction20t(Opcode.GOTO_16, off);
            default -> new ImmutableInstruction30t(Opcode.GOTO_32, off);
        };
    }

    /** A switch payload with offsets from its (possibly moved) switch to its (possibly retargeted) cases. */
    private Instruction payload(int p, SwitchPayload sp) {
        int sw = -1;
        for (int i = 0; i < c.n && sw < 0; i++) if (c.target[i] == p && c.switchTargets[i] != null) sw = i;
        List<? extends SwitchElement> els = sp.getSwitchElements();
        List<ImmutableSwitchElement> out = new ArrayList<>(els.size());
        int swAddr = address[origNode[sw]];
        for (int k = 0; k < els.size(); k++) {
            int t = c.switchTargets[sw][k];
            out.add(new ImmutableSwitchElement(els.get(k).getKey(), labelAddr[branchLabel(sw, t)] - swAddr));
        }
        return sp.getOpcode() == Opcode.PACKED_SWITCH_PAYLOAD ? new ImmutablePackedSwitchPayload(out)
                : new ImmutableSparseSwitchPayload(out);
    }

    // ------------------------------------------------------------------ exception handlers

    private final Map<Long, List<Handler>> handlerLists = new HashMap<>();

    /** Handler-list key of node k: try item + 1 (bits 0-31), typed handlers kept (32), covered by ours (33). */
    private long key(int k) {
        int item;
        boolean typed, ours;
        if (kind[k] == ORIG) {
            int i = arg[k];
            if (c.payload[i]) return 0;
            item = c.tryOf[i];
            typed = true;
            ours = e.coveredByHandler != null && e.coveredByHandler[i];
        } else {
            Edits.Cover cv = cover[k];
            item = cv.catchAllOf();
            typed = false;
            ours = e.handler != null && cv.underHandler();
        }
        if (item >= 0 && !typed && c.tries[item].catchAll < 0) item = -1;
        if (item < 0) typed = false;
        return (item + 1L) | (typed ? 1L << 32 : 0) | (ours ? 1L << 33 : 0);
    }

    private List<Handler> handlers(long key) {
        List<Handler> l = handlerLists.get(key);
        if (l != null) return l;
        l = new ArrayList<>(2);
        int item = (int) (key & 0xffffffffL) - 1;
        boolean typed = (key & (1L << 32)) != 0, ours = (key & (1L << 33)) != 0;
        boolean catchAll = false;
        if (item >= 0) {
            MethodCode.TryItem t = c.tries[item];
            for (int h = 0; h < t.types.length; h++) {
                if (!typed && t.types[h] != null) continue;
                Integer tr = e.handlerTrampolines.get(t.handlers[h]);
                l.add(new Handler(t.types[h], labelAddr[tr == null ? t.handlers[h] : c.n + 1 + tr]));
                catchAll |= t.types[h] == null;
            }
        }
        if (ours && !catchAll) l.add(new Handler(null, labelAddr[handlerLabel]));
        handlerLists.put(key, l);
        return l;
    }

    private List<TryBlock<? extends ExceptionHandler>> tryBlocks() throws Skip {
        List<TryBlock<? extends ExceptionHandler>> out = new ArrayList<>();
        long spanKey = 0;
        int spanStart = 0, end = 0;
        for (int k = 0; k < count; k++) {
            if (kind[k] == LABEL || size[k] == 0) continue;
            long key = key(k);
            int start = address[k] - pad[k];
            if (key != spanKey) {
                closeSpan(out, spanKey, spanStart, start);
                spanKey = key;
                spanStart = start;
            }
            end = address[k] + size[k];
        }
        closeSpan(out, spanKey, spanStart, end);
        return out;
    }

    private void closeSpan(List<TryBlock<? extends ExceptionHandler>> out, long key, int start, int end) throws Skip {
        if (end <= start) return;
        List<Handler> hs = handlers(key);
        if (hs.isEmpty()) return;
        if (end - start > 65535) throw new Skip("too large with probes (a try range over 65,535 code units)");
        out.add(new Try(start, end - start, hs));
    }

    // ------------------------------------------------------------------ debug items

    /**
     * The original debug entries at the new addresses, plus the arguments' locals after the entry
     * copies and a line for each trampoline. Local entries (and the prologue/epilogue markers)
     * stay on their instruction's label, so every original instruction sees the locals it saw;
     * line entries (and a source-file change, which lines depend on) move to the front of the code
     * inserted before their instruction, so a probe carries the line of the instruction it
     * precedes and the instruction keeps its own. A trampoline ({@code probes; goto T}) carries
     * T's line. A stable sort by address keeps the order of entries at one address: the argument
     * locals first, so the compiler's own entries at the method's first instruction apply after
     * them.
     */
    private List<DebugItem> debugItems() {
        List<DebugItem> out = new ArrayList<>(c.debug.size() + 2 * e.entryLocals.size() + trampolineNode.length);
        if (afterEntryMoves >= 0 && !e.entryLocals.isEmpty()) {
            int a = address[afterEntryMoves];
            for (Edits.EntryLocal l : e.entryLocals) out.add(new ImmutableEndLocal(a, l.arrival(), l.name(), l.type(), null));
            for (Edits.EntryLocal l : e.entryLocals) out.add(new ImmutableStartLocal(a, l.register(), l.name(), l.type(), null));
        }
        boolean sourceFiles = false;
        for (DebugItem d : c.debug) {
            int a = newAddress(d.getCodeAddress());
            DebugItem m;
            if (d instanceof LineNumber x) m = new ImmutableLineNumber(frontAddress(d.getCodeAddress()), x.getLineNumber());
            else if (d instanceof StartLocal x) m = new ImmutableStartLocal(a, x.getRegister(), x.getName(), x.getType(), x.getSignature());
            else if (d instanceof EndLocal x) m = new ImmutableEndLocal(a, x.getRegister(), x.getName(), x.getType(), x.getSignature());
            else if (d instanceof RestartLocal x) m = new ImmutableRestartLocal(a, x.getRegister(), x.getName(), x.getType(), x.getSignature());
            else if (d instanceof SetSourceFile x) {
                m = new ImmutableSetSourceFile(frontAddress(d.getCodeAddress()), x.getSourceFile());
                sourceFiles = true;
            } else if (d.getDebugItemType() == org.jf.dexlib2.DebugItemType.PROLOGUE_END) m = new ImmutablePrologueEnd(a);
            else if (d.getDebugItemType() == org.jf.dexlib2.DebugItemType.EPILOGUE_BEGIN) m = new ImmutableEpilogueBegin(a);
            else continue;
            out.add(m);
        }
        // with source-file changes a trampoline's line could name the wrong file: it keeps the one before it
        for (int t = 0; t < trampolineNode.length && !sourceFiles; t++) {
            int line = originalLine(e.trampolines.get(t).target());
            if (line >= 0) out.add(new ImmutableLineNumber(address[trampolineNode[t]], line));
        }
        out.sort(java.util.Comparator.comparingInt(DebugItem::getCodeAddress));
        return out;
    }

    /** The line original instruction i had: the last line entry at or before it, or -1. */
    private int originalLine(int i) {
        int line = -1;
        for (DebugItem d : c.debug) {
            if (d.getCodeAddress() > c.addr[i]) break;
            if (d instanceof LineNumber ln) line = ln.getLineNumber();
        }
        return line;
    }

    /** New address of the code in front of the original instruction at (or containing) an original address. */
    private int frontAddress(int original) {
        if (original >= c.addr[c.n]) return labelAddr[endLabel];
        int i = Arrays.binarySearch(c.addr, 0, c.n, original);
        if (i < 0) i = -i - 2;
        return address[frontNode[Math.max(i, 0)]];
    }

    /** New address of an original code address: the label of the instruction there (or containing it). */
    private int newAddress(int original) {
        if (original >= c.addr[c.n]) return labelAddr[endLabel];
        int i = Arrays.binarySearch(c.addr, 0, c.n, original);
        if (i < 0) i = -i - 2;
        return labelAddr[Math.max(i, 0)];
    }

    /** One exception handler: type (null = catch-all) and code address. */
    static final class Handler extends BaseExceptionHandler {
        private final String type;
        private final int address;

        Handler(String type, int address) {
            this.type = type;
            this.address = address;
        }

        @Override public String getExceptionType() { return type; }
        @Override public int getHandlerCodeAddress() { return address; }
    }

    /** One try item. */
    static final class Try extends BaseTryBlock<Handler> {
        private final int start, units;
        private final List<Handler> handlers;

        Try(int start, int units, List<Handler> handlers) {
            this.start = start;
            this.units = units;
            this.handlers = handlers;
        }

        @Override public int getStartCodeAddress() { return start; }
        @Override public int getCodeUnitCount() { return units; }
        @Override public List<Handler> getExceptionHandlers() { return handlers; }
    }

    /** The emitted code: registers, instructions, try items, debug items. */
    record Code(int registerCount, List<Instruction> instructions,
                List<TryBlock<? extends ExceptionHandler>> tryBlocks, List<DebugItem> debugItems)
            implements MethodImplementation {
        @Override public int getRegisterCount() { return registerCount; }
        @Override public Iterable<? extends Instruction> getInstructions() { return instructions; }
        @Override public List<? extends TryBlock<? extends ExceptionHandler>> getTryBlocks() { return tryBlocks; }
        @Override public Iterable<? extends DebugItem> getDebugItems() { return debugItems; }
    }
}
