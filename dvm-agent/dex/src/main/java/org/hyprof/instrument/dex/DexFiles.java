package org.hyprof.instrument.dex;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Adler32;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.jf.dexlib2.dexbacked.raw.HeaderItem;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.ExceptionHandler;
import org.jf.dexlib2.iface.Field;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.iface.MethodImplementation;
import org.jf.dexlib2.iface.TryBlock;
import org.jf.dexlib2.iface.debug.DebugItem;
import org.jf.dexlib2.iface.instruction.Instruction;

/**
 * Reading DEX files: the header and the structure are checked before dexlib2 sees the bytes
 * (dexlib2 trusts sizes and offsets and never checks the checksum), so a truncated or damaged file
 * is a one-line error before anything is rewritten, instead of an exception deep inside a rewrite
 * or output that Android refuses.
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
     * Checks the file before anything is rewritten, then opens it with the opcodes of its own
     * version ({@code null} opcodes: dexlib2's defaults would silently write a version-038 file as
     * 035). Refused, as Android's verifier (and {@code dexdump}) refuses them: a file shorter or
     * longer than its header says, a bad magic or unknown version, another header size or byte
     * order, a bad Adler-32 checksum, any structural damage {@link DexStructure} finds, and
     * anything dexlib2 cannot decode when every class, method and instruction is read once.
     *
     * <p>A SHA-1 signature that does not match the contents is only a note: Android never checks
     * it (nor does {@code dexdump}), the checksum after it is right, so the file is as the tool
     * that wrote it meant it; the output gets a new signature anyway.
     *
     * @param name  names the file in error messages
     * @param notes receives things the user should know (one line each)
     * @throws DexException with a one-line message naming the file
     */
    static DexBackedDexFile read(byte[] b, String name, List<String> notes) throws DexException {
        if (b.length < HEADER_SIZE) throw new DexException(name + ": truncated DEX file (" + b.length + " bytes, header alone is 112)");
        if (!hasMagic(b)) throw new DexException(name + ": not a DEX file (bad magic)");
        int version = (b[4] - '0') * 100 + (b[5] - '0') * 10 + (b[6] - '0');
        if (!HeaderItem.isSupportedDexVersion(version))
            throw new DexException(name + ": unsupported DEX version " + new String(b, 4, 3, StandardCharsets.US_ASCII)
                    + " (known: 035, 037, 038, 039)");
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
            throw new DexException(String.format("%s: bad checksum (header 0x%08x, contents 0x%08x): the file is damaged, or was"
                    + " edited without updating its checksum (Android refuses it too); if the edit is intended, store the Adler-32"
                    + " of bytes 12 to the end at offset 8", name, stored, a.getValue()));
        if (!signatureMatches(b))
            notes.add(name + ": the SHA-1 signature in the header does not match the contents (Android does not check it;"
                    + " the output has a new one)");
        try {
            DexStructure.check(b);
        } catch (DexException e) {
            throw new DexException(name + ": damaged DEX file: " + e.getMessage());
        }
        DexBackedDexFile d;
        try {
            d = new Cached(b);
            d.getClasses().size(); // reads the class index: fails early on a broken map
        } catch (RuntimeException e) {
            throw new DexException(name + ": cannot read DEX file (" + firstLine(e) + ")");
        }
        readAll(d, name);
        return d;
    }

    /**
     * Decodes every class, field, method, instruction, try block and debug item once, so what
     * dexlib2 cannot decode is refused here and not half-way through a rewrite.
     */
    private static void readAll(DexBackedDexFile d, String name) throws DexException {
        String type = null;
        try {
            for (ClassDef cd : d.getClasses()) {
                type = cd.getType();
                cd.getSuperclass();
                cd.getInterfaces().size();
                for (Field f : cd.getFields()) f.getInitialValue();
                for (Method m : cd.getMethods()) {
                    m.getParameterTypes().size();
                    MethodImplementation impl = m.getImplementation();
                    if (impl == null) continue;
                    for (Instruction i : impl.getInstructions()) i.getOpcode();
                    for (TryBlock<? extends ExceptionHandler> t : impl.getTryBlocks()) t.getExceptionHandlers().size();
                    for (DebugItem di : impl.getDebugItems()) di.getCodeAddress();
                }
            }
        } catch (RuntimeException e) {
            throw new DexException(name + ": damaged DEX file" + (type != null ? " in " + ClassRewriter.dotted(type) : "")
                    + " (" + firstLine(e) + ")");
        }
    }

    /** Whether bytes 12 to 31 hold the SHA-1 of everything after them. */
    static boolean signatureMatches(byte[] b) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(b, 32, b.length - 32);
            return Arrays.equals(sha1.digest(), Arrays.copyOfRange(b, 12, 32));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }

    private static String firstLine(RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
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
