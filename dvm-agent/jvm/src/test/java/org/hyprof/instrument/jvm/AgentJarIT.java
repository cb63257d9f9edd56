package org.hyprof.instrument.jvm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.hyprof.runtime.Probe;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

/**
 * The packaged agent jar is closed: every class its classes refer to is in the jar itself, in
 * hyprof-runtime.jar (its Boot-Class-Path) or in the JDK. The jar is assembled from this module's
 * dependencies (shade includes), so a class the agent needs from a module it does not depend on
 * fails here, at build time, instead of inside a profiled program.
 */
class AgentJarIT {
    @Test
    void everyReferencedClassIsInTheJarTheRuntimeOrTheJdk() throws IOException {
        Path agent = agentJar();
        Set<String> inAgent = new TreeSet<>();
        Map<String, Set<String>> refs = new TreeMap<>(); // referenced class -> classes referring to it
        try (JarFile jar = new JarFile(agent.toFile())) {
            for (JarEntry e : java.util.Collections.list(jar.entries())) {
                if (!e.getName().endsWith(".class") || e.getName().startsWith("META-INF/")) continue;
                try (InputStream in = jar.getInputStream(e)) {
                    ClassReader r = new ClassReader(in);
                    inAgent.add(r.getClassName());
                    collect(r, refs);
                }
            }
        }
        assertTrue(inAgent.contains("org/hyprof/instrument/jvm/Agent"), "premain class in " + agent);
        assertFalse(inAgent.stream().anyMatch(c -> c.startsWith("org/objectweb/asm/")), "ASM is relocated");
        Set<String> inRuntime = runtimeClasses();
        assertTrue(inRuntime.contains("org/hyprof/runtime/Probe"));

        Map<String, Set<String>> missing = new TreeMap<>();
        for (Map.Entry<String, Set<String>> e : refs.entrySet()) {
            String c = e.getKey();
            if (inAgent.contains(c) || inRuntime.contains(c) || inJdk(c)) continue;
            missing.put(c, e.getValue());
        }
        assertEquals(Map.of(), missing, agent + " refers to classes it does not contain (class -> referrers)");
        assertTrue(refs.size() > 100, "references were collected: " + refs.size());
    }

    private static void collect(ClassReader r, Map<String, Set<String>> refs) {
        String self = r.getClassName();
        Remapper recorder = new Remapper() {
            @Override
            public String map(String internalName) {
                refs.computeIfAbsent(internalName, k -> new TreeSet<>()).add(self);
                return internalName;
            }
        };
        ClassVisitor sink = new ClassVisitor(Opcodes.ASM9) {};
        r.accept(new ClassRemapper(sink, recorder), 0);
    }

    private static boolean inJdk(String internalName) {
        try {
            Class.forName(internalName.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Classes of the runtime module as the build made them (a jar, or classes/ in the reactor). */
    private static Set<String> runtimeClasses() throws IOException {
        Path where;
        try {
            where = Path.of(Probe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        Set<String> names = new TreeSet<>();
        if (Files.isDirectory(where)) {
            try (Stream<Path> s = Files.walk(where)) {
                s.map(p -> where.relativize(p).toString().replace('\\', '/'))
                        .filter(n -> n.endsWith(".class"))
                        .forEach(n -> names.add(n.substring(0, n.length() - ".class".length())));
            }
        } else {
            try (JarFile jar = new JarFile(where.toFile())) {
                jar.stream().map(JarEntry::getName).filter(n -> n.endsWith(".class"))
                        .forEach(n -> names.add(n.substring(0, n.length() - ".class".length())));
            }
        }
        return names;
    }

    private static Path agentJar() throws IOException {
        try (DirectoryStream<Path> d = Files.newDirectoryStream(Path.of("target"), "hyprof-agent-*-agent.jar")) {
            for (Path p : d) return p;
        }
        throw new AssertionError("target/hyprof-agent-*-agent.jar not built (run after package)");
    }
}
