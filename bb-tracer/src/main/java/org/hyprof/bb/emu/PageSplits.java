package org.hyprof.bb.emu;

/**
 * Which translation blocks Unicorn ended only because its ARM target uses 1 KiB pages (issue 17;
 * its AArch64 translator too: measured on straddle_loop in samples/native/straddle). QEMU ends a translation block at a branch (any instruction that writes the PC or
 * changes the CPU state it translated under) and at a page boundary; qemu-user's ARM pages are
 * 4 KiB, Unicorn's are 1 KiB. A block of Unicorn's that ends at a 1 KiB boundary that is not a
 * 4 KiB one, without such an instruction at its end, simply falls through into the next page: the
 * block that follows it there is the same block of the program, and of qemu-user, and bb-tracer's
 * counters merge the two (the first block's size grows to cover both; the second is not counted
 * as a block entry when reached that way).
 *
 * <p>In Thumb state a 32-bit instruction may cross the boundary: Unicorn then ends the block just
 * after it (measured: straddle_loop in samples/native/straddle); a block that ends two bytes
 * before the boundary with a 32-bit instruction next is treated as split too (what QEMU's
 * translator does at its own page size).
 *
 * <p>"Ends the block" is decided from the last instruction's encoding: branches (B, BL, BLX, BX,
 * CBZ/CBNZ, TBB/TBH), loads into the PC (LDR, LDM/POP), data processing into the PC, SVC, BKPT,
 * UDF, MSR, CPS, ISB. The decoder is only asked about blocks that end at such a boundary.
 */
public final class PageSplits {
    /** Unicorn's ARM and AArch64 page and qemu-user's. */
    static final long UNICORN_PAGE = 0x400, QEMU_PAGE = 0x1000;

    private final Backend cpu;

    public PageSplits(Backend cpu) {
        this.cpu = cpu;
    }

    /**
     * Whether the block at {@code address} of {@code size} bytes ends at a 1 KiB page split with no
     * instruction that ends a block: the next block, when it starts at {@code address + size}, is
     * its continuation.
     */
    public boolean endsAtSplit(long address, int size, boolean thumb) {
        if (size <= 0) return false;
        long end = address + size;
        long boundary = (end + UNICORN_PAGE - 1) & -UNICORN_PAGE;
        if (boundary % QEMU_PAGE == 0 && !thumb) return false; // qemu-user ends its block there too
        if (cpu.arch() == Backend.Arch.ARM64) return end == boundary && !a64EndsBlock(word(cpu.read(end - 4, 4), 0));
        if (!thumb) return end == boundary && !a32EndsBlock(word(cpu.read(end - 4, 4), 0));
        byte[] code = cpu.read(address, size);
        int at = 0, last = 0;
        while (at < size) { // Thumb instruction lengths follow from their first halfword
            last = at;
            at += wide(halfword(code, at)) ? 4 : 2;
        }
        if (at != size) return false;
        int h1 = halfword(code, last);
        boolean wideLast = size - last == 4;
        // Unicorn ends a Thumb block at the boundary, or just after a 32-bit instruction across it
        long crossed = end - 2;
        boolean split = end == boundary && boundary % QEMU_PAGE != 0
                || wideLast && (crossed & (UNICORN_PAGE - 1)) == 0 && crossed % QEMU_PAGE != 0
                || end == boundary - 2 && boundary % QEMU_PAGE != 0 && wide(halfword(cpu.read(end, 2), 0));
        return split && (wideLast ? !t32EndsBlock(h1, halfword(code, last + 2)) : !t16EndsBlock(h1));
    }

    static int halfword(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
    }

    static int word(byte[] b, int at) {
        return halfword(b, at) | halfword(b, at + 2) << 16;
    }

    /** A Thumb halfword that starts a 32-bit instruction. */
    static boolean wide(int h) {
        return h >>> 11 >= 0x1d;
    }

    /** A64: whether QEMU ends a translation block after this instruction. */
    static boolean a64EndsBlock(int w) {
        return (w & 0x7c000000) == 0x14000000                                // B, BL
                || (w & 0xff000010) == 0x54000000                            // B.cond
                || (w & 0x7e000000) == 0x34000000                            // CBZ, CBNZ
                || (w & 0x7e000000) == 0x36000000                            // TBZ, TBNZ
                || (w & 0xfe000000) == 0xd6000000                            // BR, BLR, RET, ERET
                || (w & 0xff000000) == 0xd4000000                            // SVC, HVC, SMC, BRK, HLT
                || (w & 0xfffff0ff) == 0xd50330df                            // ISB
                || (w & 0xfff8f01f) == 0xd500401f;                           // MSR (immediate) to PSTATE
    }

    /** A32: whether QEMU ends a translation block after this instruction. */
    static boolean a32EndsBlock(int w) {
        if (w >>> 28 == 0xf) // unconditional space: BLX (immediate), RFE, SRS, CPS, SETEND end it
            return (w & 0x0e000000) == 0x0a000000 || (w & 0x0e000000) == 0x08000000 || (w & 0x0ff00000) == 0x01000000;
        if ((w & 0x0e000000) == 0x0a000000) return true;                     // B, BL
        if ((w & 0x0f000000) == 0x0f000000) return true;                     // SVC
        if ((w & 0x0ffffff0) == 0x012fff10 || (w & 0x0ffffff0) == 0x012fff20 || (w & 0x0ffffff0) == 0x012fff30)
            return true;                                                     // BX, BXJ, BLX (register)
        if ((w & 0x0ff000f0) == 0x01200070 || (w & 0x0ff000f0) == 0x07f000f0) return true; // BKPT, UDF
        if ((w & 0x0e10f000) == 0x0410f000 || (w & 0x0e10f010) == 0x0610f000) return true; // LDR pc
        if ((w & 0x0e108000) == 0x08108000) return true;                     // LDM with pc
        if ((w & 0x0fb0fff0) == 0x0120f000) return true;                     // MSR (register)
        if ((w & 0x0fb0f000) == 0x0320f000 && (w & 0x000f0000) != 0) return true; // MSR (immediate), not a hint
        if ((w & 0x0c000000) == 0 && (w >>> 12 & 0xf) == 15) {               // data processing into pc
            int op = w >>> 21 & 0xf;
            if (op >= 8 && op <= 11) return false;                           // TST, TEQ, CMP, CMN, MOVW, MOVT, misc
            return (w & 0x02000000) != 0 || (w & 0x90) != 0x90;              // not a multiply or extra load/store
        }
        return false;
    }

    /** 16-bit Thumb: whether QEMU ends a translation block after this instruction. */
    static boolean t16EndsBlock(int h) {
        return (h & 0xf000) == 0xd000                                        // B<cond>, UDF, SVC
                || (h & 0xf800) == 0xe000                                    // B
                || (h & 0xf500) == 0xb100                                    // CBZ, CBNZ
                || (h & 0xff00) == 0x4700                                    // BX, BLX
                || (h & 0xff87) == 0x4487 || (h & 0xff87) == 0x4687          // ADD pc, MOV pc
                || (h & 0xff00) == 0xbd00                                    // POP {..., pc}
                || (h & 0xff00) == 0xbe00                                    // BKPT
                || (h & 0xffe8) == 0xb660 || (h & 0xfff7) == 0xb650;         // CPS, SETEND
    }

    /** 32-bit Thumb: whether QEMU ends a translation block after this instruction. */
    static boolean t32EndsBlock(int h1, int h2) {
        if ((h1 & 0xf800) == 0xf000 && (h2 & 0x8000) != 0) {               // branches and misc control
            int op1 = h2 >>> 12 & 7;
            if ((op1 & 5) != 0) return true;                                 // B.W, BL, BLX
            if ((h1 & 0x0380) != 0x0380) return true;                        // B<cond>.W
            int op = h1 >>> 4 & 0x7f;
            if (op == 0x3a) return (h2 & 0x0700) != 0;                       // CPS ends it; hints (NOP.W...) do not
            if (op == 0x3b) return (h2 >>> 4 & 0xf) == 6;                    // ISB ends it; CLREX, DSB, DMB do not
            return op != 0x3e && op != 0x3f;                                 // MRS does not; MSR, BXJ, SUBS pc, UDF, SMC do
        }
        if ((h1 & 0xff70) == 0xf850 && h2 >>> 12 == 15) return true;        // LDR pc
        if (((h1 & 0xffd0) == 0xe890 || (h1 & 0xffd0) == 0xe910) && (h2 & 0x8000) != 0) return true; // LDM/POP with pc
        return (h1 & 0xfff0) == 0xe8d0 && (h2 & 0xffe0) == 0xf000;          // TBB, TBH
    }
}
