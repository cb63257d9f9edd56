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
            DexBackedDexFile d = new DexBackedDexFile(null, b);
            d.getClasses().size(); // reads the class index: fails early on a broken map
            return d;
        } catch (RuntimeException e) {
            throw new DexException(name + ": cannot read DEX file (" + e.getMessage() + ")");
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
