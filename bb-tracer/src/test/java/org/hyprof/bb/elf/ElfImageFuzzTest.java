package org.hyprof.bb.elf;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hyprof.bb.NativeException;
import org.hyprof.testing.FuzzChecks;

/**
 * Fuzzes reading a shared object ({@link ElfImage#read}: segments, symbols, relocations, dynamic
 * section, via jelf). Only a {@link NativeException} with a one-line message naming the file may
 * come out, and allocation stays within the file's size (issue 20: a mutated section table made
 * jelf use 5.8 GB). Seeds: the ARM libraries of {@code samples/native/lib}, the
 * {@code samples/native/invalid} set and the issue's {@code p_offset} 2^63+1, in
 * {@code ElfImageFuzzTestInputs/}.
 */
class ElfImageFuzzTest {
    private static final Path FILE = FuzzChecks.scratchFile(".so");

    @FuzzTest(maxDuration = "15m", maxExecutions = 1_000_000)
    void read(byte[] input) throws Exception {
        Files.write(FILE, input);
        FuzzChecks.allocationBounded(input.length, 64, 4 << 20, () -> {
            try {
                ElfImage elf = ElfImage.read(FILE);
                for (ElfImage.Segment s : elf.segments) elf.wordAt(s.vaddr());
            } catch (NativeException e) {
                FuzzChecks.inputError(e);
                if (!e.getMessage().startsWith(FILE.toString())) throw new AssertionError("an error that does not name the file: " + e, e);
            }
        });
    }
}
