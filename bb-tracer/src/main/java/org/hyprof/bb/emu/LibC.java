package org.hyprof.bb.emu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.hyprof.bb.NativeException;

/** The libc/libm/liblog/libgcc subset bb-tracer provides to native code. */
final class LibC {
    private LibC() {}

    static void register(Stubs s) {
        // memory
        s.register("malloc", c -> c.returnInt(c.heap().malloc(c.args.nextInt())));
        s.register("calloc", c -> {
            long n = c.args.nextInt() * c.args.nextInt();
            long p = c.heap().malloc(n);
            c.cpu.write(p, new byte[(int) n]);
            c.returnInt(p);
        });
        s.register("realloc", c -> {
            long p = c.args.nextInt(), n = c.args.nextInt();
            long q = c.heap().malloc(n);
            if (p != 0) {
                long old = c.heap().sizeOf(p);
                if (old < 0) throw new NativeException("realloc(0x" + Long.toHexString(p) + "): not a block from malloc");
                c.cpu.write(q, c.cpu.read(p, (int) Math.min(old, n)));
                c.heap().free(p);
            }
            c.returnInt(q);
        });
        s.register("free", c -> c.heap().free(c.args.nextInt()));
        Stubs.Handler memcpy = c -> {
            long d = c.args.nextInt(), src = c.args.nextInt(), n = c.args.nextInt();
            if (n > 0) c.cpu.write(d, c.cpu.read(src, (int) n));
            c.returnInt(d);
        };
        s.register("memcpy", memcpy);
        s.register("memmove", memcpy); // read fully before writing: overlap is safe
        Stubs.Handler memset = c -> {
            long d = c.args.nextInt(), v = c.args.nextInt(), n = c.args.nextInt();
            byte[] b = new byte[(int) n];
            java.util.Arrays.fill(b, (byte) v);
            if (n > 0) c.cpu.write(d, b);
            c.returnInt(d);
        };
        s.register("memset", memset);
        // ARM EABI helpers: note the argument order (dest, n, value)
        s.register("__aeabi_memcpy", memcpy);
        s.register("__aeabi_memcpy4", memcpy);
        s.register("__aeabi_memcpy8", memcpy);
        s.register("__aeabi_memmove", memcpy);
        s.register("__aeabi_memset", c -> {
            long d = c.args.nextInt(), n = c.args.nextInt(), v = c.args.nextInt();
            if (n > 0) { byte[] b = new byte[(int) n]; java.util.Arrays.fill(b, (byte) v); c.cpu.write(d, b); }
        });
        s.register("__aeabi_memclr", c -> {
            long d = c.args.nextInt(), n = c.args.nextInt();
            if (n > 0) c.cpu.write(d, new byte[(int) n]);
        });
        s.register("memcmp", c -> {
            long a = c.args.nextInt(), b = c.args.nextInt(), n = c.args.nextInt();
            byte[] x = c.cpu.read(a, (int) n), y = c.cpu.read(b, (int) n);
            int r = 0;
            for (int i = 0; i < n && r == 0; i++) r = (x[i] & 0xff) - (y[i] & 0xff);
            c.returnInt(r);
        });
        s.register("strlen", c -> c.returnInt(c.cString(c.args.nextInt()).getBytes(java.nio.charset.StandardCharsets.UTF_8).length));
        s.register("strcmp", c -> c.returnInt(Integer.signum(c.cString(c.args.nextInt()).compareTo(c.cString(c.args.nextInt())))));
        s.register("strcpy", c -> {
            long d = c.args.nextInt();
            byte[] b = (c.cString(c.args.nextInt()) + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            c.cpu.write(d, b);
            c.returnInt(d);
        });
        // integer division helpers (when not linked statically)
        s.register("__aeabi_idiv", c -> { int a = (int) c.args.nextInt(), b = (int) c.args.nextInt(); c.returnInt(div0(b) ? 0 : a / b); });
        s.register("__aeabi_uidiv", c -> { long a = c.args.nextInt(), b = c.args.nextInt(); c.returnInt(b == 0 ? 0 : a / b); });
        s.register("__aeabi_idivmod", c -> {
            int a = (int) c.args.nextInt(), b = (int) c.args.nextInt();
            c.cpu.gpr(0, (b == 0 ? 0 : a / b) & 0xffffffffL);
            c.cpu.gpr(1, (b == 0 ? 0 : a % b) & 0xffffffffL);
        });
        s.register("__aeabi_uidivmod", c -> {
            long a = c.args.nextInt(), b = c.args.nextInt();
            c.cpu.gpr(0, b == 0 ? 0 : a / b);
            c.cpu.gpr(1, b == 0 ? 0 : a % b);
        });
        // math (soft-float on armeabi-v7a: doubles in core register pairs)
        s.register("sin", c -> c.returnDouble(Math.sin(c.args.nextDouble())));
        s.register("cos", c -> c.returnDouble(Math.cos(c.args.nextDouble())));
        s.register("tan", c -> c.returnDouble(Math.tan(c.args.nextDouble())));
        s.register("atan", c -> c.returnDouble(Math.atan(c.args.nextDouble())));
        s.register("atan2", c -> c.returnDouble(Math.atan2(c.args.nextDouble(), c.args.nextDouble())));
        s.register("sqrt", c -> c.returnDouble(Math.sqrt(c.args.nextDouble())));
        s.register("exp", c -> c.returnDouble(Math.exp(c.args.nextDouble())));
        s.register("log", c -> c.returnDouble(Math.log(c.args.nextDouble())));
        s.register("pow", c -> c.returnDouble(Math.pow(c.args.nextDouble(), c.args.nextDouble())));
        s.register("fabs", c -> c.returnDouble(Math.abs(c.args.nextDouble())));
        s.register("floor", c -> c.returnDouble(Math.floor(c.args.nextDouble())));
        s.register("ceil", c -> c.returnDouble(Math.ceil(c.args.nextDouble())));
        s.register("sinf", c -> c.returnFloat((float) Math.sin(c.args.nextFloat())));
        s.register("cosf", c -> c.returnFloat((float) Math.cos(c.args.nextFloat())));
        s.register("sqrtf", c -> c.returnFloat((float) Math.sqrt(c.args.nextFloat())));
        // time: virtual, derived from the executed code, so runs repeat exactly
        s.register("clock_gettime", c -> {
            c.args.nextInt();
            long ts = c.args.nextInt();
            long ns = c.virtualNanos();
            writeTimespec(c, ts, ns / 1_000_000_000L, ns % 1_000_000_000L);
            c.returnInt(0);
        });
        s.register("gettimeofday", c -> {
            long tv = c.args.nextInt();
            long ns = c.virtualNanos();
            if (tv != 0) writeTimespec(c, tv, ns / 1_000_000_000L, ns % 1_000_000_000L / 1000);
            c.returnInt(0);
        });
        s.register("time", c -> {
            long p = c.args.nextInt();
            long sec = c.virtualNanos() / 1_000_000_000L;
            if (p != 0) writeTimespec(c, p, sec, -1);
            c.returnInt(sec);
        });
        // logging, process, C++ runtime bits
        s.register("__android_log_print", c -> {
            long prio = c.args.nextInt();
            String tag = c.cString(c.args.nextInt()), fmt = c.cString(c.args.nextInt());
            System.err.println("native log [" + prio + "] " + tag + ": " + fmt);
            c.returnInt(0);
        });
        s.register("__android_log_write", c -> {
            long prio = c.args.nextInt();
            System.err.println("native log [" + prio + "] " + c.cString(c.args.nextInt()) + ": " + c.cString(c.args.nextInt()));
            c.returnInt(0);
        });
        s.register("__stack_chk_fail", c -> { throw new NativeException("native code detected a stack overflow (__stack_chk_fail)"); });
        s.register("abort", c -> { throw new NativeException("native code called abort()"); });
        s.register("raise", c -> { throw new NativeException("native code raised signal " + c.args.nextInt() + " (an integer division by zero?)"); });
        s.register("__cxa_atexit", c -> c.returnInt(0));
        s.register("__cxa_finalize", c -> { });
        s.register("__register_atfork", c -> c.returnInt(0));
    }

    private static boolean div0(int b) {
        return b == 0;
    }

    private static void writeTimespec(Stubs.Context c, long addr, long sec, long sub) {
        boolean w64 = c.cpu.arch() == Backend.Arch.ARM64;
        ByteBuffer b = ByteBuffer.allocate(w64 ? 16 : 8).order(ByteOrder.LITTLE_ENDIAN);
        if (w64) { b.putLong(sec); if (sub >= 0) b.putLong(sub); }
        else { b.putInt((int) sec); if (sub >= 0) b.putInt((int) sub); }
        c.cpu.write(addr, sub >= 0 ? b.array() : java.util.Arrays.copyOf(b.array(), w64 ? 8 : 4));
    }
}
