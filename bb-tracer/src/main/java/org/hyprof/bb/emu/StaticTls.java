package org.hyprof.bb.emu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.hyprof.bb.NativeException;
import org.hyprof.bb.elf.ElfImage;

/**
 * ELF thread-local storage of the loaded libraries ({@code PT_TLS}), as static TLS: every
 * emulated thread has an area whose start is its thread pointer ({@code TPIDR_EL0} /
 * {@code TPIDRURO}); bionic's TLS slots come first, then each library's block at a fixed offset
 * from the thread pointer, the same in every thread, initialised from the library's (relocated)
 * {@code .tdata} image and zeroed {@code .tbss}. Fixed offsets are what initial-exec code
 * ({@code R_AARCH64_TLS_TPREL64}, {@code R_ARM_TLS_TPOFF32}) needs, and the dynamic models resolve
 * to them too ({@code __tls_get_addr}, AArch64 TLS descriptors).
 *
 * <p>Why the blocks come after the slots rather than at TP+16 (AArch64) / TP+8 (ARM) as the ELF
 * ABI places an executable's: Android 6.0's libc keeps its 9 slots at TP+0 … TP+8 words (Android
 * 10's libc moved them below the thread pointer to make room). A library's offset is never told
 * to its code except through the relocations this loader computes, so any offset after the
 * slots is as good. And why areas of their own rather than after the {@code tls} array libc
 * hands {@code clone}: that array sits inside libc's {@code pthread_internal_t}, with other fields
 * after it; a new thread's area gets a copy of its slots instead (all of libc's uses of them go
 * through the thread pointer).
 *
 * <p>Areas: {@link #AREA}, {@link Threads#MAX_THREADS} of {@link #STRIDE} bytes (64 KiB: the
 * slots and at most 60 KiB of blocks), mapped only when a library has {@code PT_TLS}.
 */
final class StaticTls {
    static final long AREA = 0x6E00_0000L, STRIDE = 64L << 10;
    /** bionic's TLS slots (Android 6.0: {@code BIONIC_TLS_SLOTS}), copied into a new thread's area. */
    static final int SLOTS = 9;
    /** Bytes of blocks at most, after the slots. */
    private static final long MAX_BYTES = STRIDE - 4096;

    private final Backend cpu;
    private final List<Emulator.Module> modules;
    private final int word;
    /** Per module (load order): its block's offset from the thread pointer; -1 without PT_TLS. */
    private final long[] offsets;
    private final boolean[] used = new boolean[Threads.MAX_THREADS];

    private StaticTls(Backend cpu, List<Emulator.Module> modules, long[] offsets) {
        this.cpu = cpu;
        this.modules = modules;
        this.word = cpu.arch() == Backend.Arch.ARM64 ? 8 : 4;
        this.offsets = offsets;
    }

    /** The layout of the modules' blocks and their areas mapped; null when no module has PT_TLS. */
    static StaticTls layOut(Backend cpu, GuestMemory memory, List<Emulator.Module> modules) {
        long[] offsets = new long[modules.size()];
        long cursor = SLOTS * (cpu.arch() == Backend.Arch.ARM64 ? 8L : 4L);
        boolean any = false;
        for (int i = 0; i < modules.size(); i++) {
            ElfImage.Tls t = modules.get(i).image().tls;
            offsets[i] = -1;
            if (t == null) continue;
            any = true;
            Emulator.Module m = modules.get(i);
            if (t.vaddr() < 0 || t.vaddr() + t.fileSize() > m.end() - m.base())
                throw new NativeException(m.image().path + ": its thread-local storage image lies outside the library");
            // the block's address keeps the segment's alignment: areas are 64 KiB aligned, so its offset must
            long at = (cursor + t.align() - 1) & -t.align();
            offsets[i] = at;
            cursor = at + t.memSize();
            if (cursor > MAX_BYTES)
                throw new NativeException(m.name() + ": the libraries' thread-local storage needs " + cursor
                        + " bytes per thread (the emulator has " + MAX_BYTES + ")");
        }
        if (!any) return null;
        memory.map("static TLS", AREA, STRIDE * Threads.MAX_THREADS, true, true, false);
        return new StaticTls(cpu, modules, offsets);
    }

    /** A module's id in {@code tls_index} ({@code DTPMOD}): its place in load order, from 1. */
    static long moduleId(int index) {
        return index + 1;
    }

    /** A module's block offset from the thread pointer ({@code TPREL} = this + the symbol's offset in the block). */
    long offset(int moduleIndex) {
        long o = moduleIndex >= 0 && moduleIndex < offsets.length ? offsets[moduleIndex] : -1;
        if (o < 0) throw new NativeException(modules.get(Math.max(0, Math.min(moduleIndex, modules.size() - 1))).name()
                + ": thread-local storage asked of a library without a PT_TLS segment");
        return o;
    }

    /** The offset from the thread pointer of a {@code tls_index} {module id, offset} ({@code __tls_get_addr}). */
    long offsetOf(long moduleId, long offsetInBlock) {
        if (moduleId < 1 || moduleId > offsets.length)
            throw new NativeException("__tls_get_addr: no loaded library has module id " + moduleId);
        return offset((int) moduleId - 1) + offsetInBlock;
    }

    /** The main thread's area (its thread pointer): taken and its blocks initialised. */
    long main() {
        used[0] = true;
        initialise(AREA);
        return AREA;
    }

    /**
     * A new thread's area: bionic's slots copied from the array libc made for it ({@code slots},
     * what it passed to {@code clone}) with the self slot pointing at the area, and every block
     * initialised; 0 when all areas are in use.
     */
    long allocate(long slots) {
        for (int i = 1; i < used.length; i++) {
            if (used[i]) continue;
            used[i] = true;
            long tp = AREA + i * STRIDE;
            byte[] s = cpu.read(slots, SLOTS * word);
            ByteBuffer b = ByteBuffer.wrap(s).order(ByteOrder.LITTLE_ENDIAN);
            if (word == 8) b.putLong(0, tp); else b.putInt(0, (int) tp);
            cpu.write(tp, s);
            initialise(tp);
            return tp;
        }
        return 0;
    }

    /** A thread that had {@code tp} ended: its area is free again. */
    void release(long tp) {
        long i = (tp - AREA) / STRIDE;
        if (tp >= AREA && (tp - AREA) % STRIDE == 0 && i > 0 && i < used.length) used[(int) i] = false;
    }

    /** Whether an address is the start of one of the areas. */
    boolean isArea(long tp) {
        return tp >= AREA && tp < AREA + STRIDE * used.length && (tp - AREA) % STRIDE == 0;
    }

    /** Each module's block at {@code tp}: its {@code .tdata} as loaded and relocated, then zeros. */
    private void initialise(long tp) {
        for (int i = 0; i < offsets.length; i++) {
            if (offsets[i] < 0) continue;
            Emulator.Module m = modules.get(i);
            ElfImage.Tls t = m.image().tls;
            byte[] block = new byte[(int) t.memSize()];
            if (t.fileSize() > 0) System.arraycopy(cpu.read(m.base() + t.vaddr(), (int) t.fileSize()), 0, block, 0, (int) t.fileSize());
            if (block.length > 0) cpu.write(tp + offsets[i], block);
        }
    }
}
