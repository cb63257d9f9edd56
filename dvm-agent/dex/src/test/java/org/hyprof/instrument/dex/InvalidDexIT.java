package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Android's verifier agrees with ours: {@code dexdump} refuses every file of the {@code invalid/}
 * corpus that the instrumenter refuses ({@link InvalidDexTest}), and accepts the one with a stale
 * SHA-1 signature, which the instrumenter only notes.
 */
class InvalidDexIT {
    @Test
    void dexdumpRefusesEveryFileTheInstrumenterRefuses() throws Exception {
        Assumptions.assumeTrue(DexTools.hasDexdump(), "dexdump not installed");
        Path corpus = Path.of("target", "invalid-it");
        Map<String, InvalidDex.Case> cases = InvalidDex.write(Fixtures.smaliDex(), corpus);
        for (InvalidDex.Case c : cases.values()) {
            DexTools.Dump d = DexTools.dexdump(corpus.resolve(c.file()));
            assertNotEquals(0, d.exit(), c.file() + ": dexdump accepted it");
            assertFalse(d.failures().isEmpty(), c.file() + ": dexdump gave no reason");
        }
        DexTools.Dump d = DexTools.dexdump(corpus.resolve(InvalidDex.BAD_SIGNATURE));
        assertTrue(d.clean() && d.instructions() > 0, "a stale signature is accepted by dexdump too: " + d);
    }
}
