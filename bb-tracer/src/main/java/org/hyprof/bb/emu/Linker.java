package org.hyprof.bb.emu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * What Android's dynamic linker does for a process that {@link Userland#BIONIC} runs, and the Java
 * stand-ins for the libraries that are not loaded from files:
 *
 * <ul>
 * <li>{@code libdl.so}: on Android its functions are the linker's own. {@code dlopen} of a loaded
 * library gives a handle (anything else: null, as for a library that is not there),
 * {@code dlsym} looks a symbol up in it (or in the global scope), {@code dlerror} is null;
 * {@code dl_iterate_phdr} reports every loaded library (its callback runs in the emulator, once
 * per library in load order, until it returns non-zero; counted in the calling native method),
 * {@code dladdr} names the library and nearest function of an address, and ARM's
 * {@code dl_unwind_find_exidx} gives a library's {@code PT_ARM_EXIDX}: what C++ exception
 * unwinders (LLVM's libunwind, libgcc's) look up to find a frame's unwind tables.
 * <li>{@code liblog.so}: {@code __android_log_print/_write/_vprint} print to stderr ({@link LibC}).
 * <li>Process start: bionic's TLS (the thread pointer at an array of slots: self, the thread's
 * {@code pthread_internal_t}, the kernel argument block for {@code __libc_preinit}, the stack
 * guard) and the {@code KernelArgumentBlock} (argv {@code app_process}, an environment, the
 * auxiliary vector: page size, HWCAP, AT_RANDOM), which libc's first init function consumes.
 * </ul>
 * Their work is not counted (they run in Java, as the linker's work is not the app's).
 */
final class Linker {
    private Linker() {}

    /** Imports answered in Java under {@link Userland#BIONIC}. */
    static final Set<String> STAND_INS = Set.of("dlopen", "dlsym", "dlclose", "dlerror", "dladdr", "dl_iterate_phdr",
            "dl_unwind_find_exidx", "android_dlopen_ext", "__tls_get_addr", "android_get_LD_LIBRARY_PATH", "android_update_LD_LIBRARY_PATH",
            "android_set_application_target_sdk_version", "android_get_application_target_sdk_version",
            "__android_log_print", "__android_log_write", "__android_log_vprint");

    /** bionic's TLS slots (Android 6.0, bionic/libc/private/bionic_tls.h). */
    private static final int SLOT_SELF = 0, SLOT_THREAD_ID = 1, SLOT_BIONIC_PREINIT = 3, SLOT_STACK_GUARD = 5, SLOTS = StaticTls.SLOTS;
    /** Android 6.0 SDK level (what android_get_application_target_sdk_version answers). */
    private static final int SDK = 23;
    private static final long HANDLE = 0x1000; // dlopen handles: HANDLE + module index

    static void registerStandIns(Emulator e) {
        Stubs s = e.stubs;
        s.register("dlopen", c -> {
            long name = c.args.nextInt();
            if (name == 0) { c.returnInt(HANDLE); return; }
            String n = c.cString(name, 4096);
            String file = n.substring(n.lastIndexOf('/') + 1);
            for (int i = 0; i < e.modules.size(); i++) {
                if (e.modules.get(i).name().equals(file)) { c.returnInt(HANDLE + i); return; }
            }
            c.returnInt(0);
        });
        s.register("android_dlopen_ext", c -> c.returnInt(0));
        s.register("dlsym", c -> {
            long handle = c.args.nextInt();
            String name = c.cString(c.args.nextInt(), 4096);
            int i = (int) (handle - HANDLE);
            if (i >= 0 && i < e.modules.size() && handle != HANDLE) {
                Emulator.Module m = e.modules.get(i);
                Long v = m.image().dynamicExports.get(name);
                c.returnInt(v == null ? 0 : m.base() + v);
                return;
            }
            for (Emulator.Module m : e.modules) { // RTLD_DEFAULT, RTLD_NEXT, the main handle: the global scope
                Long v = m.image().dynamicExports.get(name);
                if (v != null) { c.returnInt(m.base() + v); return; }
            }
            c.returnInt(0);
        });
        s.register("dlclose", c -> c.returnInt(0));
        s.register("dlerror", c -> c.returnInt(0));
        Strings strings = new Strings(e);
        s.register("dladdr", c -> dladdr(e, strings, c));
        s.register("dl_iterate_phdr", c -> {
            long callback = c.args.nextInt(), data = c.args.nextInt();
            long result = 0;
            for (Emulator.Module m : e.modules) {
                long info = phdrInfo(e, strings, m);
                result = e.callBack(callback, List.of(Emulator.Arg.ofInt(info), Emulator.Arg.ofInt(phdrInfoBytes(e)), Emulator.Arg.ofInt(data))).r0();
                if (e.cpu.arch() == Backend.Arch.ARM) result = (int) result;
                if (result != 0) break;
            }
            c.returnInt(result);
        });
        s.register("dl_unwind_find_exidx", c -> {
            long pc = c.args.nextInt(), count = c.args.nextInt();
            Emulator.Module m = e.moduleAt(pc & ~1L);
            boolean found = m != null && m.image().exidxSize > 0;
            if (count != 0) {
                e.memory.check(count, 4, true, "dl_unwind_find_exidx's count");
                e.cpu.write(count, le32(found ? (int) (m.image().exidxSize / 8) : 0));
            }
            c.returnInt(found ? m.base() + m.image().exidxVaddr : 0);
        });
        s.register("android_get_LD_LIBRARY_PATH", c -> { });
        s.register("android_update_LD_LIBRARY_PATH", c -> { });
        s.register("android_set_application_target_sdk_version", c -> { });
        s.register("android_get_application_target_sdk_version", c -> c.returnInt(SDK));
    }

    /** Android 6.0's {@code struct dl_phdr_info}: addr, name, phdr, phnum (the API 30 fields after them are not given). */
    private static long phdrInfoBytes(Emulator e) {
        return e.cpu.arch() == Backend.Arch.ARM64 ? 32 : 16;
    }

    /** A module's {@code dl_phdr_info} in the heap (made once; the program headers as loaded, else a copy). */
    private static long phdrInfo(Emulator e, Strings strings, Emulator.Module m) {
        return strings.cached("phdr_info " + m.name(), () -> {
            var img = m.image();
            long phdrBytes = (long) img.phdrCount * (img.is64() ? 56 : 32);
            long at = img.phdrVaddr();
            long phdr;
            if (at >= 0) {
                phdr = m.base() + at;
            } else {
                phdr = e.heap.malloc(Math.max(1, phdrBytes));
                e.cpu.write(phdr, java.util.Arrays.copyOfRange(img.bytes, (int) img.phdrOffset, (int) (img.phdrOffset + phdrBytes)));
            }
            Words w = new Words(img.is64() ? 8 : 4);
            w.put(m.base()).put(strings.of(m.name())).put(phdr).put(img.phdrCount);
            long info = e.heap.malloc(phdrInfoBytes(e));
            e.cpu.write(info, java.util.Arrays.copyOf(w.bytes(), (int) phdrInfoBytes(e)));
            return info;
        });
    }

    /**
     * dladdr(address, Dl_info*): the library containing the address (file name, base) and the
     * nearest function symbol at or below it (name, address); 0 outside every library.
     */
    private static void dladdr(Emulator e, Strings strings, Stubs.Context c) {
        long address = c.args.nextInt(), info = c.args.nextInt();
        Emulator.Module m = e.moduleAt(address & ~1L);
        if (m == null) { c.returnInt(0); return; }
        int w = e.cpu.arch() == Backend.Arch.ARM64 ? 8 : 4;
        e.memory.check(info, 4L * w, true, "dladdr's Dl_info");
        var fn = m.image().functionsByAddress.floorEntry((address & ~1L) - m.base());
        long symbol = fn == null ? 0 : m.base() + m.image().exports.getOrDefault(fn.getValue(), fn.getKey());
        Words v = new Words(w);
        v.put(strings.of(m.name())).put(m.base()).put(fn == null ? 0 : strings.of(fn.getValue())).put(symbol);
        e.cpu.write(info, v.bytes());
        c.returnInt(1);
    }

    /** NUL-terminated strings and other records the stand-ins hand native code, each made once in the heap. */
    private static final class Strings {
        private final Emulator e;
        private final java.util.Map<String, Long> made = new java.util.HashMap<>();

        Strings(Emulator e) {
            this.e = e;
        }

        long of(String s) {
            return cached(s, () -> {
                byte[] b = (s + "\0").getBytes(StandardCharsets.UTF_8);
                long p = e.heap.malloc(b.length);
                e.cpu.write(p, b);
                return p;
            });
        }

        long cached(String key, java.util.function.LongSupplier make) {
            Long p = made.get(key);
            if (p == null) made.put(key, p = make.getAsLong());
            return p;
        }
    }

    /**
     * Sets up the main thread's TLS and the kernel argument block in the thread area, before the
     * init functions run. Layout: slots at +0, {@code pthread_internal_t} (zeroed, its tid set) at
     * +0x1000, the argument block and what it points to from +0xC000.
     */
    static void startProcess(Emulator e) {
        boolean w64 = e.cpu.arch() == Backend.Arch.ARM64;
        int w = w64 ? 8 : 4;
        long area = Emulator.THREAD, thread = area + 0x1000, block = area + 0xC000, data = block + 0x100;
        // with ELF TLS the slots start the main thread's static TLS area (its blocks follow them)
        long tls = e.staticTls != null ? e.staticTls.main() : area;
        Words slots = new Words(w);
        for (int i = 0; i < SLOTS; i++) {
            slots.put(switch (i) {
                case SLOT_SELF -> tls;
                case SLOT_THREAD_ID -> thread;
                case SLOT_BIONIC_PREINIT -> block;
                case SLOT_STACK_GUARD -> 0x5e0a1d4bL;
                default -> 0;
            });
        }
        e.cpu.write(tls, slots.bytes());
        // pthread_internal_t: next, prev, then pid_t tid
        e.cpu.write(thread + 2L * w, le32(Syscalls.PID));

        // strings and AT_RANDOM's 16 bytes
        long argv0 = data;
        byte[] name = "app_process\0".getBytes(StandardCharsets.US_ASCII);
        e.cpu.write(argv0, name);
        long env0 = argv0 + 0x20;
        byte[] env = "ANDROID_ROOT=/system\0ANDROID_DATA=/data\0".getBytes(StandardCharsets.US_ASCII);
        e.cpu.write(env0, env);
        long env1 = env0 + 21;
        long random = env0 + 0x40;
        e.cpu.write(random, new byte[] {0x68, 0x79, 0x70, 0x72, 0x6f, 0x66, 0x2d, 0x72, 0x61, 0x6e, 0x64, 0x6f, 0x6d, 0x2d, 0x31, 0x36});
        long platform = random + 0x10;
        e.cpu.write(platform, (w64 ? "aarch64\0" : "v7l\0").getBytes(StandardCharsets.US_ASCII));

        long argv = data + 0x100;
        Words v = new Words(w);
        v.put(argv0).put(0);                                  // argv
        long envp = argv + v.size();
        v.put(env0).put(env1).put(0);                         // envp
        long auxv = argv + v.size();
        long hwcap = hwcap(e.cpu.arch());
        v.put(6).put(4096)                                    // AT_PAGESZ
         .put(16).put(hwcap)                                  // AT_HWCAP (ARM: HALF THUMB FAST_MULT VFP NEON VFPv3 TLS VFPv4 IDIVA)
         .put(26).put(0)                                      // AT_HWCAP2
         .put(25).put(random)                                 // AT_RANDOM
         .put(23).put(0)                                      // AT_SECURE
         .put(11).put(10042).put(12).put(10042).put(13).put(10042).put(14).put(10042) // AT_UID, EUID, GID, EGID
         .put(15).put(platform)                               // AT_PLATFORM
         .put(0).put(0);                                      // AT_NULL
        e.cpu.write(argv, v.bytes());

        // KernelArgumentBlock: int argc; char** argv; char** envp; auxv_t* auxv; abort_msg_t** abort_message_ptr
        Words k = new Words(w);
        k.put(1).put(argv).put(envp).put(auxv).put(0);
        e.cpu.write(block, k.bytes());
        e.cpu.threadPointer(tls);
        if (!w64) mapKernelHelpers(e);
    }

    /** AT_HWCAP of the emulated CPU (AArch64: FP, ASIMD; ARM: HALF THUMB FAST_MULT VFP NEON VFPv3 TLS VFPv4 IDIVA). */
    static long hwcap(Backend.Arch arch) {
        return arch == Backend.Arch.ARM64 ? 0x3 : (1 << 1) | (1 << 2) | (1 << 3) | (1 << 6) | (1 << 12) | (1 << 13) | (1 << 15) | (1 << 16) | (1 << 17);
    }

    /**
     * The ARM kernel's user helpers (Documentation/arm/kernel_user_helpers.txt): code the kernel
     * maps at 0xffff0000 in every 32-bit process, which libgcc's {@code __sync_*} functions inside
     * Android's libc call for atomics and barriers. Written here as ARMv7 code with the kernel's
     * entry points and contract (8 instructions per slot), assembled with binutils:
     * {@code __kuser_cmpxchg64} at 0xf60, {@code __kuser_memory_barrier} at 0xfa0,
     * {@code __kuser_cmpxchg} at 0xfc0, {@code __kuser_get_tls} at 0xfe0, the helper version (5) at 0xffc.
     * Not counted (outside the libraries' range), as the kernel's work is not the app's.
     */
    static void mapKernelHelpers(Emulator e) {
        long page = 0xffff0000L;
        e.memory.map("kernel user helpers", page, 0x1000, true, false, true);
        put(e, page + 0xf60,
                0xe92d00f0, // push   {r4, r5, r6, r7}
                0xe1c040d0, // ldrd   r4, [r0]          old value
                0xe1c160d0, // ldrd   r6, [r1]          new value
                0xf57ff05b, // dmb    ish
                0xe1b20f9f, // 1: ldrexd r0, [r2]
                0xe0303004, // eors   r3, r0, r4
                0x00313005, // eorseq r3, r1, r5
                0x01a23f96, // strexdeq r3, r6, [r2]
                0x03330001, // teqeq  r3, #1
                0x0afffff9, // beq    1b
                0xf57ff05b, // dmb    ish
                0xe2730000, // rsbs   r0, r3, #0        0 and C set when stored
                0xe8bd00f0, // pop    {r4, r5, r6, r7}
                0xe12fff1e); // bx    lr
        put(e, page + 0xfa0,
                0xf57ff05b, // dmb    ish
                0xe12fff1e); // bx    lr
        put(e, page + 0xfc0,
                0xf57ff05b, // dmb    ish
                0xe1923f9f, // 1: ldrex r3, [r2]
                0xe0533000, // subs   r3, r3, r0
                0x01823f91, // strexeq r3, r1, [r2]
                0x03330001, // teqeq  r3, #1
                0x0afffffa, // beq    1b
                0xe2730000, // rsbs   r0, r3, #0
                0xeaffffef); // b     __kuser_memory_barrier
        put(e, page + 0xfe0,
                0xee1d0f70, // mrc    p15, 0, r0, c13, c0, 3   (TPIDRURO)
                0xe12fff1e); // bx    lr
        put(e, page + 0xffc, 5);
    }

    private static void put(Emulator e, long address, int... words) {
        ByteBuffer b = ByteBuffer.allocate(4 * words.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int w : words) b.putInt(w);
        e.cpu.write(address, b.array());
    }

    private static byte[] le32(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }

    /** Little-endian machine words. */
    private static final class Words {
        private final int w;
        private final ByteBuffer b = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);

        Words(int w) {
            this.w = w;
        }

        Words put(long v) {
            if (w == 8) b.putLong(v); else b.putInt((int) v);
            return this;
        }

        int size() {
            return b.position();
        }

        byte[] bytes() {
            return java.util.Arrays.copyOf(b.array(), b.position());
        }
    }
}
