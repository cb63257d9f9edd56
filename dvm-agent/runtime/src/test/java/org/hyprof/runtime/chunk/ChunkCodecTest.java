package org.hyprof.runtime.chunk;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.hyprof.runtime.Stats;
import org.junit.jupiter.api.Test;

/** The payload reader's bounds and the codecs' round trips. */
class ChunkCodecTest {
    private static PayloadReader read(PayloadWriter w) {
        return new PayloadReader(w.toByteArray());
    }

    @Test
    void varintsRoundTripAtTheirEdges() {
        long[] values = {0, 1, 127, 128, 16_383, 16_384, Integer.MAX_VALUE, Long.MAX_VALUE, -1, Long.MIN_VALUE};
        PayloadWriter w = new PayloadWriter();
        for (long v : values) w.varint(v);
        PayloadReader r = read(w);
        for (long v : values) assertEquals(v, r.varint());
        assertTrue(r.atEnd());
        assertEquals(10, new PayloadWriter().varint(-1).size(), "a negative number takes 10 bytes");
    }

    @Test
    void lengthsAndCountsAreCheckedAgainstWhatRemainsBeforeAnythingIsAllocated() {
        // 0x7fffff00: the 2 GiB string of a hostile HELLO or session file; int overflow of pos + n must not pass
        PayloadReader r = read(new PayloadWriter().varint(0x7fffff00L).bytes(new byte[] {'x'}));
        MalformedPayloadException e = assertThrows(MalformedPayloadException.class, r::string);
        assertTrue(e.getMessage().contains("runs past the payload"), e.getMessage());
        assertThrows(MalformedPayloadException.class, () -> read(new PayloadWriter().varint(-1)).length());
        assertThrows(MalformedPayloadException.class, () -> read(new PayloadWriter().varint(3).bytes(new byte[5])).count(2));
        assertEquals(2, read(new PayloadWriter().varint(2).bytes(new byte[4])).count(2));
        PayloadReader b = read(new PayloadWriter().bytes(new byte[3]));
        assertThrows(MalformedPayloadException.class, () -> b.bytes(Integer.MAX_VALUE));
        assertThrows(MalformedPayloadException.class, () -> b.bytes(-1));
        assertEquals(3, b.remaining(), "a refused read consumes nothing");
    }

    @Test
    void numbersLongerThanTenBytesAndTruncatedOnesAreRefused() {
        byte[] padded = {(byte) 0x81, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x00};
        assertThrows(MalformedPayloadException.class, () -> new PayloadReader(padded).varint());
        assertThrows(MalformedPayloadException.class, () -> new PayloadReader(new byte[] {(byte) 0x80}).varint());
        assertThrows(MalformedPayloadException.class, () -> new PayloadReader(new byte[0]).u8());
        assertThrows(MalformedPayloadException.class,
                () -> read(new PayloadWriter().varint(300)).varintAtMost(SnapshotChunk.MAX_FIELDS, "fields"));
    }

    @Test
    void aReaderOverPartOfAnArrayStaysInsideIt() {
        byte[] b = {5, 1, 2, 3, 4, 5, 6};
        PayloadReader r = new PayloadReader(b, 0, 3);
        assertThrows(MalformedPayloadException.class, r::string, "length 5 with 2 bytes of the range left");
        assertThrows(IndexOutOfBoundsException.class, () -> new PayloadReader(b, 5, Integer.MAX_VALUE));
    }

    @Test
    void snapshotDecodeKeepsFieldsItDoesNotKnowAndGivesZeroForMissingOnes() {
        long[] page = new long[Stats.STRIDE + 2];
        page[Stats.CALLS] = 7;
        page[Stats.MIN] = Long.MAX_VALUE;
        page[Stats.HIST + 3] = 7;
        PayloadWriter w = new PayloadWriter();
        SnapshotChunk.begin(w, 99, Stats.HIST, 1);
        SnapshotChunk.thread(w, 12, "worker", 1, 2, 3, 4, 5, 6, 1);
        SnapshotChunk.probe(w, 64, page, 0, Stats.HIST, Stats.MIN, Stats.HIST, Stats.HIST_BUCKETS);
        SnapshotChunk s = SnapshotChunk.decode(read(w), Stats.HIST + 4, 8);
        SnapshotChunk.ProbeRow p = s.threads.get(0).probes.get(0);
        assertEquals(64, p.id);
        assertEquals(Stats.HIST + 4, p.fields.length, "room for the fields the reader knows");
        assertEquals(7, p.fields[Stats.CALLS]);
        assertEquals(0, p.fields[Stats.MIN]);
        assertEquals(7, p.histogram[3]);
        assertEquals(8, p.histogram.length);
        SnapshotChunk.ThreadRow t = s.threads.get(0);
        assertEquals(List.of(12L, 1L, 2L, 3L, 4L, 5L), List.of(t.tid, t.depthDrops, t.eventDrops, t.topInclNanos,
                t.topNativeEstNanos, t.topNativeEnergyPicojoules));
    }

    /** Format 4: a probe's fine histogram follows its log₂ pairs; one call is sent as its minimum's bucket. */
    @Test
    void snapshotFineHistogramsRoundTrip() {
        long[] page = new long[Stats.STRIDE];
        page[Stats.CALLS] = 3;
        page[Stats.MIN] = 100;
        org.hyprof.runtime.DurationHistogram f = new org.hyprof.runtime.DurationHistogram(64);
        f.recordAnyway(100);
        f.recordAnyway(100_000);
        f.recordAnyway(100_000);
        long[] once = new long[Stats.STRIDE];
        once[Stats.CALLS] = 1;
        once[Stats.MIN] = once[Stats.MAX] = 12_345;
        PayloadWriter w = new PayloadWriter();
        SnapshotChunk.begin(w, 99, Stats.HIST, 1);
        SnapshotChunk.thread(w, 12, "worker", 0, 0, 0, 0, 0, 0, 2);
        SnapshotChunk.probe(w, 5, page, 0, Stats.HIST, Stats.MIN, Stats.HIST, Stats.HIST_BUCKETS, f);
        SnapshotChunk.probe(w, 6, once, 0, Stats.HIST, Stats.MIN, Stats.HIST, Stats.HIST_BUCKETS, null);
        SnapshotChunk s = SnapshotChunk.decode(read(w), Stats.HIST, Stats.HIST_BUCKETS);
        SnapshotChunk.ProbeRow p = s.threads.get(0).probes.get(0), q = s.threads.get(0).probes.get(1);
        assertArrayEquals(f.dense(), p.fine.dense());
        assertEquals(org.hyprof.runtime.Buckets.SUB_BITS + 1, p.fields[Stats.FINE_HIST]);
        assertEquals(1, q.fine.total());
        assertEquals(1, q.fine.dense()[org.hyprof.runtime.Buckets.index(12_345, org.hyprof.runtime.Buckets.SUB_BITS)]);
        // a format-3 snapshot (fewer fields) has none
        PayloadWriter old = new PayloadWriter();
        SnapshotChunk.begin(old, 99, Stats.FINE_HIST, 1);
        SnapshotChunk.thread(old, 12, "worker", 0, 0, 0, 0, 0, 0, 1);
        SnapshotChunk.probe(old, 5, page, 0, Stats.FINE_HIST, Stats.MIN, Stats.HIST, Stats.HIST_BUCKETS, f);
        assertNull(SnapshotChunk.decode(read(old), Stats.HIST, Stats.HIST_BUCKETS).threads.get(0).probes.get(0).fine);
    }

    /** Hostile fine histograms: an unknown resolution is refused, buckets outside the scheme are skipped, a huge pair count is checked against the bytes. */
    @Test
    void hostileFineHistogramsAreRefusedOrSkipped() {
        for (long[] bad : new long[][] {{8, 0}, {7, 2, 2688, 5, 0, 1}, {7, Integer.MAX_VALUE}}) {
            PayloadWriter w = new PayloadWriter();
            SnapshotChunk.begin(w, 99, Stats.HIST, 1);
            w.varint(1).string("t").varint(0).varint(0).varint(0).varint(0).varint(0).varint(0).varint(1);
            w.varint(5);
            for (int f = 0; f < Stats.HIST; f++) w.varint(f == Stats.FINE_HIST ? bad[0] : f == Stats.CALLS ? 1 : 0);
            w.varint(0); // no log₂ pairs
            for (int i = 1; i < bad.length; i++) w.varint(bad[i]);
            if (bad[0] == 8) assertThrows(MalformedPayloadException.class, () -> SnapshotChunk.decode(read(w), Stats.HIST, Stats.HIST_BUCKETS));
            else if (bad[1] == Integer.MAX_VALUE) assertThrows(MalformedPayloadException.class, () -> SnapshotChunk.decode(read(w), Stats.HIST, Stats.HIST_BUCKETS));
            else {
                SnapshotChunk.ProbeRow p = SnapshotChunk.decode(read(w), Stats.HIST, Stats.HIST_BUCKETS).threads.get(0).probes.get(0);
                assertEquals(1, p.fine.total(), "bucket 2688 skipped, bucket 0 kept");
                assertEquals(org.hyprof.runtime.DurationHistogram.MIN_SLOTS, p.fine.slots());
            }
        }
    }

    @Test
    void eventRecordsRoundTripAndACutRecordEndsTheChunk() {
        byte[] rec = new EventRecords.Writer(1_000).add(3, EventRecords.ENTER, 1_100).add(4, EventRecords.LOOP_ENTER, 1_050)
                .loopExit(4, 1_500, 12).add(3, EventRecords.THROW, 2_000).toByteArray();
        EventRecords.Cursor c = new EventRecords.Cursor(rec, 1_000);
        long[][] expected = {{3, EventRecords.ENTER, 1_100, 0}, {4, EventRecords.LOOP_ENTER, 1_050, 0},
                {4, EventRecords.LOOP_EXIT, 1_500, 12}, {3, EventRecords.THROW, 2_000, 0}};
        for (long[] x : expected) {
            assertTrue(c.next());
            assertArrayEquals(x, new long[] {c.id(), c.kind(), c.nanos(), c.iterations()});
        }
        assertFalse(c.next());
        assertEquals(4, EventRecords.count(rec));
        assertEquals(3, EventRecords.count(java.util.Arrays.copyOf(rec, rec.length - 1)), "the cut last record does not count");
    }

    @Test
    void eventRecordsWithCpuTimeRoundTripAndTheMarkIsNoRecord() {
        // an OPEN record first (an earlier entry: negative deltas of both clocks), then a call
        byte[] rec = new EventRecords.Writer(1_000, true).add(2, EventRecords.OPEN, 900, 5_000_000)
                .add(3, EventRecords.ENTER, 1_100, 5_000_400).loopExit(4, 1_500, 5_000_450, 12)
                .add(3, EventRecords.EXIT, 2_000, 5_000_900).toByteArray();
        assertEquals(EventRecords.CPU_MARK, rec[0], "the mark first");
        EventRecords.Cursor c = new EventRecords.Cursor(rec, 1_000);
        assertTrue(c.hasCpu());
        long[][] expected = {{2, EventRecords.OPEN, 900, 5_000_000, 0}, {3, EventRecords.ENTER, 1_100, 5_000_400, 0},
                {4, EventRecords.LOOP_EXIT, 1_500, 5_000_450, 12}, {3, EventRecords.EXIT, 2_000, 5_000_900, 0}};
        for (long[] x : expected) {
            assertTrue(c.next());
            assertArrayEquals(x, new long[] {c.id(), c.kind(), c.nanos(), c.cpuNanos(), c.iterations()});
        }
        assertFalse(c.next());
        assertEquals(4, EventRecords.count(rec), "the mark is not a record");
        assertEquals(3, EventRecords.count(java.util.Arrays.copyOf(rec, rec.length - 1)), "the cut last record does not count");

        EventRecords.Cursor old = new EventRecords.Cursor(new EventRecords.Writer(1_000).add(3, EventRecords.ENTER, 1_100).toByteArray(), 1_000);
        assertFalse(old.hasCpu(), "records without the mark (cpuClock=off, format 4) carry no CPU time");
        assertTrue(old.next());
        assertEquals(-1, old.cpuNanos());

        byte[] markInside = java.util.Arrays.copyOf(rec, rec.length + 1);
        markInside[rec.length] = EventRecords.CPU_MARK;
        assertEquals(4, EventRecords.count(markInside), "a mark after the first byte ends the chunk (damaged)");
    }

    @Test
    void nativeBlocksKeepJniOnLoadsProbeIdInEitherEncoding() {
        // the hybrid runtime once wrote -1 sign-extended (10 bytes); the codec writes it as 32 bits (5 bytes)
        PayloadWriter old = new PayloadWriter().varint(1).string("libx.so").varint(0).varint(0x10).string("").varint(4)
                .varint(1).string("").string("").varint(1).varint(-1L).varint(9);
        NativeBlocksChunk.Block b = NativeBlocksChunk.decode(read(old)).blocks.get(0);
        assertArrayEquals(new int[] {-1}, b.probeIds);
        assertNull(b.function);
        PayloadWriter w = new PayloadWriter();
        new NativeBlocksChunk(List.of(b)).encode(w);
        NativeBlocksChunk.Block again = NativeBlocksChunk.decode(read(w)).blocks.get(0);
        assertArrayEquals(new int[] {-1}, again.probeIds);
        assertArrayEquals(new long[] {9}, again.executions);
        assertEquals(0x10, again.offset);
    }
}
