package org.hyprof.bb.elf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import org.hyprof.bb.NativeException;

/**
 * Decoders of the two packed relocation formats lld writes ({@code --pack-dyn-relocs=android+relr})
 * and Android's linker reads: Android's APS2 ({@code DT_ANDROID_REL}/{@code DT_ANDROID_RELA}: groups
 * of relocations sharing an offset delta, info or addend, in SLEB128; bionic's
 * {@code linker/linker_reloc_iterators.h}) and {@code DT_RELR} (relative relocations as a bitmap of
 * words after an address). Both are bounded by their input: a stream that claims more relocations
 * than the library has words, or runs past its bytes, is a one-line error naming the file.
 */
final class PackedRelocations {
    private PackedRelocations() {}

    /** One decoded APS2 relocation: its {@code r_offset}, {@code r_info} and addend (0 for REL). */
    interface Sink {
        void relocation(long offset, long info, long addend);
    }

    private static final int GROUPED_BY_INFO = 1, GROUPED_BY_OFFSET_DELTA = 2, GROUPED_BY_ADDEND = 4, GROUP_HAS_ADDEND = 8;

    /**
     * Decodes an APS2 stream ({@code "APS2"}, then SLEB128: count, first offset, groups) of
     * {@code size} bytes at {@code at}; at most {@code maxRelocations} relocations.
     */
    static void aps2(Path path, byte[] bytes, int at, int size, boolean rela, boolean is64, long maxRelocations, Sink sink) {
        if (size < 4 || bytes[at] != 'A' || bytes[at + 1] != 'P' || bytes[at + 2] != 'S' || bytes[at + 3] != '2')
            throw damaged(path, "Android packed relocations without the APS2 magic");
        Sleb in = new Sleb(path, bytes, at + 4, at + size, is64);
        long count = in.next(), offset = in.next(), info = 0, addend = 0;
        if (count < 0 || count > maxRelocations)
            throw damaged(path, "APS2 packed relocations claim " + count + " relocations (the library has room for " + maxRelocations + ")");
        for (long done = 0; done < count; ) {
            long groupSize = in.next(), flags = in.next(), delta = 0;
            if (groupSize <= 0 || groupSize > count - done) throw damaged(path, "an APS2 group of " + groupSize + " relocations");
            if ((flags & GROUPED_BY_OFFSET_DELTA) != 0) delta = in.next();
            if ((flags & GROUPED_BY_INFO) != 0) info = in.next();
            boolean hasAddend = (flags & GROUP_HAS_ADDEND) != 0;
            if (hasAddend && !rela) throw damaged(path, "an APS2 group with addends in REL relocations");
            if (hasAddend && (flags & GROUPED_BY_ADDEND) != 0) addend += in.next();
            else if (!hasAddend) addend = 0;
            for (long i = 0; i < groupSize; i++) {
                offset += (flags & GROUPED_BY_OFFSET_DELTA) != 0 ? delta : in.next();
                if ((flags & GROUPED_BY_INFO) == 0) info = in.next();
                if (hasAddend && (flags & GROUPED_BY_ADDEND) == 0) addend += in.next();
                sink.relocation(is64 ? offset : offset & 0xffffffffL, is64 ? info : info & 0xffffffffL, addend);
            }
            done += groupSize;
        }
    }

    /**
     * Decodes {@code DT_RELR} ({@code size} bytes at {@code at}): an even word is an address
     * relocated, the next word's address following; an odd word is a bitmap of the
     * {@code 8 × word − 1} words after the current address (bit i+1: word i is relocated).
     */
    static void relr(Path path, byte[] bytes, int at, int size, boolean is64, LongConsumer where) {
        int w = is64 ? 8 : 4;
        if (size % w != 0) throw damaged(path, "DT_RELR of " + size + " bytes (not whole words)");
        ByteBuffer b = ByteBuffer.wrap(bytes, at, size).order(ByteOrder.LITTLE_ENDIAN);
        long next = 0;
        boolean started = false;
        for (int i = 0; i < size; i += w) {
            long e = is64 ? b.getLong(at + i) : b.getInt(at + i) & 0xffffffffL;
            if ((e & 1) == 0) {
                where.accept(e);
                next = e + w;
                started = true;
                continue;
            }
            if (!started) throw damaged(path, "DT_RELR starts with a bitmap, not an address");
            long bits = e >>> 1;
            for (int k = 0; bits != 0; k++, bits >>>= 1) if ((bits & 1) != 0) where.accept(next + (long) k * w);
            next += (8L * w - 1) * w;
        }
    }

    private static NativeException damaged(Path path, String what) {
        return new NativeException(path + ": damaged ELF file (" + what + ")");
    }

    /** SLEB128 numbers of a byte range (64-bit, or 32-bit values sign-extended on ELF32). */
    private static final class Sleb {
        private final Path path;
        private final byte[] b;
        private final int end;
        private final boolean is64;
        private int p;

        Sleb(Path path, byte[] b, int from, int end, boolean is64) {
            this.path = path;
            this.b = b;
            this.p = from;
            this.end = end;
            this.is64 = is64;
        }

        long next() {
            long v = 0;
            int shift = 0;
            byte x;
            do {
                if (p >= end) throw damaged(path, "APS2 packed relocations run past their end");
                if (shift >= 64) throw damaged(path, "an APS2 number longer than 64 bits");
                x = b[p++];
                v |= (long) (x & 0x7f) << shift;
                shift += 7;
            } while ((x & 0x80) != 0);
            if (shift < 64 && (x & 0x40) != 0) v |= -1L << shift;
            return is64 ? v : (int) v;
        }
    }
}
