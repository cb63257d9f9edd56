package org.hyprof.instrument.dex;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import org.hyprof.testing.FuzzChecks;

/**
 * Fuzzes reading an APK ({@link AppInput#read} of a zip: its {@code classesN.dex} entries and the
 * binary {@code AndroidManifest.xml}'s minSdk, {@link AndroidManifest}), then checking each DEX
 * entry as {@link DexFiles#read} does before rewriting. Only an {@link IOException} (the input
 * errors are {@code DexInputException}s) or a {@link DexFiles.DexException}, each with a one-line
 * message, may come out, and allocation stays within what the zip holds. Seeds (in
 * {@code AppInputFuzzTestInputs/}): APKs written by {@code TestApk} with the smali fixture, with and
 * without a manifest, with a damaged DEX entry, and a zip without code.
 */
class AppInputFuzzTest {
    private static final Path FILE = FuzzChecks.scratchFile(".apk");

    @FuzzTest(maxDuration = "15m", maxExecutions = 1_000_000)
    void read(byte[] input) throws Exception {
        Files.write(FILE, input);
        // a zip entry may inflate ~1000 times its compressed size: that much is what the input holds
        FuzzChecks.allocationBounded(input.length, 4096, 4 << 20, () -> {
            try {
                AppInput app = AppInput.read(FILE, DexInstrumenter.Kind.APK, null);
                for (AppInput.Dex d : app.dexFiles()) DexFiles.read(d.bytes(), d.display(), new ArrayList<>());
            } catch (IOException | DexFiles.DexException e) {
                FuzzChecks.inputError(e);
            }
        });
    }
}
