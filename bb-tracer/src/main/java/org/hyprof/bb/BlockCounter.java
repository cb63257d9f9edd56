package org.hyprof.bb;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.function.Consumer;
import org.hyprof.bb.emu.BlockSink;
import org.hyprof.bb.emu.PageSplits;

/**
 * Counts executed basic blocks per epoch without boxing: block start addresses map to dense
 * indexes through an open-addressing table of primitives, and each epoch's counts are 64-bit slots
 * by index in a direct buffer. An epoch is one native call made by one thread (the hybrid run ties
 * it to the Java invocation); the counter is used by one emulator, which runs one call at a time.
 * Epochs nest: a native call made while another is suspended in a stub (native → Java → native)
 * counts into an epoch of its own, and the outer epoch's counts resume when it ends.
 *
 * <p>The counts live in direct buffers so that an engine can count without calling Java at all
 * (see {@link BlockSink}, the engines' side): it learns a block's index from {@link #firstSeen}
 * once, then increments slot {@code index} of the buffer last passed to its {@link #retargetTo}
 * listener and the total in {@link #totals()}. Without such an engine, {@link #block} does the
 * same in Java.
 *
 * <p>A block is the program's, not the engine's: Unicorn's ARM and AArch64 targets end translation
 * blocks at 1 KiB pages where qemu-user (4 KiB pages) does not; a block that merely continues one
 * of those ({@link PageSplits}) is merged into it — not counted as a block entry, and the block it continues
 * grows to cover it, so instruction counts and costs are unchanged (issue 17). Both engines merge:
 * in Java here ({@link #block}), in C through {@link #splitAtPage} and {@link #extend}.
 */
public final class BlockCounter implements BlockSink {
    private long[] keys = new long[1024];   // address + 1 (0 = empty slot)
    private int[] values = new int[1024];   // dense index
    private long[] address = new long[256];
    private int[] size = new int[256];
    private int blocks;
    /** Thumb state of each block, read from the CPU when the block is first seen (ARM only). */
    private boolean[] thumb = new boolean[256];
    private java.util.function.BooleanSupplier thumbState;
    /** Blocks that end at a page split of Unicorn's ({@link PageSplits}); none when null. */
    private PageSplits splits;
    private boolean[] split = new boolean[256];
    /** The block being counted and where a continuation of it would start (-1: none). */
    private int head = -1;
    private long fallEnd = -1;

    /** The current epoch's counts (slot = block index). */
    private LongBuffer counts = newCounts(256);
    /**
     * Slot 0: blocks executed over all epochs (drives the virtual clock). Slot 1: bytes of code
     * the current call may still execute (its instruction budget); below 0 the call is stopped.
     */
    private final ByteBuffer totals = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder()).putLong(8, Long.MAX_VALUE);
    /** Stops the emulation when the budget runs out (engines counting in Java). */
    private Runnable exhausted = () -> { };
    /** Told each time {@link #counts} is replaced (an engine counting outside Java). */
    private Consumer<LongBuffer> retarget = b -> { };
    private long epochThread = -1, epochId = -1;
    private int depth;
    /** Suspended outer epochs: counts, thread and id (index = nesting depth). */
    private LongBuffer[] outerCounts = new LongBuffer[4];
    private long[] outerThread = new long[4], outerId = new long[4];
    /** Count buffers of nested epochs, kept for reuse (index = nesting depth). */
    private LongBuffer[] spare = new LongBuffer[4];

    private static LongBuffer newCounts(int slots) {
        return ByteBuffer.allocateDirect(slots * 8).order(ByteOrder.nativeOrder()).asLongBuffer();
    }

    /**
     * The direct buffer (native byte order) whose first long is the number of blocks executed and
     * whose second is the code bytes left in the call's budget; an engine counting outside Java
     * increments the first, subtracts each block's size from the second and stops when it is
     * below 0.
     */
    @Override
    public ByteBuffer totals() {
        return totals;
    }

    /**
     * Calls {@code l} now and whenever the count buffer changes (a new epoch, more blocks); an
     * engine counting outside Java counts into the buffer given last. It is a direct buffer of
     * longs in native byte order; slot i = executions of block i in the current epoch.
     */
    @Override
    public void retargetTo(Consumer<LongBuffer> l) {
        this.retarget = l;
        l.accept(counts);
    }

    private void setCounts(LongBuffer b) {
        counts = b;
        retarget.accept(b);
    }

    /** Starts counting into a fresh epoch (nested inside the current one, if any). */
    public void beginEpoch(long threadId, long epoch) {
        if (depth > 0 || epochId != -1) {
            if (depth == outerCounts.length) {
                outerCounts = Arrays.copyOf(outerCounts, depth * 2);
                outerThread = Arrays.copyOf(outerThread, depth * 2);
                outerId = Arrays.copyOf(outerId, depth * 2);
                spare = Arrays.copyOf(spare, depth * 2);
            }
            outerCounts[depth] = counts;
            outerThread[depth] = epochThread;
            outerId[depth] = epochId;
            LongBuffer b = spare[depth];
            if (b == null || b.capacity() < address.length) b = newCounts(Math.max(256, address.length));
            else zero(b);
            spare[depth] = null;
            depth++;
            setCounts(b);
        } else {
            if (counts.capacity() < address.length) setCounts(newCounts(address.length));
            else zero(counts);
        }
        epochThread = threadId;
        epochId = epoch;
        fallEnd = -1;
    }

    /** Clears the slots blocks can have used. */
    private void zero(LongBuffer b) {
        for (int i = 0, n = Math.min(blocks, b.capacity()); i < n; i++) b.put(i, 0);
    }

    /** Ends the epoch and returns its counts (index → executions), trimmed to the blocks known. */
    public EpochCounts endEpoch() {
        EpochCounts e = new EpochCounts(epochThread, epochId, current());
        if (depth > 0) {
            depth--;
            spare[depth] = counts;
            LongBuffer outer = outerCounts[depth];
            outerCounts[depth] = null;
            // blocks first seen in the nested epoch may lie beyond the outer buffer
            if (outer.capacity() < address.length) outer = copyOf(outer, address.length);
            setCounts(outer);
            epochThread = outerThread[depth];
            epochId = outerId[depth];
        } else {
            epochThread = -1;
            epochId = -1;
        }
        fallEnd = -1;
        return e;
    }

    private static LongBuffer copyOf(LongBuffer b, int slots) {
        LongBuffer n = newCounts(slots);
        for (int i = 0; i < b.capacity(); i++) n.put(i, b.get(i));
        return n;
    }

    /** Counts of the epoch in progress so far (index → executions, one per block known; a copy). */
    public long[] current() {
        long[] c = new long[blocks];
        counts.get(0, c, 0, Math.min(blocks, counts.capacity()));
        return c;
    }

    @Override
    public void block(long addr, int len) {
        // the instruction budget (Limits): continuations are code executed too
        long left = totals.getLong(8) - len;
        totals.putLong(8, left);
        if (left < 0) exhausted.run();
        if (addr == fallEnd) {
            continued(addr, len);
            return;
        }
        int idx = indexOf(addr, len);
        counts.put(idx, counts.get(idx) + 1);
        totals.putLong(0, totals.getLong(0) + 1);
        head = idx;
        fallEnd = split[idx] ? addr + len : -1;
    }

    /** A block Unicorn split off at its 1 KiB page: part of block {@code head}, not counted. */
    private void continued(long addr, int len) {
        int idx = indexOf(addr, len);
        long end = addr + len;
        if (end - address[head] > size[head]) extend(head, end);
        fallEnd = split[idx] ? end : -1;
    }

    private int indexOf(long addr, int len) {
        long k = addr + 1;
        int mask = keys.length - 1;
        int i = (int) (mix(k) & mask);
        int idx;
        while (true) {
            long kk = keys[i];
            if (kk == k) { idx = values[i]; break; }
            if (kk == 0) { idx = firstSeen(addr, len); break; }
            i = (i + 1) & mask;
        }
        return idx;
    }

    @Override
    public boolean splitAtPage(int index) {
        return split[index];
    }

    @Override
    public void extend(int index, long end) {
        size[index] = (int) Math.max(size[index], end - address[index]);
    }

    /**
     * Merges blocks Unicorn split only at its 1 KiB pages ({@link PageSplits}), so
     * that blocks are the program's (and qemu-user's). Set before the first block runs.
     */
    public void mergePageSplits(PageSplits s) {
        this.splits = s;
    }

    /** Sets the bytes of code the next blocks may execute ({@link Long#MAX_VALUE}: no limit). */
    public void budget(long codeBytes) {
        totals.putLong(8, codeBytes);
    }

    /** Whether the budget set by {@link #budget} ran out. */
    public boolean overBudget() {
        return totals.getLong(8) < 0;
    }

    /** What stops the emulation when the budget runs out (engines that count by calling {@link #block}). */
    public void onBudgetExhausted(Runnable stop) {
        this.exhausted = stop;
    }

    /**
     * A block's first execution: gives it the next dense index, notes its size and instruction
     * set, and makes room for its count (which may replace the count buffer). Returns the index.
     */
    @Override
    public int firstSeen(long addr, int len) {
        int idx = add(addr, len);
        long k = addr + 1;
        int mask = keys.length - 1;
        int i = (int) (mix(k) & mask);
        while (keys[i] != 0) i = (i + 1) & mask;
        keys[i] = k;
        values[i] = idx;
        if (blocks * 2 > keys.length) rehash();
        if (idx >= counts.capacity()) setCounts(copyOf(counts, address.length));
        return idx;
    }

    /**
     * Reads the CPU's instruction-set state when a new block is first seen (32-bit ARM: ARM or
     * Thumb), so blocks of functions without a symbol are still disassembled right.
     */
    public void thumbStateFrom(java.util.function.BooleanSupplier s) {
        this.thumbState = s;
    }

    /** Whether block {@code index} is Thumb code (false when unknown). */
    public boolean isThumb(int index) {
        return thumb[index];
    }

    /** Blocks executed so far, all epochs. */
    public long executed() {
        return totals.getLong(0);
    }

    private int add(long addr, int len) {
        if (blocks == address.length) {
            address = Arrays.copyOf(address, blocks * 2);
            size = Arrays.copyOf(size, blocks * 2);
            thumb = Arrays.copyOf(thumb, blocks * 2);
            split = Arrays.copyOf(split, blocks * 2);
        }
        address[blocks] = addr;
        size[blocks] = len;
        thumb[blocks] = thumbState != null && thumbState.getAsBoolean();
        split[blocks] = splits != null && splits.endsAtSplit(addr, len, thumb[blocks]);
        return blocks++;
    }

    private void rehash() {
        long[] ok = keys;
        int[] ov = values;
        keys = new long[ok.length * 2];
        values = new int[ok.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < ok.length; j++) {
            if (ok[j] == 0) continue;
            int i = (int) (mix(ok[j]) & mask);
            while (keys[i] != 0) i = (i + 1) & mask;
            keys[i] = ok[j];
            values[i] = ov[j];
        }
    }

    private static long mix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        return k ^ (k >>> 33);
    }

    /** Distinct blocks seen so far (all epochs). */
    public int blockCount() {
        return blocks;
    }

    public long address(int index) {
        return address[index];
    }

    public int size(int index) {
        return size[index];
    }

    /** One epoch's counts. */
    public record EpochCounts(long threadId, long epochId, long[] counts) {
        public long executedBlocks() {
            long n = 0;
            for (long c : counts) n += c;
            return n;
        }
    }
}
