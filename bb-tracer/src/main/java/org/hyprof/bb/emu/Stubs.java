package org.hyprof.bb.emu;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.hyprof.bb.NativeException;

/**
 * Java implementations of the library functions native code imports (a libc/libm/liblog/libgcc
 * subset): each import gets a 4-byte slot on the stub page holding a return instruction, and an
 * instruction hook on that page runs the Java handler first, which reads arguments and sets the
 * result registers per ABI. An import without a handler fails <em>when called</em>, naming the
 * symbol. Time functions return virtual time (derived from the executed blocks), so runs are
 * deterministic. Other modules (the JNI environment) register their own handlers.
 */
public final class Stubs {
    /** A Java function callable from native code. */
    public interface Handler {
        void call(Context c);
    }

    /** What a handler sees. */
    public final class Context {
        public final Abi.Reader args;
        public final Backend cpu;

        Context() {
            this.cpu = Stubs.this.cpu;
            this.args = new Abi.Reader(cpu);
        }

        public Heap heap() {
            return heap;
        }

        public void returnInt(long v) { Abi.returnInt(cpu, v); }
        public void returnLong(long v) { Abi.returnLong(cpu, v); }
        public void returnDouble(double v) { Abi.returnDouble(cpu, v); }
        public void returnFloat(float v) { Abi.returnFloat(cpu, v); }

        public String cString(long address) {
            return Stubs.this.cString(address);
        }

        /** A NUL-terminated string, cut after {@code maxBytes} bytes. */
        public String cString(long address, int maxBytes) {
            return Stubs.this.cString(address, maxBytes);
        }

        /** The emulated memory's map: {@link GuestMemory#check} a guest-sized range before touching it. */
        public GuestMemory memory() {
            return memory;
        }

        public long virtualNanos() {
            return virtualTime.getAsLong();
        }
    }

    public static final long BASE = 0x0F00_0000L;
    public static final int SIZE = 0x10000;
    private static final long DATA = BASE + SIZE; // words for data imports (e.g. the stack guard)

    private final Backend cpu;
    private final Heap heap;
    private final GuestMemory memory;
    private final LongSupplier virtualTime;
    private final Map<String, Handler> handlers = new HashMap<>();
    private final List<String> names = new ArrayList<>();
    private final Map<String, Long> addresses = new HashMap<>();
    private long nextData = DATA;
    private String failure;

    public Stubs(Backend cpu, Heap heap, GuestMemory memory, LongSupplier virtualTime) {
        this.cpu = cpu;
        this.heap = heap;
        this.memory = memory;
        this.virtualTime = virtualTime;
        memory.map("stub page", BASE, SIZE + 0x1000, true, true, true);
        byte[] ret = cpu.arch() == Backend.Arch.ARM ? new byte[] {0x1e, (byte) 0xff, 0x2f, (byte) 0xe1} // bx lr
                : new byte[] {(byte) 0xc0, 0x03, 0x5f, (byte) 0xd6};                                   // ret
        byte[] page = new byte[SIZE];
        for (int i = 0; i < SIZE; i += 4) System.arraycopy(ret, 0, page, i, 4);
        cpu.write(BASE, page);
        cpu.onCode(BASE, BASE + SIZE, this::dispatch);
        LibC.register(this);
        LibAndroid.register(this);
    }

    /** Registers (or replaces) the handler of a symbol. */
    public void register(String name, Handler h) {
        handlers.put(name, h);
    }

    public boolean has(String name) {
        return handlers.containsKey(name);
    }

    /** The address an import binds to: a code stub, or a data word for known data symbols. */
    public long resolve(String name) {
        Long a = addresses.get(name);
        if (a != null) return a;
        long addr;
        if (name.equals("__stack_chk_guard")) {
            addr = nextData;
            nextData += 8;
            cpu.write(addr, new byte[] {0x4b, 0x1d, 0x0a, 0x5e, 0, 0, 0, 0});
        } else {
            if (names.size() * 4 >= SIZE) throw new NativeException("too many imports (" + names.size() + ")");
            addr = BASE + names.size() * 4L;
            names.add(name);
        }
        addresses.put(name, addr);
        return addr;
    }

    /** Whether a failure is waiting to be taken ({@link #takeFailure}). */
    public boolean failed() {
        return failure != null;
    }

    /** Why the last run stopped in a stub, or null. */
    public String takeFailure() {
        String f = failure;
        failure = null;
        return f;
    }

    private void dispatch(long address) {
        int i = (int) ((address - BASE) / 4);
        String name = i < names.size() ? names.get(i) : "?";
        Handler h = handlers.get(name);
        if (h == null) {
            fail("native code called " + name + ", which has no stub in bb-tracer");
            return;
        }
        try {
            h.call(new Context());
        } catch (NativeException e) {
            fail(e.getMessage());
        } catch (RuntimeException e) {
            fail(name + " failed: " + e);
        }
    }

    /** Stops the emulation with a reason (reported by the caller of the run). */
    public void fail(String why) {
        if (failure == null) failure = why;
        cpu.stop();
    }

    String cString(long address) {
        return cString(address, 1 << 20);
    }

    /** A NUL-terminated string of at most {@code maxBytes} bytes (longer ones are cut there). */
    String cString(long address, int maxBytes) {
        if (address == 0) return "(null)";
        StringBuilder b = new StringBuilder();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (long p = address; out.size() < maxBytes; p += 64) {
            byte[] chunk = cpu.read(p, 64);
            for (byte x : chunk) {
                if (x == 0 || out.size() == maxBytes) return b.append(out.toString(StandardCharsets.UTF_8)).toString();
                out.write(x);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
