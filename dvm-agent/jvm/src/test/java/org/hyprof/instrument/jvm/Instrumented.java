package org.hyprof.instrument.jvm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.instrument.ProbeIds;
import org.hyprof.instrument.ProbeSet;
import org.hyprof.runtime.Hyprof;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * A fixture class rewritten in one of the probe-site forms, checked by ASM's verifier, its probes
 * defined in a started runtime, and loaded in a class loader of its own.
 */
final class Instrumented {
    /** How the probe entries are emitted. */
    enum Sites {
        /** invokedynamic sites (the default for class files of Java 7 and later). */
        INDY,
        /** invokestatic Probe.begin/loopBegin, asked for ({@link ClassRewriter#staticSites}). */
        STATIC,
        /** The fixture's class file turned into version 50 (Java 6): static calls, no other choice. */
        VERSION_50
    }

    final Map<String, ProbeInfo> byName = new HashMap<>();
    final byte[] bytes;
    final Class<?> loaded;

    private Instrumented(byte[] bytes, Class<?> loaded) {
        this.bytes = bytes;
        this.loaded = loaded;
    }

    /** Rewrites and loads {@code className} (a class of the test class path); the runtime must be started. */
    static Instrumented load(String className, Sites sites) throws Exception {
        return load(className, sites, true);
    }

    /** {@link #load(String, Sites)}; {@code loopCode} false: loops listed, without their code ({@link ClassRewriter#loopCode}). */
    static Instrumented load(String className, Sites sites, boolean loopCode) throws Exception {
        byte[] original = classFile(className);
        if (sites == Sites.VERSION_50) {
            original = original.clone();
            original[6] = 0;  // major version, big-endian u2 at offset 6
            original[7] = 50;
        }
        ClassRewriter.Result r = ClassRewriter.forLoader(Instrumented.class.getClassLoader(), true)
                .staticSites(sites == Sites.STATIC).loopCode(loopCode)
                .rewrite(original, new ProbeIds()::next);
        ProbeSet set = new ProbeSet(new ProfilingConfig());
        set.defineInRuntime(r.probes(), r.skipped(), set.add(r.probes(), r.skipped()));
        assertTrue(r.skipped().isEmpty(), "nothing skipped: " + r.skipped());
        byte[] bytes = r.bytes();
        verify(bytes);
        checkSites(bytes, sites);
        ClassLoader loader = new ClassLoader(Instrumented.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.equals(className)) {
                    synchronized (this) {
                        Class<?> c = findLoadedClass(name);
                        return c != null ? c : defineClass(name, bytes, 0, bytes.length);
                    }
                }
                return super.loadClass(name, resolve);
            }
        };
        Instrumented i = new Instrumented(bytes, loader.loadClass(className));
        for (ProbeInfo p : r.probes()) i.byName.put(Instrumented.key(p), p);
        return i;
    }

    /** The class file of {@code className}, a class of the test class path. */
    /** Calls public method {@code name} of class c on target (null: static), throwing what it throws. */
    static Object call(Object target, Class<?> c, String name, Class<?>[] types, Object... args) throws Throwable {
        java.lang.reflect.Method m = c.getMethod(name, types);
        try {
            return m.invoke(target, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    static byte[] classFile(String className) throws java.io.IOException {
        try (InputStream in = Instrumented.class.getResourceAsStream("/" + className.replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    /** A fresh runtime for these tests: no calibration, no periodic snapshot during a test. */
    static void startRuntime() {
        Hyprof.reset();
        org.hyprof.runtime.Options o = new org.hyprof.runtime.Options();
        o.calibrate = false;
        o.snapshotMillis = 60_000;
        Hyprof.start(o);
    }

    /**
     * The name and descriptor a method of a rewritten class has in the original: an outlined
     * body's ({@link MethodRewriter#split}: static, the marker last, an instance method's receiver
     * first) is its wrapper's; any other method's is its own. {@code cn} is the rewritten class.
     */
    static String originalKey(ClassNode cn, MethodNode mn) {
        if (!mn.desc.contains(MethodRewriter.MARKER + ")")) return mn.name + mn.desc;
        String d = mn.desc.replace(MethodRewriter.MARKER + ")", ")");
        for (MethodNode w : cn.methods) // a static original has the body's descriptor less the marker
            if (w != mn && w.name.equals(mn.name) && w.desc.equals(d) && (w.access & Opcodes.ACC_STATIC) != 0) return w.name + w.desc;
        String receiver = "(L" + cn.name + ";";
        assertTrue(d.startsWith(receiver), "an instance method's body takes the receiver first: " + mn.desc);
        return mn.name + "(" + d.substring(receiver.length());
    }

    /** ASM's bytecode verifier (types, stack, definitely assigned locals) finds nothing. */
    static void verify(byte[] bytes) {
        StringWriter out = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(bytes), Instrumented.class.getClassLoader(), false, new PrintWriter(out));
        assertEquals("", out.toString(), "verifier output");
    }

    /** Only the token API is emitted, its entries in the form asked for. */
    static void checkSites(byte[] bytes, Sites sites) {
        ClassNode cn = new ClassNode();
        new ClassReader(bytes).accept(cn, 0);
        assertEquals(sites == Sites.VERSION_50 ? Opcodes.V1_6 : Opcodes.V17, cn.version & 0xFFFF, "class file version kept");
        int indy = 0, staticBegin = 0;
        for (MethodNode mn : cn.methods) {
            for (AbstractInsnNode i : mn.instructions) {
                if (i instanceof MethodInsnNode m && m.owner.equals(MethodRewriter.LOOPS)) {
                    assertTrue(java.util.Set.of("loopEnd", "loopsCounted").contains(m.name), "OutOfLineLoops." + m.name);
                    assertEquals(Sites.INDY, sites, "out-of-line loop ends go with invokedynamic entries");
                }
                if (i instanceof MethodInsnNode m && m.owner.equals(MethodRewriter.PROBE)) {
                    assertTrue(java.util.Set.of("begin", "loopBegin", "end", "endThrow", "loopEnd").contains(m.name),
                            "token API only, not Probe." + m.name);
                    if (m.name.endsWith("egin")) staticBegin++;
                }
                if (i instanceof InvokeDynamicInsnNode d
                        && (d.bsm.equals(MethodRewriter.SITES) || d.bsm.equals(MethodRewriter.PIECE_SITES))) indy++;
                if (i instanceof MethodInsnNode m && m.desc.contains(MethodRewriter.MARKER + ")"))
                    assertEquals(Sites.INDY, sites, "outlined bodies go with invokedynamic entries");
            }
        }
        if (sites == Sites.INDY) {
            assertEquals(0, staticBegin, "no static entries");
            assertTrue(indy > 0, "invokedynamic entries");
        } else {
            assertEquals(0, indy, "no invokedynamic entries");
            assertTrue(staticBegin > 0, "static entries");
        }
    }

    long stat(String name, int field) {
        ProbeInfo p = byName.get(name);
        assertNotNull(p, "no probe " + name + " in " + byName.keySet());
        return Hyprof.snapshot().total(p.id(), field);
    }

    int id(String name) {
        ProbeInfo p = byName.get(name);
        assertNotNull(p, "no probe " + name + " in " + byName.keySet());
        return p.id();
    }

    /**
     * A probe's key in these tests: its JVM identity, {@code pkg.C.m(desc)} or {@code …#loopK}
     * (the loop's index, stable where its source line is not), not its report name.
     */
    static String key(ProbeInfo p) {
        return p.loop() ? p.methodKey() + "#loop" + p.loopIndex() : p.methodKey();
    }
}
