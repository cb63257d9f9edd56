package org.hyprof.bb.jni;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.hyprof.bb.NativeException;

/**
 * JNI's method and field IDs (looked up by name and descriptor with reflection, handed to native
 * code as small numbers) and the field functions (Get/Set[Static]*Field).
 */
final class JniMembers {
    private static final long METHOD_BASE = 0x100000, FIELD_BASE = 0x200000;

    private final JniEnv env;
    private final List<Executable> methods = new ArrayList<>();
    private final List<Field> fields = new ArrayList<>();

    JniMembers(JniEnv env) {
        this.env = env;
    }

    void register() {
        env.on("GetMethodID", c -> c.returnInt(methodId(env.cls(c.args.nextInt()), c.cString(c.args.nextInt()), c.cString(c.args.nextInt()), false)));
        env.on("GetStaticMethodID", c -> c.returnInt(methodId(env.cls(c.args.nextInt()), c.cString(c.args.nextInt()), c.cString(c.args.nextInt()), true)));
        env.on("GetFieldID", c -> c.returnInt(fieldId(env.cls(c.args.nextInt()), c.cString(c.args.nextInt()), c.cString(c.args.nextInt()), false)));
        env.on("GetStaticFieldID", c -> c.returnInt(fieldId(env.cls(c.args.nextInt()), c.cString(c.args.nextInt()), c.cString(c.args.nextInt()), true)));
        for (String t : new String[] {"Object", "Boolean", "Byte", "Char", "Short", "Int", "Long", "Float", "Double"}) {
            env.on("Get" + t + "Field", c -> {
                Object o = env.obj(c.args.nextInt());
                Field f = field(c.args.nextInt());
                env.returnValue(c, f.getType(), get(f, o));
            });
            env.on("GetStatic" + t + "Field", c -> {
                c.args.nextInt();
                Field f = field(c.args.nextInt());
                env.returnValue(c, f.getType(), get(f, null));
            });
            env.on("Set" + t + "Field", c -> {
                Object o = env.obj(c.args.nextInt());
                Field f = field(c.args.nextInt());
                set(f, o, env.readArg(c.args, f.getType(), false));
            });
            env.on("SetStatic" + t + "Field", c -> {
                c.args.nextInt();
                Field f = field(c.args.nextInt());
                set(f, null, env.readArg(c.args, f.getType(), false));
            });
        }
    }

    private long methodId(Class<?> k, String name, String sig, boolean isStatic) {
        Executable found = null;
        if (name.equals("<init>")) {
            for (Constructor<?> c : k.getDeclaredConstructors()) if (JniEnv.descriptor(c.getParameterTypes(), void.class).equals(sig)) found = c;
        } else {
            for (Class<?> t = k; t != null && found == null; t = t.getSuperclass())
                for (Method m : t.getDeclaredMethods())
                    if (m.getName().equals(name) && JniEnv.descriptor(m.getParameterTypes(), m.getReturnType()).equals(sig)
                            && Modifier.isStatic(m.getModifiers()) == isStatic) found = m;
            if (found == null) for (Class<?> i : k.getInterfaces()) for (Method m : i.getMethods())
                if (m.getName().equals(name) && JniEnv.descriptor(m.getParameterTypes(), m.getReturnType()).equals(sig)) found = m;
        }
        if (found == null) {
            env.pending = new NoSuchMethodError(k.getName() + "." + name + sig);
            return 0;
        }
        found.setAccessible(true);
        methods.add(found);
        return METHOD_BASE + (methods.size() - 1) * 8L;
    }

    private long fieldId(Class<?> k, String name, String sig, boolean isStatic) {
        for (Class<?> t = k; t != null; t = t.getSuperclass()) {
            for (Field f : t.getDeclaredFields()) {
                if (f.getName().equals(name) && JniEnv.descriptor(f.getType()).equals(sig) && Modifier.isStatic(f.getModifiers()) == isStatic) {
                    f.setAccessible(true);
                    fields.add(f);
                    return FIELD_BASE + (fields.size() - 1) * 8L;
                }
            }
        }
        env.pending = new NoSuchFieldError(k.getName() + "." + name);
        return 0;
    }

    /** The method or constructor a method ID names. */
    Executable method(long id) {
        int i = (int) ((id - METHOD_BASE) / 8);
        if (id < METHOD_BASE || i >= methods.size()) throw new NativeException("JNI: invalid method ID 0x" + Long.toHexString(id));
        return methods.get(i);
    }

    private Field field(long id) {
        int i = (int) ((id - FIELD_BASE) / 8);
        if (id < FIELD_BASE || i >= fields.size()) throw new NativeException("JNI: invalid field ID 0x" + Long.toHexString(id));
        return fields.get(i);
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
}
