package org.hyprof.runtime;

/**
 * How a native basic block is named wherever it is shown ({@code hyprof native}, reports, the
 * TUI): the library's file name and the block's offset in it, as objdump shows it —
 * {@code libkernels.so+0x1a2c}. The offset is what {@link SessionFormat#NATIVE_BLOCKS} and the
 * store keep; the emulator's load address never leaves bb-tracer. Here, not in bb-tracer, because
 * the store, the reports and the UI (which may not import the emulator) name blocks too.
 */
public final class NativeBlockId {
    private NativeBlockId() {}

    /** {@code FILE+0xOFFSET}: {@code library} may be a path (its file name is used). */
    public static String of(String library, long offset) {
        int slash = Math.max(library.lastIndexOf('/'), library.lastIndexOf('\\'));
        return library.substring(slash + 1) + "+0x" + Long.toHexString(offset);
    }
}
