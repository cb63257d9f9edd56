package org.hyprof.correlate;

import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link ReportWriterTest}, golden files included, again with a German default locale (decimal
 * comma, a dot between thousands): reports are byte-identical whatever the user's locale.
 */
class ReportWriterGermanLocaleTest extends ReportWriterTest {
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
