package org.hyprof.bb.emu;

import com.github.unidbg.arm.backend.unicorn.BlockHook;
import com.github.unidbg.arm.backend.unicorn.CodeHook;
import com.github.unidbg.arm.backend.unicorn.InterruptHook;
import com.github.unidbg.arm.backend.unicorn.Unicorn;
import java.io.IOException;
import java.nio.file.Path;
import org.hyprof.bb.NativeException;
import unicorn.Arm64Const;
import unicorn.ArmConst;
import unicorn.UnicornConst;
import unicorn.UnicornException;

/**
 * {@link Backend} on Unicorn 2 (unidbg-unicorn2). Its bundled native library is loaded explicitly:
 * otherwise an installed Debian libunicorn.so could be picked up first and fail to link. VFP/NEON
 * are switched on (they start disabled). Block hooks cost a JNI up-call per executed block
 * (about 100 ns); see bench/README.md.
 */
public final class UnicornBackend implements Backend {
    private static volatile boolean loaded;

    private final Arch arch;
    private final Unicorn uc;

    public UnicornBackend(Arch arch) {
        loadNative();
        this.arch = arch;
        try {
            uc = arch == Arch.ARM ? new Unicorn(UnicornConst.UC_ARCH_ARM, UnicornConst.UC_MODE_ARM)
                    : new Unicorn(UnicornConst.UC_ARCH_ARM64, UnicornConst.UC_MODE_ARM);
            if (arch == Arch.ARM) {
                uc.reg_write(ArmConst.UC_ARM_REG_C1_C0_2, uc.reg_read(ArmConst.UC_ARM_REG_C1_C0_2) | (0xfL << 20));
                uc.reg_write(ArmConst.UC_ARM_REG_FPEXC, 0x40000000L);
            } else {
                uc.reg_write(Arm64Const.UC_ARM64_REG_CPACR_EL1, uc.reg_read(Arm64Const.UC_ARM64_REG_CPACR_EL1) | 0x300000L);
            }
        } catch (UnicornException e) {
            throw new NativeException("cannot start the emulator: " + e.getMessage(), e);
        }
    }

    /**
     * Loads natives/linux_64/libunicorn.so of the unidbg-unicorn2 jar from the per-user cache
     * ({@link LibraryCache}: a directory only this user can write, the file checked against the
     * SHA-256 of the jar's copy before it is loaded).
     */
    static synchronized void loadNative() {
        if (loaded) return;
        String os = System.getProperty("os.name", "").toLowerCase();
        String cpu = System.getProperty("os.arch", "");
        String dir = os.contains("linux") ? (cpu.equals("aarch64") ? "linux_arm64" : "linux_64")
                : os.contains("mac") ? (cpu.equals("aarch64") ? "osx_arm64" : "osx_64") : "windows_64";
        String name = dir.startsWith("linux") ? "libunicorn.so" : dir.startsWith("osx") ? "libunicorn.dylib" : "unicorn.dll";
        String res = "/natives/" + dir + "/" + name;
        if (Unicorn.class.getResource(res) == null)
            throw new NativeException("the emulator has no native library for " + os + "/" + cpu + " (" + res + ")");
        try {
            Path so = LibraryCache.extract(LibraryCache.directory(LibraryCache::warn), "unidbg-" + name.replaceFirst("\\.[a-z]+$", ""),
                    () -> Unicorn.class.getResourceAsStream(res), null, LibraryCache::warn);
            System.load(so.toAbsolutePath().toString());
            loaded = true;
        } catch (IOException e) {
            throw new NativeException("cannot extract the emulator's native library: " + e, e);
        }
    }

    @Override public Arch arch() { return arch; }

    @Override public Engine engine() { return Engine.UNIDBG; }

    @Override
    public void map(long address, long size, boolean read, boolean write, boolean exec) {
        int prot = (read ? UnicornConst.UC_PROT_READ : 0) | (write ? UnicornConst.UC_PROT_WRITE : 0) | (exec ? UnicornConst.UC_PROT_EXEC : 0);
        uc.mem_map(address, size, prot);
    }

    @Override public void write(long address, byte[] data) { uc.mem_write(address, data); }

    @Override public byte[] read(long address, int size) { return uc.mem_read(address, size); }

    @Override
    public long gpr(int n) {
        return arch == Arch.ARM ? uc.reg_read(ArmConst.UC_ARM_REG_R0 + n) & 0xffffffffL : uc.reg_read(x(n));
    }

    @Override
    public void gpr(int n, long v) {
        if (arch == Arch.ARM) uc.reg_write(ArmConst.UC_ARM_REG_R0 + n, v & 0xffffffffL);
        else uc.reg_write(x(n), v);
    }

    private static int x(int n) {
        if (n <= 28) return Arm64Const.UC_ARM64_REG_X0 + n;
        return n == 29 ? Arm64Const.UC_ARM64_REG_X29 : Arm64Const.UC_ARM64_REG_X30;
    }

    @Override public long sp() { return arch == Arch.ARM ? uc.reg_read(ArmConst.UC_ARM_REG_SP) & 0xffffffffL : uc.reg_read(Arm64Const.UC_ARM64_REG_SP); }

    @Override public void sp(long v) { uc.reg_write(arch == Arch.ARM ? ArmConst.UC_ARM_REG_SP : Arm64Const.UC_ARM64_REG_SP, v); }

    @Override public long lr() { return arch == Arch.ARM ? uc.reg_read(ArmConst.UC_ARM_REG_LR) & 0xffffffffL : uc.reg_read(Arm64Const.UC_ARM64_REG_LR); }

    @Override public void lr(long v) { uc.reg_write(arch == Arch.ARM ? ArmConst.UC_ARM_REG_LR : Arm64Const.UC_ARM64_REG_LR, v); }

    @Override public long pc() { return arch == Arch.ARM ? uc.reg_read(ArmConst.UC_ARM_REG_PC) & 0xffffffffL : uc.reg_read(Arm64Const.UC_ARM64_REG_PC); }

    @Override
    public boolean thumb() {
        return arch == Arch.ARM && (uc.reg_read(ArmConst.UC_ARM_REG_CPSR) & 0x20) != 0;
    }

    @Override
    public long fpr(int n) {
        return uc.reg_read(arch == Arch.ARM ? ArmConst.UC_ARM_REG_D0 + n : Arm64Const.UC_ARM64_REG_D0 + n);
    }

    @Override
    public void fpr(int n, long bits) {
        uc.reg_write(arch == Arch.ARM ? ArmConst.UC_ARM_REG_D0 + n : Arm64Const.UC_ARM64_REG_D0 + n, bits);
    }

    @Override
    public void run(long begin, long until) {
        try {
            uc.emu_start(begin, until, 0, 0);
        } catch (UnicornException e) {
            throw new NativeException("emulation stopped at 0x" + Long.toHexString(pc()) + ": " + e.getMessage(), e);
        }
    }

    @Override public void stop() { uc.emu_stop(); }

    @Override
    public long save() {
        long h = uc.context_alloc();
        uc.context_save(h);
        return h;
    }

    @Override
    public void restore(long handle) {
        uc.context_restore(handle);
        Unicorn.free(handle);
    }

    @Override
    public void onBlock(long begin, long end, BlockListener l) {
        uc.hook_add_new((BlockHook) (u, address, size, user) -> l.block(address, size), begin, end - 1, null);
    }

    @Override
    public void onCode(long begin, long end, CodeListener l) {
        uc.hook_add_new((CodeHook) (u, address, size, user) -> l.code(address), begin, end - 1, null);
    }

    @Override
    public void onInterrupt(InterruptListener l) {
        uc.hook_add_new((InterruptHook) (u, intno, user) -> l.interrupt(intno), null);
    }

    @Override
    public void threadPointer(long address) {
        uc.reg_write(arch == Arch.ARM ? ArmConst.UC_ARM_REG_C13_C0_3 : Arm64Const.UC_ARM64_REG_TPIDR_EL0, address);
    }

    @Override
    public long threadPointer() {
        long v = uc.reg_read(arch == Arch.ARM ? ArmConst.UC_ARM_REG_C13_C0_3 : Arm64Const.UC_ARM64_REG_TPIDR_EL0);
        return arch == Arch.ARM ? v & 0xffffffffL : v;
    }

    @Override
    public void close() {
        uc.closeAll();
    }
}
