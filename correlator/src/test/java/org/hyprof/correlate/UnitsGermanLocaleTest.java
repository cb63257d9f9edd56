package org.hyprof.correlate;

import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link UnitsTest} again with a German default locale (decimal comma, a dot between thousands):
 * the formatter uses {@link Locale#ROOT}, so every expectation holds unchanged.
 */
class UnitsGermanLocaleTest extends UnitsTest {
    private static Locale saved;

    @BeforeAll
    static void german() {
        saved = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
    }

    @AfterAll
    static void restore() {
        Locale.setDefault(saved);
    }
}
