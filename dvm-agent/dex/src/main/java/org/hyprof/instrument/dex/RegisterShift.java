package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.List;
import org.jf.dexlib2.iface.MethodParameter;
import org.jf.dexlib2.iface.instruction.Instruction;

/**
 * Pass 1, register shifting. <b>Invariant:</b> every original instruction reads and writes the
 * same register numbers holding the same values as before, and never sees a probe register; every
 * probe register that is read before it is written on some path (tokens, counters, ids) is set at
 * the method entry, right after the argument copies, so every path and every handler sees it
 * defined (as ART's verifier requires).
 *
 * <p>Dalvik passes arguments in the <em>last</em> registers of the frame. The frame grows by the
 * probe registers (the registers just above the original ones) plus the argument registers, so
 * the probe registers never overlap where the arguments arrive: {@code this} and the arguments
 * stay untouched in their arrival registers for the whole call (what ART and debuggers expect
 * there). At entry the arguments are copied down, ascending, to the registers the original code
 * expects. The probe registers, in order:
 * <ul>
 * <li>{@link #exception} — what the exceptional-exit handler rethrows (at entry, before any
 *     handler can run, a scratch register for the ids' constants);</li>
 * <li>{@link #methodId}, {@link #methodToken} — the method's id (set once at entry, from the
 *     piece's base: {@link #initialization}) and the token
 *     {@code Probe.begin} returned (0 until then): {@code end}/{@code endThrow} take the two as one
 *     register range;</li>
 * <li>per loop k, {@link #loopId}, {@link #loopToken}, {@link #loopCount} — the loop's id (set
 *     once at entry), the token {@code Probe.loopBegin} returned (0 while the loop is not open) and
 *     the back edges taken since: {@code loopEnd} takes the three as one register range.</li>
 * </ul>
 * All of them must be ≤ v255 ({@code const}, {@code move-result}, {@code add-int/lit8},
 * {@code move-exception} and {@code throw} take 8-bit registers): a method with more than 253
 * registers is skipped; a method whose loops do not all fit keeps its method probes and as many
 * loops, in code order, as {@link #loopsThatFit} allows (the others are reported).
 *
 * <p>Debug info follows the copies ({@link #entryLocals}): a debugger finds {@code this} and the
 * named parameters in their arrival registers only until the copies are done; from there on each
 * one's local lives in the register the original code uses, where the compiler's own
 * {@code END_LOCAL}/{@code RESTART_LOCAL} entries for it (a parameter register reused for another
 * local, then the parameter again) expect it. The probe registers are never named locals.
 */
final class RegisterShift {
    /** Probe registers of the method itself: exception, id, token. */
    static final int METHOD_REGISTERS = 3;
    /** Probe registers per loop: id, token, back-edge counter. */
    static final int LOOP_REGISTERS = 3;

    final int registerCount;
    /** First probe register: the exception the exceptional-exit handler rethrows. */
    final int exception;
    final int methodId, methodToken;
    /** Loops with registers. */
    final int loops;
    /** The moves that bring the arguments back down, in execution order. */
    final List<Instruction> moves;
    /** Register of the first argument ({@code this} for an instance method) in the original frame. */
    private final int firstArg;
    /** How far the arguments' arrival registers are above the registers the original code uses. */
    private final int shift;
    private final boolean isStatic;

    private RegisterShift(int registerCount, int first, int loops, List<Instruction> moves, int firstArg, int shift,
                          boolean isStatic) {
        this.registerCount = registerCount;
        this.exception = first;
        this.methodId = first + 1;
        this.methodToken = first + 2;
        this.loops = loops;
        this.moves = moves;
        this.firstArg = firstArg;
        this.shift = shift;
        this.isStatic = isStatic;
    }

    int loopId(int k) {
        return exception + METHOD_REGISTERS + LOOP_REGISTERS * k;
    }

    int loopToken(int k) {
        return loopId(k) + 1;
    }

    int loopCount(int k) {
        return loopId(k) + 2;
    }

    /** How many loops' registers fit below v256 in a method of {@code registers} registers (≥ 0). */
    static int loopsThatFit(int registers) {
        return Math.max(0, (256 - registers - METHOD_REGISTERS) / LOOP_REGISTERS);
    }

    /**
     * The entry's initialization, right after the argument copies: the ids get their values, the
     * tokens and counters 0. A probe id is the piece's base plus the local id the manifest gives
     * ({@link PieceHolder}): {@code sget id, P_KEY.BASE} (which initializes the holder, and so
     * defines the piece's probes, the first time), then the local id added, through the exception
     * register when it needs a constant (that register is written next only by the handler's
     * {@code move-exception}); loop k has local id {@code firstLoopId + k}, added to the method's
     * id register.
     */
    List<Instruction> initialization(PieceHolder.Base base, int methodIdValue, int firstLoopId) {
        List<Instruction> out = new ArrayList<>(4 + 3 * loops);
        out.add(PieceHolder.sget(methodId, base));
        out.addAll(ProbeCode.add(methodId, methodId, methodIdValue, exception));
        out.add(ProbeCode.zero(methodToken));
        for (int k = 0; k < loops; k++) {
            out.addAll(ProbeCode.add(loopId(k), methodId, firstLoopId + k - methodIdValue, exception));
            out.add(ProbeCode.zero(loopToken(k)));
            out.add(ProbeCode.zero(loopCount(k)));
        }
        return out;
    }

    /**
     * The debug entries that go right after the copies: for {@code this} and every named
     * parameter (the locals a DEX debug-info item starts implicitly, in the arrival registers),
     * the local ends in its arrival register and starts in its copy. None when the method has no
     * debug info ({@code hasDebugInfo} false): no locals existed to move.
     *
     * @param definingClass the method's class (the type of {@code this})
     * @param parameters    the method's parameters with their debug names (null when unnamed)
     */
    List<Edits.EntryLocal> entryLocals(boolean hasDebugInfo, String definingClass, List<? extends MethodParameter> parameters) {
        List<Edits.EntryLocal> out = new ArrayList<>();
        if (!hasDebugInfo) return out;
        int r = firstArg;
        if (!isStatic) out.add(new Edits.EntryLocal(r, r++ + shift, "this", definingClass));
        for (MethodParameter p : parameters) {
            if (p.getName() != null) out.add(new Edits.EntryLocal(r, r + shift, p.getName(), p.getType()));
            r += wide(p.getType()) ? 2 : 1;
        }
        return out;
    }

    /**
     * @param registers      the original register count
     * @param isStatic       static method (no {@code this})
     * @param parameterTypes parameter type descriptors
     * @param loops          loops that get registers (at most {@link #loopsThatFit})
     */
    static RegisterShift plan(int registers, boolean isStatic, List<? extends CharSequence> parameterTypes, int loops)
            throws Skip {
        int ins = isStatic ? 0 : 1;
        for (CharSequence t : parameterTypes) ins += wide(t) ? 2 : 1;
        int locals = registers - ins;
        if (locals < 0) throw new Skip("malformed code: " + registers + " registers for " + ins + " argument registers");
        if (registers + METHOD_REGISTERS > 256)
            throw new Skip("registers + scratch exceed 256 (" + registers + " registers; const/move-exception need v0-v255)");
        if (loops > loopsThatFit(registers)) throw new IllegalArgumentException(loops + " loops do not fit");
        int shift = METHOD_REGISTERS + LOOP_REGISTERS * loops + ins;
        if (registers + shift > 65535) throw new Skip("too many registers");
        List<Instruction> moves = new ArrayList<>(ins);
        int r = locals;
        if (!isStatic) {
            moves.add(ProbeCode.move('L', r, r + shift));
            r++;
        }
        for (CharSequence t : parameterTypes) {
            char c = t.charAt(0);
            if (c == 'J' || c == 'D') {
                moves.add(ProbeCode.move('J', r, r + shift));
                r += 2;
            } else {
                moves.add(ProbeCode.move(c == 'L' || c == '[' ? 'L' : 'I', r, r + shift));
                r++;
            }
        }
        return new RegisterShift(registers + shift, registers, loops, moves, locals, shift, isStatic);
    }

    private static boolean wide(CharSequence t) {
        return t.charAt(0) == 'J' || t.charAt(0) == 'D';
    }
}
