package org.hyprof.bb;

import java.util.Arrays;
import org.hyprof.bb.emu.Backend;

/**
 * Counts executed basic blocks per epoch without boxing: block start addresses map to dense
 * indexes through an open-addressing table of primitives, and each epoch's counts are a
 * {@code long[]} by index. An epoch is one native call made by one thread (the hybrid run ties it
 * to the Java invocation); the counter is used by one emulator, which runs one call at a time.
 * Epochs nest: a native call made while another is suspended in a stub (native → Java → native)
 * counts into an epoch of its own, and the outer epoch's counts resume when it ends.
 */
public final class BlockCounter implements Backend.BlockListener {
    private long[] keys = new long[1024];   // address + 1 (0 = empty slot)
    private int[] values = new int[1024];   // dense index
    private long[] address = new long[256];
    private int[] size = new int[256];
    private int blocks;
    /** Thumb state of each block, read from the CPU when the block is first seen (ARM only). */
    private boolean[] thumb = new boolean[256];
    private java.util.function.BooleanSupplier thumbState;

    private long[] counts = new long[256];
    /** Blocks executed over all epochs (drives the virtual clock). */
    private long executed;
    private long epochThread = -1, epochId = -1;
    private int depth;
    /** Suspended outer epochs: counts, thread and id (index = nesting depth). */
    private long[][] outerCounts = new long[4][];
    private long[] outerThread = new long[4], outerId = new long[4];

    /** Starts counting into a fresh epoch (nested inside the current one, if any). */
    public void beginEpoch(long threadId, long epoch) {
        if (depth > 0 || epochId != -1) {
            if (depth == outerCounts.length) {
                outerCounts = Arrays.copyOf(outerCounts, depth * 2);
                outerThread = Arrays.copyOf(outerThread, depth * 2);
                outerId = Arrays.copyOf(outerId, depth * 2);
            }
            outerCounts[depth] = counts;
            outerThread[depth] = epochThread;
            outerId[depth] = epochId;
            depth++;
            counts = new long[Math.max(256, address.length)];
        } else if (counts.length < address.length) {
            counts = new long[address.length];
        } else {
            Arrays.fill(counts, 0);
        }
        epochThread = threadId;
        epochId = epoch;
    }

    /** Ends the epoch and returns its counts (index → executions), trimmed to the blocks known. */
    public EpochCounts endEpoch() {
        EpochCounts e = new EpochCounts(epochThread, epochId, Arrays.copyOf(counts, blocks));
        if (depth > 0) {
            depth--;
            long[] outer = outerCounts[depth];
            outerCounts[depth] = null;
            // blocks first seen in the nested epoch may lie beyond the outer array
            counts = outer.length < address.length ? Arrays.copyOf(outer, address.length) : outer;
            epochThread = outerThread[depth];
            epochId = outerId[depth];
        } else {
            epochThread = -1;
            epochId = -1;
        }
        return e;
    }

    /** Counts of the epoch in progress so far (index → executions; read-only view, may be longer). */
    public long[] current() {
        return counts;
    }

    @Override
    public void block(long addr, int len) {
        long k = addr + 1;
        int mask = keys.length - 1;
        int i = (int) (mix(k) & mask);
        while (true) {
            long kk = keys[i];
            if (kk == k) { counts[values[i]]++; executed++; return; }
            if (kk == 0) break;
            i = (i + 1) & mask;
        }
        int idx = add(addr, len);
        keys[i] = k;
        values[i] = idx;
        if (blocks * 2 > keys.length) rehash();
        if (idx >= counts.length) counts = Arrays.copyOf(counts, address.length);
        counts[idx]++;
        executed++;
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
        return executed;
    }

    private int add(long addr, int len) {
        if (blocks == address.length) {
            address = Arrays.copyOf(address, blocks * 2);
            size = Arrays.copyOf(size, blocks * 2);
            thumb = Arrays.copyOf(thumb, blocks * 2);
        }
        address[blocks] = addr;
        size[blocks] = len;
        thumb[blocks] = thumbState != null && thumbState.getAsBoolean();
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
