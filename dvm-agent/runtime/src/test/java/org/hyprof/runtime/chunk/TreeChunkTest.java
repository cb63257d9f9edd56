package org.hyprof.runtime.chunk;

import static org.junit.jupiter.api.Assertions.*;

import org.hyprof.runtime.DurationHistogram;
import org.junit.jupiter.api.Test;

/** TREE chunks: a round trip with a histogram, and hostile payloads refused before they allocate. */
class TreeChunkTest {
    private static long[] fields(long calls) {
        long[] f = new long[TreeChunk.FIELDS];
        f[0] = calls;
        f[6] = Long.MAX_VALUE; // min until timed
        return f;
    }

    @Test
    void nodesRoundTripWithTheirHistograms() {
        DurationHistogram h = new DurationHistogram(DurationHistogram.RUNTIME_MAX_SLOTS);
        for (long d = 1_000; d < 2_000_000; d *= 3) h.recordAnyway(d);
        PayloadWriter w = new PayloadWriter();
        TreeChunk.begin(w, 5, 1_000, 3, 0, 1);
        TreeChunk.thread(w, 42, 2);
        TreeChunk.node(w, 1, 0, 7 << 2, fields(3), 0, h);
        TreeChunk.node(w, 2, 1, 8 << 2 | 1, fields(0), 0, null);
        PayloadReader r = new PayloadReader(w.toByteArray());
        TreeChunk c = TreeChunk.decode(r);
        assertTrue(r.atEnd());
        assertEquals(1_000, c.nodeBudget);
        TreeChunk.Node a = c.threads.get(0).nodes.get(0), b = c.threads.get(0).nodes.get(1);
        assertEquals(7, a.probeId());
        assertEquals(0, a.kind());
        assertEquals(0, a.fields[6], "an untimed min is sent as 0");
        assertEquals(h.total(), a.histogram.total());
        assertEquals(1, b.kind());
        assertNull(b.histogram);
    }

    @Test
    void aNodeWhoseParentDoesNotComeFirstIsRefused() {
        PayloadWriter w = new PayloadWriter();
        TreeChunk.begin(w, 5, 1_000, 3, 0, 1);
        TreeChunk.thread(w, 42, 1);
        TreeChunk.node(w, 3, 3, 7 << 2, fields(1), 0, null); // its own parent: a cycle
        MalformedPayloadException e = assertThrows(MalformedPayloadException.class,
                () -> TreeChunk.decode(new PayloadReader(w.toByteArray())));
        assertTrue(e.getMessage().contains("parent"), e.getMessage());
    }

    @Test
    void countsAndFieldsBeyondThePayloadAreRefusedBeforeAllocating() {
        // a million nodes claimed in a few bytes
        PayloadWriter w = new PayloadWriter();
        TreeChunk.begin(w, 5, 1_000, 3, 0, 1);
        w.varint(42).varint(1_000_000);
        assertThrows(MalformedPayloadException.class, () -> TreeChunk.decode(new PayloadReader(w.toByteArray())));
        // a field count past the maximum
        PayloadWriter f = new PayloadWriter().varint(5).varint(TreeChunk.MAX_FIELDS + 1);
        assertThrows(MalformedPayloadException.class, () -> TreeChunk.decode(new PayloadReader(f.toByteArray())));
        // a key past 32 bits
        PayloadWriter k = new PayloadWriter();
        TreeChunk.begin(k, 5, 1_000, 3, 0, 1);
        k.varint(42).varint(1).varint(1).varint(0).varint(1L << 40);
        for (int i = 0; i < TreeChunk.FIELDS + 2; i++) k.varint(0);
        assertThrows(MalformedPayloadException.class, () -> TreeChunk.decode(new PayloadReader(k.toByteArray())));
    }
}
