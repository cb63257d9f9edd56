package org.hyprof.instrument.dex;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.Adler32;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;

/**
 * Reading DEX files: the header is checked before dexlib2 sees the bytes (dexlib2 trusts sizes
 * and never checks the checksum), so a truncated or damaged file is a one-line error instead of
 * an exception deep inside a rewrite.
 */
final class DexFiles {
    private DexFiles() {}

    static final int HEADER_SIZE = 0x70;

    /** True when the bytes start with the DEX magic ({@code dex\n0NN\0}). */
    static boolean hasMagic(byte[] b) {
        return b.length >= 8 && b[0] == 'd' && b[1] == 'e' && b[2] == 'x' && b[3] == '\n' && b[7] == 0
                && Character.isDigit(b[4]) && Character.isDigit(b[5]) && Character.isDigit(b[6]);
    }

    /**
     * Checks magic, size, checksum, header size and byte order, then opens the file with the
     * opcodes of its own version ({@code null} opcodes: dexlib2's defaults would silently write a
     * version-038 file as 035).
     *
     * @param name names the file in error messages
     * @throws DexException with a one-line message
     */
    static DexBackedDexFile read(byte[] b, String name) throws DexException {
        if (b.length < HEADER_SIZE) throw new DexException(name + ": truncated DEX file (" + b.length + " bytes, header alone is 112)");
        if (!hasMagic(b)) throw new DexException(name + ": not a DEX file (bad magic)");
        ByteBuffer h = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        long fileSize = h.getInt(0x20) & 0xffffffffL;
        if (fileSize > b.length)
            throw new DexException(name + ": truncated DEX file (header says " + fileSize + " bytes, found " + b.length + ")");
        if (fileSize < b.length)
            throw new DexException(name + ": " + (b.length - fileSize) + " bytes after the end of the DEX file");
        if (h.getInt(0x28) != 0x12345678) throw new DexException(name + ": unsupported byte order (endian tag)");
        if (h.getInt(0x24) != HEADER_SIZE) throw new DexException(name + ": unsupported DEX header size " + h.getInt(0x24));
        Adler32 a = new Adler32();
        a.update(b, 12, b.length - 12);
        long stored = h.getInt(8) & 0xffffffffL;
        if (a.getValue() != stored)
            throw new DexException(String.format("%s: bad checksum (header 0x%08x, contents 0x%08x): damaged DEX file",
                    name, stored, a.getValue()));
        try {
            DexBackedDexFile d = new Cached(b);
            d.getClasses().size(); // reads the class index: fails early on a broken map
            return d;
        } catch (RuntimeException e) {
            throw new DexException(name + ": cannot read DEX file (" + e.getMessage() + ")");
        }
    }

    /**
     * A DEX file whose strings and type names are decoded once: dexlib2 decodes them from the
     * buffer on every access, and interning and writing ask for each one many times (without the
     * cache, MUTF-8 decoding was 40 % of instrumenting Guava). Races only decode a string twice.
     */
    static final class Cached extends DexBackedDexFile {
        private final String[] strings, types;
        private final DexBackedDexFile.OptionalIndexedSection<String> stringSection, typeSection;

        Cached(byte[] b) {
            super(null, b, 0, true);
            DexBackedDexFile.OptionalIndexedSection<String> s = super.getStringSection(), t = super.getTypeSection();
            strings = new String[s.size()];
            types = new String[t.size()];
            stringSection = new CachedSection(s, strings);
            typeSection = new CachedSection(t, types);
        }

        @Override
        public DexBackedDexFile.OptionalIndexedSection<String> getStringSection() {
            return stringSection;
        }

        @Override
        public DexBackedDexFile.OptionalIndexedSection<String> getTypeSection() {
            return typeSection;
        }
    }

    private static final class CachedSection extends DexBackedDexFile.OptionalIndexedSection<String> {
        private final DexBackedDexFile.OptionalIndexedSection<String> section;
        private final String[] cache;

        CachedSection(DexBackedDexFile.OptionalIndexedSection<String> section, String[] cache) {
            this.section = section;
            this.cache = cache;
        }

        @Override
        public String get(int index) {
            if (index < 0 || index >= cache.length) return section.get(index); // it throws the right exception
            String v = cache[index];
            if (v == null) cache[index] = v = section.get(index);
            return v;
        }

        @Override
        public String getOptional(int index) {
            return index == -1 ? null : get(index);
        }

        @Override
        public int size() {
            return section.size();
        }

        @Override
        public int getOffset(int index) {
            return section.getOffset(index);
        }
    }

    /** A DEX input that cannot be read; the message is one line naming the input and the problem. */
    static final class DexException extends Exception {
        private static final long serialVersionUID = 1L;

        DexException(String message) {
            super(message, null, false, false);
        }
    }
}
