package org.hyprof.correlate;

import java.util.Locale;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class with a German default locale (decimal comma, a dot between thousands) and
 * puts the previous default back afterwards; for checking that output does not depend on the
 * user's locale. Test classes run one after another in one JVM here, so the switch is safe.
 */
final class GermanLocale implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(GermanLocale.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NS).put("saved", Locale.getDefault());
        Locale.setDefault(Locale.GERMANY);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Locale.setDefault(context.getStore(NS).get("saved", Locale.class));
    }
}
