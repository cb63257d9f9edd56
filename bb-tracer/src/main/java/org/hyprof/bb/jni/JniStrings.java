package org.hyprof.bb.jni;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.hyprof.bb.emu.Stubs;

/**
 * JNI's string functions: new strings from modified UTF-8 and UTF-16, lengths, characters copied
 * into emulated memory (released by freeing them) and regions.
 */
final class JniStrings {
    private JniStrings() {}

    static void register(JniEnv env) {
        env.on("NewStringUTF", c -> c.returnInt(env.refs.local(c.cString(c.args.nextInt()))));
        env.on("NewString", c -> {
            long p = c.args.nextInt();
            int n = (int) c.args.nextInt();
            c.memory().check(p, 2L * n, false, "NewString(0x" + Long.toHexString(p) + ", " + n + ")");
            ByteBuffer b = ByteBuffer.wrap(env.cpu.read(p, n * 2)).order(ByteOrder.LITTLE_ENDIAN);
            char[] cs = new char[n];
            for (int i = 0; i < n; i++) cs[i] = b.getChar();
            c.returnInt(env.refs.local(new String(cs)));
        });
        env.on("GetStringLength", c -> c.returnInt(((String) env.obj(c.args.nextInt())).length()));
        env.on("GetStringUTFLength", c -> c.returnInt(mutf8((String) env.obj(c.args.nextInt())).length));
        env.on("GetStringUTFChars", c -> {
            String s = (String) env.obj(c.args.nextInt());
            long isCopy = c.args.nextInt();
            byte[] b = mutf8(s);
            long p = env.emu.heap.malloc(b.length + 1);
            env.cpu.write(p, java.util.Arrays.copyOf(b, b.length + 1));
            if (isCopy != 0) env.cpu.write(isCopy, new byte[] {1});
            c.returnInt(p);
        });
        env.on("ReleaseStringUTFChars", c -> { c.args.nextInt(); env.emu.heap.free(c.args.nextInt()); });
        Stubs.Handler getChars = c -> {
            String s = (String) env.obj(c.args.nextInt());
            long isCopy = c.args.nextInt();
            ByteBuffer b = ByteBuffer.allocate(s.length() * 2 + 2).order(ByteOrder.LITTLE_ENDIAN);
            for (char ch : s.toCharArray()) b.putChar(ch);
            long p = env.emu.heap.malloc(b.capacity());
            env.cpu.write(p, b.array());
            if (isCopy != 0) env.cpu.write(isCopy, new byte[] {1});
            c.returnInt(p);
        };
        env.on("GetStringChars", getChars);
        env.on("GetStringCritical", getChars);
        env.on("ReleaseStringChars", c -> { c.args.nextInt(); env.emu.heap.free(c.args.nextInt()); });
        env.on("ReleaseStringCritical", c -> { c.args.nextInt(); env.emu.heap.free(c.args.nextInt()); });
        env.on("GetStringRegion", c -> {
            String s = (String) env.obj(c.args.nextInt());
            int start = (int) c.args.nextInt(), len = (int) c.args.nextInt();
            long buf = c.args.nextInt();
            ByteBuffer b = ByteBuffer.allocate(len * 2).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < len; i++) b.putChar(s.charAt(start + i));
            env.cpu.write(buf, b.array());
        });
        env.on("GetStringUTFRegion", c -> {
            String s = (String) env.obj(c.args.nextInt());
            int start = (int) c.args.nextInt(), len = (int) c.args.nextInt();
            long buf = c.args.nextInt();
            byte[] b = mutf8(s.substring(start, start + len));
            env.cpu.write(buf, java.util.Arrays.copyOf(b, b.length + 1));
        });
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
}
