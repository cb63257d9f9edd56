package org.hyprof.bb.disasm;

/** One disassembled instruction and the cost category it was put in. */
public record Instruction(long address, int size, String mnemonic, String operands, String category) {
    @Override
    public String toString() {
        return String.format("%08x  %-8s %s", address, mnemonic, operands);
    }
}
