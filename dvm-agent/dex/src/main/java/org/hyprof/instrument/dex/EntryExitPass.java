package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.List;
import org.jf.dexlib2.iface.instruction.Instruction;

/**
 * Pass 2, entry and exit probes. <b>Invariant:</b> on every path through the method
 * {@code Probe.enter(id)} runs once, before any other probe of the method, and
 * {@code Probe.exit(id)} runs right before each return, with nothing between it and the return;
 * from the enter on, {@code scratch1} holds the method's id and nothing else writes it.
 *
 * <p>The entry is the fall-through edge into the first instruction, so a loop whose header is the
 * first instruction jumps back past it. In a constructor the enter goes on the fall-through edge
 * after the one {@code super()}/{@code this()} call: {@code this} is never used uninitialized, and
 * an exception thrown before that call leaves no open activation (the exceptional-exit pass
 * covers only what runs after it).
 */
final class EntryExitPass {
    private EntryExitPass() {}

    static void apply(MethodCode c, RegisterShift rs, Dataflow.ConstructorInit ctor, Dataflow.Monitors mon, int methodId,
                      Edits e) throws Skip {
        List<Instruction> enter = List.of(ProbeCode.constant(rs.scratch1, methodId),
                ProbeCode.invoke(ProbeCode.ENTER, rs.scratch1));
        List<Instruction> entry = new ArrayList<>(rs.moves);
        if (ctor == null) entry.addAll(enter);
        if (!entry.isEmpty()) e.addEdgeIn(0, new Edits.Chunk(entry, Edits.Cover.NONE));
        e.entryMoves = rs.moves.size();
        if (ctor != null) e.addEdgeIn(ctor.superCall() + 1, new Edits.Chunk(enter, Edits.Cover.NONE));
        List<Instruction> exit = List.of(ProbeCode.invoke(ProbeCode.EXIT, rs.scratch1));
        for (int i = 0; i < c.n; i++) {
            if (!mon.reachable(i) || !MethodCode.isReturn(c.insns[i].getOpcode())) continue;
            if (ctor != null && !ctor.initialized()[i]) throw new Skip("constructor returns before super()/this()");
            Edits.Cover cover = mon.cover(i, mon.depth[i], true);
            if (cover == null) throw new Skip("returns while holding a monitor outside any catch-all");
            e.before[i] = new Edits.Chunk(exit, cover);
        }
    }

}
