package org.hyprof.instrument.dex;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.zip.Adler32;
import org.hyprof.testing.FuzzChecks;

/**
 * Fuzzes reading and checking a DEX file before it is rewritten ({@link DexFiles#read}: header,
 * {@link DexStructure}, then every class, method and instruction through dexlib2). Only a
 * {@link DexFiles.DexException} with a one-line message naming the input may come out, and
 * allocation stays within the file's size. Most inputs get their header's file size and Adler-32
 * checksum recomputed first, so that mutations reach the structure checks and dexlib2 instead of
 * stopping at "bad checksum"; one in seven is read as it is. Seeds (in
 * {@code DexFilesFuzzTestInputs/}): the smali fixture ({@code Fixtures.smaliDex()}) and the
 * {@code invalid/} corpus {@code InvalidDex.write} makes from it.
 */
class DexFilesFuzzTest {
    @FuzzTest(maxDuration = "15m", maxExecutions = 1_000_000)
    void read(byte[] input) throws Exception {
        byte[] b = input.length % 7 == 0 ? input : withHeaderFixed(input);
        FuzzChecks.allocationBounded(b.length, 512, 4 << 20, () -> {
            try {
                DexFiles.read(b, "fuzz.dex", new ArrayList<>());
            } catch (DexFiles.DexException e) {
                FuzzChecks.inputError(e);
                if (!e.getMessage().startsWith("fuzz.dex: ")) throw new AssertionError("an error that does not name the input: " + e, e);
            }
        });
    }

    /** The input with its header's file size and checksum made right (when it has a header). */
    static byte[] withHeaderFixed(byte[] in) {
        if (in.length < DexFiles.HEADER_SIZE) return in;
        byte[] b = in.clone();
        ByteBuffer h = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0x20, b.length);
        Adler32 a = new Adler32();
        a.update(b, 12, b.length - 12);
        h.putInt(8, (int) a.getValue());
        return b;
    }
}
