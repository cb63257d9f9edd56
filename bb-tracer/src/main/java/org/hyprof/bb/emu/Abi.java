package org.hyprof.bb.emu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Argument and result passing of the two ABIs bb-tracer calls: AAPCS with the soft-float
 * convention on armeabi-v7a (what Android's JNI uses: floats in core registers, 64-bit values in
 * an even register pair or 8-byte aligned stack slots) and AAPCS64 on arm64-v8a (x0–x7 for
 * integers, v0–v7 for floating point, 8-byte stack slots). A {@link Reader} walks a callee's
 * arguments in order (stubs); a {@link Writer} places a caller's (calls into native code).
 */
public final class Abi {
    private Abi() {}

    /** Reads arguments in declaration order. */
    public static final class Reader {
        private final Backend cpu;
        private final boolean arm64;
        private int ngrn, nsrn;
        private long nsaa;

        public Reader(Backend cpu) {
            this.cpu = cpu;
            this.arm64 = cpu.arch() == Backend.Arch.ARM64;
            this.nsaa = cpu.sp();
        }

        public long nextInt() {
            if (arm64) return ngrn < 8 ? cpu.gpr(ngrn++) : stack(8);
            if (ngrn < 4) return cpu.gpr(ngrn++);
            return stack(4) & 0xffffffffL;
        }

        /** A 64-bit integer (long long / jlong). */
        public long nextLong() {
            if (arm64) return nextInt();
            if (ngrn % 2 == 1) ngrn++;
            if (ngrn <= 2) {
                long lo = cpu.gpr(ngrn++), hi = cpu.gpr(ngrn++);
                return (hi << 32) | (lo & 0xffffffffL);
            }
            ngrn = 4;
            if (nsaa % 8 != 0) nsaa += 4;
            return stack(8);
        }

        public double nextDouble() {
            if (arm64) return Double.longBitsToDouble(nsrn < 8 ? cpu.fpr(nsrn++) : stack(8));
            return Double.longBitsToDouble(nextLong());
        }

        public float nextFloat() {
            if (arm64) return Float.intBitsToFloat((int) (nsrn < 8 ? cpu.fpr(nsrn++) : stack(8)));
            return Float.intBitsToFloat((int) nextInt());
        }

        private long stack(int size) {
            byte[] b = cpu.read(nsaa, size);
            nsaa += arm64 ? 8 : size;
            ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            return size == 8 ? bb.getLong() : bb.getInt();
        }
    }

    /** Places arguments for a call; {@link #finish} writes the stack part below the current SP. */
    public static final class Writer {
        private final Backend cpu;
        private final boolean arm64;
        private int ngrn, nsrn;
        /** Stack arguments, made when the registers run out (most calls never need it: one per call cost a 1 KiB allocation). */
        private ByteBuffer stack;

        public Writer(Backend cpu) {
            this.cpu = cpu;
            this.arm64 = cpu.arch() == Backend.Arch.ARM64;
        }

        private ByteBuffer stack() {
            if (stack == null) stack = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
            return stack;
        }

        public Writer addInt(long v) {
            if (arm64) { if (ngrn < 8) cpu.gpr(ngrn++, v); else stack().putLong(v); return this; }
            if (ngrn < 4) cpu.gpr(ngrn++, v & 0xffffffffL);
            else stack().putInt((int) v);
            return this;
        }

        public Writer addLong(long v) {
            if (arm64) return addInt(v);
            if (ngrn % 2 == 1) ngrn++;
            if (ngrn <= 2) {
                cpu.gpr(ngrn++, v & 0xffffffffL);
                cpu.gpr(ngrn++, v >>> 32);
                return this;
            }
            ngrn = 4;
            if (stack().position() % 8 != 0) stack.putInt(0);
            stack.putLong(v);
            return this;
        }

        public Writer addDouble(double d) {
            long bits = Double.doubleToRawLongBits(d);
            if (arm64) { if (nsrn < 8) cpu.fpr(nsrn++, bits); else stack().putLong(bits); return this; }
            return addLong(bits);
        }

        public Writer addFloat(float f) {
            int bits = Float.floatToRawIntBits(f);
            if (arm64) { if (nsrn < 8) cpu.fpr(nsrn++, bits & 0xffffffffL); else stack().putLong(bits & 0xffffffffL); return this; }
            return addInt(bits & 0xffffffffL);
        }

        /** Writes stack arguments at SP (which must already leave room) and keeps SP aligned. */
        public void finish() {
            if (stack == null || stack.position() == 0) return;
            int n = stack.position();
            long sp = (cpu.sp() - n) & ~15L;
            byte[] b = new byte[n];
            stack.flip();
            stack.get(b);
            cpu.write(sp, b);
            cpu.sp(sp);
        }
    }

    /** Result registers. */
    public static long intResult(Backend cpu) {
        return cpu.gpr(0);
    }

    public static long longResult(Backend cpu) {
        if (cpu.arch() == Backend.Arch.ARM64) return cpu.gpr(0);
        return (cpu.gpr(1) << 32) | (cpu.gpr(0) & 0xffffffffL);
    }

    public static double doubleResult(Backend cpu) {
        return cpu.arch() == Backend.Arch.ARM64 ? Double.longBitsToDouble(cpu.fpr(0)) : Double.longBitsToDouble(longResult(cpu));
    }

    public static float floatResult(Backend cpu) {
        return Float.intBitsToFloat((int) (cpu.arch() == Backend.Arch.ARM64 ? cpu.fpr(0) : cpu.gpr(0)));
    }

    public static void returnInt(Backend cpu, long v) {
        cpu.gpr(0, cpu.arch() == Backend.Arch.ARM ? v & 0xffffffffL : v);
    }

    public static void returnLong(Backend cpu, long v) {
        if (cpu.arch() == Backend.Arch.ARM64) { cpu.gpr(0, v); return; }
        cpu.gpr(0, v & 0xffffffffL);
        cpu.gpr(1, v >>> 32);
    }

    public static void returnDouble(Backend cpu, double d) {
        long bits = Double.doubleToRawLongBits(d);
        if (cpu.arch() == Backend.Arch.ARM64) cpu.fpr(0, bits);
        else returnLong(cpu, bits);
    }

    public static void returnFloat(Backend cpu, float f) {
        int bits = Float.floatToRawIntBits(f);
        if (cpu.arch() == Backend.Arch.ARM64) cpu.fpr(0, bits & 0xffffffffL);
        else cpu.gpr(0, bits & 0xffffffffL);
    }
}
