package org.hyprof.bb.emu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.hyprof.bb.NativeException;

/** The libc/libm/liblog/libgcc subset bb-tracer provides to native code. */
final class LibC {
    private LibC() {}

    static void register(Stubs s) {
        // memory: guest-sized ranges are checked against the mapped regions first, then processed
        // in chunks of at most CHUNK bytes (never a host array the guest sizes)
        s.register("malloc", c -> c.returnInt(c.heap().malloc(c.args.nextInt())));
        s.register("calloc", c -> {
            long k = c.args.nextInt(), size = c.args.nextInt();
            if (k != 0 && Long.compareUnsigned(size, Long.divideUnsigned(-1L, k)) > 0) { c.returnInt(0); return; } // overflow: NULL
            long n = k * size;
            long p = c.heap().malloc(n);
            fill(c, p, n, (byte) 0, "calloc");
            c.returnInt(p);
        });
        s.register("realloc", c -> {
            long p = c.args.nextInt(), n = c.args.nextInt();
            long q = c.heap().malloc(n);
            if (p != 0) {
                long old = c.heap().sizeOf(p);
                if (old < 0) throw new NativeException("realloc(0x" + Long.toHexString(p) + "): not a block from malloc");
                copy(c, q, p, Math.min(old, n), "realloc");
                c.heap().free(p);
            }
            c.returnInt(q);
        });
        s.register("free", c -> c.heap().free(c.args.nextInt()));
        Stubs.Handler memcpy = c -> {
            long d = c.args.nextInt(), src = c.args.nextInt(), n = c.args.nextInt();
            copy(c, d, src, n, call("memcpy", d, src, n));
            c.returnInt(d);
        };
        s.register("memcpy", memcpy);
        s.register("memmove", memcpy); // copy() handles overlap in either direction
        Stubs.Handler memset = c -> {
            long d = c.args.nextInt(), v = c.args.nextInt(), n = c.args.nextInt();
            fill(c, d, n, (byte) v, call("memset", d, v, n));
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
            fill(c, d, n, (byte) v, call("__aeabi_memset", d, n, v));
        });
        s.register("__aeabi_memclr", c -> {
            long d = c.args.nextInt(), n = c.args.nextInt();
            fill(c, d, n, (byte) 0, call("__aeabi_memclr", d, n, 0));
        });
        s.register("memcmp", c -> {
            long a = c.args.nextInt(), b = c.args.nextInt(), n = c.args.nextInt();
            String what = call("memcmp", a, b, n);
            c.memory().check(a, n, false, what);
            c.memory().check(b, n, false, what);
            int r = 0;
            for (long off = 0; off < n && r == 0; off += CHUNK) {
                int k = (int) Math.min(CHUNK, n - off);
                byte[] x = c.cpu.read(a + off, k), y = c.cpu.read(b + off, k);
                for (int i = 0; i < k && r == 0; i++) r = (x[i] & 0xff) - (y[i] & 0xff);
            }
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
        // __android_log_print formats its arguments (printf's common conversions, at most 16);
        // _write and _vprint print the text/format as it is (a va_list is not read). At most
        // LOG_BYTES per message, control characters escaped
        Stubs.Handler log = c -> {
            long prio = c.args.nextInt();
            String tag = logText(c, c.args.nextInt(), 128), msg = logText(c, c.args.nextInt(), LOG_BYTES);
            System.err.println("native log [" + prio + "] " + tag + ": " + msg);
            c.returnInt(0);
        };
        s.register("__android_log_print", c -> {
            long prio = c.args.nextInt();
            String tag = logText(c, c.args.nextInt(), 128), msg = format(c, logText(c, c.args.nextInt(), LOG_BYTES));
            System.err.println("native log [" + prio + "] " + tag + ": " + msg);
            c.returnInt(0);
        });
        s.register("__android_log_write", log);
        s.register("__android_log_vprint", log);
        s.register("__stack_chk_fail", c -> { throw new NativeException("native code detected a stack overflow (__stack_chk_fail)"); });
        s.register("abort", c -> { throw new NativeException("native code called abort()"); });
        s.register("raise", c -> { throw new NativeException("native code raised signal " + c.args.nextInt() + " (an integer division by zero?)"); });
        s.register("__cxa_atexit", c -> c.returnInt(0));
        s.register("__cxa_finalize", c -> { });
        s.register("__register_atfork", c -> c.returnInt(0));
    }

    /** Bytes a library function handles at a time (and the most it allocates on the host). */
    static final int CHUNK = 64 << 10;
    /** The most of one log message printed (Android's own limit is about 4 KiB too). */
    static final int LOG_BYTES = 4096;

    /** Writes {@code n} bytes of {@code v} at {@code d}, chunk by chunk, after checking the range. */
    static void fill(Stubs.Context c, long d, long n, byte v, String what) {
        c.memory().check(d, n, true, what);
        if (n == 0) return;
        byte[] b = new byte[(int) Math.min(n, CHUNK)];
        if (v != 0) java.util.Arrays.fill(b, v);
        for (long off = 0; off < n; off += b.length) {
            int k = (int) Math.min(b.length, n - off);
            c.cpu.write(d + off, k == b.length ? b : java.util.Arrays.copyOf(b, k));
        }
    }

    /** Copies {@code n} bytes from {@code s} to {@code d} chunk by chunk (overlap-safe), after checking both ranges. */
    static void copy(Stubs.Context c, long d, long s, long n, String what) {
        c.memory().check(s, n, false, what);
        c.memory().check(d, n, true, what);
        boolean backwards = d > s && d - s < n; // the destination overlaps the source's end: copy from the end
        for (long done = 0; done < n; ) {
            int k = (int) Math.min(CHUNK, n - done);
            long off = backwards ? n - done - k : done;
            c.cpu.write(d + off, c.cpu.read(s + off, k));
            done += k;
        }
    }

    /** How a call is named in errors: {@code memset(0x30000000, 0, 2147483632)}. */
    private static String call(String name, long a, long b, long n) {
        return name + "(0x" + Long.toHexString(a) + ", " + (name.contains("mem") && !name.endsWith("set") && !name.endsWith("clr")
                ? "0x" + Long.toHexString(b) : Long.toString(b)) + ", " + Long.toUnsignedString(n) + ")";
    }

    /** A log string from native code: at most {@code max} bytes, control characters escaped (\n, \x1b, ...). */
    static String logText(Stubs.Context c, long address, int max) {
        String s = c.cString(address, max + 1);
        boolean cut = s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > max;
        StringBuilder b = new StringBuilder(Math.min(s.length(), max) + 16);
        int bytes = 0;
        for (int i = 0; i < s.length() && bytes < max; i++) {
            char ch = s.charAt(i);
            bytes += ch < 0x80 ? 1 : ch < 0x800 ? 2 : 3;
            if (ch == '\\') b.append("\\\\");
            else if (ch == '\n') b.append("\\n");
            else if (ch == '\t') b.append("\\t");
            else if (ch == '\r') b.append("\\r");
            else if (ch < 0x20 || ch == 0x7f || ch >= 0x80 && ch < 0xa0 || ch == '\u2028' || ch == '\u2029' || ch == '\ufffd')
                b.append(ch < 0x100 ? String.format(java.util.Locale.ROOT, "\\x%02x", (int) ch) : String.format(java.util.Locale.ROOT, "\\u%04x", (int) ch));
            else b.append(ch);
        }
        if (cut) b.append(" ... (cut at ").append(max).append(" bytes)");
        return b.toString();
    }

    /**
     * printf's common conversions ({@code %s %d %i %u %x %X %o %p %c %f %g %e %%} with flags, width,
     * precision and the {@code h l ll z j t} length modifiers), reading the variadic arguments;
     * at most 16 arguments, strings cut at 256 bytes. Anything else is printed as it is.
     */
    static String format(Stubs.Context c, String fmt) {
        StringBuilder b = new StringBuilder();
        boolean w64 = c.cpu.arch() == Backend.Arch.ARM64;
        int used = 0;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("%([-+ #0]*)(\\d*)(?:\\.(\\d+))?(hh|h|ll|l|z|j|t)?([sdiuxXopcfgeE%])").matcher(fmt);
        int last = 0;
        while (m.find()) {
            b.append(fmt, last, m.start());
            last = m.end();
            char conv = m.group(5).charAt(0);
            if (conv == '%') { b.append('%'); continue; }
            if (++used > 16) { b.append(m.group()); continue; }
            String len = m.group(4) == null ? "" : m.group(4);
            boolean wide = len.equals("ll") || len.equals("j") || w64 && (len.equals("l") || len.equals("z") || len.equals("t"));
            String flags = m.group(1);
            int width = m.group(2).isEmpty() ? 0 : Math.min(256, Integer.parseInt(m.group(2)));
            switch (conv) {
                case 's' -> b.append(pad(logText(c, c.args.nextInt(), 256), width, flags.contains("-"), ' '));
                case 'c' -> b.append((char) (c.args.nextInt() & 0xff));
                case 'p' -> b.append("0x").append(Long.toHexString(c.args.nextInt()));
                case 'f', 'g', 'e', 'E' -> b.append(pad(String.format(java.util.Locale.ROOT, "%" + (m.group(3) != null ? "." + Math.min(64, Integer.parseInt(m.group(3))) : "") + conv,
                        c.args.nextDouble()), width, flags.contains("-"), ' '));
                default -> {
                    long v = wide ? c.args.nextLong() : c.args.nextInt();
                    if (!wide) v = conv == 'd' || conv == 'i' ? (int) v : v & 0xffffffffL;
                    String digits = switch (conv) {
                        case 'x' -> Long.toHexString(v);
                        case 'X' -> Long.toHexString(v).toUpperCase(java.util.Locale.ROOT);
                        case 'o' -> Long.toOctalString(v);
                        case 'u' -> Long.toUnsignedString(v);
                        default -> Long.toString(v);
                    };
                    b.append(pad(digits, width, flags.contains("-"), flags.contains("0") && !flags.contains("-") ? '0' : ' '));
                }
            }
        }
        return b.append(fmt.substring(last)).toString();
    }

    private static String pad(String s, int width, boolean left, char with) {
        if (s.length() >= width) return s;
        String p = String.valueOf(with).repeat(width - s.length());
        if (left) return s + p;
        if (with == '0' && s.startsWith("-")) return "-" + p + s.substring(1);
        return p + s;
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
