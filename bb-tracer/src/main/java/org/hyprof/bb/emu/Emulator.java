package org.hyprof.bb.emu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hyprof.bb.BlockCounter;
import org.hyprof.bb.NativeException;
import org.hyprof.bb.elf.ElfImage;

/**
 * A shared object loaded into an emulated CPU, ready to call: segments mapped, relocations
 * applied, imports bound to {@link Stubs}, init functions run, every executed block of the
 * library counted by a {@link BlockCounter}. One call at a time (the CPU has one state). Each call
 * runs under {@link Limits} (an instruction budget and a wall-time limit; exceeding either is a
 * {@link NativeException} naming the function), and library functions touch only mapped memory
 * ({@link GuestMemory}).
 *
 * <p>With {@link Userland#BIONIC} the library's {@code DT_NEEDED} system libraries (Android's
 * {@code libc.so}, {@code libm.so}, …) are loaded after it in the same counted range, their
 * imports and the library's bound to each other, bionic's start-up data and TLS set up, their
 * init functions run, and system calls answered by {@link Syscalls} — files inside a
 * {@link Sandbox} directory, threads taking turns on the one CPU ({@link Threads}); {@link #modules}
 * lists what is loaded where.
 *
 * <pre>
 * 0x0E00_0000  return trap (a call ends when the PC gets here)
 * 0x0F00_0000  stub page (imports)           0x1000_0000  the library, then its system libraries
 * 0x3000_0000  heap (256 MiB)                0x4000_0000  mmap area (bionic: 512 MiB)
 * 0x6E00_0000  static TLS (PT_TLS: 32 × 64 KiB; {@link StaticTls})
 * 0x6F00_0000  thread area (bionic: TLS)     0x7000_0000  stack (8 MiB, grows down)
 * 0xFFFF_0000  ARM: the kernel's user helpers (bionic; {@code Linker.mapKernelHelpers})
 * </pre>
 */
public final class Emulator implements AutoCloseable {
    public static final long TRAP = 0x0E00_0000L;
    public static final long BASE = 0x1000_0000L;
    public static final long HEAP = 0x3000_0000L, HEAP_SIZE = 256L << 20;
    public static final long STACK = 0x7000_0000L, STACK_SIZE = 8L << 20;
    public static final long MMAP = 0x4000_0000L, MMAP_SIZE = 512L << 20;
    public static final long THREAD = 0x6F00_0000L, THREAD_SIZE = 64L << 10;
    /** The code area's end: libraries never reach the heap. */
    private static final long CODE_END = HEAP;

    /** A library loaded at {@code base}; its code and data run to {@code end}. */
    public record Module(String name, ElfImage image, long base, long end) {
        public boolean contains(long address) {
            return address >= base && address < end;
        }
    }

    /** An argument of a call into native code. */
    public record Arg(Kind kind, long bits) {
        public enum Kind { INT, LONG, FLOAT, DOUBLE }

        public static Arg ofInt(long v) { return new Arg(Kind.INT, v); }
        public static Arg ofLong(long v) { return new Arg(Kind.LONG, v); }
        public static Arg ofFloat(float f) { return new Arg(Kind.FLOAT, Float.floatToRawIntBits(f)); }
        public static Arg ofDouble(double d) { return new Arg(Kind.DOUBLE, Double.doubleToRawLongBits(d)); }

        /** Parses {@code 42}, {@code 0x2a}, {@code 42L}, {@code 1.5f}, {@code 1.5} / {@code 1.5d}. */
        public static Arg parse(String s) {
            String t = s.trim();
            try {
                if (t.endsWith("f") || t.endsWith("F")) return ofFloat(Float.parseFloat(t.substring(0, t.length() - 1)));
                if (t.endsWith("d") || t.endsWith("D")) return ofDouble(Double.parseDouble(t.substring(0, t.length() - 1)));
                if (t.endsWith("L") || t.endsWith("l")) return ofLong(parseInt(t.substring(0, t.length() - 1)));
                if (t.contains(".") || t.contains("e") && !t.startsWith("0x")) return ofDouble(Double.parseDouble(t));
                return ofInt(parseInt(t));
            } catch (NumberFormatException e) {
                throw new NativeException("--arg '" + s + "': not a number (examples: 42, 0x2a, 7L, 1.5f, 2.25)");
            }
        }

        private static long parseInt(String t) {
            return t.startsWith("0x") || t.startsWith("0X") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseLong(t);
        }
    }

    public final ElfImage image;
    /** The library ({@code [0]}, at {@link #BASE}) and the system libraries loaded with it. */
    public final List<Module> modules;
    public final Userland userland;
    /** The system-call layer ({@link Userland#BIONIC}), else null. */
    public final Syscalls syscalls;
    public final Backend cpu;
    public final BlockCounter counter = new BlockCounter();
    public final Heap heap = new Heap(HEAP, HEAP_SIZE);
    public final GuestMemory memory;
    public final Stubs stubs;
    /** The libraries' thread-local storage, or null when none has a PT_TLS segment. */
    final StaticTls staticTls;
    /**
     * Relocations whose value an ifunc resolver gives ({@code IRELATIVE}, or a symbol that is an
     * {@code STT_GNU_IFUNC}): applied by {@link #runInit}, when code can run, before init functions.
     */
    private final List<Ifunc> ifuncs = new java.util.ArrayList<>();

    private record Ifunc(Module module, long where, long resolver, long addend) {}

    private volatile Limits limits = Limits.DEFAULT;
    /** Guards {@link #watched}, {@link #deadlineNanos} and {@link #timedOut} between the calling thread and the {@link Watchdog}. */
    private final Object watch = new Object();
    /** Whether a call with a wall-time limit is in progress. */
    private boolean watched;
    /** When the call being watched runs out of wall time ({@link System#nanoTime}); meaningful while {@link #watched}. */
    private long deadlineNanos;
    private boolean timedOut;
    /** Whether the {@link Watchdog} knows this emulator (only calls, which are synchronized, touch it). */
    private boolean watchdogKnows;
    private final long span;
    private long epochs;
    /** Calls in progress: above 0 while a stub (JNI calling back into Java) runs. */
    private int depth;

    /** A sandbox made for this emulator alone (no directory given), removed when it closes; else null. */
    private final Sandbox ownSandbox;

    private Emulator(ElfImage image, Backend cpu, boolean countBlocks, Userland userland, Sandbox sandbox, Sandbox own) {
        this.image = image;
        this.cpu = cpu;
        this.userland = userland;
        this.modules = layOut(image, userland, cpu.arch());
        this.span = modules.get(modules.size() - 1).end() - BASE;
        this.memory = new GuestMemory(cpu);
        memory.map("return trap", TRAP, 0x1000, true, false, true);
        memory.map("heap", HEAP, HEAP_SIZE, true, true, false);
        memory.map("stack", STACK, STACK_SIZE, true, true, false);
        for (Module m : modules) {
            memory.map(m.name(), m.base(), m.end() - m.base(), true, true, true);
            for (ElfImage.Segment s : m.image().segments) {
                if (s.fileSize() > 0) {
                    byte[] b = new byte[(int) s.fileSize()];
                    System.arraycopy(m.image().bytes, (int) s.fileOffset(), b, 0, b.length);
                    cpu.write(m.base() + s.vaddr(), b);
                }
            }
        }
        this.stubs = new Stubs(cpu, heap, memory, () -> counter.executed() * 4); // ~4 ns per block: deterministic
        this.staticTls = StaticTls.layOut(cpu, memory, modules);
        registerTls();
        if (userland == Userland.BIONIC) {
            this.ownSandbox = own;
            this.syscalls = new Syscalls(cpu, stubs, memory, counter::executed, MMAP, MMAP_SIZE, sandbox, this::placeOf, () -> epochs);
            memory.map("thread area", THREAD, THREAD_SIZE, true, true, false);
            Linker.registerStandIns(this);
            syscalls.threads.staticTls(staticTls);
        } else {
            this.ownSandbox = null;
            this.syscalls = null;
        }
        for (Module m : modules) relocate(m);
        if (countBlocks) {
            if (cpu.arch() == Backend.Arch.ARM) counter.thumbStateFrom(cpu::thumb);
            counter.onBudgetExhausted(cpu::stop);
            counter.mergePageSplits(new PageSplits(cpu));
            cpu.countBlocks(BASE, BASE + span, counter);
        }
        if (userland == Userland.BIONIC) Linker.startProcess(this);
        else if (staticTls != null) cpu.threadPointer(staticTls.main());
    }

    /**
     * The dynamic TLS models' entry points, answered in Java as the linker's work:
     * {@code __tls_get_addr(tls_index*)} (ARM; AArch64's traditional dialect), the thread
     * pointer plus the block's offset; and the AArch64 TLS descriptor's resolver (the first word
     * {@code R_AARCH64_TLSDESC} writes), which returns the second word: the offset from the
     * thread pointer. Both leave every other register as it was (a descriptor call's contract).
     */
    private void registerTls() {
        stubs.register("__tls_get_addr", c -> {
            long index = c.args.nextInt();
            if (staticTls == null) throw new NativeException(modules.get(0).name() + " called __tls_get_addr, but no library has thread-local storage");
            if (!memory.contains(index, 2L * word(), false)) throw new NativeException("__tls_get_addr: tls_index at 0x" + Long.toHexString(index) + " is not mapped");
            c.returnInt(cpu.threadPointer() + staticTls.offsetOf(readWord(index), readWord(index + word())));
        });
        stubs.register(TLSDESC_RESOLVER, c -> {
            long descriptor = c.args.nextInt();
            if (!memory.contains(descriptor, 16, false)) throw new NativeException("TLS descriptor at 0x" + Long.toHexString(descriptor) + " is not mapped");
            c.returnInt(readWord(descriptor + 8));
        });
    }

    /** The stub name of the static TLS descriptor resolver (not a symbol any library can import). */
    private static final String TLSDESC_RESOLVER = "(static TLS descriptor)";

    private static final List<String> IMPLICIT_NEEDED = List.of("libm.so", "libc.so");

    /** Where each library goes: the library at BASE, its system libraries after it (64 KiB aligned). */
    private static List<Module> layOut(ElfImage image, Userland userland, Backend.Arch arch) {
        List<Module> mods = new java.util.ArrayList<>();
        long end = BASE + extent(image);
        mods.add(new Module(image.path.getFileName().toString(), image, BASE, end));
        if (userland != Userland.BIONIC) return mods;
        // breadth first, as the linker's global scope: the library, then what it needs, and so on
        java.util.Set<String> seen = new java.util.HashSet<>(List.of(mods.get(0).name()));
        for (int i = 0; i < mods.size(); i++) {
            // a library linked without DT_NEEDED (-nostdlib, like hyprof's own samples) gets what the
            // NDK links into every library: libc and libm
            List<String> needs = i == 0 && image.needed.isEmpty() ? IMPLICIT_NEEDED : mods.get(i).image().needed;
            for (String need : needs) {
                // a name, never a path: nothing outside the library's directory is opened
                if (!need.matches("[A-Za-z0-9_+.-]{1,200}") || need.startsWith("."))
                    throw new NativeException(mods.get(i).image().path + ": DT_NEEDED entry '" + need.replaceAll("[^\\x20-\\x7e]", "?")
                            + "' is not a library file name");
                if (!seen.add(need) || Userland.standIn(need)) continue;
                Path f = image.path.getParent() == null ? null : image.path.getParent().resolve(need);
                if (f == null || !java.nio.file.Files.isRegularFile(f)) f = Userland.systemLibrary(arch, need);
                if (f == null) continue; // its symbols stay unresolved: a call to one fails, naming it
                ElfImage lib = ElfImage.read(f);
                if (lib.machine != image.machine)
                    throw new NativeException(f + ": " + lib.machine + " code, needed by " + mods.get(i).name() + " (" + image.machine + ")");
                long base = (end + 0xffff) & ~0xffffL;
                end = base + extent(lib);
                if (end > CODE_END) throw new NativeException(need + ": the libraries do not fit the emulated code area (512 MiB)");
                mods.add(new Module(need, lib, base, end));
            }
        }
        return List.copyOf(mods);
    }

    /** The bytes a library's segments span, rounded to 64 KiB. */
    private static long extent(ElfImage img) {
        long end = 0;
        for (ElfImage.Segment s : img.segments) end = Math.max(end, s.vaddr() + s.memSize());
        if (end <= 0 || end > CODE_END - BASE) throw new NativeException(img.path + ": segments span " + end + " bytes (at most 512 MiB)");
        return (end + 0xffff) & ~0xffffL;
    }

    /** The loaded library containing an address, or null. */
    public Module moduleAt(long address) {
        for (Module m : modules) if (m.contains(address)) return m;
        return null;
    }

    /**
     * Where an import binds: the first library in load order (the global scope) that exports it,
     * else a Java stub (the libdl/liblog/libandroid stand-ins, or LibC's with {@link Userland#STUBS}), else 0
     * for a weak import; anything else binds to a stub that fails when called, naming the symbol
     * and the library that needs it.
     */
    long bind(Module from, String name) {
        if (userland == Userland.BIONIC) {
            for (Module m : modules) {
                Long v = m.image().dynamicExports.get(name);
                if (v != null) return m.base() + v;
            }
            if (Linker.STAND_INS.contains(name) || LibAndroid.FUNCTIONS.contains(name) || name.equals("__stack_chk_guard")) return stubs.resolve(name);
            if (from.image().weakImports.contains(name)) return 0;
            if (LibAndroid.looksLikeItsFunction(name) && modules.stream().anyMatch(m -> m.image().needed.contains("libandroid.so"))) {
                stubs.register(name, c -> { throw new NativeException(from.name() + " called " + name + ", which hyprof's libandroid.so stand-in does not have"); });
                return stubs.resolve(name);
            }
            // LibC's Java versions are not used here: their work would go uncounted
            stubs.register(name, c -> { throw new NativeException(from.name() + " called " + name + ", which no system library defines"); });
        }
        return stubs.resolve(name);
    }

    /**
     * Loads a shared object (ARM, Thumb or AArch64) on the default engine
     * ({@link Engine#defaultEngine}) and runs its init functions.
     */
    public static Emulator load(Path so) {
        return load(so, Engine.defaultEngine(), true);
    }

    /** {@code countBlocks} false: no block hook at all (the baseline of benchmarks). */
    public static Emulator load(Path so, Engine engine, boolean countBlocks) {
        return load(so, engine, countBlocks, Userland.STUBS);
    }

    /** The same with a choice of what imports bind to ({@link Userland}). */
    public static Emulator load(Path so, Engine engine, boolean countBlocks, Userland userland) {
        return load(so, engine, countBlocks, userland, null);
    }

    /**
     * The same with the directory native code's files live in ({@link Userland#BIONIC}); null: a
     * fresh temporary one, removed when the emulator closes. The caller keeps (and closes) a
     * sandbox it gives.
     */
    public static Emulator load(Path so, Engine engine, boolean countBlocks, Userland userland, Sandbox sandbox) {
        ElfImage img = ElfImage.read(so);
        Backend cpu = engine.open(img.machine == ElfImage.Machine.ARM ? Backend.Arch.ARM : Backend.Arch.ARM64);
        Sandbox own = userland == Userland.BIONIC && sandbox == null ? Sandbox.temporary() : null;
        Emulator e = null;
        try {
            e = new Emulator(img, cpu, countBlocks, userland, sandbox != null ? sandbox : own, own);
            e.runInit();
        } catch (RuntimeException ex) {
            if (e != null) {
                e.close();
            } else {
                cpu.close();
                if (own != null) own.close();
            }
            throw ex;
        }
        return e;
    }

    private void relocate(Module m) {
        ElfImage img = m.image();
        boolean w64 = img.is64();
        long base = m.base();
        String lib = libraryName(m);
        for (ElfImage.Reloc r : img.relocations) {
            long where = base + r.offset();
            if (r.offset() < 0 || where + (w64 ? 8 : 4) > m.end())
                throw new NativeException(lib + ": relocation at 0x" + Long.toHexString(r.offset()) + " lies outside the library");
            boolean hasSym = r.symbol() != null && !r.symbol().isEmpty();
            int t = r.type();
            if (isTls(w64, t)) {
                relocateTls(m, r, where);
                continue;
            }
            long a = r.hasAddend() ? r.addend() : readWord(where);
            if (w64 ? t == 1032 : t == 160) { // R_AARCH64_IRELATIVE, R_ARM_IRELATIVE: the resolver is at base + A
                ifuncs.add(new Ifunc(m, where, base + a, 0));
                continue;
            }
            long resolver = !hasSym ? 0 : r.symbolDefined() ? (r.symbolIfunc() ? base + r.symbolValue() : 0) : ifuncResolver(r.symbol());
            long s = !hasSym ? 0 : r.symbolDefined() ? base + r.symbolValue() : bind(m, r.symbol());
            long value;
            if (!w64) {
                switch (t) {
                    case 0 -> { continue; }                    // R_ARM_NONE
                    case 2 -> value = s + a;                   // R_ARM_ABS32
                    case 21, 22 -> { value = s; a = 0; }       // R_ARM_GLOB_DAT, R_ARM_JUMP_SLOT
                    case 23 -> value = base + a;               // R_ARM_RELATIVE
                    default -> throw unsupported(lib, "ARM", r);
                }
            } else {
                switch (t) {
                    case 0 -> { continue; }
                    case 257, 1025, 1026 -> value = s + a;     // ABS64, GLOB_DAT, JUMP_SLOT
                    case 1027 -> value = base + a;             // RELATIVE
                    default -> throw unsupported(lib, "AArch64", r);
                }
            }
            if (resolver != 0 && t != 23 && t != 1027) ifuncs.add(new Ifunc(m, where, resolver, a)); // the function the resolver picks
            else writeWord(where, value);
        }
    }

    private static boolean isTls(boolean w64, int type) {
        return w64 ? type >= 1028 && type <= 1031 : type >= 17 && type <= 19;
    }

    /**
     * A TLS relocation: the module defining the symbol (this one when it has none or defines it,
     * else the first in the global scope) and the symbol's offset in that module's block give
     * its id ({@code DTPMOD}), the offset in the block ({@code DTPREL}/{@code DTPOFF}), the
     * offset from the thread pointer ({@code TPREL}/{@code TPOFF}: static TLS), or both words of
     * an AArch64 TLS descriptor (resolver, offset from the thread pointer).
     */
    private void relocateTls(Module m, ElfImage.Reloc r, long where) {
        boolean w64 = m.image().is64();
        String lib = libraryName(m);
        int owner = modules.indexOf(m);
        long symbolOffset = 0;
        if (r.symbol() != null && !r.symbol().isEmpty()) {
            if (r.symbolDefined()) {
                symbolOffset = r.symbolValue();
            } else {
                owner = -1;
                for (int i = 0; i < modules.size() && owner < 0; i++) {
                    Long v = modules.get(i).image().tlsExports.get(r.symbol());
                    if (v != null) { owner = i; symbolOffset = v; }
                }
                if (owner < 0) throw new NativeException(lib + ": thread-local variable " + r.symbol() + " is defined by no loaded library");
            }
        }
        if (staticTls == null) throw new NativeException(lib + ": TLS relocation type " + r.type() + " but no library has a PT_TLS segment");
        long a = r.hasAddend() ? r.addend() : readWord(where);
        int t = r.type();
        if (w64 && t == 1031) {                                       // R_AARCH64_TLSDESC: {resolver, TP offset}
            writeWord(where, stubs.resolve(TLSDESC_RESOLVER));
            writeWord(where + 8, staticTls.offset(owner) + symbolOffset + a);
            return;
        }
        long value = switch (w64 ? t - 1028 + 17 : t) {
            case 17 -> StaticTls.moduleId(owner);                      // DTPMOD: its tls_index module id
            case 18 -> symbolOffset + a;                               // DTPREL / DTPOFF: offset in its block
            default -> staticTls.offset(owner) + symbolOffset + a;     // TPREL / TPOFF: offset from the thread pointer
        };
        writeWord(where, value);
    }

    /** The resolver of an ifunc the global scope binds {@code name} to (bionic), or 0 when it is not an ifunc. */
    private long ifuncResolver(String name) {
        if (userland != Userland.BIONIC) return 0;
        for (Module o : modules) {
            Long v = o.image().dynamicExports.get(name);
            if (v != null) return o.image().ifuncExports.contains(name) ? o.base() + v : 0;
        }
        return 0;
    }

    private static NativeException unsupported(String lib, String arch, ElfImage.Reloc r) {
        boolean hasSym = r.symbol() != null && !r.symbol().isEmpty();
        return new NativeException(lib + ": unsupported " + arch + " relocation type " + r.type()
                + (hasSym ? " for " + r.symbol() : "") + " at 0x" + Long.toHexString(r.offset()));
    }

    /** A library as errors name it: the app's by its path, a system library with who needs it. */
    private String libraryName(Module m) {
        return m.base() == BASE ? m.image().path.toString() : m.name() + " (Android 6.0's, needed by " + modules.get(0).name() + ")";
    }

    /**
     * Runs the ifunc resolvers of a module's relocations in the emulator (counted, like init
     * code) and stores what each picks: called with the AT_HWCAP value (bionic's contract; on
     * AArch64 Android 10's also passes a second argument, here 0).
     */
    private void resolveIfuncs(Module m) {
        for (Ifunc f : ifuncs) {
            if (f.module() != m) continue;
            long hwcap = Linker.hwcap(cpu.arch());
            long picked = callAddress(f.resolver(), image.is64() ? List.of(Arg.ofLong(hwcap), Arg.ofLong(0)) : List.of(Arg.ofInt(hwcap))).r0();
            if (!image.is64()) picked &= 0xffffffffL;
            if (picked == 0) throw new NativeException(libraryName(m) + ": the ifunc resolver at 0x" + Long.toHexString(f.resolver() - m.base())
                    + " chose no function (returned 0)");
            writeWord(f.where(), picked + f.addend());
        }
    }

    /** Init functions, dependencies first (a library's after those of every library it needs). */
    private void runInit() {
        List<Module> order = new java.util.ArrayList<>();
        initOrder(modules.get(0), order, new java.util.HashSet<>());
        // every library's ifuncs first, dependencies first: init code may call through them
        for (Module m : order) resolveIfuncs(m);
        for (Module m : order) {
            ElfImage img = m.image();
            if (img.initFunction != 0) callAddress(m.base() + img.initFunction, List.of());
            int word = img.is64() ? 8 : 4;
            for (long i = 0; i < img.initArraySize / word; i++) {
                long f = readWord(m.base() + img.initArray + i * word);
                if (f != 0 && f != (img.is64() ? -1L : 0xffffffffL)) callAddress(f, List.of());
            }
        }
    }

    private void initOrder(Module m, List<Module> order, java.util.Set<String> seen) {
        if (!seen.add(m.name())) return;
        List<String> needs = m.base() == BASE && m.image().needed.isEmpty() && userland == Userland.BIONIC ? IMPLICIT_NEEDED : m.image().needed;
        for (String need : needs) {
            for (Module d : modules) if (d.name().equals(need)) initOrder(d, order, seen);
        }
        order.add(m);
    }

    /** The limits of each call from now on (init functions ran under {@link Limits#DEFAULT}). */
    public void limits(Limits l) {
        this.limits = l;
    }

    public Limits limits() {
        return limits;
    }

    /** Address of an exported symbol (Thumb functions keep their low bit). */
    public long symbol(String name) {
        Long v = image.exports.get(name);
        if (v == null) throw new NativeException(image.path + ": no symbol '" + name + "'" + suggest(name));
        return BASE + v;
    }

    private String suggest(String name) {
        StringBuilder b = new StringBuilder();
        for (String n : image.exports.keySet()) {
            if (n.toLowerCase().contains(name.toLowerCase()) || name.toLowerCase().contains(n.toLowerCase())) {
                b.append(b.length() == 0 ? " (did you mean: " : ", ").append(n);
            }
        }
        return b.length() == 0 ? "" : b.append(")").toString();
    }

    /** Calls an exported function; returns the raw result registers. */
    public Result call(String symbol, List<Arg> args) {
        return callAddress(symbol(symbol), args);
    }

    /** The result registers of a call. */
    public record Result(long r0, long r1, long fp0, BlockCounter.EpochCounts counts) {
        /** The integer return register (r0 / x0). */
        public long intValue() { return r0; }
        /** A 64-bit result (r0:r1 on 32-bit ARM, x0 on AArch64). */
        public long longValue(boolean arm64) { return arm64 ? r0 : (r1 << 32) | (r0 & 0xffffffffL); }
    }

    /**
     * Calls code at an address (low bit set: Thumb) with arguments per ABI. A call made while
     * another is suspended in a stub (native code → JNI → Java → native code again, on the same
     * thread) runs on the stack below the suspended one, with the CPU's registers saved and
     * restored around it, and counts its blocks into an epoch of its own.
     */
    public Result callAddress(long address, List<Arg> args) {
        return call(address, args, true);
    }

    /**
     * Calls code back from a Java stand-in that native code called (the callback of
     * {@code dl_iterate_phdr}): like {@link #callAddress}, but its blocks count in the epoch of
     * the call in progress, as the work of the native code that asked for it. The result's
     * {@code counts} are null.
     */
    Result callBack(long address, List<Arg> args) {
        return call(address, args, depth == 0);
    }

    private synchronized Result call(long address, List<Arg> args, boolean ownEpoch) {
        long saved = depth > 0 ? cpu.save() : 0;
        long sp = depth > 0 ? (cpu.sp() - 512) & ~0xfL : STACK + STACK_SIZE - 64;
        // 64 KiB left below: of the main stack, or of an emulated thread's (in the mmap area)
        if (sp < 0x10000 || !memory.contains(sp - 0x10000, 0x10000, true)) {
            if (saved != 0) cpu.restore(saved);
            throw new NativeException("native calls nested too deeply (emulated stack exhausted)");
        }
        // limits are per outermost call: nested calls (native -> Java -> native) spend from the same budget and time
        if (depth == 0) {
            Limits l = limits;
            counter.budget(l.codeBytes());
            synchronized (watch) {
                watched = l.wallMillis() > 0;
                if (watched) deadlineNanos = System.nanoTime() + l.wallMillis() * 1_000_000L; // no clock read for calls without a limit
                timedOut = false;
            }
            if (l.wallMillis() > 0 && !watchdogKnows) {
                Watchdog.watch(this);
                watchdogKnows = true;
            }
        }
        depth++;
        int outerLevel = syscalls != null ? syscalls.enterCall(depth) : 0;
        try {
            return run(address, args, sp, ownEpoch);
        } finally {
            if (syscalls != null) syscalls.leaveCall(depth, outerLevel);
            depth--;
            if (saved != 0) cpu.restore(saved);
            if (depth == 0) {
                synchronized (watch) {
                    watched = false;
                }
            }
        }
    }

    /** The watchdog's look at this emulator: the call in progress ran out of wall time, so stop it. */
    private void expireIfLate(long nowNanos) {
        synchronized (watch) {
            if (!watched || timedOut || nowNanos - deadlineNanos < 0) return;
            timedOut = true;
            cpu.stop(); // Unicorn allows this from another thread (its own timeout does the same)
        }
    }

    /**
     * Stops calls that run past their wall-time limit: one daemon thread for all emulators, looking
     * at each every {@link #TICK_MILLIS} while any is open. A call only notes its deadline: a timer
     * scheduled and cancelled per call (a {@code ScheduledThreadPoolExecutor}) cost about 1 µs of a
     * crossing Java → native → Java, which was itself about 1 µs.
     */
    private static final class Watchdog {
        /** How late past its limit a call can be stopped. */
        static final long TICK_MILLIS = 10;
        /** Emulators whose calls have a wall-time limit; weak: one never closed does not stay. */
        private static final java.util.Set<Emulator> WATCHED = java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>());
        private static Thread thread;

        static void watch(Emulator e) {
            synchronized (WATCHED) {
                WATCHED.add(e);
                if (thread == null) {
                    thread = new Thread(Watchdog::run, "hyprof-native-watchdog");
                    thread.setDaemon(true);
                    thread.start();
                }
                WATCHED.notifyAll();
            }
        }

        static void forget(Emulator e) {
            synchronized (WATCHED) {
                WATCHED.remove(e);
            }
        }

        private static void run() {
            try {
                while (true) {
                    Emulator[] all;
                    synchronized (WATCHED) {
                        while (WATCHED.isEmpty()) WATCHED.wait();
                        all = WATCHED.toArray(new Emulator[0]);
                    }
                    long now = System.nanoTime();
                    for (Emulator e : all) e.expireIfLate(now);
                    all = null; // not kept through the sleep: the set's references stay weak
                    Thread.sleep(TICK_MILLIS);
                }
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private boolean timedOut() {
        synchronized (watch) {
            return timedOut;
        }
    }

    /** Why a call did not return, if a limit stopped it; null otherwise. */
    private String limitHit(long address) {
        boolean time = timedOut(), budget = counter.overBudget();
        if (!time && !budget) return null;
        Limits l = limits;
        String fn = functionAt(address);
        long pc = cpu.pc();
        Module at = moduleAt(pc);
        String where = at != null ? at.name() + "+0x" + Long.toHexString(pc - at.base()) : "0x" + Long.toHexString(pc);
        String what = time ? "did not return within " + Limits.seconds(l.wallMillis())
                : String.format(Locale.ROOT, "did not return within %,d instructions", l.instructions());
        return (fn != null ? fn : "native code at 0x" + Long.toHexString(address - BASE)) + " " + what
                + " (the limit per native call; --native-limit changes it); stopped at " + where;
    }

    private Result run(long address, List<Arg> args, long sp, boolean ownEpoch) {
        cpu.sp(sp);
        cpu.lr(TRAP);
        Abi.Writer w = new Abi.Writer(cpu);
        for (Arg a : args) {
            switch (a.kind()) {
                case INT -> w.addInt(a.bits());
                case LONG -> w.addLong(a.bits());
                case FLOAT -> w.addFloat(Float.intBitsToFloat((int) a.bits()));
                case DOUBLE -> w.addDouble(Double.longBitsToDouble(a.bits()));
            }
        }
        w.finish();
        if (ownEpoch) counter.beginEpoch(Thread.currentThread().getId(), ++epochs);
        RuntimeException error = null;
        try {
            runThreads(address);
        } catch (RuntimeException e) {
            error = e;
        }
        String why = stubs.takeFailure();
        BlockCounter.EpochCounts counts = ownEpoch ? counter.endEpoch() : null;
        if (why != null) throw new NativeException(why);
        if (error instanceof NativeException && error.getMessage() != null && error.getMessage().startsWith("emulation stopped at")) {
            // a fault: where (library and function), and what the system-call layer refused before
            String at = placeOf(cpu.pc());
            throw new NativeException(error.getMessage() + (at != null ? " in " + at : "") + (syscalls != null ? syscalls.context() : ""), error);
        }
        if (error != null) throw error;
        if (cpu.pc() != TRAP) {
            String limit = limitHit(address);
            if (limit != null) throw new NativeException(limit);
        }
        if (cpu.pc() != TRAP) throw new NativeException("native code stopped at 0x" + Long.toHexString(cpu.pc()) + " without returning");
        return new Result(cpu.gpr(0), cpu.gpr(1), cpu.fpr(0), counts);
    }

    /**
     * Runs from {@code address} until the calling thread is back at the return trap. With
     * {@link Userland#BIONIC} the emulated threads ({@link Threads}) take turns: a run stopped
     * for a switch goes on with the next thread; when the outermost call returns, threads still
     * ready run before it counts as finished. A failure or a limit ends it.
     */
    private void runThreads(long address) {
        Threads threads = syscalls != null ? syscalls.threads : null;
        long begin = address;
        while (true) {
            if (begin != address && timedOut()) return; // the watchdog stopped the CPU between two turns
            cpu.run(begin, TRAP);
            if (threads == null || stubs.failed() || timedOut() || counter.overBudget()) return;
            if (threads.switchPending()) {
                begin = threads.switchNow();
            } else if (cpu.pc() == TRAP && depth == 1 && threads.readyAfterReturn()) {
                threads.parkCaller();
                begin = threads.switchNow();
            } else {
                return;
            }
            if ((begin & ~1L) == TRAP) return; // the caller again, back at the trap
        }
    }

    /**
     * Whether a module is one of the Android system libraries hyprof brings ({@code --userland
     * bionic}: libc.so, libm.so …), not the app's own code: the library itself, or one it needs
     * that was found beside it in its directory (such as {@code libc++_shared.so}).
     */
    public boolean isSystemLibrary(Module m) {
        Path dir = image.path.toAbsolutePath().getParent();
        return m.base() != BASE && (dir == null || !dir.equals(m.image().path.toAbsolutePath().getParent()));
    }

    /**
     * The function containing an address (nearest symbol at or below it), or null; in a system
     * library prefixed with its name ({@code libc.so!memcpy}).
     */
    public String functionAt(long address) {
        Module m = moduleAt(address);
        if (m == null) return null;
        Map.Entry<Long, String> e = m.image().functionsByAddress.floorEntry(address - m.base());
        if (e == null) return null;
        return m.base() == BASE ? e.getValue() : m.name() + "!" + e.getValue();
    }

    /**
     * Where an address is, for error messages: {@code libfoo.so!function} (any library, the app's
     * too), {@code libfoo.so+0x1a2c} without a symbol, or null outside every library.
     */
    public String placeOf(long address) {
        Module m = moduleAt(address);
        if (m == null) return null;
        Map.Entry<Long, String> e = m.image().functionsByAddress.floorEntry(address - m.base());
        return e != null ? m.name() + "!" + e.getValue() : m.name() + "+0x" + Long.toHexString(address - m.base());
    }

    private int word() {
        return image.is64() ? 8 : 4;
    }

    public long readWord(long address) {
        boolean w64 = image.is64();
        ByteBuffer b = ByteBuffer.wrap(cpu.read(address, w64 ? 8 : 4)).order(ByteOrder.LITTLE_ENDIAN);
        return w64 ? b.getLong() : b.getInt() & 0xffffffffL;
    }

    public void writeWord(long address, long value) {
        boolean w64 = image.is64();
        ByteBuffer b = ByteBuffer.allocate(w64 ? 8 : 4).order(ByteOrder.LITTLE_ENDIAN);
        if (w64) b.putLong(value); else b.putInt((int) value);
        cpu.write(address, b.array());
    }

    /** Writes native code's mapped files back, frees the CPU, and removes the sandbox if it made one. */
    @Override
    public void close() {
        Watchdog.forget(this);
        try {
            if (syscalls != null) syscalls.close();
        } finally {
            cpu.close();
            if (ownSandbox != null) ownSandbox.close();
        }
    }
}
