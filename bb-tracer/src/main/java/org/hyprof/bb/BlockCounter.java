package org.hyprof.bb;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.function.BiConsumer;
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
 * <p>An epoch touches only the blocks it ran: whoever counts appends a block's index to the
 * epoch's touched list when its count goes from 0 to 1, and {@link #endEpoch} reads and clears
 * just those slots. A call's accounting thus costs O(blocks it ran), not O(blocks known): with
 * Android's libc loaded (a few thousand blocks run by its start-up alone) a crossing that runs
 * five blocks costs five slots, not thousands (issue 16 item 5).
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

    /** The current epoch's counts (slot = block index) and the blocks it touched. */
    private Slots slots = new Slots(256);
    /**
     * Slot 0: blocks executed over all epochs (drives the virtual clock). Slot 1: bytes of code
     * the current call may still execute (its instruction budget); below 0 the call is stopped.
     */
    private final ByteBuffer totals = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder()).putLong(8, Long.MAX_VALUE);
    /** Stops the emulation when the budget runs out (engines counting in Java). */
    private Runnable exhausted = () -> { };
    /** Told each time {@link #slots} is replaced (an engine counting outside Java). */
    private BiConsumer<LongBuffer, IntBuffer> retarget = (c, t) -> { };
    private long epochThread = -1, epochId = -1;
    private int depth;
    /** Suspended outer epochs: slots, thread and id (index = nesting depth). */
    private Slots[] outer = new Slots[4];
    private long[] outerThread = new long[4], outerId = new long[4];
    /** Slots of nested epochs, kept for reuse (index = nesting depth); always clear. */
    private Slots[] spare = new Slots[4];

    /**
     * One epoch's counts, by block index, and its touched list: slot 0 the number of blocks
     * touched, slots 1… their indexes in order of first execution. Both direct, native byte order,
     * so an engine in C counts into them; the list has a slot per count slot (plus its length),
     * since a block is touched at most once per epoch. Clear (all zero) between epochs.
     */
    private static final class Slots {
        final LongBuffer counts;
        final IntBuffer touched;

        Slots(int slots) {
            counts = ByteBuffer.allocateDirect(slots * 8).order(ByteOrder.nativeOrder()).asLongBuffer();
            touched = ByteBuffer.allocateDirect((slots + 1) * 4).order(ByteOrder.nativeOrder()).asIntBuffer();
        }

        int capacity() {
            return counts.capacity();
        }

        int touchedCount() {
            return touched.get(0);
        }

        /** A block's first execution in the epoch. */
        void touch(int index) {
            int n = touched.get(0) + 1;
            touched.put(n, index);
            touched.put(0, n);
        }

        /** The same counts and list in {@code slots} slots (more blocks became known). */
        Slots grownTo(int slots) {
            Slots g = new Slots(slots);
            int n = touchedCount();
            for (int k = 1; k <= n; k++) {
                int i = touched.get(k);
                g.counts.put(i, counts.get(i));
                g.touched.put(k, i);
            }
            g.touched.put(0, n);
            return g;
        }

        /**
         * The touched blocks' indexes, ascending, and their counts; {@code clear}: their slots are
         * zeroed and the list emptied as they are read (the slots are then ready for another epoch).
         */
        EpochCounts read(long thread, long epoch, int blocksKnown, boolean clear) {
            int n = touchedCount();
            int[] idx = new int[n];
            touched.get(1, idx, 0, n);
            Arrays.sort(idx); // index order, so that sums over blocks do not depend on execution order
            long[] ex = new long[n];
            for (int k = 0; k < n; k++) {
                ex[k] = counts.get(idx[k]);
                if (clear) counts.put(idx[k], 0);
            }
            if (clear) touched.put(0, 0);
            return new EpochCounts(thread, epoch, idx, ex, blocksKnown);
        }
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
     * Calls {@code l} now and whenever the buffers change (a new epoch, more blocks); an engine
     * counting outside Java counts into the buffers given last: direct, native byte order; counts
     * slot i = executions of block i in the current epoch; touched: slot 0 the number of blocks
     * whose count went from 0 to 1 in the epoch, slots 1… their indexes (appended by the engine).
     */
    @Override
    public void retargetTo(BiConsumer<LongBuffer, IntBuffer> l) {
        this.retarget = l;
        l.accept(slots.counts, slots.touched);
    }

    private void setSlots(Slots s) {
        slots = s;
        retarget.accept(s.counts, s.touched);
    }

    /**
     * Starts counting into a fresh epoch (nested inside the current one, if any). Costs O(1): the
     * slots are clear, since {@link #endEpoch} clears what it read.
     */
    public void beginEpoch(long threadId, long epoch) {
        if (depth > 0 || epochId != -1) {
            if (depth == outer.length) {
                outer = Arrays.copyOf(outer, depth * 2);
                outerThread = Arrays.copyOf(outerThread, depth * 2);
                outerId = Arrays.copyOf(outerId, depth * 2);
                spare = Arrays.copyOf(spare, depth * 2);
            }
            outer[depth] = slots;
            outerThread[depth] = epochThread;
            outerId[depth] = epochId;
            Slots b = spare[depth];
            if (b == null || b.capacity() < address.length) b = new Slots(Math.max(256, address.length));
            spare[depth] = null;
            depth++;
            setSlots(b);
        } else {
            // an epoch left unended (an Error thrown through the emulator) left its counts behind
            if (slots.touchedCount() != 0) slots.read(-1, -1, blocks, true);
            if (slots.capacity() < address.length) setSlots(new Slots(address.length));
        }
        epochThread = threadId;
        epochId = epoch;
        fallEnd = -1;
    }

    /**
     * Ends the epoch and returns its counts: the blocks it ran, by index, with their executions.
     * Reads and clears only those blocks' slots.
     */
    public EpochCounts endEpoch() {
        EpochCounts e = slots.read(epochThread, epochId, blocks, true);
        if (depth > 0) {
            depth--;
            spare[depth] = slots;
            Slots o = outer[depth];
            outer[depth] = null;
            // blocks first seen in the nested epoch may lie beyond the outer buffer
            if (o.capacity() < address.length) o = o.grownTo(address.length);
            setSlots(o);
            epochThread = outerThread[depth];
            epochId = outerId[depth];
        } else {
            epochThread = -1;
            epochId = -1;
        }
        fallEnd = -1;
        return e;
    }

    /** Counts of the epoch in progress so far (the blocks it ran, with their executions; a copy). */
    public EpochCounts current() {
        return slots.read(epochThread, epochId, blocks, false);
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
        Slots c = slots;
        long n = c.counts.get(idx);
        c.counts.put(idx, n + 1);
        if (n == 0) c.touch(idx);
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
        if (idx >= slots.capacity()) setSlots(slots.grownTo(address.length));
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

    /**
     * One epoch's counts: the blocks it ran ({@code indexes}, ascending) and how often each ran
     * ({@code executions}, same order); {@code blocksKnown}: distinct blocks known when it ended.
     */
    public record EpochCounts(long threadId, long epochId, int[] indexes, long[] executions, int blocksKnown) {
        /** Blocks the epoch ran (distinct). */
        public int size() {
            return indexes.length;
        }

        /** Block executions (the sum of {@link #executions}). */
        public long executedBlocks() {
            long n = 0;
            for (long c : executions) n += c;
            return n;
        }

        /**
         * Executions by block index over every block known (0 for those the epoch did not run): a
         * dense copy, O(blocks known), for analyses of one call, not the per-call path.
         */
        public long[] counts() {
            long[] c = new long[blocksKnown];
            for (int k = 0; k < indexes.length; k++) c[indexes[k]] = executions[k];
            return c;
        }
    }
}
