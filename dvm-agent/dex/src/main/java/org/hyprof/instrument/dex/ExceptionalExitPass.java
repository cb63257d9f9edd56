package org.hyprof.instrument.dex;

import java.util.List;

/**
 * Pass 4, exceptional exit. <b>Invariant:</b> an exception that leaves the method from anywhere
 * after its enter probe passes through {@code Probe.exitThrow(id)} exactly once, and every
 * exception the method's own handlers caught before still reaches them first.
 *
 * <p>One handler is appended after all other code: {@code move-exception s0;
 * invoke exitThrow(s1); throw s0}. It is added as a catch-all to every range of original code
 * that runs after the enter and has no catch-all of its own, <em>after</em> that range's typed
 * handlers (a try item may have one catch-all, and it must be last: dexlib2's writer assumes so
 * and writes a corrupt handler table otherwise). Ranges that already have a catch-all keep it:
 * whatever leaves through it is rethrown by code that is itself covered. The handler covers
 * nothing of its own.
 */
final class ExceptionalExitPass {
    private ExceptionalExitPass() {}

    static void apply(MethodCode c, RegisterShift rs, Dataflow.ConstructorInit ctor, Edits e) {
        e.handler = List.of(ProbeCode.moveException(rs.scratch0),
                ProbeCode.invoke(ProbeCode.EXIT_THROW, rs.scratch1),
                ProbeCode.throwIt(rs.scratch0));
        boolean[] covered = new boolean[c.n];
        for (int i = 0; i < c.n; i++) covered[i] = !c.payload[i] && (ctor == null || ctor.initialized()[i]);
        e.coveredByHandler = covered;
    }
}
