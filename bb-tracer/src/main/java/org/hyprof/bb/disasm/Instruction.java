package org.hyprof.bb.disasm;

/**
 * One disassembled instruction and the cost category it was put in; {@code address} is its offset
 * in the library (blocks are disassembled at their offsets, so branch targets read as objdump's).
 */
public record Instruction(long address, int size, String mnemonic, String operands, String category) {
    @Override
    public String toString() {
        return Listing.line(this);
    }
}
