package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.List;
import org.hyprof.instrument.ProbeIds;
import org.jf.dexlib2.AccessFlags;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.iface.MethodImplementation;

/**
 * Rewrites one DEX method with the passes, in order: {@link RegisterShift}, {@link EntryExitPass},
 * {@link LoopPass}, {@link ExceptionalExitPass}, {@link CodeEmitter} (the fifth, runtime
 * injection, works on whole DEX files: {@link DexOutput}). Every decision that can skip the
 * method is taken before ids are handed out, so skipped methods use no ids; the method's id comes
 * first, then its loops' in code order — as in the class-file rewriter. The ids are local to the
 * piece (numbered from 1 in the output); the code adds the piece's base at run time
 * ({@link PieceHolder}).
 */
final class MethodRewriter {
    private MethodRewriter() {}

    /**
     * @param code      the rewritten implementation
     * @param methodId  the method's probe id
     * @param loops     per loop probe: {id, source line of its header}
     * @param loopSkips loops left without probes, with reasons
     * @param firstLine first source line of the method, or -1
     */
    record Result(MethodImplementation code, int methodId, List<int[]> loops, List<String> loopSkips, int firstLine) {}

    static Result rewrite(Method m, MethodImplementation impl, ProbeIds ids, PieceHolder.Base base) throws Skip {
        MethodCode c = new MethodCode(impl);
        boolean isStatic = AccessFlags.STATIC.isSet(m.getAccessFlags());
        Dataflow.Monitors mon = Dataflow.monitors(c);
        Dataflow.ConstructorInit init = null;
        if (!isStatic && m.getName().equals("<init>")) {
            int ins = 1;
            for (CharSequence t : m.getParameterTypes()) ins += t.charAt(0) == 'J' || t.charAt(0) == 'D' ? 2 : 1;
            init = Dataflow.constructorInit(c, c.registerCount - ins);
        }
        LoopPass.Found found = LoopPass.find(c, init, mon, RegisterShift.loopsThatFit(c.registerCount));
        RegisterShift rs = RegisterShift.plan(c.registerCount, isStatic, m.getParameterTypes(), found.loops().size());
        int methodId = ids.peek();
        Edits e = new Edits(c.n);
        EntryExitPass.apply(c, rs, init, mon, base, methodId, found.loops(), e);
        boolean hasDebugInfo = !c.debug.isEmpty() || m.getParameters().stream().anyMatch(p -> p.getName() != null);
        e.entryLocals = rs.entryLocals(hasDebugInfo, m.getDefiningClass(), m.getParameters());
        LoopPass.place(c, rs, init, mon, found.loops(), e);
        ExceptionalExitPass.apply(c, rs, init, found.loops(), e);
        MethodImplementation out = CodeEmitter.emit(c, e, rs.registerCount);
        ids.next();
        List<int[]> loops = new ArrayList<>(found.loops().size());
        for (LoopPass.Planned p : found.loops()) loops.add(new int[] {ids.next(), p.line()});
        return new Result(out, methodId, loops, found.skips(), c.firstLine());
    }
}
