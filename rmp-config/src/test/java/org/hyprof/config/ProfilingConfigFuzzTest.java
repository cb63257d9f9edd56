package org.hyprof.config;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hyprof.testing.FuzzChecks;

/**
 * Fuzzes the profiling configuration: the input as a config file ({@link ProfilingConfig#load}, Java
 * properties) and, its lines joined by commas, as an agent argument
 * ({@link ProfilingConfig#parseAgentArgs}; a {@code config=} key is renamed there, as it would read
 * whatever file the input names). Only {@link ConfigException} with a one-line message may come out.
 * Seeds and findings: {@code ProfilingConfigFuzzTestInputs/}; {@code mvn -Pfuzz} fuzzes
 * (bench/README.md).
 */
class ProfilingConfigFuzzTest {
    private static final Path FILE = FuzzChecks.scratchFile(".properties");

    @FuzzTest(maxDuration = "15m", maxExecutions = 1_000_000)
    void parse(byte[] input) throws Exception {
        Files.write(FILE, input);
        String args = new String(input, StandardCharsets.UTF_8).replace('\n', ',').replace("config", "c0nfig");
        FuzzChecks.allocationBounded(input.length, 256, 1 << 20, () -> {
            try {
                new ProfilingConfig().load(FILE);
            } catch (ConfigException e) {
                FuzzChecks.inputError(e);
            }
            try {
                ProfilingConfig.parseAgentArgs(args);
            } catch (ConfigException e) {
                FuzzChecks.inputError(e);
            }
        });
    }
}
