package org.hyprof.instrument.jvm;

import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Starts the native side of a hybrid run inside the profiled JVM: bb-tracer
 * ({@code hyprof-bb.jar}, beside the agent jar) is loaded into a class loader of its own, whose
 * parent is the platform loader, so none of its classes (Unicorn, capstone, JNA, …) are visible to
 * the app or clash with the app's own. It sees the runtime through the boot class path, where the
 * agent put it, and installs itself as the runtime's {@code NativeCall} handler.
 */
final class Hybrid {
    private Hybrid() {}

    /** A hybrid run could not start; the message is one line for the user. */
    static final class StartException extends Exception {
        StartException(String message) {
            super(message);
        }
    }

    static final String JAR = "hyprof-bb.jar";
    private static final String ENTRY = "org.hyprof.bb.jni.HybridRuntime";

    /**
     * Loads bb-tracer into {@code loader} (made by {@link #loader()}) and installs it. The agent
     * must not instrument that loader's classes (their native methods are the emulator's own).
     */
    static void start(ClassLoader loader, Map<String, String> settings, IntFunction<String> methodKeys) throws StartException {
        try {
            Class<?> entry = Class.forName(ENTRY, true, loader);
            entry.getMethod("install", Map.class, IntFunction.class).invoke(null, settings, methodKeys);
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause();
            throw new StartException("hybrid run: " + (c.getMessage() != null ? c.getMessage() : c.toString()));
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new StartException("hybrid run: cannot load bb-tracer: " + e);
        }
    }

    /** A class loader over {@code hyprof-bb.jar}, apart from the app's (parent: the platform loader). */
    static ClassLoader loader() throws StartException {
        Path jar = bbJar();
        try {
            return new URLClassLoader("hyprof-bb", new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        } catch (MalformedURLException e) {
            throw new StartException("hybrid run: " + jar + ": " + e.getMessage());
        }
    }

    /** {@code hyprof-bb.jar} beside the agent jar (override: system property hyprof.bb.jar). */
    private static Path bbJar() throws StartException {
        String override = System.getProperty("hyprof.bb.jar");
        Path jar;
        if (override != null) {
            jar = Path.of(override);
        } else {
            try {
                Path agent = Path.of(Agent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                jar = agent.resolveSibling(JAR);
            } catch (URISyntaxException | SecurityException e) {
                throw new StartException("hybrid run: cannot locate the agent jar: " + e.getMessage());
            }
        }
        if (!Files.isRegularFile(jar)) throw new StartException("hybrid run: " + jar + " not found (it comes with the agent jar)");
        return jar;
    }
}
