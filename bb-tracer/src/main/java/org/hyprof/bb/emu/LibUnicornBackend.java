package org.hyprof.bb.emu;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.hyprof.bb.NativeException;

/**
 * {@link Backend} on Unicorn 2 from Debian's libunicorn-dev, through hyprof's JNI shim
 * {@code libhyprof-unicorn.so} ({@code bb-tracer/src/main/c}, built with the module when the
 * package is installed; Unicorn is linked in statically). Its {@link #countBlocks} counts in C:
 * the block hook never calls Java after a block's first execution, so counting costs a few ns per
 * block instead of the ~90 ns of a Java hook (bench/README.md). VFP/NEON are switched on at start.
 */
public final class LibUnicornBackend implements Backend {
    private static final String RESOURCE = "native/linux-x86_64/libhyprof-unicorn.so";
    // register selectors shared with hyprof_unicorn.c
    private static final int REG_SP = 32, REG_LR = 33, REG_PC = 34, REG_CPSR = 35, REG_TLS = 36, REG_FPR = 64;
    private static final int PROT_READ = 1, PROT_WRITE = 2, PROT_EXEC = 4;

    private static String loadFailure;
    private static boolean loadTried;

    private final Arch arch;
    private long handle;

    /** Starts an engine; throws {@link NativeException} when the shim is not available. */
    public LibUnicornBackend(Arch arch) {
        String why = unavailableBecause();
        if (why != null) throw new NativeException("engine libunicorn: " + why);
        this.arch = arch;
        this.handle = open(arch == Arch.ARM ? 0 : 1);
    }

    /** Null when the shim is loaded (or loads now); otherwise why it cannot be used. */
    public static synchronized String unavailableBecause() {
        if (loadTried) return loadFailure;
        loadTried = true;
        try {
            load();
        } catch (IOException | URISyntaxException | UnsatisfiedLinkError | SecurityException e) {
            loadFailure = "cannot load libhyprof-unicorn.so: " + e.getMessage();
        } catch (NativeException e) {
            loadFailure = e.getMessage();
        }
        return loadFailure;
    }

    /**
     * Loads the shim from the class path: in place when it is a file (a build tree), otherwise
     * from the per-user cache ({@link LibraryCache}: a directory only this user can write, the
     * file checked against the SHA-256 built beside it before it is loaded; 17 MB, so it is
     * written once, not by every process).
     */
    private static void load() throws IOException, URISyntaxException {
        String os = System.getProperty("os.name", ""), cpu = System.getProperty("os.arch", "");
        if (!os.toLowerCase().contains("linux") || !(cpu.equals("amd64") || cpu.equals("x86_64")))
            throw new NativeException("built for Linux x86-64 only (this is " + os + "/" + cpu + ")");
        URL url = LibUnicornBackend.class.getResource(RESOURCE);
        if (url == null)
            throw new NativeException("not built (bb-tracer was built without Debian's libunicorn-dev; install it and rebuild)");
        if (url.getProtocol().equals("file")) {
            System.load(Path.of(url.toURI()).toAbsolutePath().toString());
            return;
        }
        String sha;
        try (InputStream in = LibUnicornBackend.class.getResourceAsStream(RESOURCE + ".sha256")) {
            sha = in == null ? null : new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
        }
        Path so = LibraryCache.extract(LibraryCache.directory(LibraryCache::warn), "libhyprof-unicorn",
                () -> LibUnicornBackend.class.getResourceAsStream(RESOURCE), sha, LibraryCache::warn);
        System.load(so.toAbsolutePath().toString());
    }

    /**
     * The Unicorn the shim was built against, as its {@code uc_version} and build say:
     * {@code Unicorn 2.1.1 (libunicorn-dev 2.1.1-2+b2, fetched)}; null when the shim is not available.
     */
    public static String unicornVersion() {
        return unavailableBecause() == null ? version() : null;
    }

    @Override public Arch arch() { return arch; }

    /** The engine's handle; using a closed engine is an error here, never a crash in C. */
    private long h() {
        if (handle == 0) throw new NativeException("engine libunicorn: used after it was closed");
        return handle;
    }

    @Override public Engine engine() { return Engine.LIBUNICORN; }

    @Override
    public void map(long address, long size, boolean read, boolean write, boolean exec) {
        map(h(), address, size, (read ? PROT_READ : 0) | (write ? PROT_WRITE : 0) | (exec ? PROT_EXEC : 0));
    }

    @Override public void write(long address, byte[] data) { write(h(), address, data); }

    @Override public byte[] read(long address, int size) { return read(h(), address, size); }

    @Override public long gpr(int n) { return reg(h(), n); }

    @Override public void gpr(int n, long value) { setReg(h(), n, value); }

    @Override public long sp() { return reg(h(), REG_SP); }

    @Override public void sp(long value) { setReg(h(), REG_SP, value); }

    @Override public long lr() { return reg(h(), REG_LR); }

    @Override public void lr(long value) { setReg(h(), REG_LR, value); }

    @Override public long pc() { return reg(h(), REG_PC); }

    @Override
    public boolean thumb() {
        return arch == Arch.ARM && (reg(h(), REG_CPSR) & 0x20) != 0;
    }

    @Override public long fpr(int n) { return reg(h(), REG_FPR + n); }

    @Override public void fpr(int n, long bits) { setReg(h(), REG_FPR + n, bits); }

    @Override
    public void run(long begin, long until) {
        int err = run(h(), begin, until);
        if (err != 0) throw new NativeException("emulation stopped at 0x" + Long.toHexString(pc()) + ": " + errorText(err));
    }

    @Override public void stop() { stop(h()); }

    @Override public long save() { return save(h()); }

    @Override public void restore(long context) { restore(h(), context); }

    @Override public void onBlock(long begin, long end, BlockListener l) { hookBlock(h(), begin, end, l); }

    @Override public void onCode(long begin, long end, CodeListener l) { hookCode(h(), begin, end, l); }

    @Override public void onInterrupt(InterruptListener l) { hookInterrupt(h(), l); }

    @Override public void threadPointer(long address) { setReg(h(), REG_TLS, address); }

    @Override public long threadPointer() { return reg(h(), REG_TLS); }

    @Override
    public void countBlocks(long begin, long end, BlockSink sink) {
        countBlocks(h(), begin, end, sink, sink.totals());
        sink.retargetTo((counts, touched) -> { if (handle != 0) countInto(handle, counts, touched); });
    }

    @Override
    public void close() {
        if (handle != 0) close(handle);
        handle = 0;
    }

    private static native String version();
    private static native long open(int arch);
    private static native void close(long h);
    private static native void map(long h, long address, long size, int prot);
    private static native void write(long h, long address, byte[] data);
    private static native byte[] read(long h, long address, int size);
    private static native long reg(long h, int selector);
    private static native void setReg(long h, int selector, long value);
    private static native int run(long h, long begin, long until);
    private static native String errorText(int err);
    private static native void stop(long h);
    private static native long save(long h);
    private static native void restore(long h, long context);
    private static native void hookCode(long h, long begin, long end, CodeListener l);
    private static native void hookInterrupt(long h, InterruptListener l);
    private static native void hookBlock(long h, long begin, long end, BlockListener l);
    private static native void countBlocks(long h, long begin, long end, BlockSink sink, java.nio.ByteBuffer totals);
    private static native void countInto(long h, java.nio.Buffer counts, java.nio.Buffer touched);
}
