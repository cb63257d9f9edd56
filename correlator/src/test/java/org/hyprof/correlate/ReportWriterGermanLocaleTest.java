package org.hyprof.correlate;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link ReportWriterTest}, golden files included, again with a German default locale: reports
 * are byte-identical whatever the user's locale.
 */
@ExtendWith(GermanLocale.class)
class ReportWriterGermanLocaleTest extends ReportWriterTest {}
