package org.hyprof.store;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.hyprof.config.ConfigException;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.chunk.MalformedPayloadException;
import org.hyprof.testing.FuzzChecks;

/**
 * Fuzzes storing session chunks ({@link SessionIngest#accept}, what both a session file's import
 * and a live agent's CHUNK frames go through): the first input byte picks the chunk type (MANIFEST
 * to NATIVE_EPOCHS), the rest is its payload, stored into a new process of a real store. Only what
 * {@code accept} documents may come out — {@link MalformedPayloadException},
 * {@link IllegalStateException}, {@link ConfigException}, and {@link StoreException} — each with a
 * one-line message, and allocation stays within the payload's size. Seeds: every chunk of the
 * runtime's golden and damaged session files, in {@code SessionIngestFuzzTestInputs/}.
 */
class SessionIngestFuzzTest {
    private static final int TYPES = SessionFormat.LAST_TYPE - SessionFormat.MANIFEST + 1;

    @FuzzTest(maxDuration = "15m", maxExecutions = 1_000_000)
    void accept(byte[] input) throws Exception {
        if (input.length == 0) return;
        int type = SessionFormat.MANIFEST + ((input[0] & 0xff) - SessionFormat.MANIFEST + TYPES * 64) % TYPES;
        byte[] payload = Arrays.copyOfRange(input, 1, input.length);
        Store store = FuzzStore.store();
        long pid = store.addProcess(new ProcessInfo(0, 1, "fuzz", "", "events", 0, 0, 0, null, "crashed", 0, "fuzz"));
        SessionIngest in = new SessionIngest(store, pid);
        FuzzChecks.allocationBounded(input.length, 512, 4 << 20, () -> {
            try {
                in.accept(type, payload);
            } catch (MalformedPayloadException | IllegalStateException | ConfigException | StoreException e) {
                FuzzChecks.inputError(e);
            }
        });
    }
}
