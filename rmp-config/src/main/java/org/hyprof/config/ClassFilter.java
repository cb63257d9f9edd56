package org.hyprof.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Which classes get probes: included (all when no include pattern is given) and not excluded.
 * Names are dotted ({@code com.x.A$B}). The profiler's own classes and the JDK are never
 * instrumented, whatever the patterns say.
 */
public final class ClassFilter {
    private static final String[] NEVER = {
        "org.hyprof.", "java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.jvm.internal.",
        "android.", "androidx.annotation.", "dalvik.", "libcore.",
    };

    private final List<Glob> include = new ArrayList<>();
    private final List<Glob> exclude = new ArrayList<>();

    public ClassFilter include(String pattern) {
        include.add(new Glob(pattern));
        return this;
    }

    public ClassFilter exclude(String pattern) {
        exclude.add(new Glob(pattern));
        return this;
    }

    public List<Glob> includes() {
        return List.copyOf(include);
    }

    public List<Glob> excludes() {
        return List.copyOf(exclude);
    }

    /** True when classes named {@code dottedName} should carry probes. */
    public boolean accepts(String dottedName) {
        for (String n : NEVER) if (dottedName.startsWith(n)) return false;
        if (!include.isEmpty() && include.stream().noneMatch(g -> g.matches(dottedName))) return false;
        return exclude.stream().noneMatch(g -> g.matches(dottedName));
    }
}
