package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.List;
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
 */
final class RegisterShift {
    final int registerCount;
    final int scratch0, scratch1;
    /** The moves that bring the arguments back down, in execution order. */
    final List<Instruction> moves;

    private RegisterShift(int registerCount, int scratch0, List<Instruction> moves) {
        this.registerCount = registerCount;
        this.scratch0 = scratch0;
        this.scratch1 = scratch0 + 1;
        this.moves = moves;
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
        return new RegisterShift(registers + shift, registers, moves);
    }

    private static boolean wide(CharSequence t) {
        return t.charAt(0) == 'J' || t.charAt(0) == 'D';
    }
}
