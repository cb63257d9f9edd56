package org.hyprof.correlate;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link UnitsTest} again with a German default locale: the formatter uses
 * {@link java.util.Locale#ROOT}, so every expectation holds unchanged.
 */
@ExtendWith(GermanLocale.class)
class UnitsGermanLocaleTest extends UnitsTest {}
