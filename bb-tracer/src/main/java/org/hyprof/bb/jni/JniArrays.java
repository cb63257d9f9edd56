package org.hyprof.bb.jni;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.hyprof.bb.emu.Stubs;

/**
 * JNI's array functions: lengths, object arrays element by element, primitive arrays as copies in
 * emulated memory (elements, regions, critical; copied back on release as the mode says).
 */
final class JniArrays {
    private JniArrays() {}

    static void register(JniEnv env) {
        env.on("GetArrayLength", c -> c.returnInt(Array.getLength(env.obj(c.args.nextInt()))));
        env.on("NewObjectArray", c -> {
            int n = (int) c.args.nextInt();
            Class<?> k = env.cls(c.args.nextInt());
            Object init = env.obj(c.args.nextInt());
            Object[] a = (Object[]) Array.newInstance(k, n);
            java.util.Arrays.fill(a, init);
            c.returnInt(env.refs.local(a));
        });
        env.on("GetObjectArrayElement", c -> c.returnInt(env.refs.local(((Object[]) env.obj(c.args.nextInt()))[(int) c.args.nextInt()])));
        env.on("SetObjectArrayElement", c -> {
            Object[] a = (Object[]) env.obj(c.args.nextInt());
            int i = (int) c.args.nextInt();
            a[i] = env.obj(c.args.nextInt());
        });
        Class<?>[] prims = {boolean.class, byte.class, char.class, short.class, int.class, long.class, float.class, double.class};
        String[] names = {"Boolean", "Byte", "Char", "Short", "Int", "Long", "Float", "Double"};
        for (int k = 0; k < prims.length; k++) {
            Class<?> type = prims[k];
            String n = names[k];
            env.on("New" + n + "Array", c -> c.returnInt(env.refs.local(Array.newInstance(type, (int) c.args.nextInt()))));
            Stubs.Handler getElements = c -> {
                Object a = env.obj(c.args.nextInt());
                long isCopy = c.args.nextInt();
                byte[] b = toBytes(a, 0, Array.getLength(a));
                long p = env.emu.heap.malloc(Math.max(1, b.length));
                if (b.length > 0) env.cpu.write(p, b);
                if (isCopy != 0) env.cpu.write(isCopy, new byte[] {1});
                c.returnInt(p);
            };
            Stubs.Handler releaseElements = c -> {
                Object a = env.obj(c.args.nextInt());
                long p = c.args.nextInt();
                int mode = (int) c.args.nextInt();
                int len = Array.getLength(a);
                if (mode != 2 && len > 0) fromBytes(a, 0, len, env.cpu.read(p, len * width(type))); // 0 and JNI_COMMIT copy back
                if (mode != 1) env.emu.heap.free(p);                                                  // 0 and JNI_ABORT free
            };
            env.on("Get" + n + "ArrayElements", getElements);
            env.on("Release" + n + "ArrayElements", releaseElements);
            env.on("Get" + n + "ArrayRegion", c -> {
                Object a = env.obj(c.args.nextInt());
                int start = (int) c.args.nextInt(), len = (int) c.args.nextInt();
                long buf = c.args.nextInt();
                checkRange(env, a, start, len);
                if (len > 0) env.cpu.write(buf, toBytes(a, start, len));
            });
            env.on("Set" + n + "ArrayRegion", c -> {
                Object a = env.obj(c.args.nextInt());
                int start = (int) c.args.nextInt(), len = (int) c.args.nextInt();
                long buf = c.args.nextInt();
                checkRange(env, a, start, len);
                if (len > 0) fromBytes(a, start, len, env.cpu.read(buf, len * width(type)));
            });
        }
        env.on("GetPrimitiveArrayCritical", c -> {
            Object a = env.obj(c.args.nextInt());
            long isCopy = c.args.nextInt();
            byte[] b = toBytes(a, 0, Array.getLength(a));
            long p = env.emu.heap.malloc(Math.max(1, b.length));
            if (b.length > 0) env.cpu.write(p, b);
            if (isCopy != 0) env.cpu.write(isCopy, new byte[] {1});
            c.returnInt(p);
        });
        env.on("ReleasePrimitiveArrayCritical", c -> {
            Object a = env.obj(c.args.nextInt());
            long p = c.args.nextInt();
            int mode = (int) c.args.nextInt();
            int len = Array.getLength(a);
            if (mode != 2 && len > 0) fromBytes(a, 0, len, env.cpu.read(p, len * width(a.getClass().getComponentType())));
            if (mode != 1) env.emu.heap.free(p);
        });
    }

    private static void checkRange(JniEnv env, Object a, int start, int len) {
        if (start < 0 || len < 0 || start + len > Array.getLength(a))
            env.pending = new ArrayIndexOutOfBoundsException("region " + start + "+" + len + " of " + Array.getLength(a));
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
}
