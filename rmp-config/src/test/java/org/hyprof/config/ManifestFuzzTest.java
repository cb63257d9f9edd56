package org.hyprof.config;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import org.hyprof.testing.FuzzChecks;

/**
 * Fuzzes the probe manifest parser ({@link Manifest#parse}, which also reads the MANIFEST chunks of
 * session files and agents): only {@link ConfigException} with a one-line message may come out, and
 * what is parsed prints and parses again to the same probes. Seeds and findings:
 * {@code ManifestFuzzTestInputs/}; {@code mvn -Pfuzz} fuzzes (bench/README.md).
 */
class ManifestFuzzTest {
    @FuzzTest(maxDuration = "15m", maxExecutions = 1_000_000)
    void parse(byte[] input) throws Exception {
        String text = new String(input, StandardCharsets.UTF_8);
        FuzzChecks.allocationBounded(input.length, 256, 1 << 20, () -> {
            Manifest m;
            try {
                m = Manifest.parse(text, "fuzz");
            } catch (ConfigException e) {
                FuzzChecks.inputError(e);
                return;
            }
            Manifest.parse(m.toText(), "printed");
        });
    }
}
