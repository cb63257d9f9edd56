package org.hyprof.instrument.dex;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.hyprof.instrument.ZipEntries;
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
        // What the zip holds is its bytes and what the entries read inflate to (up to ~1,000 times
        // their size). Reading the entries allocates per inflated byte: DexFiles as in
        // DexFilesFuzzTest (512), and in fuzzing mode Jazzer's hooks 1,400 bytes per unequal
        // String.equals, which the manifest parser makes one or two of per element and per
        // attribute (≥ 20 bytes each): ~140 per manifest byte. A bound per zip byte (4,096 before)
        // let a manifest that inflates 1,000 times fail on the hooks' allocations alone.
        FuzzChecks.allocationBounded(inflatedBytes(FILE) + input.length, 512, 4 << 20, () -> {
            try {
                AppInput app = AppInput.read(FILE, DexInstrumenter.Kind.APK, null);
                for (AppInput.Dex d : app.dexFiles()) DexFiles.read(d.bytes(), d.display(), new ArrayList<>());
            } catch (IOException | DexFiles.DexException e) {
                FuzzChecks.inputError(e);
            }
        });
    }

    /** Bytes the entries {@link AppInput} reads inflate to (as far as they inflate); 0 when it is no zip. */
    static int inflatedBytes(Path zip) {
        long inflated = 0;
        try (ZipFile z = new ZipFile(zip.toFile())) {
            byte[] buffer = new byte[8192];
            for (ZipEntry e : ZipEntries.of(z)) {
                if (!e.getName().equals("AndroidManifest.xml") && AppInput.dexNumber(e.getName()) == Integer.MAX_VALUE) continue;
                try (InputStream in = z.getInputStream(e)) {
                    for (int n; (n = in.read(buffer)) > 0; ) inflated += n;
                } catch (IOException damaged) {
                    // counted as far as it inflated
                }
            }
        } catch (IOException notAZip) {
            // nothing inflates
        }
        return (int) Math.min(inflated, Integer.MAX_VALUE);
    }
}
