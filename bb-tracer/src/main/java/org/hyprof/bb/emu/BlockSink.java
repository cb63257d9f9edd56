package org.hyprof.bb.emu;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.function.BiConsumer;

/**
 * Where an engine counts executed basic blocks ({@link Backend#countBlocks}); implemented by
 * {@code org.hyprof.bb.BlockCounter}. Blocks have dense indexes, given by {@link #firstSeen} the
 * first time a block runs. An engine then counts either by calling {@link #block} for every
 * executed block (a Java hook: one direct interface call with primitives, no allocation), or inside
 * itself: it increments slot {@code index} of the count buffer last passed to its
 * {@link #retargetTo} listener — appending {@code index} to the epoch's touched list when the
 * count was 0 — and the first long of {@link #totals()}, and calls Java only for new blocks. Either
 * way it subtracts each block's size from the second long of {@link #totals()} (the call's budget
 * of code bytes) and stops the emulation when that drops below 0.
 */
public interface BlockSink extends Backend.BlockListener {
    /**
     * A block's first execution: gives it the next dense index (and may replace the count buffer,
     * telling the {@link #retargetTo} listener). Returns the index.
     */
    int firstSeen(long address, int size);

    /**
     * Whether block {@code index} ends where Unicorn split a block of the program at its own 1 KiB
     * page ({@link PageSplits}): an engine counting inside itself asks once, after
     * {@link #firstSeen}. When the next block it runs starts at this block's end, that block is a
     * continuation: not counted, but passed to {@link #extend} for the block being counted.
     */
    boolean splitAtPage(int index);

    /**
     * Block {@code index} runs on, through a continuation, up to {@code end}: its size grows to
     * cover it (its instructions are the program's block's). Called once per new extent.
     */
    void extend(int index, long end);

    /**
     * A direct buffer (native byte order) of two longs: the number of blocks executed, and the
     * bytes of code the current call may still execute (below 0: stop).
     */
    ByteBuffer totals();

    /**
     * Calls {@code l} now and whenever the buffers change, with the epoch's counts (direct, native
     * byte order; slot i = executions of block i in the current epoch) and its touched list (direct
     * ints, native byte order; slot 0 = n, slots 1…n = the indexes whose count went from 0 to 1 in
     * the epoch, in that order: the engine appends an index when it increments a count from 0, so
     * that an epoch's accounting reads only the blocks it ran). The list has one slot more than
     * the counts have slots.
     */
    void retargetTo(BiConsumer<LongBuffer, IntBuffer> l);
}
