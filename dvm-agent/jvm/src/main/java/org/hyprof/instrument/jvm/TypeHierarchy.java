package org.hyprof.instrument.jvm;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;

/**
 * Superclass lookups for stack-map frame computation, read from class-file bytes: never loads or
 * initializes a class (doing so from a transformer would run app code at the wrong time).
 */
final class TypeHierarchy {
    private record Header(String superName, boolean isInterface) {}

    private static final Header UNKNOWN = new Header(null, false);
    private final Function<String, byte[]> bytes;
    private final ConcurrentHashMap<String, Header> cache = new ConcurrentHashMap<>();

    /** @param bytes internal name → class-file bytes, or null when unknown */
    TypeHierarchy(Function<String, byte[]> bytes) {
        this.bytes = bytes;
    }

    /** Common superclass of two internal names; {@code java/lang/Object} when unsure. */
    String commonSuperClass(String a, String b) {
        if (a.equals(b)) return a;
        if (header(a).isInterface || header(b).isInterface) return "java/lang/Object";
        Set<String> chainA = new HashSet<>();
        for (String t = a; t != null; t = header(t).superName) chainA.add(t);
        for (String t = b; t != null; t = header(t).superName) if (chainA.contains(t)) return t;
        return "java/lang/Object";
    }

    private Header header(String internalName) {
        if (internalName.equals("java/lang/Object")) return new Header(null, false);
        return cache.computeIfAbsent(internalName, n -> {
            try {
                byte[] b = bytes.apply(n);
                if (b == null) return UNKNOWN;
                ClassReader r = new ClassReader(b);
                String sup = r.getSuperName();
                return new Header(sup, (r.getAccess() & Opcodes.ACC_INTERFACE) != 0);
            } catch (RuntimeException e) {
                return UNKNOWN;
            }
        });
    }

    /** Reads class bytes as resources of a class loader (null = the boot/system loader). */
    static Function<String, byte[]> fromLoader(ClassLoader loader) {
        return name -> {
            String res = name + ".class";
            try (var in = loader != null ? loader.getResourceAsStream(res) : ClassLoader.getSystemResourceAsStream(res)) {
                return in == null ? null : in.readAllBytes();
            } catch (java.io.IOException e) {
                return null;
            }
        };
    }
}
