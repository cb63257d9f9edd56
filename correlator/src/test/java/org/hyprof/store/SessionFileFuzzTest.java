package org.hyprof.store;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.util.zip.CRC32;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.testing.FuzzChecks;

/**
 * Fuzzes reading a session file: {@link SessionReader} framing and {@link SessionImporter} into a
 * {@link Store}. Only an {@link IOException} (a file refused: bad magic, version, no header) or a
 * {@link StoreException} with a one-line message may come out; a chunk that does not decode is a
 * note, and allocation stays within the input's size. Most inputs get their chunks' CRCs
 * recomputed before the import, so mutations reach the chunk decoders instead of stopping at
 * "checksum mismatch"; one in seven is imported as it is. Seeds: the runtime's golden session file
 * and its damaged variants ({@code SessionFiles}), in {@code SessionFileFuzzTestInputs/}.
 */
class SessionFileFuzzTest {
    @FuzzTest(maxDuration = "15m", maxExecutions = 1_000_000)
    void importFile(byte[] input) throws Exception {
        byte[] bytes = input.length % 7 == 0 ? input : withCrcsFixed(input);
        Files.write(FuzzStore.INPUT, bytes);
        Store store = FuzzStore.store();
        // fixed part: an import of the smallest session already allocates ~4 MiB (the store's
        // statements and SQLite's buffers through JDBC), whatever the input says
        FuzzChecks.allocationBounded(bytes.length, 512, 8 << 20, () -> {
            try {
                SessionImporter.importFile(FuzzStore.INPUT, store);
            } catch (IOException | StoreException e) {
                FuzzChecks.inputError(e);
            }
        });
    }

    /** The input with the CRC of every chunk whose length fits recomputed (the magic is kept). */
    static byte[] withCrcsFixed(byte[] in) {
        byte[] b = in.clone();
        int p = SessionFormat.MAGIC.length;
        while (p + 5 <= b.length) {
            long len = ((b[p + 1] & 0xffL) << 24) | ((b[p + 2] & 0xffL) << 16) | ((b[p + 3] & 0xffL) << 8) | (b[p + 4] & 0xffL);
            if (len > b.length - p - 9) break;
            CRC32 crc = new CRC32();
            crc.update(b, p, 5 + (int) len);
            int at = p + 5 + (int) len;
            long v = crc.getValue();
            b[at] = (byte) (v >>> 24);
            b[at + 1] = (byte) (v >>> 16);
            b[at + 2] = (byte) (v >>> 8);
            b[at + 3] = (byte) v;
            p = at + 4;
        }
        return b;
    }
}
