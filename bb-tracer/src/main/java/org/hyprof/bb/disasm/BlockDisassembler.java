package org.hyprof.bb.disasm;

import capstone.Capstone;
import capstone.api.Instruction;
import java.util.ArrayList;
import java.util.List;
import org.hyprof.bb.NativeException;
import org.hyprof.bb.cost.CpuProfile;
import org.hyprof.bb.emu.Backend;

/**
 * Disassembles basic blocks with capstone (the JNA binding, {@code capstone.Capstone}: slow per
 * instruction, but each distinct block is disassembled once, after the run) and puts every
 * instruction in a cost category of the CPU profile by its mnemonic. ARM, Thumb and AArch64.
 * Only this binding is loaded: capstone's two Java bindings must not share a JVM.
 */
public final class BlockDisassembler implements AutoCloseable {
    private final Capstone arm, thumb, arm64;
    private final CpuProfile profile;

    public BlockDisassembler(Backend.Arch arch, CpuProfile profile) {
        this.profile = profile;
        try {
            if (arch == Backend.Arch.ARM) {
                arm = new Capstone(Capstone.CS_ARCH_ARM, Capstone.CS_MODE_ARM);
                thumb = new Capstone(Capstone.CS_ARCH_ARM, Capstone.CS_MODE_THUMB);
                arm64 = null;
            } else {
                arm = thumb = null;
                arm64 = new Capstone(Capstone.CS_ARCH_ARM64, Capstone.CS_MODE_ARM);
            }
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            throw new NativeException("cannot load the capstone disassembler: " + e.getMessage(), e);
        }
    }

    /** The instructions of a block's bytes. */
    public List<org.hyprof.bb.disasm.Instruction> disassemble(byte[] code, long address, boolean isThumb) {
        Capstone cs = arm64 != null ? arm64 : isThumb ? thumb : arm;
        Instruction[] insns = cs.disasm(code, address);
        List<org.hyprof.bb.disasm.Instruction> out = new ArrayList<>(insns.length);
        for (Instruction i : insns) {
            out.add(new org.hyprof.bb.disasm.Instruction(i.getAddress(), i.getSize(), i.getMnemonic(), i.getOpStr(),
                    profile.categorize(i.getMnemonic(), i.getOpStr())));
        }
        return out;
    }

    @Override
    public void close() {
        if (arm != null) arm.close();
        if (thumb != null) thumb.close();
        if (arm64 != null) arm64.close();
    }
}
