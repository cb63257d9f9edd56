package org.hyprof.bb.disasm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one way a block's instructions are printed ({@code hyprof native}'s table and JSON, and the
 * disassembly stored for reports and the TUI): a line per instruction with its offset in the
 * library (as objdump shows it), mnemonic, operands and cost category, e.g.
 * {@code 00000a2c  ldr      x8, [x0, #8]             ; load}.
 */
public final class Listing {
    private Listing() {}

    /** One instruction. */
    public static String line(Instruction i) {
        return String.format(Locale.ROOT, "%08x  %-8s %-24s ; %s", i.address(), i.mnemonic(), i.operands(), i.category());
    }

    /** A line per instruction. */
    public static List<String> lines(List<Instruction> block) {
        List<String> out = new ArrayList<>(block.size());
        for (Instruction i : block) out.add(line(i));
        return out;
    }

    /** The lines joined by newlines (no trailing one): what a session stores for a block. */
    public static String text(List<Instruction> block) {
        return String.join("\n", lines(block));
    }
}
