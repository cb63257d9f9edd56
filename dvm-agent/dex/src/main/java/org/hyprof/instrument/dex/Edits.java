package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jf.dexlib2.iface.instruction.Instruction;

/**
 * What the passes want inserted into one method, in terms of the original instruction indices;
 * {@link CodeEmitter} lays it out. Original instructions are never changed except branch targets
 * (to trampolines) and never reordered.
 *
 * <ul>
 * <li>{@link #edgeIn}[i] — code on the fall-through edge from i-1 into i: it runs only when
 *     control falls into i, not when it jumps there (branch targets stay on i itself). For i = 0
 *     it is the method entry.</li>
 * <li>{@link #before}[i] — code every path into i runs (branch targets move onto it): exit probes
 *     before returns.</li>
 * <li>{@link #trampolines} — code on a jump edge u → v: the branch of u is pointed at
 *     {@code code; goto v}, placed after the original code; or code on the exception edges into
 *     a handler h without {@code move-exception}: every try item's entry for h is pointed at
 *     {@code code; goto h} ({@link #handlerTrampolines}).</li>
 * <li>{@link #handler} — the appended exceptional-exit handler, with which original instructions
 *     it covers ({@link #coveredByHandler}).</li>
 * <li>{@link #entryLocals} — debug entries for the arguments, placed right after the first
 *     {@link #entryMoves} instructions of the method entry (the argument copies).</li>
 * </ul>
 */
final class Edits {
    /**
     * Where inserted code sits for exception coverage. {@code catchAllOf} ≥ 0: a monitor is held
     * here, so the code stays inside that try item's catch-all (which releases it), never under
     * its typed handlers; {@code underHandler}: inside the method's exceptional-exit handler range.
     */
    record Cover(int catchAllOf, boolean underHandler) {
        static final Cover NONE = new Cover(-1, false);
    }

    record Chunk(List<Instruction> code, Cover cover) {}

    record Trampoline(Chunk chunk, int target) {}

    /** An argument's local, moved by the entry copy from its arrival register to {@code register}. */
    record EntryLocal(int register, int arrival, String name, String type) {}

    final int n;
    final List<List<Chunk>> edgeIn;
    final Chunk[] before;
    final List<Trampoline> trampolines = new ArrayList<>();
    /** (branch index, original target index) → trampoline index. */
    final Map<Long, Integer> retarget = new HashMap<>();
    /** Original handler index → the trampoline its try items' entries now go to. */
    final Map<Integer, Integer> handlerTrampolines = new HashMap<>();
    List<Instruction> handler;
    boolean[] coveredByHandler;
    List<EntryLocal> entryLocals = List.of();
    /** How many instructions of the first chunk on {@code edgeIn[0]} the entry locals follow. */
    int entryMoves;

    Edits(int n) {
        this.n = n;
        edgeIn = new ArrayList<>(n + 1);
        for (int i = 0; i <= n; i++) edgeIn.add(null);
        before = new Chunk[n];
    }

    void addEdgeIn(int i, Chunk c) {
        if (edgeIn.get(i) == null) edgeIn.set(i, new ArrayList<>(2));
        edgeIn.get(i).add(c);
    }

    void addTrampoline(int branch, int target, Chunk c) {
        trampolines.add(new Trampoline(c, target));
        retarget.put(key(branch, target), trampolines.size() - 1);
    }

    void addHandlerTrampoline(int handler, Chunk c) {
        trampolines.add(new Trampoline(c, handler));
        handlerTrampolines.put(handler, trampolines.size() - 1);
    }

    /** The trampoline the jump from {@code branch} to {@code target} now goes to, or -1. */
    int trampolineFor(int branch, int target) {
        Integer t = retarget.get(key(branch, target));
        return t == null ? -1 : t;
    }

    private static long key(int u, int v) {
        return ((long) u << 32) | (v & 0xffffffffL);
    }
}
