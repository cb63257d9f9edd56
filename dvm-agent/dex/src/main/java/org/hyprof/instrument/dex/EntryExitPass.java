package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.List;
import org.hyprof.instrument.loops.LoopFinder;
import org.jf.dexlib2.iface.instruction.Instruction;

/**
 * Pass 2, entry and exit probes. <b>Invariant:</b> on every path through the method
 * {@code tok = Probe.begin(id)} runs once, before any other probe of the method, and
 * {@code Probe.end(id, tok)} runs right before each return, preceded only by the
 * {@code loopEnd} of every loop whose body holds the return (innermost first; none in practice:
 * every edge leaving a loop already closes it, see {@link LoopPass}); the method's id and token
 * registers ({@link RegisterShift#methodId}, {@link RegisterShift#methodToken}) are written only
 * by the entry: the id and token 0 right after the argument copies, then the token by
 * {@code begin}.
 *
 * <p>The entry is the fall-through edge into the first instruction, so a loop whose header is the
 * first instruction jumps back past it. In a constructor {@code begin} goes on the fall-through
 * edge after the one {@code super()}/{@code this()} call: {@code this} is never used
 * uninitialized, and an exception thrown before that call leaves no open activation (the
 * exceptional-exit pass covers only what runs after it); the registers are still initialized at
 * the first instruction.
 *
 * @see ExceptionalExitPass
 */
final class EntryExitPass {
    private EntryExitPass() {}

    /**
     * @param base     the piece's base ({@link PieceHolder}): ids are {@code base + local}
     * @param methodId the method's local id
     * @param loops    the loops with probes (loop k has registers k of {@code rs} and local id
     *                 {@code methodId + 1 + k}), to close at returns inside them
     */
    static void apply(MethodCode c, RegisterShift rs, Dataflow.ConstructorInit ctor, Dataflow.Monitors mon,
                      PieceHolder.Base base, int methodId,
                      List<LoopPass.Planned> loops, Edits e) throws Skip {
        List<Instruction> begin = List.of(ProbeCode.invoke(ProbeCode.BEGIN, rs.methodId, 1),
                ProbeCode.moveResult(rs.methodToken));
        List<Instruction> entry = new ArrayList<>(rs.moves);
        entry.addAll(rs.initialization(base, methodId, methodId + 1));
        if (ctor == null) entry.addAll(begin);
        e.addEdgeIn(0, new Edits.Chunk(entry, Edits.Cover.NONE));
        e.entryMoves = rs.moves.size();
        if (ctor != null) e.addEdgeIn(ctor.superCall() + 1, new Edits.Chunk(begin, Edits.Cover.NONE));
        Instruction end = ProbeCode.invoke(ProbeCode.END, rs.methodId, 2);
        List<Integer> innermostFirst = LoopPass.innermostFirst(loops);
        for (int i = 0; i < c.n; i++) {
            if (!mon.reachable(i) || !MethodCode.isReturn(c.insns[i].getOpcode())) continue;
            if (ctor != null && !ctor.initialized()[i]) throw new Skip("constructor returns before super()/this()");
            Edits.Cover cover = mon.cover(i, mon.depth[i], true);
            if (cover == null) throw new Skip("returns while holding a monitor outside any catch-all");
            List<Instruction> exit = new ArrayList<>(2);
            for (int k : innermostFirst) {
                LoopFinder.Loop l = loops.get(k).loop();
                if (l.body.get(i)) exit.add(ProbeCode.invoke(ProbeCode.LOOP_END, rs.loopId(k), 3));
            }
            exit.add(end);
            e.before[i] = new Edits.Chunk(exit, cover);
        }
    }
}
