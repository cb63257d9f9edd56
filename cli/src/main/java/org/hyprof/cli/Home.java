package org.hyprof.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where hyprof's own files are: {@code lib/} beside hyprof.jar (override: -Dhyprof.home=DIR). */
final class Home {
    private Home() {}

    static Path lib() {
        String home = System.getProperty("hyprof.home");
        if (home != null) return Path.of(home).resolve("lib");
        try {
            Path jar = Path.of(HyprofCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dir = Files.isDirectory(jar) ? jar.getParent() : jar.getParent(); // classes/ or hyprof.jar
            return dir.resolve("lib");
        } catch (URISyntaxException e) {
            throw new UserError("cannot locate hyprof's lib directory: " + e.getMessage());
        }
    }

    /** The -javaagent jar (with hyprof-runtime.jar beside it). */
    static Path agentJar() {
        Path a = lib().resolve("hyprof-agent.jar");
        if (!Files.isRegularFile(a) || !Files.isRegularFile(lib().resolve("hyprof-runtime.jar")))
            throw new UserError(a + ": agent not found (build with 'mvn -DskipTests package' or run ./hyprof)");
        return a;
    }
}
