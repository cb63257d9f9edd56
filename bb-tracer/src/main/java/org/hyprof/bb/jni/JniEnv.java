package org.hyprof.bb.jni;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
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

    private final Emulator emu;
    private final Backend cpu;
    private final boolean w64;
    private final List<Executable> methods = new ArrayList<>();
    private final List<Field> fields = new ArrayList<>();
    private final Set<String> supported = new HashSet<>();
    private static final long METHOD_BASE = 0x100000, FIELD_BASE = 0x200000;

    JniEnv(Emulator emu, ClassLoader loader) {
        this.emu = emu;
        this.cpu = emu.cpu;
        this.w64 = cpu.arch() == Backend.Arch.ARM64;
        this.loader = loader;
        envPtr = functionTable(JniFunctions.ENV, "JNIEnv.");
        vmPtr = functionTable(JniFunctions.VM, "JavaVM.");
        register();
        for (String n : JniFunctions.ENV)
            if (!n.startsWith("reserved") && !supported.contains(n))
                emu.stubs.register("JNIEnv." + n, c -> { throw new NativeException("unsupported JNI function " + n + " (called by native code)"); });
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

    private void on(String name, Stubs.Handler h) {
        supported.add(name);
        emu.stubs.register("JNIEnv." + name, c -> {
            c.args.nextInt(); // JNIEnv*
            h.call(c);
        });
    }

    // ------------------------------------------------------------------ handlers

    private void register() {
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
        // exceptions
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
        // methods and fields
        on("GetMethodID", c -> c.returnInt(methodId(cls(c.args.nextInt()), c.cString(c.args.nextInt()), c.cString(c.args.nextInt()), false)));
        on("GetStaticMethodID", c -> c.returnInt(methodId(cls(c.args.nextInt()), c.cString(c.args.nextInt()), c.cString(c.args.nextInt()), true)));
        on("GetFieldID", c -> c.returnInt(fieldId(cls(c.args.nextInt()), c.cString(c.args.nextInt()), c.cString(c.args.nextInt()), false)));
        on("GetStaticFieldID", c -> c.returnInt(fieldId(cls(c.args.nextInt()), c.cString(c.args.nextInt()), c.cString(c.args.nextInt()), true)));
        for (String t : new String[] {"Object", "Boolean", "Byte", "Char", "Short", "Int", "Long", "Float", "Double", "Void"}) {
            for (String form : new String[] {"", "V", "A"}) {
                on("Call" + t + "Method" + form, c -> {
                    Object target = obj(c.args.nextInt());
                    Executable m = method(c.args.nextInt());
                    result(c, m, call(m, target, args(c, m, form)));
                });
                on("CallNonvirtual" + t + "Method" + form, c -> {
                    Object target = obj(c.args.nextInt());
                    c.args.nextInt(); // the class: reflection dispatches on the object (see README)
                    Executable m = method(c.args.nextInt());
                    result(c, m, call(m, target, args(c, m, form)));
                });
                on("CallStatic" + t + "Method" + form, c -> {
                    c.args.nextInt(); // the class
                    Executable m = method(c.args.nextInt());
                    result(c, m, call(m, null, args(c, m, form)));
                });
            }
        }
        for (String form : new String[] {"", "V", "A"}) {
            on("NewObject" + form, c -> {
                c.args.nextInt();
                Executable m = method(c.args.nextInt());
                c.returnInt(refs.local(call(m, null, args(c, m, form))));
            });
        }
        for (String t : new String[] {"Object", "Boolean", "Byte", "Char", "Short", "Int", "Long", "Float", "Double"}) {
            on("Get" + t + "Field", c -> {
                Object o = obj(c.args.nextInt());
                Field f = field(c.args.nextInt());
                returnValue(c, f.getType(), get(f, o));
            });
            on("GetStatic" + t + "Field", c -> {
                c.args.nextInt();
                Field f = field(c.args.nextInt());
                returnValue(c, f.getType(), get(f, null));
            });
            on("Set" + t + "Field", c -> {
                Object o = obj(c.args.nextInt());
                Field f = field(c.args.nextInt());
                set(f, o, readArg(c.args, f.getType(), false));
            });
            on("SetStatic" + t + "Field", c -> {
                c.args.nextInt();
                Field f = field(c.args.nextInt());
                set(f, null, readArg(c.args, f.getType(), false));
            });
        }
        // strings
        on("NewStringUTF", c -> c.returnInt(refs.local(c.cString(c.args.nextInt()))));
        on("NewString", c -> {
            long p = c.args.nextInt();
            int n = (int) c.args.nextInt();
            ByteBuffer b = ByteBuffer.wrap(cpu.read(p, n * 2)).order(ByteOrder.LITTLE_ENDIAN);
            char[] cs = new char[n];
            for (int i = 0; i < n; i++) cs[i] = b.getChar();
            c.returnInt(refs.local(new String(cs)));
        });
        on("GetStringLength", c -> c.returnInt(((String) obj(c.args.nextInt())).length()));
        on("GetStringUTFLength", c -> c.returnInt(mutf8((String) obj(c.args.nextInt())).length));
        on("GetStringUTFChars", c -> {
            String s = (String) obj(c.args.nextInt());
            long isCopy = c.args.nextInt();
            byte[] b = mutf8(s);
            long p = emu.heap.malloc(b.length + 1);
            cpu.write(p, java.util.Arrays.copyOf(b, b.length + 1));
            if (isCopy != 0) cpu.write(isCopy, new byte[] {1});
            c.returnInt(p);
        });
        on("ReleaseStringUTFChars", c -> { c.args.nextInt(); emu.heap.free(c.args.nextInt()); });
        Stubs.Handler getChars = c -> {
            String s = (String) obj(c.args.nextInt());
            long isCopy = c.args.nextInt();
            ByteBuffer b = ByteBuffer.allocate(s.length() * 2 + 2).order(ByteOrder.LITTLE_ENDIAN);
            for (char ch : s.toCharArray()) b.putChar(ch);
            long p = emu.heap.malloc(b.capacity());
            cpu.write(p, b.array());
            if (isCopy != 0) cpu.write(isCopy, new byte[] {1});
            c.returnInt(p);
        };
        on("GetStringChars", getChars);
        on("GetStringCritical", getChars);
        on("ReleaseStringChars", c -> { c.args.nextInt(); emu.heap.free(c.args.nextInt()); });
        on("ReleaseStringCritical", c -> { c.args.nextInt(); emu.heap.free(c.args.nextInt()); });
        on("GetStringRegion", c -> {
            String s = (String) obj(c.args.nextInt());
            int start = (int) c.args.nextInt(), len = (int) c.args.nextInt();
            long buf = c.args.nextInt();
            ByteBuffer b = ByteBuffer.allocate(len * 2).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < len; i++) b.putChar(s.charAt(start + i));
            cpu.write(buf, b.array());
        });
        on("GetStringUTFRegion", c -> {
            String s = (String) obj(c.args.nextInt());
            int start = (int) c.args.nextInt(), len = (int) c.args.nextInt();
            long buf = c.args.nextInt();
            byte[] b = mutf8(s.substring(start, start + len));
            cpu.write(buf, java.util.Arrays.copyOf(b, b.length + 1));
        });
        // arrays
        on("GetArrayLength", c -> c.returnInt(Array.getLength(obj(c.args.nextInt()))));
        on("NewObjectArray", c -> {
            int n = (int) c.args.nextInt();
            Class<?> k = cls(c.args.nextInt());
            Object init = obj(c.args.nextInt());
            Object[] a = (Object[]) Array.newInstance(k, n);
            java.util.Arrays.fill(a, init);
            c.returnInt(refs.local(a));
        });
        on("GetObjectArrayElement", c -> c.returnInt(refs.local(((Object[]) obj(c.args.nextInt()))[(int) c.args.nextInt()])));
        on("SetObjectArrayElement", c -> {
            Object[] a = (Object[]) obj(c.args.nextInt());
            int i = (int) c.args.nextInt();
            a[i] = obj(c.args.nextInt());
        });
        Class<?>[] prims = {boolean.class, byte.class, char.class, short.class, int.class, long.class, float.class, double.class};
        String[] names = {"Boolean", "Byte", "Char", "Short", "Int", "Long", "Float", "Double"};
        for (int k = 0; k < prims.length; k++) {
            Class<?> type = prims[k];
            String n = names[k];
            on("New" + n + "Array", c -> c.returnInt(refs.local(Array.newInstance(type, (int) c.args.nextInt()))));
            Stubs.Handler getElements = c -> {
                Object a = obj(c.args.nextInt());
                long isCopy = c.args.nextInt();
                byte[] b = toBytes(a, 0, Array.getLength(a));
                long p = emu.heap.malloc(Math.max(1, b.length));
                if (b.length > 0) cpu.write(p, b);
                if (isCopy != 0) cpu.write(isCopy, new byte[] {1});
                c.returnInt(p);
            };
            Stubs.Handler releaseElements = c -> {
                Object a = obj(c.args.nextInt());
                long p = c.args.nextInt();
                int mode = (int) c.args.nextInt();
                int len = Array.getLength(a);
                if (mode != 2 && len > 0) fromBytes(a, 0, len, cpu.read(p, len * width(type))); // 0 and JNI_COMMIT copy back
                if (mode != 1) emu.heap.free(p);                                                  // 0 and JNI_ABORT free
            };
            on("Get" + n + "ArrayElements", getElements);
            on("Release" + n + "ArrayElements", releaseElements);
            on("Get" + n + "ArrayRegion", c -> {
                Object a = obj(c.args.nextInt());
                int start = (int) c.args.nextInt(), len = (int) c.args.nextInt();
                long buf = c.args.nextInt();
                checkRange(a, start, len);
                if (len > 0) cpu.write(buf, toBytes(a, start, len));
            });
            on("Set" + n + "ArrayRegion", c -> {
                Object a = obj(c.args.nextInt());
                int start = (int) c.args.nextInt(), len = (int) c.args.nextInt();
                long buf = c.args.nextInt();
                checkRange(a, start, len);
                if (len > 0) fromBytes(a, start, len, cpu.read(buf, len * width(type)));
            });
        }
        on("GetPrimitiveArrayCritical", c -> {
            Object a = obj(c.args.nextInt());
            long isCopy = c.args.nextInt();
            byte[] b = toBytes(a, 0, Array.getLength(a));
            long p = emu.heap.malloc(Math.max(1, b.length));
            if (b.length > 0) cpu.write(p, b);
            if (isCopy != 0) cpu.write(isCopy, new byte[] {1});
            c.returnInt(p);
        });
        on("ReleasePrimitiveArrayCritical", c -> {
            Object a = obj(c.args.nextInt());
            long p = c.args.nextInt();
            int mode = (int) c.args.nextInt();
            int len = Array.getLength(a);
            if (mode != 2 && len > 0) fromBytes(a, 0, len, cpu.read(p, len * width(a.getClass().getComponentType())));
            if (mode != 1) emu.heap.free(p);
        });
        // natives and the VM
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

    // ------------------------------------------------------------------ helpers

    Object obj(long handle) {
        return refs.get(handle);
    }

    private Class<?> cls(long handle) {
        Object o = refs.get(handle);
        if (!(o instanceof Class<?> k)) throw new NativeException("JNI: expected a class reference, got " + (o == null ? "null" : o.getClass().getName()));
        return k;
    }

    private long methodId(Class<?> k, String name, String sig, boolean isStatic) {
        Executable found = null;
        if (name.equals("<init>")) {
            for (Constructor<?> c : k.getDeclaredConstructors()) if (descriptor(c.getParameterTypes(), void.class).equals(sig)) found = c;
        } else {
            for (Class<?> t = k; t != null && found == null; t = t.getSuperclass())
                for (Method m : t.getDeclaredMethods())
                    if (m.getName().equals(name) && descriptor(m.getParameterTypes(), m.getReturnType()).equals(sig)
                            && Modifier.isStatic(m.getModifiers()) == isStatic) found = m;
            if (found == null) for (Class<?> i : k.getInterfaces()) for (Method m : i.getMethods())
                if (m.getName().equals(name) && descriptor(m.getParameterTypes(), m.getReturnType()).equals(sig)) found = m;
        }
        if (found == null) {
            pending = new NoSuchMethodError(k.getName() + "." + name + sig);
            return 0;
        }
        found.setAccessible(true);
        methods.add(found);
        return METHOD_BASE + (methods.size() - 1) * 8L;
    }

    private long fieldId(Class<?> k, String name, String sig, boolean isStatic) {
        for (Class<?> t = k; t != null; t = t.getSuperclass()) {
            for (Field f : t.getDeclaredFields()) {
                if (f.getName().equals(name) && descriptor(f.getType()).equals(sig) && Modifier.isStatic(f.getModifiers()) == isStatic) {
                    f.setAccessible(true);
                    fields.add(f);
                    return FIELD_BASE + (fields.size() - 1) * 8L;
                }
            }
        }
        pending = new NoSuchFieldError(k.getName() + "." + name);
        return 0;
    }

    private Executable method(long id) {
        int i = (int) ((id - METHOD_BASE) / 8);
        if (id < METHOD_BASE || i >= methods.size()) throw new NativeException("JNI: invalid method ID 0x" + Long.toHexString(id));
        return methods.get(i);
    }

    private Field field(long id) {
        int i = (int) ((id - FIELD_BASE) / 8);
        if (id < FIELD_BASE || i >= fields.size()) throw new NativeException("JNI: invalid field ID 0x" + Long.toHexString(id));
        return fields.get(i);
    }

    /** Reads a call's Java arguments: from the C varargs ("" form), a va_list (V) or a jvalue array (A). */
    private Object[] args(Stubs.Context c, Executable m, String form) {
        Class<?>[] types = m.getParameterTypes();
        Object[] out = new Object[types.length];
        switch (form) {
            case "" -> { for (int i = 0; i < types.length; i++) out[i] = readArg(c.args, types[i], true); }
            case "A" -> {
                long p = c.args.nextInt();
                for (int i = 0; i < types.length; i++) {
                    ByteBuffer b = ByteBuffer.wrap(cpu.read(p + 8L * i, 8)).order(ByteOrder.LITTLE_ENDIAN);
                    out[i] = fromJvalue(types[i], b.getLong());
                }
            }
            default -> {
                VaList va = new VaList(c.args.nextInt());
                for (int i = 0; i < types.length; i++) out[i] = va.next(types[i]);
            }
        }
        return out;
    }

    private Object readArg(Abi.Reader r, Class<?> t, boolean variadic) {
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

    private Object fromJvalue(Class<?> t, long bits) {
        if (t == long.class) return bits;
        if (t == double.class) return Double.longBitsToDouble(bits);
        if (t == float.class) return Float.intBitsToFloat((int) bits);
        return fromInt(t, w64 ? bits : bits & 0xffffffffL);
    }

    /** Walks a C va_list: a pointer into the stack on ARM; AAPCS64's register save areas on AArch64. */
    private final class VaList {
        long stack, grTop, vrTop;
        int grOffs, vrOffs;

        VaList(long p) {
            if (!w64) { stack = p; return; }
            ByteBuffer b = ByteBuffer.wrap(cpu.read(p, 32)).order(ByteOrder.LITTLE_ENDIAN);
            stack = b.getLong();
            grTop = b.getLong();
            vrTop = b.getLong();
            grOffs = b.getInt();
            vrOffs = b.getInt();
        }

        Object next(Class<?> t) {
            boolean fp = t == double.class || t == float.class;
            long bits;
            if (!w64) {
                int size = t == long.class || fp ? 8 : 4; // float was promoted to double
                if (size == 8 && stack % 8 != 0) stack += 4;
                bits = word(stack, size);
                stack += size;
            } else if (fp) {
                if (vrOffs < 0) { bits = word(vrTop + vrOffs, 8); vrOffs += 16; }
                else { bits = word(stack, 8); stack += 8; }
            } else {
                if (grOffs < 0) { bits = word(grTop + grOffs, 8); grOffs += 8; }
                else { bits = word(stack, 8); stack += 8; }
            }
            if (t == float.class) return (float) Double.longBitsToDouble(bits);
            return fromJvalue(t, bits);
        }

        private long word(long a, int size) {
            ByteBuffer b = ByteBuffer.wrap(cpu.read(a, size)).order(ByteOrder.LITTLE_ENDIAN);
            return size == 8 ? b.getLong() : b.getInt();
        }
    }

    /** Calls back into Java (emulation pauses meanwhile). An exception becomes pending. */
    private Object call(Executable m, Object target, Object[] args) {
        if (javaCalls != null) javaCalls.enter();
        try {
            if (m instanceof Constructor<?> k) return k.newInstance(args);
            return ((Method) m).invoke(Modifier.isStatic(m.getModifiers()) ? null : target, args);
        } catch (InvocationTargetException e) {
            pending = e.getCause();
            return null;
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            pending = e;
            return null;
        } finally {
            if (javaCalls != null) javaCalls.exit();
        }
    }

    private void result(Stubs.Context c, Executable m, Object r) {
        if (m instanceof Method mm) returnValue(c, mm.getReturnType(), r);
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

    private static Object get(Field f, Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException e) {
            throw new NativeException("JNI: cannot read field " + f + ": " + e.getMessage());
        }
    }

    private static void set(Field f, Object o, Object v) {
        try {
            f.set(o, v);
        } catch (IllegalAccessException e) {
            throw new NativeException("JNI: cannot write field " + f + ": " + e.getMessage());
        }
    }

    private void checkRange(Object a, int start, int len) {
        if (start < 0 || len < 0 || start + len > Array.getLength(a))
            pending = new ArrayIndexOutOfBoundsException("region " + start + "+" + len + " of " + Array.getLength(a));
    }

    static int width(Class<?> t) {
        if (t == boolean.class || t == byte.class) return 1;
        if (t == char.class || t == short.class) return 2;
        if (t == int.class || t == float.class) return 4;
        return 8;
    }

    static byte[] toBytes(Object a, int start, int len) {
        Class<?> t = a.getClass().getComponentType();
        ByteBuffer b = ByteBuffer.allocate(len * width(t)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = start; i < start + len; i++) {
            if (t == boolean.class) b.put((byte) (Array.getBoolean(a, i) ? 1 : 0));
            else if (t == byte.class) b.put(Array.getByte(a, i));
            else if (t == char.class) b.putChar(Array.getChar(a, i));
            else if (t == short.class) b.putShort(Array.getShort(a, i));
            else if (t == int.class) b.putInt(Array.getInt(a, i));
            else if (t == float.class) b.putFloat(Array.getFloat(a, i));
            else if (t == long.class) b.putLong(Array.getLong(a, i));
            else b.putDouble(Array.getDouble(a, i));
        }
        return b.array();
    }

    static void fromBytes(Object a, int start, int len, byte[] bytes) {
        Class<?> t = a.getClass().getComponentType();
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = start; i < start + len; i++) {
            if (t == boolean.class) Array.setBoolean(a, i, b.get() != 0);
            else if (t == byte.class) Array.setByte(a, i, b.get());
            else if (t == char.class) Array.setChar(a, i, b.getChar());
            else if (t == short.class) Array.setShort(a, i, b.getShort());
            else if (t == int.class) Array.setInt(a, i, b.getInt());
            else if (t == float.class) Array.setFloat(a, i, b.getFloat());
            else if (t == long.class) Array.setLong(a, i, b.getLong());
            else Array.setDouble(a, i, b.getDouble());
        }
    }

    /** Modified UTF-8 (JNI's string encoding): NUL as two bytes, supplementary characters as surrogate pairs. */
    static byte[] mutf8(String s) {
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch != 0 && ch < 0x80) o.write(ch);
            else if (ch < 0x800) { o.write(0xc0 | (ch >> 6)); o.write(0x80 | (ch & 0x3f)); }
            else { o.write(0xe0 | (ch >> 12)); o.write(0x80 | ((ch >> 6) & 0x3f)); o.write(0x80 | (ch & 0x3f)); }
        }
        return o.toByteArray();
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

    @SuppressWarnings("unused")
    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
