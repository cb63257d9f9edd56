package org.hyprof.config;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfilingConfigTest {
    @TempDir Path dir;

    @Test
    void agentArgumentsAndFiles() throws Exception {
        Path f = dir.resolve("c.properties");
        Files.writeString(f, "include=com.a.*\nmode=events\nbudget=16m\nroots=com.a.Main.run\n");
        ProfilingConfig c = ProfilingConfig.parseAgentArgs("config=" + f + ",exclude=com.a.gen.*,maxDepth=4");
        assertTrue(c.classes.accepts("com.a.Main"));
        assertFalse(c.classes.accepts("com.a.gen.X"));
        assertFalse(c.classes.accepts("org.other.Y"));
        assertFalse(c.classes.accepts("java.lang.String"), "the JDK is never instrumented");
        assertTrue(c.runtime.events);
        assertEquals(16 << 20, c.runtime.budgetBytes);
        assertEquals(4, c.runtime.maxDepth);
        ProbeInfo run = new ProbeInfo(1, false, Resolution.THREAD, "com.a.Main", "run", "()V", -1, -1, 1, "");
        assertTrue(c.isRoot(run));
    }

    @Test
    void badSettingsAreOneLineErrorsNamingTheInput() throws Exception {
        ConfigException e = assertThrows(ConfigException.class, () -> ProfilingConfig.parseAgentArgs("mode=sometimes"));
        assertEquals("agent argument: mode must be aggregate or events, not 'sometimes'", e.getMessage());
        Path f = dir.resolve("bad.properties");
        Files.writeString(f, "budget=lots\n");
        e = assertThrows(ConfigException.class, () -> new ProfilingConfig().load(f));
        assertTrue(e.getMessage().startsWith(f + ": budget: bad size"), e.getMessage());
        assertThrows(ConfigException.class, () -> ProfilingConfig.parseAgentArgs("novalue"));
        assertThrows(ConfigException.class, () -> ProfilingConfig.parseAgentArgs("resolutions=process;galaxy"));
        assertThrows(ConfigException.class, () -> new ProfilingConfig().load(dir.resolve("missing")));
    }

    @Test
    void probeSitesAreIndyUnlessStaticIsAskedFor() {
        assertFalse(ProfilingConfig.parseAgentArgs("").staticSites);
        assertFalse(ProfilingConfig.parseAgentArgs("sites=indy").staticSites);
        assertTrue(ProfilingConfig.parseAgentArgs("sites=static").staticSites);
        assertTrue(ProfilingConfig.parseAgentArgs("sites=indy").outline, "outlined bodies by default");
        assertFalse(ProfilingConfig.parseAgentArgs("sites=indy-inline").outline);
        assertFalse(ProfilingConfig.parseAgentArgs("sites=indy-inline").staticSites);
        ConfigException e = assertThrows(ConfigException.class, () -> ProfilingConfig.parseAgentArgs("sites=dynamic"));
        assertEquals("agent argument: sites: expected indy, indy-inline or static, got 'dynamic'", e.getMessage());
    }

    @Test
    void keepLastWithAMaxAge() {
        assertFalse(ProfilingConfig.parseAgentArgs("mode=events").runtime.keepLast);
        ProfilingConfig c = ProfilingConfig.parseAgentArgs("mode=events,keep=last,maxAge=10s");
        assertTrue(c.runtime.keepLast);
        assertEquals(10_000_000_000L, c.runtime.maxAgeNanos);
        assertFalse(ProfilingConfig.parseAgentArgs("keep=first").runtime.keepLast);
        ConfigException e = assertThrows(ConfigException.class, () -> ProfilingConfig.parseAgentArgs("keep=middle"));
        assertEquals("agent argument: keep must be first or last, not 'middle'", e.getMessage());
    }

    @Test
    void classifierKnowsEntryPoints() {
        assertEquals(Resolution.PROCESS, Classifier.classify("a.Main", "java.lang.Object", java.util.List.of(), "main", "([Ljava/lang/String;)V", true));
        assertEquals(Resolution.PROCESS, Classifier.classify("a.MainActivity", "android.app.Activity", java.util.List.of(), "onCreate", "(Landroid/os/Bundle;)V", false));
        assertEquals(Resolution.THREAD, Classifier.classify("a.W", "java.lang.Object", java.util.List.of("java.lang.Runnable"), "run", "()V", false));
        assertEquals(Resolution.THREAD, Classifier.classify("a.T", "java.lang.Thread", java.util.List.of(), "run", "()V", false));
        assertEquals(Resolution.THREAD, Classifier.classify("a.C", "java.lang.Object", java.util.List.of("java.util.concurrent.Callable"), "call", "()Ljava/lang/Object;", false));
        assertEquals(Resolution.METHOD, Classifier.classify("a.X", "java.lang.Object", java.util.List.of(), "run", "()V", false));
    }

    @Test
    void manifestRoundTrips() {
        Manifest m = ZoomTest.manifest();
        m.addSkipped(new SkippedMethod("a.B", "big", "()V", "method too large with probes"));
        Manifest back = Manifest.parse(m.toText(), "test");
        assertEquals(m.probes(), back.probes());
        assertEquals(m.skipped(), back.skipped());
        assertThrows(ConfigException.class, () -> Manifest.parse("probe\t1\tmethod\n", "bad"));
        assertThrows(ConfigException.class, () -> Manifest.parse("probe\tx\tmethod\tmethod\ta\tb\tc\t-1\t-1\t-1\t\n", "bad"));
    }
}
