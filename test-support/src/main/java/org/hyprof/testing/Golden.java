package org.hyprof.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden-file comparison, the project's one mechanism: the expected output of a format lives in
 * the module's {@code src/test/resources/golden/NAME}, and a test fails with a diff when its output
 * changes. Regenerate every golden file with {@code mvn verify -Dhyprof.regenerateGoldens=true}
 * (tests then write what they produce instead of comparing) and review the diff before committing.
 */
public final class Golden {
    private Golden() {}

    /** The switch that makes {@link #check} write instead of compare. */
    public static final String REGENERATE = "hyprof.regenerateGoldens";

    /** Where golden files are, relative to the module's directory (Maven's working directory for tests). */
    public static final Path DIR = Path.of("src/test/resources/golden");

    public static boolean regenerating() {
        return Boolean.getBoolean(REGENERATE);
    }

    /** Compares {@code actual} with golden file {@code name} (UTF-8 text), or writes it when regenerating. */
    public static void check(String name, String actual) {
        Path file = DIR.resolve(name);
        try {
            if (regenerating()) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, actual, StandardCharsets.UTF_8);
                return;
            }
            if (!Files.exists(file))
                throw new AssertionError(file + " missing: run with -D" + REGENERATE + "=true and review it");
            assertEquals(Files.readString(file, StandardCharsets.UTF_8), actual,
                    "differs from " + file + " (regenerate with -D" + REGENERATE + "=true if intended)");
        } catch (IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
    }

    /** Compares bytes, kept as a hex dump (32 bytes a line) so a diff can be reviewed. */
    public static void checkBytes(String name, byte[] actual) {
        check(name, hex(actual));
    }

    /** 32 bytes per line, lower-case hex. */
    public static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(b.length * 2 + b.length / 32 + 1);
        for (int i = 0; i < b.length; i++) {
            s.append(Character.forDigit((b[i] >> 4) & 0xf, 16)).append(Character.forDigit(b[i] & 0xf, 16));
            if (i % 32 == 31 || i == b.length - 1) s.append('\n');
        }
        return s.toString();
    }
}
