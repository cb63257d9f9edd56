package org.hyprof.correlate;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hyprof.testing.FuzzChecks;

/**
 * Fuzzes reading a {@code power_profile.xml} in its three forms: text XML, aapt's binary XML
 * ({@link BinaryXml}) and an APK (a zip input is written to a file and read as
 * {@link PowerProfile#read} reads one). Only {@link IllegalArgumentException} with a one-line
 * message naming the input (how {@link PowerProfile} reports a bad file) may come out, a profile
 * that is read answers for every cluster, and allocation stays within the input's size. Seeds: the
 * power test resources (text, keys, compiled, the damaged compiled set, an APK) and the shipped
 * profiles, in {@code PowerProfileFuzzTestInputs/}.
 */
class PowerProfileFuzzTest {
    private static final Path APK = FuzzChecks.scratchFile(".apk");

    @FuzzTest(maxDuration = "15m", maxExecutions = 1_000_000)
    void read(byte[] input) throws Exception {
        boolean zip = input.length >= 4 && input[0] == 'P' && input[1] == 'K' && input[2] == 3 && input[3] == 4;
        if (zip) Files.write(APK, input);
        FuzzChecks.allocationBounded(input.length, 512, 4 << 20, () -> {
            try {
                PowerProfile p = zip ? PowerProfile.read(APK) : PowerProfile.parse(input, "fuzz");
                p.batteryCapacityMilliampHours();
                for (int c = 0; c < 8; c++) {
                    if (p.steps(c) == 0) continue;
                    p.cpu(c, null, PowerProfile.DEFAULT_VOLTAGE);
                }
            } catch (IllegalArgumentException e) {
                FuzzChecks.inputError(e);
                String source = zip ? APK.toString() : "fuzz";
                if (!e.getMessage().startsWith(source)) throw new AssertionError("an error that does not name the input: " + e, e);
            }
        });
    }
}
