package org.hyprof.bb.emu;

/**
 * The CPU emulator behind bb-tracer, as narrow as callers need: memory, registers, running from an
 * address until another, and hooks (every executed basic block; every instruction of a small
 * address range, for stubs). Two implementations, chosen by {@link Engine}: Unicorn 2 from
 * Debian's libunicorn in hyprof's JNI shim, counting blocks in C ({@link LibUnicornBackend}), and
 * Unicorn 2 through unidbg-unicorn2 with a Java block hook ({@link UnicornBackend}). Callers see
 * only this interface.
 */
public interface Backend extends AutoCloseable {
    /** Instruction set families. */
    enum Arch { ARM, ARM64 }

    /** Called for every executed basic block. Must not allocate: it runs once per block. */
    interface BlockListener {
        void block(long address, int size);
    }

    /** Called on a CPU exception: {@code svc} (a Linux system call) raises interrupt 2 on both targets. */
    interface InterruptListener {
        void interrupt(int number);
    }

    /** Called before an instruction of a hooked range runs. */
    interface CodeListener {
        void code(long address);
    }

    Arch arch();

    void map(long address, long size, boolean read, boolean write, boolean exec);

    void write(long address, byte[] data);

    byte[] read(long address, int size);

    /** General-purpose register n (r0–r12 / x0–x30). */
    long gpr(int n);

    void gpr(int n, long value);

    long sp();

    void sp(long value);

    long lr();

    void lr(long value);

    long pc();

    /** Whether the CPU is in Thumb state (32-bit ARM; always false on AArch64). */
    boolean thumb();

    /** 64-bit floating-point register n (d0–d31 / the low half of v0–v31), as raw bits. */
    long fpr(int n);

    void fpr(int n, long bits);

    /**
     * Runs from {@code begin} until the PC reaches {@code until} (or {@link #stop()}). On 32-bit ARM
     * an odd {@code begin} starts in Thumb state.
     */
    void run(long begin, long until);

    void stop();

    /**
     * Saves every register (a native call nested inside another, made from a stub: JNI calls back
     * into Java, which calls native code again). Returns an opaque handle for {@link #restore}.
     */
    long save();

    /** Restores registers saved by {@link #save} and frees the handle. */
    void restore(long handle);

    /** Hooks every block in [begin, end). */
    void onBlock(long begin, long end, BlockListener l);

    /**
     * Counts every block executed in [begin, end) into {@code sink}. This default calls
     * {@link BlockSink#block} from a {@link #onBlock} hook (an up-call into Java per block); an
     * engine that can count inside itself overrides it (see {@link BlockSink#firstSeen}).
     */
    default void countBlocks(long begin, long end, BlockSink sink) {
        onBlock(begin, end, sink);
    }

    /** Hooks CPU exceptions (system calls); the PC is already past the {@code svc}. */
    void onInterrupt(InterruptListener l);

    /** The thread pointer bionic reads its TLS slots from: TPIDRURO (ARM) / TPIDR_EL0 (AArch64). */
    void threadPointer(long address);

    long threadPointer();

    /** Which engine this is. */
    Engine engine();

    /** Hooks every instruction in [begin, end). */
    void onCode(long begin, long end, CodeListener l);

    @Override
    void close();
}
