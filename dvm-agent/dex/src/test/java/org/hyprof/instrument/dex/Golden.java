package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden-file comparison, the project's mechanism (as in correlator's tests). Regenerate with
 * {@code mvn verify -Dhyprof.regenerateGoldens=true} (writes src/test/resources/golden/NAME);
 * review the diff before committing it.
 */
public final class Golden {
    private Golden() {}

    public static void check(String name, String actual) throws IOException {
        Path file = Path.of("src/test/resources/golden").resolve(name);
        if (Boolean.getBoolean("hyprof.regenerateGoldens")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual, StandardCharsets.UTF_8);
            return;
        }
        if (!Files.exists(file))
            throw new AssertionError(file + " missing: run with -Dhyprof.regenerateGoldens=true and review it");
        assertEquals(Files.readString(file, StandardCharsets.UTF_8), actual,
                "differs from " + file + " (regenerate with -Dhyprof.regenerateGoldens=true if intended)");
    }
}
