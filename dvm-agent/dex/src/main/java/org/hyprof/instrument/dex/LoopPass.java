package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hyprof.instrument.loops.LoopFinder;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.iface.instruction.Instruction;

/**
 * Pass 3, loop probes. <b>Invariant:</b> a loop's token register ({@link RegisterShift#loopToken})
 * is nonzero only while the loop is open, and its counter ({@link RegisterShift#loopCount}) holds
 * the back edges taken since the loop was entered; each probe runs exactly when its control-flow
 * edge is taken, and no original instruction moves relative to another:
 * <ul>
 * <li>every edge into the header from outside the loop (and the method entry when the header is
 *     the first instruction): {@code tok = Probe.loopBegin(id); count = 0};</li>
 * <li>every back edge: {@code count += 1} — an {@code add-int/lit8}, no call;</li>
 * <li>every edge leaving the loop, normal or exceptional (to a handler of the method outside the
 *     loop): {@code Probe.loopEnd(id, tok, count); tok = 0}, innermost loop first where one edge
 *     leaves several.</li>
 * </ul>
 * So {@code loopEnd} receives exactly the back edges taken since its {@code loopBegin}, however
 * the loop is left: by a branch, a {@code break} or {@code return} out of nested loops, or an
 * exception caught in the method. A token of 0 makes {@code loopEnd} do nothing, which is what
 * lets its code go at a handler's entry that other paths reach too. An exception that leaves the
 * method closes what is open in the exceptional-exit handler ({@link ExceptionalExitPass}).
 *
 * <p>Loops are the natural loops of {@link LoopFinder} (shared with the class-file rewriter) on
 * the graph with exception edges. Code goes on an edge u → v: between u and v when u falls
 * through; before u when u is a {@code goto} (its only edge); in a trampoline ({@code probes;
 * goto v}) that u's branch or switch case is pointed at when u jumps; after v when v is the
 * {@code move-result} of u (nothing may separate the two). On an exception edge into a handler h
 * it goes after h's {@code move-exception} (which must stay first), or, when h has none, in a
 * trampoline that the try items' handler entries for h are pointed at. Probe calls are never put
 * under the method's typed handlers (new exception edges could make a handler's registers
 * conflict); where a monitor is held they stay under the catch-all that releases it.
 */
final class LoopPass {
    private LoopPass() {}

    /** A loop that gets probes, with its first source line (the smallest line of its instructions). */
    record Planned(LoopFinder.Loop loop, int line) {}

    record Found(List<Planned> loops, List<String> skips) {}

    private static final Found NONE = new Found(List.of(), List.of());

    /**
     * Finds the loops, and decides (before any id is handed out) which can carry probes: at most
     * {@code maxLoops} (registers), in code order.
     */
    static Found find(MethodCode c, Dataflow.ConstructorInit ctor, Dataflow.Monitors mon, int maxLoops) {
        if (!hasBackwardEdge(c)) return NONE;
        List<LoopFinder.Loop> loops = LoopFinder.find(c.succ, c.exc);
        if (loops.isEmpty()) return NONE;
        List<Planned> kept = new ArrayList<>();
        List<String> skips = new ArrayList<>();
        for (LoopFinder.Loop l : loops) {
            // a compiler's retry of a synchronized block's monitor-exit (its handler jumps back to
            // it) is a cycle, not a loop anyone wrote; the class-file rewriter never sees one
            if (c.insns[l.header].getOpcode() == Opcode.MONITOR_EXIT) continue;
            int line = c.lineAt(l.header);
            String at = "loop at line " + line;
            if (c.handlerEntry[l.header]) { skips.add(at + ": entered by an exception edge"); continue; }
            if (ctor != null && !ctor.initialized()[l.header]) { skips.add(at + ": before super()/this()"); continue; }
            boolean ok = true;
            for (int u = 0; u < c.n && ok; u++) {
                if (!mon.reachable(u)) continue;
                for (int v : c.succ[u]) {
                    boolean relevant = v == l.header || (l.body.get(u) && !l.body.get(v));
                    if (relevant && edgeCover(c, mon, u, v, true) == null) {
                        ok = false;
                        break;
                    }
                }
                if (!l.body.get(u) || !throwsTo(c, u)) continue;
                for (int h : c.exc[u]) {
                    if (!l.body.get(h) && handlerCover(c, mon, h, true) == null) {
                        ok = false;
                        break;
                    }
                }
            }
            if (!ok) { skips.add(at + ": inside a synchronized region without a catch-all that can take probes"); continue; }
            if (kept.size() == maxLoops) {
                skips.add(at + ": no 8-bit registers left for its token and counter (" + c.registerCount + " registers)");
                continue;
            }
            kept.add(new Planned(l, c.firstLineOf(l.body, l.header))); // names the loop: #loop@LINE
        }
        return new Found(kept, skips);
    }

    /** Indices into {@code loops}, innermost first: a loop inside another has a smaller body. */
    static List<Integer> innermostFirst(List<Planned> loops) {
        List<Integer> order = new ArrayList<>(loops.size());
        for (int k = 0; k < loops.size(); k++) order.add(k);
        order.sort((a, b) -> Integer.compare(loops.get(a).loop().body.cardinality(), loops.get(b).loop().body.cardinality()));
        return order;
    }

    /**
     * Places the probes of the kept loops; loop k has registers k of {@code rs} (its id register
     * already holds its id: {@link RegisterShift#initialization}).
     */
    static void place(MethodCode c, RegisterShift rs, Dataflow.ConstructorInit ctor, Dataflow.Monitors mon, List<Planned> kept,
                      Edits e) {
        if (kept.isEmpty()) return;
        Map<Long, List<Instruction>> onEdge = new LinkedHashMap<>();
        Map<Integer, List<Instruction>> atHandler = new LinkedHashMap<>();
        Set<Long> closed = new HashSet<>();
        for (int k : innermostFirst(kept)) {
            LoopFinder.Loop l = kept.get(k).loop();
            List<Instruction> end = List.of(ProbeCode.invoke(ProbeCode.LOOP_END, rs.loopId(k), 3), ProbeCode.zero(rs.loopToken(k)));
            for (int u = l.body.nextSetBit(0); u >= 0; u = l.body.nextSetBit(u + 1)) {
                if (!mon.reachable(u)) continue;
                for (int v : c.succ[u]) if (!l.body.get(v)) add(onEdge, u, v, end);
                if (!throwsTo(c, u)) continue;
                for (int h : c.exc[u]) {
                    if (l.body.get(h)) continue;
                    if (!closed.add(key(k, h))) continue; // once per handler, however many instructions throw to it
                    if (c.insns[h].getOpcode() == Opcode.MOVE_EXCEPTION) add(onEdge, h, h + 1, end);
                    else atHandler.computeIfAbsent(h, x -> new ArrayList<>()).addAll(end);
                }
            }
        }
        List<Instruction> atEntry = new ArrayList<>();
        for (int k = 0; k < kept.size(); k++) {
            LoopFinder.Loop l = kept.get(k).loop();
            List<Instruction> begin = List.of(ProbeCode.invoke(ProbeCode.LOOP_BEGIN, rs.loopId(k), 1),
                    ProbeCode.moveResult(rs.loopToken(k)), ProbeCode.zero(rs.loopCount(k)));
            List<Instruction> iter = List.of(ProbeCode.increment(rs.loopCount(k)));
            if (l.header == 0) atEntry.addAll(begin); // the method entry is an edge into the loop too
            for (int u = 0; u < c.n; u++) {
                if (!mon.reachable(u)) continue;
                for (int v : c.succ[u]) if (v == l.header) add(onEdge, u, v, l.body.get(u) ? iter : begin);
            }
        }
        if (!atEntry.isEmpty()) e.addEdgeIn(0, new Edits.Chunk(atEntry, Edits.Cover.NONE));
        for (Map.Entry<Long, List<Instruction>> en : onEdge.entrySet()) {
            int u = (int) (en.getKey() >>> 32), v = (int) (long) en.getKey();
            place(c, ctor, mon, u, v, en.getValue(), e);
        }
        for (Map.Entry<Integer, List<Instruction>> en : atHandler.entrySet()) {
            int h = en.getKey();
            boolean under = ctor == null || ctor.initialized()[h];
            e.addHandlerTrampoline(h, new Edits.Chunk(en.getValue(), handlerCover(c, mon, h, under))); // find() made sure it exists
        }
    }

    private static void add(Map<Long, List<Instruction>> m, int u, int v, List<Instruction> code) {
        m.computeIfAbsent(key(u, v), k -> new ArrayList<>()).addAll(code);
    }

    private static long key(int u, int v) {
        return ((long) u << 32) | (v & 0xffffffffL);
    }

    /**
     * Whether u's exception edges are real: the verifier takes {@code monitor-exit} as unable to
     * throw ({@link Dataflow.Monitors}).
     */
    private static boolean throwsTo(MethodCode c, int u) {
        return c.exc[u].length > 0 && c.insns[u].getOpcode() != Opcode.MONITOR_EXIT;
    }

    /**
     * Coverage of code on the exception edges into handler h: after its {@code move-exception},
     * or in a trampoline entered as the handler; null if it cannot take probes (a monitor is held
     * there and no fitting catch-all releases it, or it is entered holding different numbers).
     */
    private static Edits.Cover handlerCover(MethodCode c, Dataflow.Monitors mon, int h, boolean under) {
        if (c.insns[h].getOpcode() == Opcode.MOVE_EXCEPTION) return edgeCover(c, mon, h, h + 1, under);
        int d = mon.handlerEntry[h];
        return d < 0 ? null : mon.cover(h, d, under);
    }

    /** Coverage of code on edge u → v: under u's or v's catch-all when a monitor is held; null if neither fits. */
    private static Edits.Cover edgeCover(MethodCode c, Dataflow.Monitors mon, int u, int v, boolean under) {
        int d = mon.after(u);
        Edits.Cover cover = mon.cover(u, d, under);
        return cover != null ? cover : mon.cover(v, d, under);
    }

    private static void place(MethodCode c, Dataflow.ConstructorInit ctor, Dataflow.Monitors mon, int u, int v,
                              List<Instruction> code, Edits e) {
        boolean under = ctor == null || ctor.initialized()[v];
        Edits.Chunk chunk = new Edits.Chunk(code, edgeCover(c, mon, u, v, under)); // find() made sure it exists
        Opcode op = c.insns[u].getOpcode();
        if (v == u + 1 && MethodCode.isMoveResult(c.insns[v].getOpcode())) {
            e.addEdgeIn(v + 1, chunk); // v's only predecessor is u and its only successor v + 1
            return;
        }
        if (MethodCode.isGoto(op)) {
            e.before[u] = chunk; // a goto has this one edge: every path through u takes it
            return;
        }
        if (v == u + 1 && fallsThrough(op)) e.addEdgeIn(v, chunk);
        boolean jump = c.target[u] == v && MethodCode.isIf(op);
        if (c.switchTargets[u] != null) for (int t : c.switchTargets[u]) jump |= t == v;
        if (jump) e.addTrampoline(u, v, chunk);
    }

    private static boolean fallsThrough(Opcode op) {
        return !MethodCode.isGoto(op) && !MethodCode.isReturn(op) && op != Opcode.THROW;
    }

    private static boolean hasBackwardEdge(MethodCode c) {
        for (int u = 0; u < c.n; u++) {
            for (int v : c.succ[u]) if (v <= u) return true;
            for (int v : c.exc[u]) if (v <= u) return true;
        }
        return false;
    }
}
