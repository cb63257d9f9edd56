package org.hyprof.tui;

import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link TuiScreenTest}, golden screens included, again with a German default locale (decimal
 * comma, a dot between thousands): the screens are the same whatever the user's locale.
 */
class TuiScreenGermanLocaleTest extends TuiScreenTest {
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
