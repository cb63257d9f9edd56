package org.hyprof.runtime.chunk;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.testing.Golden;
import org.junit.jupiter.api.Test;

/**
 * Golden bytes of the session file and of its damaged variants ({@link SessionFiles}): a change to
 * any chunk codec shows here as a hex diff. Regenerate with
 * {@code mvn verify -Dhyprof.regenerateGoldens=true} and review the diff.
 */
class SessionFileGoldenTest {
    @Test
    void sessionFileAndDamagedVariantsAreGolden() {
        for (Map.Entry<String, byte[]> e : SessionFiles.all().entrySet())
            Golden.checkBytes("session/" + e.getKey() + ".hyprof.hex", e.getValue());
    }

    @Test
    void everyChunkKindIsInTheGoldenFileAndDecodesToWhatWasEncoded() {
        boolean[] seen = new boolean[SessionFormat.LAST_TYPE + 1];
        for (Object[] c : SessionFiles.chunks()) {
            int type = (Integer) c[0];
            PayloadReader r = new PayloadReader((byte[]) c[1]);
            seen[type] = true;
            switch (type) {
                case SessionFormat.HEADER -> assertTrue(TextChunk.decode(r).contains("process=golden"));
                case SessionFormat.MANIFEST -> assertEquals(3, TextChunk.decode(r).lines().count());
                case SessionFormat.CALIBRATION -> assertEquals(80_000, CalibrationChunk.decode(r).perEventPicos);
                case SessionFormat.SNAPSHOT -> {
                    SnapshotChunk s = SnapshotChunk.decode(r, org.hyprof.runtime.Stats.HIST, org.hyprof.runtime.Stats.HIST_BUCKETS);
                    assertEquals(1, s.threads.size());
                    assertEquals(2, s.threads.get(0).probes.size());
                    assertEquals(0, s.threads.get(0).probes.get(1).fields[org.hyprof.runtime.Stats.MIN], "unrecorded MIN is 0");
                    assertEquals(3, s.threads.get(0).probes.get(1).fields[org.hyprof.runtime.Stats.ITERATIONS]);
                }
                case SessionFormat.EVENTS -> assertEquals(4, EventRecords.count(EventsChunk.decode(r).records));
                case SessionFormat.ERROR -> assertEquals("probe failure: golden", TextChunk.decode(r));
                case SessionFormat.END -> assertEquals(4_000_000, EndChunk.decode(r).endNanos);
                case SessionFormat.NATIVE_INFO -> assertTrue(TextChunk.decode(r).startsWith("abi="));
                case SessionFormat.NATIVE_EPOCHS -> assertEquals("Java_app_Main_kernel", NativeEpochsChunk.decode(r).epochs.get(0).symbol);
                case SessionFormat.NATIVE_BLOCKS -> assertArrayEquals(new int[] {1, -1}, NativeBlocksChunk.decode(r).blocks.get(0).probeIds);
                case SessionFormat.NATIVE_LIBRARIES -> {
                    NativeLibrariesChunk l = NativeLibrariesChunk.decode(r);
                    assertEquals(2, l.rows.size());
                    assertEquals("libc.so", l.rows.get(1).codeLibrary);
                    assertTrue(l.rows.get(1).system);
                    assertEquals(100_000, l.rows.get(1).energyPicojoules);
                }
                case SessionFormat.THREADS -> {
                    ThreadsChunk t = ThreadsChunk.decode(r);
                    assertEquals(1, t.rows.size());
                    assertEquals(31_337, t.rows.get(0).osTid);
                }
                case SessionFormat.TREE -> {
                    TreeChunk t = TreeChunk.decode(r);
                    assertEquals(2, t.threads.get(0).nodes.size());
                    TreeChunk.Node loop = t.threads.get(0).nodes.get(1);
                    assertEquals(1, loop.parent);
                    assertEquals(2, loop.probeId());
                    assertEquals(1, loop.kind());
                    assertEquals(0, loop.fields[6], "untimed min is 0");
                    assertEquals(3, loop.fields[8]);
                }
                default -> fail("unknown type " + type);
            }
            assertTrue(r.atEnd(), "chunk type " + type + " decoded whole");
        }
        for (int t = SessionFormat.HEADER; t <= SessionFormat.LAST_TYPE; t++) assertTrue(seen[t], "chunk type " + t + " in the golden file");
    }
}
