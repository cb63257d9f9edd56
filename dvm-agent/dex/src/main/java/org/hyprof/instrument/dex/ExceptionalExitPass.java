package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.List;
import org.jf.dexlib2.iface.instruction.Instruction;

/**
 * Pass 4, exceptional exit. <b>Invariant:</b> an exception that leaves the method from anywhere
 * after its {@code begin} passes through {@code Probe.endThrow(id, tok)} exactly once, after
 * {@code Probe.loopEnd} of every loop of the method (innermost first: those still open close
 * with their counts, the others have token 0 and are ignored), and every exception the method's
 * own handlers caught before still reaches them first.
 *
 * <p>One handler is appended after all other code: {@code move-exception ex; loopEnd(…) per loop;
 * endThrow(id, tok); throw ex}. It is added as a catch-all to every range of original code that
 * runs after the {@code begin} and has no catch-all of its own, <em>after</em> that range's typed
 * handlers (a try item may have one catch-all, and it must be last: dexlib2's writer assumes so
 * and writes a corrupt handler table otherwise). Ranges that already have a catch-all keep it:
 * whatever leaves through it is rethrown by code that is itself covered (and the loops it leaves
 * are closed at that handler, {@link LoopPass}). The handler covers nothing of its own. It reads
 * only probe registers set at the method entry ({@link RegisterShift}), so every path into it
 * finds them defined.
 */
final class ExceptionalExitPass {
    private ExceptionalExitPass() {}

    static void apply(MethodCode c, RegisterShift rs, Dataflow.ConstructorInit ctor, List<LoopPass.Planned> loops, Edits e) {
        List<Instruction> h = new ArrayList<>(3 + loops.size());
        h.add(ProbeCode.moveException(rs.exception));
        for (int k : LoopPass.innermostFirst(loops)) h.add(ProbeCode.invoke(ProbeCode.LOOP_END, rs.loopId(k), 3));
        h.add(ProbeCode.invoke(ProbeCode.END_THROW, rs.methodId, 2));
        h.add(ProbeCode.throwIt(rs.exception));
        e.handler = h;
        boolean[] covered = new boolean[c.n];
        for (int i = 0; i < c.n; i++) covered[i] = !c.payload[i] && (ctor == null || ctor.initialized()[i]);
        e.coveredByHandler = covered;
    }
}
