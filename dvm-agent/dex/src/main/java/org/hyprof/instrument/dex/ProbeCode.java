package org.hyprof.instrument.dex;

import java.util.List;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction11x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction12x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction21s;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction22x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction31i;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction32x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction35c;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction3rc;
import org.jf.dexlib2.immutable.reference.ImmutableMethodReference;

/**
 * The instructions probes are made of: the runtime's static {@code (I)V} entry points of
 * {@code org.hyprof.runtime.Probe} (the same six the class-file rewriter calls), constant loads
 * and register moves in the smallest encoding that fits.
 */
final class ProbeCode {
    private ProbeCode() {}

    static final String PROBE_TYPE = "Lorg/hyprof/runtime/Probe;";

    static final ImmutableMethodReference ENTER = ref("enter");
    static final ImmutableMethodReference EXIT = ref("exit");
    static final ImmutableMethodReference EXIT_THROW = ref("exitThrow");
    static final ImmutableMethodReference LOOP_ENTER = ref("loopEnter");
    static final ImmutableMethodReference LOOP_ITER = ref("loopIter");
    static final ImmutableMethodReference LOOP_EXIT = ref("loopExit");

    private static ImmutableMethodReference ref(String name) {
        return new ImmutableMethodReference(PROBE_TYPE, name, List.of("I"), "V");
    }

    /** {@code invoke-static {reg}, Probe.m(I)V}: the 4-bit form when the register allows it. */
    static Instruction invoke(ImmutableMethodReference m, int reg) {
        return reg <= 15 ? new ImmutableInstruction35c(Opcode.INVOKE_STATIC, 1, reg, 0, 0, 0, 0, m)
                : new ImmutableInstruction3rc(Opcode.INVOKE_STATIC_RANGE, reg, 1, m);
    }

    /** Loads a probe id ({@code reg} ≤ 255). */
    static Instruction constant(int reg, int value) {
        return value >= Short.MIN_VALUE && value <= Short.MAX_VALUE
                ? new ImmutableInstruction21s(Opcode.CONST_16, reg, value)
                : new ImmutableInstruction31i(Opcode.CONST, reg, value);
    }

    /** A register move of one kind ({@code 'I'} 32-bit, {@code 'J'} wide, {@code 'L'} reference). */
    static Instruction move(char kind, int dst, int src) {
        Opcode[] ops = switch (kind) {
            case 'J' -> new Opcode[] {Opcode.MOVE_WIDE, Opcode.MOVE_WIDE_FROM16, Opcode.MOVE_WIDE_16};
            case 'L' -> new Opcode[] {Opcode.MOVE_OBJECT, Opcode.MOVE_OBJECT_FROM16, Opcode.MOVE_OBJECT_16};
            default -> new Opcode[] {Opcode.MOVE, Opcode.MOVE_FROM16, Opcode.MOVE_16};
        };
        if (dst <= 15 && src <= 15) return new ImmutableInstruction12x(ops[0], dst, src);
        if (dst <= 255) return new ImmutableInstruction22x(ops[1], dst, src);
        return new ImmutableInstruction32x(ops[2], dst, src);
    }

    static Instruction moveException(int reg) {
        return new ImmutableInstruction11x(Opcode.MOVE_EXCEPTION, reg);
    }

    static Instruction throwIt(int reg) {
        return new ImmutableInstruction11x(Opcode.THROW, reg);
    }
}
