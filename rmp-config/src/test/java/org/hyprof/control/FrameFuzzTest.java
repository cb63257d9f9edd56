package org.hyprof.control;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.hyprof.testing.FuzzChecks;

/**
 * Fuzzes {@link Frame#decode}: the first input byte is the frame type, the rest the payload. Only
 * {@link FrameException} (the protocol's own error: the connection is closed with its message)
 * may come out, and decoding allocates in proportion to the payload. Seeds and findings are in
 * {@code FrameFuzzTestInputs/} (run by every build); {@code mvn -Pfuzz} fuzzes (bench/README.md).
 */
class FrameFuzzTest {
    @FuzzTest(maxDuration = "15m", maxExecutions = 1_000_000)
    void decode(byte[] input) throws Exception {
        if (input.length == 0) return;
        byte[] payload = Arrays.copyOfRange(input, 1, input.length);
        FuzzChecks.allocationBounded(input.length, 64, 1 << 20, () -> {
            try {
                Frame.decode(input[0] & 0xff, payload).toBytes(); // what was decoded encodes again
            } catch (FrameException e) {
                FuzzChecks.inputError(e);
            }
        });
    }
}
