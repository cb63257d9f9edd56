package org.hyprof.bb.jni;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.hyprof.bb.NativeException;
import org.hyprof.bb.emu.Abi;
import org.hyprof.bb.emu.Backend;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Stubs;

/**
 * JNIEnv and JavaVM for native code in the emulator: both function tables live in emulated memory
 * and every slot points at a stub whose Java handler does the work with reflection on the real
 * objects. Covered: class/method/field lookup, Call*Method (…, V and A forms; back into Java, so
 * Java → native → Java nests and the callee is profiled), NewObject, field get/set, arrays
 * (elements, regions, critical), strings (modified UTF-8 and UTF-16), local/global references,
 * exceptions, RegisterNatives, GetJavaVM/GetEnv. Anything else is an "unsupported JNI function"
 * error naming it, when called.
 *
 * <p>The handlers come in families, each registered by its own class or method: method and field
 * IDs and fields ({@link JniMembers}), calls into Java ({@link JniCalls}), arrays
 * ({@link JniArrays}), strings ({@link JniStrings}); classes and references, exceptions, and
 * RegisterNatives with the JavaVM functions here. This class keeps what they share: the state of
 * the current native call and the conversion of values between the two sides.
 */
final class JniEnv {
    /** Told when native code calls into Java and when that call returns (emulation pauses). */
    interface JavaCalls {
        void enter();

        void exit();
    }

    /** The exception native code raised (or a Java callback threw) in the current native call. */
    Throwable pending;
    /** Class loader for FindClass: that of the class whose native method is running (JNI's rule). */
    ClassLoader loader;
    JavaCalls javaCalls;
    final Refs refs = new Refs();
    final long envPtr, vmPtr;
    /** (class, name, signature) → native function address, from RegisterNatives. */
    final Map<String, Long> registered = new HashMap<>();

    final Emulator emu;
    final Backend cpu;
    final boolean w64;
    final JniMembers members = new JniMembers(this);
    private final Set<String> supported = new HashSet<>();

    JniEnv(Emulator emu, ClassLoader loader) {
        this.emu = emu;
        this.cpu = emu.cpu;
        this.w64 = cpu.arch() == Backend.Arch.ARM64;
        this.loader = loader;
        envPtr = functionTable(JniFunctions.ENV, "JNIEnv.");
        vmPtr = functionTable(JniFunctions.VM, "JavaVM.");
        registerClassesAndReferences();
        registerExceptions();
        members.register();
        new JniCalls(this).register();
        JniStrings.register(this);
        JniArrays.register(this);
        registerNativesAndVm();
        for (String n : JniFunctions.ENV)
            if (!n.startsWith("reserved") && !supported.contains(n))
                emu.stubs.register("JNIEnv." + n, c -> { throw new NativeException("unsupported JNI function " + n + " (called by " + emu.modules.get(0).name() + ")"); });
    }

    /**
     * A function table in emulated memory (a slot per function, each pointing at its stub; the
     * reserved slots NULL) and a pointer to it: what JNIEnv* and JavaVM* point at.
     */
    private long functionTable(java.util.List<String> names, String prefix) {
        int word = w64 ? 8 : 4;
        long table = emu.heap.malloc((long) names.size() * word);
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            emu.writeWord(table + (long) i * word, name.startsWith("reserved") ? 0 : emu.stubs.resolve(prefix + name));
        }
        long ptr = emu.heap.malloc(word);
        emu.writeWord(ptr, table);
        return ptr;
    }

    /** Registers the handler of JNIEnv function {@code name} (it sees the arguments after JNIEnv*). */
    void on(String name, Stubs.Handler h) {
        supported.add(name);
        emu.stubs.register("JNIEnv." + name, c -> {
            c.args.nextInt(); // JNIEnv*
            h.call(c);
        });
    }

    // ------------------------------------------------------------------ handlers

    private void registerClassesAndReferences() {
        on("GetVersion", c -> c.returnInt(0x00010006));
        on("FindClass", c -> {
            String n = c.cString(c.args.nextInt()).replace('/', '.');
            try {
                c.returnInt(refs.local(Class.forName(n, false, loader)));
            } catch (ClassNotFoundException e) {
                pending = new NoClassDefFoundError(n.replace('.', '/'));
                c.returnInt(0);
            }
        });
        on("GetObjectClass", c -> c.returnInt(refs.local(obj(c.args.nextInt()).getClass())));
        on("GetSuperclass", c -> c.returnInt(refs.local(cls(c.args.nextInt()).getSuperclass())));
        on("IsAssignableFrom", c -> c.returnInt(cls(c.args.nextInt()) != null && cls(c.cpu.gpr(2)).isAssignableFrom(cls(c.cpu.gpr(1))) ? 1 : 0));
        on("IsInstanceOf", c -> {
            Object o = obj(c.args.nextInt());
            Class<?> k = cls(c.args.nextInt());
            c.returnInt(o == null || k.isInstance(o) ? 1 : 0);
        });
        on("IsSameObject", c -> c.returnInt(obj(c.args.nextInt()) == obj(c.args.nextInt()) ? 1 : 0));
        on("NewGlobalRef", c -> c.returnInt(refs.global(obj(c.args.nextInt()))));
        on("NewWeakGlobalRef", c -> c.returnInt(refs.global(obj(c.args.nextInt()))));
        on("DeleteGlobalRef", c -> refs.delete(c.args.nextInt()));
        on("DeleteWeakGlobalRef", c -> refs.delete(c.args.nextInt()));
        on("DeleteLocalRef", c -> refs.delete(c.args.nextInt()));
        on("NewLocalRef", c -> c.returnInt(refs.local(obj(c.args.nextInt()))));
        on("EnsureLocalCapacity", c -> c.returnInt(0));
        on("PushLocalFrame", c -> c.returnInt(0));
        on("PopLocalFrame", c -> c.returnInt(c.args.nextInt()));
        on("GetObjectRefType", c -> c.returnInt(refs.kind(c.args.nextInt())));
    }

    private void registerExceptions() {
        on("Throw", c -> { pending = (Throwable) obj(c.args.nextInt()); c.returnInt(0); });
        on("ThrowNew", c -> {
            Class<?> k = cls(c.args.nextInt());
            String msg = c.cString(c.args.nextInt());
            try {
                pending = (Throwable) k.getConstructor(String.class).newInstance(msg);
            } catch (ReflectiveOperationException e) {
                pending = new RuntimeException(k.getName() + ": " + msg);
            }
            c.returnInt(0);
        });
        on("ExceptionCheck", c -> c.returnInt(pending != null ? 1 : 0));
        on("ExceptionOccurred", c -> c.returnInt(refs.local(pending)));
        on("ExceptionClear", c -> pending = null);
        on("ExceptionDescribe", c -> { if (pending != null) System.err.println("native exception: " + pending); });
        on("FatalError", c -> { throw new NativeException("native code called FatalError: " + c.cString(c.args.nextInt())); });
    }

    private void registerNativesAndVm() {
        on("RegisterNatives", c -> {
            Class<?> k = cls(c.args.nextInt());
            long p = c.args.nextInt();
            int n = (int) c.args.nextInt();
            int word = w64 ? 8 : 4;
            for (int i = 0; i < n; i++) {
                long e = p + (long) i * 3 * word;
                String name = c.cString(emu.readWord(e)), sig = c.cString(emu.readWord(e + word));
                registered.put(k.getName() + "." + name + sig, emu.readWord(e + 2L * word));
            }
            c.returnInt(0);
        });
        on("UnregisterNatives", c -> {
            String prefix = cls(c.args.nextInt()).getName() + ".";
            registered.keySet().removeIf(k -> k.startsWith(prefix));
            c.returnInt(0);
        });
        on("GetJavaVM", c -> { emu.writeWord(c.args.nextInt(), vmPtr); c.returnInt(0); });
        emu.stubs.register("JavaVM.GetEnv", c -> { c.args.nextInt(); emu.writeWord(c.args.nextInt(), envPtr); c.returnInt(0); });
        emu.stubs.register("JavaVM.AttachCurrentThread", c -> { c.args.nextInt(); emu.writeWord(c.args.nextInt(), envPtr); c.returnInt(0); });
        emu.stubs.register("JavaVM.AttachCurrentThreadAsDaemon", c -> { c.args.nextInt(); emu.writeWord(c.args.nextInt(), envPtr); c.returnInt(0); });
        emu.stubs.register("JavaVM.DetachCurrentThread", c -> c.returnInt(0));
        emu.stubs.register("JavaVM.DestroyJavaVM", c -> c.returnInt(-1));
    }

    // ------------------------------------------------------------------ values between native code and Java

    Object obj(long handle) {
        return refs.get(handle);
    }

    Class<?> cls(long handle) {
        Object o = refs.get(handle);
        if (!(o instanceof Class<?> k)) throw new NativeException("JNI: expected a class reference, got " + (o == null ? "null" : o.getClass().getName()));
        return k;
    }

    /** The next argument of a native call as a Java value of type {@code t}. */
    Object readArg(Abi.Reader r, Class<?> t, boolean variadic) {
        if (t == long.class) return r.nextLong();
        if (t == double.class) return r.nextDouble();
        if (t == float.class) return variadic ? (float) r.nextDouble() : r.nextFloat(); // float promotes to double in varargs
        long v = r.nextInt();
        return fromInt(t, v);
    }

    private Object fromInt(Class<?> t, long v) {
        if (t == int.class) return (int) v;
        if (t == boolean.class) return (v & 0xff) != 0;
        if (t == byte.class) return (byte) v;
        if (t == char.class) return (char) v;
        if (t == short.class) return (short) v;
        return obj(w64 ? v : v & 0xffffffffL);
    }

    /** A jvalue's 64 bits as a Java value of type {@code t}. */
    Object fromJvalue(Class<?> t, long bits) {
        if (t == long.class) return bits;
        if (t == double.class) return Double.longBitsToDouble(bits);
        if (t == float.class) return Float.intBitsToFloat((int) bits);
        return fromInt(t, w64 ? bits : bits & 0xffffffffL);
    }

    void returnValue(Stubs.Context c, Class<?> t, Object r) {
        if (t == void.class) return;
        if (t == long.class) c.returnLong(r == null ? 0 : (Long) r);
        else if (t == double.class) c.returnDouble(r == null ? 0 : (Double) r);
        else if (t == float.class) c.returnFloat(r == null ? 0 : (Float) r);
        else if (t == boolean.class) c.returnInt(r != null && (Boolean) r ? 1 : 0);
        else if (t == char.class) c.returnInt(r == null ? 0 : (Character) r);
        else if (t.isPrimitive()) c.returnInt(r == null ? 0 : ((Number) r).longValue());
        else c.returnInt(refs.local(r));
    }

    static String descriptor(Class<?>[] params, Class<?> ret) {
        StringBuilder b = new StringBuilder("(");
        for (Class<?> p : params) b.append(descriptor(p));
        return b.append(')').append(descriptor(ret)).toString();
    }

    static String descriptor(Class<?> t) {
        if (t == void.class) return "V";
        if (t == int.class) return "I";
        if (t == long.class) return "J";
        if (t == boolean.class) return "Z";
        if (t == byte.class) return "B";
        if (t == char.class) return "C";
        if (t == short.class) return "S";
        if (t == float.class) return "F";
        if (t == double.class) return "D";
        if (t.isArray()) return t.getName().replace('.', '/');
        return "L" + t.getName().replace('.', '/') + ";";
    }
}
