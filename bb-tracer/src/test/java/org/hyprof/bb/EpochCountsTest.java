package org.hyprof.bb;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Userland;
import org.junit.jupiter.api.Test;

/**
 * An epoch reports, and its accounting touches, only the blocks it ran (issue 16 item 5): after
 * many blocks are known (bionic's start-up and libc/libm work: ~1,000), a call that runs four blocks reads four
 * slots, with exact counts, and leaves its slots clear for the next call; nested epochs and a
 * count buffer that grows in mid-epoch keep their counts apart and whole.
 */
class EpochCountsTest {
    /** count_loop(n ≥ 1): B1, B2 and B4 once, the loop block B3 n − 1 times (TracerTest derives it). */
    static void assertCountLoop(BlockCounter.EpochCounts c, int n, String what) {
        long[] ex = c.executions().clone();
        Arrays.sort(ex);
        assertArrayEquals(new long[] {1, 1, 1, n - 1}, ex, what + ": " + Arrays.toString(c.indexes()));
        assertEquals(n + 2, c.executedBlocks(), what);
        for (int k = 1; k < c.size(); k++) assertTrue(c.indexes()[k - 1] < c.indexes()[k], what + ": indexes ascend");
    }

    @Test
    void aCallAfterLibcsStartUpReportsOnlyItsOwnBlocksOnEveryEngineAndAbi() {
        for (Path so : new Path[] {TracerTest.ARM64, TracerTest.ARM, TracerTest.THUMB}) {
            for (Engine engine : Engines.all()) {
                try (Emulator e = Emulator.load(so, engine, true, Userland.BIONIC)) {
                    String what = so.getParent().getFileName() + "/" + so.getFileName() + " " + engine.id;
                    // libc's start-up, then malloc's first call, sin, sqrt and free (kernel_fft)
                    e.call("kernel_fft", List.of(Emulator.Arg.ofInt(64), Emulator.Arg.ofInt(1)));
                    int known = e.counter.blockCount();
                    assertTrue(known > 500, what + ": " + known + " distinct blocks known");
                    for (int call = 0; call < 3; call++) { // each call alone: the slots were cleared
                        Emulator.Result r = e.call("count_loop", List.of(Emulator.Arg.ofInt(1000)));
                        assertEquals(1000 * 999 / 2, (int) r.r0(), what);
                        assertCountLoop(r.counts(), 1000, what + " call " + call);
                        assertEquals(e.counter.blockCount(), r.counts().blocksKnown(), what);
                    }
                    long[] dense = e.call("count_loop", List.of(Emulator.Arg.ofInt(5))).counts().counts();
                    assertEquals(7, Arrays.stream(dense).sum(), what + ": the dense view holds the same counts");
                }
            }
        }
    }

    /** The Java engine's path through {@link BlockCounter#block}, with addresses of our own. */
    @Test
    void epochsCountApartAcrossGrowthAndNesting() {
        BlockCounter k = new BlockCounter();
        k.retargetTo((c, t) -> { });
        // a "start-up" of 5,000 blocks: the count buffer grows from 256 slots in mid-epoch
        k.beginEpoch(1, 1);
        for (int i = 0; i < 5000; i++) {
            k.block(0x1000 + 16L * i, 8);
            if (i % 7 == 0) k.block(0x1000 + 16L * i, 8);
        }
        BlockCounter.EpochCounts init = k.endEpoch();
        assertEquals(5000, init.size());
        assertEquals(5000 + 715, init.executedBlocks());
        assertEquals(2, init.executions()[7]);
        assertEquals(1, init.executions()[4999]);

        k.beginEpoch(1, 2);
        for (int i = 0; i < 10; i++) k.block(0x1000 + 16L * 4000, 8);
        k.block(0x1000 + 16L * 3, 8);
        BlockCounter.EpochCounts two = k.endEpoch();
        assertArrayEquals(new int[] {3, 4000}, two.indexes());
        assertArrayEquals(new long[] {1, 10}, two.executions());

        // nested: outer runs block 3 twice, an inner epoch runs it once and a new block, outer once more
        k.beginEpoch(1, 3);
        k.block(0x1000 + 16L * 3, 8);
        k.block(0x1000 + 16L * 3, 8);
        k.beginEpoch(1, 4);
        k.block(0x1000 + 16L * 3, 8);
        k.block(0x900000, 4); // block 5000: beyond every buffer so far
        BlockCounter.EpochCounts inner = k.endEpoch();
        assertEquals(4, inner.epochId());
        assertArrayEquals(new int[] {3, 5000}, inner.indexes());
        assertArrayEquals(new long[] {1, 1}, inner.executions());
        k.block(0x1000 + 16L * 3, 8);
        k.block(0x900000, 4);
        BlockCounter.EpochCounts outer = k.endEpoch();
        assertEquals(3, outer.epochId());
        assertArrayEquals(new int[] {3, 5000}, outer.indexes());
        assertArrayEquals(new long[] {3, 1}, outer.executions());

        k.beginEpoch(1, 5);
        assertEquals(0, k.current().size(), "clear after every epoch");
        assertEquals(0, k.endEpoch().size());
        assertEquals(5000 + 715 + 11 + 6, k.executed(), "blocks executed over all epochs");
    }
}
