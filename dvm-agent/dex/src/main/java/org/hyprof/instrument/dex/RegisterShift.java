package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.List;
import org.jf.dexlib2.iface.MethodParameter;
import org.jf.dexlib2.iface.instruction.Instruction;

/**
 * Pass 1, register shifting. <b>Invariant:</b> every original instruction reads and writes the
 * same register numbers holding the same values as before, and never sees a scratch register.
 *
 * <p>Dalvik passes arguments in the <em>last</em> registers of the frame. The frame grows by two
 * scratch registers ({@link #scratch0}, {@link #scratch1}: the registers just above the original
 * ones) plus the argument registers, so the scratch registers never overlap where the arguments
 * arrive: {@code this} and the arguments stay untouched in their arrival registers for the whole
 * call (what ART and debuggers expect there). At entry the arguments are copied down, ascending,
 * to the registers the original code expects. The scratch registers must be ≤ v255 ({@code const},
 * {@code move-exception} and {@code throw} take 8-bit registers): a method with more than 254
 * registers is skipped.
 *
 * <p>Debug info follows the copies ({@link #entryLocals}): a debugger finds {@code this} and the
 * named parameters in their arrival registers only until the copies are done; from there on each
 * one's local lives in the register the original code uses, where the compiler's own
 * {@code END_LOCAL}/{@code RESTART_LOCAL} entries for it (a parameter register reused for another
 * local, then the parameter again) expect it.
 */
final class RegisterShift {
    final int registerCount;
    final int scratch0, scratch1;
    /** The moves that bring the arguments back down, in execution order. */
    final List<Instruction> moves;
    /** Register of the first argument ({@code this} for an instance method) in the original frame. */
    private final int firstArg;
    /** How far the arguments' arrival registers are above the registers the original code uses. */
    private final int shift;
    private final boolean isStatic;

    private RegisterShift(int registerCount, int scratch0, List<Instruction> moves, int firstArg, int shift, boolean isStatic) {
        this.registerCount = registerCount;
        this.scratch0 = scratch0;
        this.scratch1 = scratch0 + 1;
        this.moves = moves;
        this.firstArg = firstArg;
        this.shift = shift;
        this.isStatic = isStatic;
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
     */
    static RegisterShift plan(int registers, boolean isStatic, List<? extends CharSequence> parameterTypes) throws Skip {
        int ins = isStatic ? 0 : 1;
        for (CharSequence t : parameterTypes) ins += wide(t) ? 2 : 1;
        int locals = registers - ins;
        if (locals < 0) throw new Skip("malformed code: " + registers + " registers for " + ins + " argument registers");
        if (registers + 2 > 256)
            throw new Skip("registers + scratch exceed 256 (" + registers + " registers; const/move-exception need v0-v255)");
        int shift = 2 + ins;
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
        return new RegisterShift(registers + shift, registers, moves, locals, shift, isStatic);
    }

    private static boolean wide(CharSequence t) {
        return t.charAt(0) == 'J' || t.charAt(0) == 'D';
    }
}
