package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.instrument.loops.LoopFinder;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.immutable.reference.ImmutableMethodReference;

/**
 * Pass 3, loop probes. <b>Invariant:</b> each probe runs exactly when its control-flow edge is
 * taken — {@code loopEnter} on every edge into a loop's header from outside the loop,
 * {@code loopIter} on every back edge, {@code loopExit} on every edge leaving the loop — and no
 * original instruction moves relative to another.
 *
 * <p>Loops are the natural loops of {@link LoopFinder} (shared with the class-file rewriter) on
 * the graph with exception edges. Code goes on an edge u → v: between u and v when u falls
 * through; before u when u is a {@code goto} (its only edge); in a trampoline ({@code probes;
 * goto v}) that u's branch or switch case is pointed at when u jumps; after v when v is the
 * {@code move-result} of u (nothing may separate the two). Probe calls are never put under the
 * method's typed handlers (new exception edges could make a handler's registers conflict); where
 * a monitor is held they stay under the catch-all that releases it.
 */
final class LoopPass {
    private LoopPass() {}

    /** A loop that gets probes, with the source line of its header. */
    record Planned(LoopFinder.Loop loop, int line) {}

    record Found(List<Planned> loops, List<String> skips) {}

    private static final Found NONE = new Found(List.of(), List.of());

    /** Finds the loops, and decides (before any id is handed out) which can carry probes. */
    static Found find(MethodCode c, Dataflow.ConstructorInit ctor, Dataflow.Monitors mon) {
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
            }
            if (!ok) { skips.add(at + ": inside a synchronized region without a catch-all that can take probes"); continue; }
            kept.add(new Planned(l, line));
        }
        return new Found(kept, skips);
    }

    /** Places the probes of the kept loops; loop k gets id {@code firstId + k}. */
    static void place(MethodCode c, RegisterShift rs, Dataflow.ConstructorInit ctor, Dataflow.Monitors mon, List<Planned> kept,
                      int firstId, Edits e) {
        if (kept.isEmpty()) return;
        Map<Long, List<Instruction>> onEdge = new LinkedHashMap<>();
        List<Planned> byDepth = new ArrayList<>(kept);
        // exits innermost first: a loop inside another has a smaller body
        byDepth.sort((a, b) -> Integer.compare(a.loop().body.cardinality(), b.loop().body.cardinality()));
        for (Planned p : byDepth) {
            int id = firstId + kept.indexOf(p);
            for (int u = p.loop().body.nextSetBit(0); u >= 0; u = p.loop().body.nextSetBit(u + 1)) {
                if (!mon.reachable(u)) continue;
                for (int v : c.succ[u]) if (!p.loop().body.get(v)) add(onEdge, u, v, rs, ProbeCode.LOOP_EXIT, id);
            }
        }
        List<Instruction> atEntry = new ArrayList<>();
        for (int k = 0; k < kept.size(); k++) {
            LoopFinder.Loop l = kept.get(k).loop();
            int id = firstId + k;
            if (l.header == 0) {
                // the method entry is an edge into the loop too
                atEntry.add(ProbeCode.constant(rs.scratch0, id));
                atEntry.add(ProbeCode.invoke(ProbeCode.LOOP_ENTER, rs.scratch0));
            }
            for (int u = 0; u < c.n; u++) {
                if (!mon.reachable(u)) continue;
                for (int v : c.succ[u]) {
                    if (v == l.header) add(onEdge, u, v, rs, l.body.get(u) ? ProbeCode.LOOP_ITER : ProbeCode.LOOP_ENTER, id);
                }
            }
        }
        if (!atEntry.isEmpty()) e.addEdgeIn(0, new Edits.Chunk(atEntry, Edits.Cover.NONE));
        for (Map.Entry<Long, List<Instruction>> en : onEdge.entrySet()) {
            int u = (int) (en.getKey() >>> 32), v = (int) (long) en.getKey();
            place(c, ctor, mon, u, v, en.getValue(), e);
        }
    }

    private static void add(Map<Long, List<Instruction>> m, int u, int v, RegisterShift rs, ImmutableMethodReference kind,
                            int id) {
        List<Instruction> code = m.computeIfAbsent(((long) u << 32) | (v & 0xffffffffL), k -> new ArrayList<>());
        code.add(ProbeCode.constant(rs.scratch0, id));
        code.add(ProbeCode.invoke(kind, rs.scratch0));
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
