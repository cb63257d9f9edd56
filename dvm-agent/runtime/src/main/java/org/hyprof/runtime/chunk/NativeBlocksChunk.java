package org.hyprof.runtime.chunk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * NATIVE_BLOCKS (hybrid runs): every native block executed in one library — library, block index,
 * offset in the library, function (empty if unknown), size in bytes, instructions, categories
 * ({@code name=n,...} per execution), disassembly (a line per instruction), then how often each
 * probe's native calls executed it (probe id, executions; -1 is {@code JNI_OnLoad}).
 */
public final class NativeBlocksChunk {
    public final List<Block> blocks;

    public NativeBlocksChunk(List<Block> blocks) {
        this.blocks = Collections.unmodifiableList(blocks);
    }

    /** One block and its executions per probe. */
    public static final class Block {
        public final String library;
        public final int index;
        public final long offset;
        /** The function it belongs to, or null. */
        public final String function;
        public final int sizeBytes;
        public final long instructions;
        public final String categories;
        public final String disassembly;
        /** Probe ids, in the order of {@link #executions}. */
        public final int[] probeIds;
        public final long[] executions;

        public Block(String library, int index, long offset, String function, int sizeBytes, long instructions,
                     String categories, String disassembly, int[] probeIds, long[] executions) {
            if (probeIds.length != executions.length) throw new IllegalArgumentException("probe ids and executions differ in length");
            this.library = library;
            this.index = index;
            this.offset = offset;
            this.function = function;
            this.sizeBytes = sizeBytes;
            this.instructions = instructions;
            this.categories = categories;
            this.disassembly = disassembly;
            this.probeIds = probeIds;
            this.executions = executions;
        }
    }

    /**
     * How a native block is named wherever it is shown ({@code hyprof native}, reports, the TUI):
     * the library's file name and the block's offset in it, as objdump shows it —
     * {@code libkernels.so+0x1a2c}. The offset is what this chunk and the store keep; the
     * emulator's load address never leaves bb-tracer. {@code library} may be a path (its file name
     * is used).
     */
    public static String blockId(String library, long offset) {
        int slash = Math.max(library.lastIndexOf('/'), library.lastIndexOf('\\'));
        return library.substring(slash + 1) + "+0x" + Long.toHexString(offset);
    }

    public void encode(PayloadWriter w) {
        w.varint(blocks.size());
        for (Block b : blocks) {
            w.string(b.library).varint(b.index).varint(b.offset).string(b.function == null ? "" : b.function)
                    .varint(b.sizeBytes).varint(b.instructions).string(b.categories).string(b.disassembly)
                    .varint(b.probeIds.length);
            for (int i = 0; i < b.probeIds.length; i++) w.varint(b.probeIds[i] & 0xffffffffL).varint(b.executions[i]);
        }
    }

    public static NativeBlocksChunk decode(PayloadReader r) {
        int n = r.count(9);
        List<Block> blocks = new ArrayList<Block>(n);
        for (int i = 0; i < n; i++) {
            String lib = r.string();
            int index = r.varintAtMost(Integer.MAX_VALUE, "block index");
            long offset = r.varint();
            String function = r.string();
            int size = r.varintAtMost(Integer.MAX_VALUE, "block size");
            long instructions = r.varint();
            String categories = r.string(), disassembly = r.string();
            int k = r.count(2);
            int[] ids = new int[k];
            long[] counts = new long[k];
            for (int c = 0; c < k; c++) {
                ids[c] = (int) r.varint();
                counts[c] = r.varint();
            }
            blocks.add(new Block(lib, index, offset, function.isEmpty() ? null : function, size, instructions,
                    categories, disassembly, ids, counts));
        }
        return new NativeBlocksChunk(blocks);
    }
}
