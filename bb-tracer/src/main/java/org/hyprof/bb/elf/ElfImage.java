package org.hyprof.bb.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.fornwall.jelf.ElfDynamicSection;
import net.fornwall.jelf.ElfException;
import net.fornwall.jelf.ElfFile;
import net.fornwall.jelf.ElfRelocation;
import net.fornwall.jelf.ElfRelocationAddend;
import net.fornwall.jelf.ElfRelocationAddendSection;
import net.fornwall.jelf.ElfRelocationSection;
import net.fornwall.jelf.ElfSection;
import net.fornwall.jelf.ElfSectionHeader;
import net.fornwall.jelf.ElfSegment;
import net.fornwall.jelf.ElfSymbol;
import net.fornwall.jelf.ElfSymbolTableSection;
import org.hyprof.bb.NativeException;

/**
 * A shared object as the loader needs it, parsed with jelf: machine, loadable segments, symbols,
 * relocations (REL and RELA), init functions. Only {@code ET_DYN} files for ARM and AArch64 are
 * accepted; anything else is a one-line {@link NativeException} naming the file.
 */
public final class ElfImage {
    /** Instruction sets this loader knows. */
    public enum Machine { ARM, AARCH64 }

    /**
     * A relocation: where, what type, which symbol (null for none) and addend (REL: 0, read from
     * memory); {@code symbolIfunc}: the symbol is a defined {@code STT_GNU_IFUNC} (its value is
     * the resolver's address, not the function's).
     */
    public record Reloc(long offset, int type, String symbol, boolean symbolDefined, long symbolValue, long addend, boolean hasAddend,
                        boolean symbolIfunc) {}

    /**
     * The {@code PT_TLS} segment: the initial image of each thread's block of thread-local
     * storage ({@code fileSize} bytes of {@code .tdata} at {@code vaddr}, then zeros up to
     * {@code memSize}: {@code .tbss}), aligned to {@code align} bytes.
     */
    public record Tls(long vaddr, long fileSize, long memSize, long align) {}

    /** A PT_LOAD segment. */
    public record Segment(long vaddr, long memSize, long fileOffset, long fileSize, boolean read, boolean write, boolean exec) {}

    public final Path path;
    public final Machine machine;
    public final byte[] bytes;
    public final List<Segment> segments;
    public final List<Reloc> relocations;
    /** Defined function and object symbols: name → value (Thumb functions keep their low bit). */
    public final Map<String, Long> exports;
    /** Function symbols by address (low bit cleared), for naming blocks. */
    public final TreeMap<Long, String> functionsByAddress;
    public final long initFunction;
    public final long initArray, initArraySize;
    /** {@code DT_NEEDED}: the libraries it links against, in order ({@code libc.so}, …). */
    public final List<String> needed;
    /**
     * What it offers other libraries: global and weak functions and objects of {@code .dynsym}
     * (name → value; symbol versions are not told apart: bionic has one version per name).
     */
    public final Map<String, Long> dynamicExports;
    /** Imports that may stay unresolved (weak undefined symbols bind to 0). */
    public final java.util.Set<String> weakImports;
    /** Exports of {@code .dynsym} that are ifuncs ({@code STT_GNU_IFUNC}): their value is the resolver's. */
    public final java.util.Set<String> ifuncExports;
    /** Thread-local symbols of {@code .dynsym} it defines: name → offset in its {@link #tls} block. */
    public final Map<String, Long> tlsExports;
    /** Its thread-local storage segment, or null. */
    public final Tls tls;
    /** The program header table: file offset, entries (each 56 bytes on AArch64, 32 on ARM). */
    public final long phdrOffset;
    public final int phdrCount;
    /** ARM's unwind index table ({@code PT_ARM_EXIDX}): address and bytes (8 per entry); 0 and 0 without one. */
    public final long exidxVaddr, exidxSize;

    private ElfImage(Path path, Machine m, byte[] bytes, List<Segment> segs, List<Reloc> rel, Map<String, Long> exports,
                     TreeMap<Long, String> fns, long init, long initArray, long initArraySize, List<String> needed,
                     Map<String, Long> dynamicExports, java.util.Set<String> weakImports, java.util.Set<String> ifuncExports,
                     Map<String, Long> tlsExports, Tls tls, long phdrOffset, int phdrCount, long exidxVaddr, long exidxSize) {
        this.path = path;
        this.machine = m;
        this.bytes = bytes;
        this.segments = Collections.unmodifiableList(segs);
        this.relocations = Collections.unmodifiableList(rel);
        this.exports = Collections.unmodifiableMap(exports);
        this.functionsByAddress = fns;
        this.initFunction = init;
        this.initArray = initArray;
        this.initArraySize = initArraySize;
        this.needed = List.copyOf(needed);
        this.dynamicExports = Collections.unmodifiableMap(dynamicExports);
        this.weakImports = Collections.unmodifiableSet(weakImports);
        this.ifuncExports = Collections.unmodifiableSet(ifuncExports);
        this.tlsExports = Collections.unmodifiableMap(tlsExports);
        this.tls = tls;
        this.phdrOffset = phdrOffset;
        this.phdrCount = phdrCount;
        this.exidxVaddr = exidxVaddr;
        this.exidxSize = exidxSize;
    }

    public boolean is64() {
        return machine == Machine.AARCH64;
    }

    /** Parses a shared object; every problem is a one-line NativeException naming the file. */
    public static ElfImage read(Path path) {
        byte[] b;
        try {
            b = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new NativeException(path + ": no such file");
        } catch (IOException e) {
            throw new NativeException(path + ": cannot read (" + e.getMessage() + ")");
        }
        if (b.length < 52 || b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F')
            throw new NativeException(path + ": not an ELF file");
        ElfFile elf;
        try {
            elf = ElfFile.from(b);
        } catch (RuntimeException e) {
            throw new NativeException(path + ": damaged ELF file (" + e.getMessage() + ")");
        }
        Machine m = switch (elf.e_machine) {
            case ElfFile.ARCH_ARM -> Machine.ARM;
            case ElfFile.ARCH_AARCH64 -> Machine.AARCH64;
            default -> throw new NativeException(path + ": machine " + elf.e_machine + " is not supported (ARM and AArch64 are)");
        };
        if (elf.e_type != ElfFile.ET_DYN) throw new NativeException(path + ": not a shared object (ELF type " + elf.e_type + ")");
        if (elf.ei_data != ElfFile.DATA_LSB) throw new NativeException(path + ": big-endian ELF is not supported");
        try {
            List<Segment> segs = new ArrayList<>();
            Tls tls = null;
            long exidxVaddr = 0, exidxSize = 0;
            checkProgramHeaders(path, elf, b);
            for (int i = 0; i < elf.e_phnum; i++) {
                ElfSegment s = elf.getProgramHeader(i);
                if (s.p_type == ElfSegment.PT_TLS) tls = tls(path, s);
                if (s.p_type == PT_ARM_EXIDX && m == Machine.ARM) {
                    exidxVaddr = s.p_vaddr;
                    exidxSize = s.p_memsz;
                }
                if (s.p_type != ElfSegment.PT_LOAD) continue;
                if (s.p_offset < 0 || s.p_filesz < 0 || s.p_offset > b.length - s.p_filesz) throw new NativeException(path + ": truncated (segment at file offset " + Long.toUnsignedString(s.p_offset) + " runs past the end)");
                segs.add(new Segment(s.p_vaddr, s.p_memsz, s.p_offset, s.p_filesz, s.isReadable(), s.isWriteable(), s.isExecutable()));
            }
            if (segs.isEmpty()) throw new NativeException(path + ": no loadable segment");
            checkSections(path, elf, b);

            Map<String, Long> exports = new LinkedHashMap<>();
            TreeMap<Long, String> fns = new TreeMap<>();
            for (ElfSymbolTableSection t : new ElfSymbolTableSection[] {elf.getDynamicSymbolTableSection(), elf.getSymbolTableSection()}) {
                if (t == null) continue;
                for (ElfSymbol s : t.symbols) {
                    if (s.st_shndx == 0 || s.st_value == 0) continue;
                    String n = s.getName();
                    if (n == null || n.isEmpty() || n.startsWith("$")) continue;
                    int type = s.getType();
                    if (type == ElfSymbol.STT_FUNC || type == ElfSymbol.STT_OBJECT) exports.putIfAbsent(n, s.st_value);
                    if (type == ElfSymbol.STT_FUNC) fns.putIfAbsent(s.st_value & ~1L, n);
                }
            }
            Map<String, Long> dynamicExports = new LinkedHashMap<>(), tlsExports = new LinkedHashMap<>();
            java.util.Set<String> weakImports = new java.util.HashSet<>(), ifuncExports = new java.util.HashSet<>();
            ElfSymbolTableSection dynsym = elf.getDynamicSymbolTableSection();
            if (dynsym != null) {
                for (ElfSymbol s : dynsym.symbols) {
                    String n = s.getName();
                    if (n == null || n.isEmpty()) continue;
                    int bind = s.getBinding(), type = s.getType();
                    if (s.st_shndx == 0) {
                        if (bind == ElfSymbol.BINDING_WEAK) weakImports.add(n);
                        continue;
                    }
                    if (bind != ElfSymbol.BINDING_GLOBAL && bind != ElfSymbol.BINDING_WEAK) continue;
                    if (type == ElfSymbol.STT_FUNC || type == ElfSymbol.STT_OBJECT || type == ElfSymbol.STT_NOTYPE || type == STT_GNU_IFUNC)
                        dynamicExports.putIfAbsent(n, s.st_value);
                    if (type == STT_GNU_IFUNC) ifuncExports.add(n);
                    if (type == ElfSymbol.STT_TLS) tlsExports.putIfAbsent(n, s.st_value);
                }
            }
            // symbols of a relocation section come from the table its sh_link names (.dynsym), not
            // from .symtab (which jelf's ElfRelocation.getSymbol() would use)
            List<Reloc> rel = new ArrayList<>();
            for (ElfSection sec : elf.sectionsOfType(ElfSectionHeader.SHT_REL)) {
                ElfSymbol[] syms = symbolsOf(elf, sec);
                for (ElfRelocation r : ((ElfRelocationSection) sec).relocations)
                    rel.add(reloc(r.r_offset, (int) r.getType(), sym(path, syms, r.getSymbolIndex()), 0, false));
            }
            for (ElfSection sec : elf.sectionsOfType(ElfSectionHeader.SHT_RELA)) {
                ElfSymbol[] syms = symbolsOf(elf, sec);
                for (ElfRelocationAddend r : ((ElfRelocationAddendSection) sec).relocations)
                    rel.add(reloc(r.r_offset, (int) r.getType(), sym(path, syms, r.getSymbolIndex()), r.r_addend, true));
            }
            long init = 0, initArray = 0, initArraySize = 0;
            List<String> needed = new ArrayList<>();
            ElfDynamicSection dyn = elf.getDynamicSection();
            if (dyn != null) {
                needed.addAll(dyn.getNeededLibraries());
                Map<Long, Long> tags = new java.util.HashMap<>();
                for (ElfDynamicSection.ElfDynamicStructure d : dyn.entries) {
                    tags.putIfAbsent(d.d_tag, d.d_val_or_ptr);
                    if (d.d_tag == ElfDynamicSection.DT_INIT) init = d.d_val_or_ptr;
                    if (d.d_tag == ElfDynamicSection.DT_INIT_ARRAY) initArray = d.d_val_or_ptr;
                    if (d.d_tag == ElfDynamicSection.DT_INIT_ARRAYSZ) initArraySize = d.d_val_or_ptr;
                }
                packedRelocations(path, elf, b, segs, m == Machine.AARCH64, tags, rel);
            }
            return new ElfImage(path, m, b, segs, rel, exports, fns, init, initArray, initArraySize, needed, dynamicExports, weakImports,
                    ifuncExports, tlsExports, tls, elf.e_phoff, elf.e_phnum & 0xffff, exidxVaddr, exidxSize);
        } catch (RuntimeException e) {
            if (e instanceof NativeException ne) throw ne;
            throw new NativeException(path + ": damaged ELF file (" + e.getMessage() + ")");
        }
    }

    /**
     * Every section with contents lies within the file. jelf reads a section's contents at its
     * header's size when it is first asked for any section of its kind (a note of 2 GiB in a
     * 10 KB file is allocated whole), so the headers are checked here, from the bytes, before.
     */
    /** SHT_GNU_HASH (not among jelf's constants). */
    private static final int SHT_GNU_HASH = 0x6ffffff6;
    /** STT_GNU_IFUNC, PT_ARM_EXIDX: not among jelf's constants either. */
    private static final int STT_GNU_IFUNC = 10, PT_ARM_EXIDX = 0x70000001;
    /** At most this alignment of a PT_TLS segment (the emulator's static TLS areas are 64 KiB apart). */
    private static final long MAX_TLS_ALIGN = 4096;

    /** Dynamic tags of packed relocations: Android's APS2 (REL, RELA), RELR (standard and Android's). */
    private static final long DT_ANDROID_REL = 0x6000000fL, DT_ANDROID_RELSZ = 0x60000010L, DT_ANDROID_RELA = 0x60000011L,
            DT_ANDROID_RELASZ = 0x60000012L, DT_RELR = 36, DT_RELRSZ = 35, DT_ANDROID_RELR = 0x6fffe000L, DT_ANDROID_RELRSZ = 0x6fffe001L;

    /**
     * Relocations packed by lld's {@code --pack-dyn-relocs=android+relr}, which the REL/RELA
     * sections do not hold: Android's APS2 stream ({@code DT_ANDROID_REL(A)}; symbols from
     * {@code .dynsym}) and {@code DT_RELR}/{@code DT_ANDROID_RELR} (each a RELATIVE relocation
     * with its addend in place), decoded by {@link PackedRelocations} into {@code rel}.
     */
    private static void packedRelocations(Path path, ElfFile elf, byte[] b, List<Segment> segs, boolean is64, Map<Long, Long> tags, List<Reloc> rel) {
        long span = 0;
        for (Segment s : segs) span = Math.max(span, s.vaddr() + s.memSize());
        long maxRelocations = span / (is64 ? 8 : 4) + 1; // each writes a word of the library
        for (long tag : new long[] {DT_ANDROID_REL, DT_ANDROID_RELA}) {
            if (!tags.containsKey(tag)) continue;
            boolean rela = tag == DT_ANDROID_RELA;
            long size = tags.getOrDefault(rela ? DT_ANDROID_RELASZ : DT_ANDROID_RELSZ, 0L);
            int at = fileOffset(path, segs, tags.get(tag), size, "APS2 packed relocations");
            ElfSymbolTableSection dynsym = elf.getDynamicSymbolTableSection();
            ElfSymbol[] syms = dynsym == null ? new ElfSymbol[0] : dynsym.symbols;
            PackedRelocations.aps2(path, b, at, (int) size, rela, is64, maxRelocations, (offset, info, addend) -> {
                int type = (int) (is64 ? info & 0xffffffffL : info & 0xff);
                long symbol = is64 ? info >>> 32 : info >>> 8;
                rel.add(reloc(offset, type, sym(path, syms, (int) Math.min(symbol, Integer.MAX_VALUE)), addend, rela));
            });
        }
        for (long tag : new long[] {DT_RELR, DT_ANDROID_RELR}) {
            if (!tags.containsKey(tag)) continue;
            long size = tags.getOrDefault(tag == DT_RELR ? DT_RELRSZ : DT_ANDROID_RELRSZ, 0L);
            int at = fileOffset(path, segs, tags.get(tag), size, "DT_RELR relocations");
            int relative = is64 ? 1027 : 23; // R_AARCH64_RELATIVE, R_ARM_RELATIVE
            long[] n = {0};
            PackedRelocations.relr(path, b, at, (int) size, is64, where -> {
                if (++n[0] > maxRelocations) throw new NativeException(path + ": damaged ELF file (DT_RELR relocates more words than the library has)");
                rel.add(new Reloc(where, relative, null, false, 0, 0, false, false));
            });
        }
    }

    /** The file offset of {@code size} bytes at {@code vaddr}, which a PT_LOAD segment's file bytes must hold. */
    private static int fileOffset(Path path, List<Segment> segs, long vaddr, long size, String what) {
        for (Segment s : segs)
            if (size >= 0 && vaddr >= s.vaddr() && vaddr - s.vaddr() <= s.fileSize() - size) return (int) (s.fileOffset() + vaddr - s.vaddr());
        throw new NativeException(path + ": damaged ELF file (" + what + " of " + size + " bytes at 0x" + Long.toHexString(vaddr)
                + " lie outside its loaded file bytes)");
    }

    private static Tls tls(Path path, ElfSegment s) {
        long align = Math.max(1, s.p_align);
        if (s.p_filesz < 0 || s.p_memsz < s.p_filesz || s.p_memsz > 1 << 20 || align > MAX_TLS_ALIGN || Long.bitCount(align) != 1)
            throw new NativeException(path + ": thread-local storage segment of " + Long.toUnsignedString(s.p_memsz) + " bytes aligned to "
                    + Long.toUnsignedString(s.p_align) + " is not supported (at most 1 MiB, aligned to a power of two up to " + MAX_TLS_ALIGN + ")");
        return new Tls(s.p_vaddr, s.p_filesz, s.p_memsz, align);
    }

    /**
     * The program header table within the file, its entries no smaller than the format's: with an
     * entry size of 0, jelf read each of up to 65,535 headers at the same offset (a 234-byte file
     * made 31,097 segments, 5 MB).
     */
    private static void checkProgramHeaders(Path path, ElfFile elf, byte[] b) {
        long entry = elf.e_phentsize & 0xffff, count = elf.e_phnum & 0xffff;
        if (count == 0) return;
        if (entry < (elf.ei_class == ElfFile.CLASS_64 ? 56 : 32) || elf.e_phoff < 0 || elf.e_phoff > b.length - entry * count)
            throw new NativeException(path + ": damaged ELF file (program header table of " + count + " entries of " + entry
                    + " bytes at offset " + Long.toUnsignedString(elf.e_phoff) + " does not fit the file)");
    }

    private static void checkSections(Path path, ElfFile elf, byte[] b) {
        boolean is64 = elf.ei_class == ElfFile.CLASS_64;
        long entry = elf.e_shentsize & 0xffff, count = elf.e_shnum & 0xffff;
        if (count == 0) return;
        if (entry < (is64 ? 64 : 40) || elf.e_shoff < 0 || elf.e_shoff > b.length - entry * count)
            throw new NativeException(path + ": damaged ELF file (section table of " + count + " entries at offset "
                    + Long.toUnsignedString(elf.e_shoff) + " runs past the end)");
        ByteBuffer h = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            int at = (int) (elf.e_shoff + i * entry);
            int type = h.getInt(at + 4);
            if (type == ElfSectionHeader.SHT_NULL || type == ElfSectionHeader.SHT_NOBITS) continue;
            long offset = is64 ? h.getLong(at + 24) : h.getInt(at + 16) & 0xffffffffL;
            long size = is64 ? h.getLong(at + 32) : h.getInt(at + 20) & 0xffffffffL;
            if (offset < 0 || size < 0 || offset > b.length || size > b.length - offset)
                throw new NativeException(path + ": damaged ELF file (section " + i + " of " + Long.toUnsignedString(size)
                        + " bytes at offset " + Long.toUnsignedString(offset) + " runs past the end)");
            if (type == ElfSectionHeader.SHT_HASH || type == SHT_GNU_HASH) {
                // jelf allocates the bucket and chain arrays at the counts the table's header gives
                long words = 0;
                if (size >= 16) {
                    long n0 = h.getInt((int) offset) & 0xffffffffL, n1 = h.getInt((int) offset + 4) & 0xffffffffL;
                    long bloom = h.getInt((int) offset + 8) & 0xffffffffL;
                    words = type == ElfSectionHeader.SHT_HASH ? 2 + n0 + n1 : 4 + bloom * (is64 ? 2 : 1) + n0;
                }
                if (size < 16 || words > size / 4)
                    throw new NativeException(path + ": damaged ELF file (the hash table of section " + i + " is larger than its "
                            + Long.toUnsignedString(size) + " bytes)");
            }
            if (type == ElfSectionHeader.SHT_NOTE) {
                // jelf allocates each note's name and descriptor at the sizes the note gives
                long p = offset, end = offset + size;
                while (p + 12 <= end) {
                    long name = h.getInt((int) p) & 0xffffffffL, desc = h.getInt((int) p + 4) & 0xffffffffL;
                    p += 12 + ((name + 3) & ~3L) + ((desc + 3) & ~3L);
                }
                // jelf reads the first note's header whatever the section's size: an empty note
                // section made it read the sizes from the bytes after it (the ELF magic, 1.2 GB)
                if (size < 12 || p > end)
                    throw new NativeException(path + ": damaged ELF file (a note of section " + i + " runs past its section)");
            }
        }
    }

    private static ElfSymbol[] symbolsOf(ElfFile elf, ElfSection relocSection) {
        ElfSection t = elf.getSection(relocSection.header.sh_link);
        return t instanceof ElfSymbolTableSection s ? s.symbols : new ElfSymbol[0];
    }

    private static ElfSymbol sym(Path path, ElfSymbol[] syms, int index) {
        if (index == 0) return null;
        if (index < 0 || index >= syms.length)
            throw new NativeException(path + ": damaged ELF file (a relocation names symbol " + Integer.toUnsignedString(index)
                    + " of " + syms.length + ")");
        return syms[index];
    }

    private static Reloc reloc(long offset, int type, ElfSymbol sym, long addend, boolean hasAddend) {
        if (sym == null) return new Reloc(offset, type, null, false, 0, addend, hasAddend, false);
        return new Reloc(offset, type, sym.getName(), sym.st_shndx != 0, sym.st_value, addend, hasAddend,
                sym.st_shndx != 0 && sym.getType() == STT_GNU_IFUNC);
    }

    /**
     * Where the program header table lies once loaded: its virtual address when a {@code PT_LOAD}
     * segment's file bytes cover it (as they do in every linker's output), else -1.
     */
    public long phdrVaddr() {
        long bytes = (long) phdrCount * (is64() ? 56 : 32);
        for (Segment s : segments)
            if (phdrOffset >= s.fileOffset() && phdrOffset + bytes <= s.fileOffset() + s.fileSize()) return s.vaddr() + phdrOffset - s.fileOffset();
        return -1;
    }

    /** Reads a little-endian word of the image's file bytes at a virtual address (before loading). */
    public long wordAt(long vaddr) {
        for (Segment s : segments) {
            if (vaddr >= s.vaddr() && vaddr + (is64() ? 8 : 4) <= s.vaddr() + s.fileSize()) {
                ByteBuffer bb = ByteBuffer.wrap(bytes, (int) (s.fileOffset() + vaddr - s.vaddr()), is64() ? 8 : 4).order(ByteOrder.LITTLE_ENDIAN);
                return is64() ? bb.getLong() : bb.getInt() & 0xffffffffL;
            }
        }
        return 0;
    }
}
