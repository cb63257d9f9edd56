package org.hyprof.instrument.dex;

import java.util.List;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction11n;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction11x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction12x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction21s;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction22b;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction22s;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction22x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction23x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction31i;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction32x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction35c;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction3rc;
import org.jf.dexlib2.immutable.reference.ImmutableMethodReference;

/**
 * The instructions probes are made of: the token entry points of
 * {@code org.hyprof.runtime.Probe} ({@code begin(I)I}, {@code end(II)V}, {@code endThrow(II)V},
 * {@code loopBegin(I)I}, {@code loopEnd(III)V}), constant loads, counter increments, additions
 * (a probe id is the piece's base plus its local id, {@link PieceHolder}) and register moves in
 * the smallest encoding that fits. The id-only entry points the runtime still has for
 * code instrumented earlier are never emitted.
 */
final class ProbeCode {
    private ProbeCode() {}

    static final String PROBE_TYPE = "Lorg/hyprof/runtime/Probe;";

    static final ImmutableMethodReference BEGIN = ref("begin", "I", "I");
    static final ImmutableMethodReference END = ref("end", "V", "I", "I");
    static final ImmutableMethodReference END_THROW = ref("endThrow", "V", "I", "I");
    static final ImmutableMethodReference LOOP_BEGIN = ref("loopBegin", "I", "I");
    static final ImmutableMethodReference LOOP_END = ref("loopEnd", "V", "I", "I", "I");

    private static ImmutableMethodReference ref(String name, String returns, String... params) {
        return new ImmutableMethodReference(PROBE_TYPE, name, List.of(params), returns);
    }

    /**
     * {@code invoke-static {first .. first+count-1}, Probe.m}: the 4-bit form when every register
     * allows it, else the range form (the probe registers of one frame are consecutive).
     */
    static Instruction invoke(ImmutableMethodReference m, int first, int count) {
        if (first + count - 1 <= 15) {
            int[] r = new int[5];
            for (int k = 0; k < count; k++) r[k] = first + k;
            return new ImmutableInstruction35c(Opcode.INVOKE_STATIC, count, r[0], r[1], r[2], r[3], r[4], m);
        }
        return new ImmutableInstruction3rc(Opcode.INVOKE_STATIC_RANGE, first, count, m);
    }

    static Instruction moveResult(int reg) {
        return new ImmutableInstruction11x(Opcode.MOVE_RESULT, reg);
    }

    /** {@code reg += 1} ({@code reg} ≤ 255): a back edge taken. */
    static Instruction increment(int reg) {
        return new ImmutableInstruction22b(Opcode.ADD_INT_LIT8, reg, reg, 1);
    }

    /**
     * {@code dst = src + value} ({@code dst}, {@code src}, {@code tmp} ≤ 255) in the smallest
     * encoding: {@code add-int/lit8}, {@code add-int/lit16} (4-bit registers), else
     * {@code const tmp} and {@code add-int} ({@code tmp} is overwritten).
     */
    static List<Instruction> add(int dst, int src, int value, int tmp) {
        if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE)
            return List.of(new ImmutableInstruction22b(Opcode.ADD_INT_LIT8, dst, src, value));
        if (dst <= 15 && src <= 15 && value >= Short.MIN_VALUE && value <= Short.MAX_VALUE)
            return List.of(new ImmutableInstruction22s(Opcode.ADD_INT_LIT16, dst, src, value));
        return List.of(constant(tmp, value), new ImmutableInstruction23x(Opcode.ADD_INT, dst, src, tmp));
    }

    /** Loads 0 into a token or counter register ({@code reg} ≤ 255). */
    static Instruction zero(int reg) {
        return reg <= 15 ? new ImmutableInstruction11n(Opcode.CONST_4, reg, 0) : constant(reg, 0);
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
