package org.hyprof.bb.jni;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/**
 * The native methods of a test-only twin of an app class (same name and JNI signatures as the
 * real one, whose library runs unmodified): probe ids as a manifest would number them, and calls
 * through a {@link HybridRuntime} by method name.
 */
final class Twin {
    /** Probe id → {@code class\tname\tdescriptor}, what HybridRuntime's methodKeys answer. */
    final Map<Integer, String> keys = new HashMap<>();
    private final Map<String, Integer> ids = new HashMap<>();

    Twin(Class<?> k) {
        this(k, 100);
    }

    /** Probe ids from {@code firstId}: twins of several classes in one runtime take disjoint ranges. */
    Twin(Class<?> k, int firstId) {
        int id = firstId;
        for (Method m : k.getDeclaredMethods()) {
            if (!Modifier.isNative(m.getModifiers())) continue;
            keys.put(id, k.getName() + "\t" + m.getName() + "\t" + JniEnv.descriptor(m.getParameterTypes(), m.getReturnType()));
            ids.put(m.getName(), id++);
        }
    }

    /** Calls native method {@code method} (names are unique in a twin): {@code self} the instance, or the class for a static one. */
    Object call(HybridRuntime h, Object self, String method, Object... args) throws Throwable {
        return h.invoke(ids.get(method), self, args);
    }
}
