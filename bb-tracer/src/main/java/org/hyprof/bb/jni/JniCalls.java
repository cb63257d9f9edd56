package org.hyprof.bb.jni;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.hyprof.bb.emu.Stubs;

/**
 * Native code calling Java: Call[Nonvirtual|Static]*Method in the C-varargs, V (va_list) and A
 * (jvalue array) forms, and NewObject. Each call goes back into Java (emulation pauses; Java →
 * native → Java nests and the callee is profiled); an exception becomes the pending one.
 */
final class JniCalls {
    private final JniEnv env;

    JniCalls(JniEnv env) {
        this.env = env;
    }

    void register() {
        for (String t : new String[] {"Object", "Boolean", "Byte", "Char", "Short", "Int", "Long", "Float", "Double", "Void"}) {
            for (String form : new String[] {"", "V", "A"}) {
                env.on("Call" + t + "Method" + form, c -> {
                    Object target = env.obj(c.args.nextInt());
                    Executable m = env.members.method(c.args.nextInt());
                    result(c, m, call(m, target, args(c, m, form)));
                });
                env.on("CallNonvirtual" + t + "Method" + form, c -> {
                    Object target = env.obj(c.args.nextInt());
                    c.args.nextInt(); // the class: reflection dispatches on the object (see README)
                    Executable m = env.members.method(c.args.nextInt());
                    result(c, m, call(m, target, args(c, m, form)));
                });
                env.on("CallStatic" + t + "Method" + form, c -> {
                    c.args.nextInt(); // the class
                    Executable m = env.members.method(c.args.nextInt());
                    result(c, m, call(m, null, args(c, m, form)));
                });
            }
        }
        for (String form : new String[] {"", "V", "A"}) {
            env.on("NewObject" + form, c -> {
                c.args.nextInt();
                Executable m = env.members.method(c.args.nextInt());
                c.returnInt(env.refs.local(call(m, null, args(c, m, form))));
            });
        }
    }

    /** Reads a call's Java arguments: from the C varargs ("" form), a va_list (V) or a jvalue array (A). */
    private Object[] args(Stubs.Context c, Executable m, String form) {
        Class<?>[] types = m.getParameterTypes();
        Object[] out = new Object[types.length];
        switch (form) {
            case "" -> { for (int i = 0; i < types.length; i++) out[i] = env.readArg(c.args, types[i], true); }
            case "A" -> {
                long p = c.args.nextInt();
                for (int i = 0; i < types.length; i++) {
                    ByteBuffer b = ByteBuffer.wrap(env.cpu.read(p + 8L * i, 8)).order(ByteOrder.LITTLE_ENDIAN);
                    out[i] = env.fromJvalue(types[i], b.getLong());
                }
            }
            default -> {
                VaList va = new VaList(c.args.nextInt());
                for (int i = 0; i < types.length; i++) out[i] = va.next(types[i]);
            }
        }
        return out;
    }

    /** Walks a C va_list: a pointer into the stack on ARM; AAPCS64's register save areas on AArch64. */
    private final class VaList {
        long stack, grTop, vrTop;
        int grOffs, vrOffs;

        VaList(long p) {
            if (!env.w64) { stack = p; return; }
            ByteBuffer b = ByteBuffer.wrap(env.cpu.read(p, 32)).order(ByteOrder.LITTLE_ENDIAN);
            stack = b.getLong();
            grTop = b.getLong();
            vrTop = b.getLong();
            grOffs = b.getInt();
            vrOffs = b.getInt();
        }

        Object next(Class<?> t) {
            boolean fp = t == double.class || t == float.class;
            long bits;
            if (!env.w64) {
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
            return env.fromJvalue(t, bits);
        }

        private long word(long a, int size) {
            ByteBuffer b = ByteBuffer.wrap(env.cpu.read(a, size)).order(ByteOrder.LITTLE_ENDIAN);
            return size == 8 ? b.getLong() : b.getInt();
        }
    }

    /** Calls back into Java (emulation pauses meanwhile). An exception becomes pending. */
    private Object call(Executable m, Object target, Object[] args) {
        if (env.javaCalls != null) env.javaCalls.enter();
        try {
            if (m instanceof Constructor<?> k) return k.newInstance(args);
            return ((Method) m).invoke(Modifier.isStatic(m.getModifiers()) ? null : target, args);
        } catch (InvocationTargetException e) {
            env.pending = e.getCause();
            return null;
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            env.pending = e;
            return null;
        } finally {
            if (env.javaCalls != null) env.javaCalls.exit();
        }
    }

    private void result(Stubs.Context c, Executable m, Object r) {
        if (m instanceof Method mm) env.returnValue(c, mm.getReturnType(), r);
    }
}
