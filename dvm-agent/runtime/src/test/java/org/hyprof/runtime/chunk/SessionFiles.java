package org.hyprof.runtime.chunk;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.Stats;

/**
 * A deterministic session file with one chunk of every kind, made with the chunk codecs, and a
 * set of damaged variants of it — the corpus the session-file readers are tested on. Their bytes
 * are golden files of this module ({@code src/test/resources/golden/session/}, checked by
 * {@code SessionFileGoldenTest}); readers elsewhere (correlator) build them from here.
 *
 * <p>The session: process {@code golden} (pid 4242), two probes ({@code app.Main.main} and its
 * loop), a calibration, a snapshot of thread 1 ({@code main}: 1 call of probe 1, 3 iterations of
 * loop 2), one event chunk (enter, loop enter, loop exit after 3 iterations, exit; with thread CPU
 * times), an error note, a hybrid run's info, epochs, blocks and cost per library, and a clean end.
 */
public final class SessionFiles {
    private SessionFiles() {}

    public static final long PID = 4242;
    public static final long TID = 1;

    /** The chunks of the golden session, in file order: type and payload. */
    public static List<Object[]> chunks() {
        List<Object[]> c = new ArrayList<>();
        PayloadWriter w = new PayloadWriter();
        TextChunk.encode(w, "format=" + SessionFormat.VERSION + "\npid=" + PID + "\nprocess=golden\nstartWallMillis=1764000000000\nstartNanos=1000000\n"
                + "mode=events\ncpuClock=sampled\nbudgetBytes=67108864\nvm=test\n");
        c.add(new Object[] {SessionFormat.HEADER, w.toByteArray()});
        TextChunk.encode(w.reset(), "probe\t1\tmethod\tprocess\tapp.Main\tmain\t([Ljava/lang/String;)V\t-1\t-1\t3\tMain.java\n"
                + "probe\t2\tloop\tloop\tapp.Main\tmain\t([Ljava/lang/String;)V\t1\t0\t5\tMain.java\n"
                + "skip\tapp.Main\thuge\t()V\ttoo large with probes\n");
        c.add(new Object[] {SessionFormat.MANIFEST, w.toByteArray()});
        new CalibrationChunk(2_000_000, 30_000, 80_000, 2_000, 25_000, 1_500, 3_200, 6_400).encode(w.reset());
        c.add(new Object[] {SessionFormat.CALIBRATION, w.toByteArray()});
        long[] main = new long[Stats.STRIDE], loop = new long[Stats.STRIDE];
        main[Stats.CALLS] = main[Stats.SEEN] = 1;
        main[Stats.INCL_RAW] = main[Stats.EXCL_RAW] = 9_000;
        main[Stats.INCL] = main[Stats.EXCL] = main[Stats.MIN] = main[Stats.MAX] = 8_500;
        main[Stats.HIST + Stats.bucket(8_500)] = 1;
        main[Stats.CPU_INCL] = main[Stats.CPU_EXCL] = 6_000; // 2,500 ns of its 8,500 waiting
        main[Stats.CPU_CLOCK] = loop[Stats.CPU_CLOCK] = 1;  // sampled
        loop[Stats.CALLS] = loop[Stats.SEEN] = 1;
        loop[Stats.ITERATIONS] = 3;
        loop[Stats.MIN] = Long.MAX_VALUE; // as the runtime keeps it until something is recorded
        SnapshotChunk.begin(w.reset(), 3_000_000, Stats.HIST, 1);
        SnapshotChunk.thread(w, TID, "main", 0, 0, 8_500, 0, 0, 6_000, 2);
        SnapshotChunk.probe(w, 1, main, 0, Stats.HIST, Stats.MIN, Stats.HIST, Stats.HIST_BUCKETS);
        SnapshotChunk.probe(w, 2, loop, 0, Stats.HIST, Stats.MIN, Stats.HIST, Stats.HIST_BUCKETS);
        c.add(new Object[] {SessionFormat.SNAPSHOT, w.toByteArray()});
        // with the thread's CPU clock at each record (cpuClock=sampled): 6,000 ns of main's 9,000 on a CPU
        byte[] records = new EventRecords.Writer(2_500_000, true).add(1, EventRecords.ENTER, 2_500_100, 40_000_000)
                .add(2, EventRecords.LOOP_ENTER, 2_500_200, 40_000_100).loopExit(2, 2_508_000, 40_005_000, 3)
                .add(1, EventRecords.EXIT, 2_509_100, 40_006_000).toByteArray();
        new EventsChunk(TID, 0, 2_500_000, records).encode(w.reset());
        c.add(new Object[] {SessionFormat.EVENTS, w.toByteArray()});
        TextChunk.encode(w.reset(), "probe failure: golden");
        c.add(new Object[] {SessionFormat.ERROR, w.toByteArray()});
        TextChunk.encode(w.reset(), "abi=armeabi-v7a\ncpu.profile=cortex-a9\n");
        c.add(new Object[] {SessionFormat.NATIVE_INFO, w.toByteArray()});
        new NativeEpochsChunk(List.of(new NativeEpochsChunk.Epoch(1, TID, 1, "Java_app_Main_kernel", 40, 1_000, 1_500,
                750, 400_000, 90_000))).encode(w.reset());
        c.add(new Object[] {SessionFormat.NATIVE_EPOCHS, w.toByteArray()});
        new NativeBlocksChunk(List.of(new NativeBlocksChunk.Block("libx.so", 0, 0x5a0, "kernel", 8, 2, "alu=1,branch=1",
                "000005a0  add      r0, r0, #1\n000005a4  bne      #0x5a0\n", new int[] {1, -1}, new long[] {20, 1})))
                .encode(w.reset());
        c.add(new Object[] {SessionFormat.NATIVE_BLOCKS, w.toByteArray()});
        new NativeLibrariesChunk(List.of(new NativeLibrariesChunk.Row("libx.so", "libx.so", false, 1, 30, 800, 1_100, 550, 300_000),
                new NativeLibrariesChunk.Row("libx.so", "libc.so", true, 1, 10, 200, 400, 200, 100_000))).encode(w.reset());
        c.add(new Object[] {SessionFormat.NATIVE_LIBRARIES, w.toByteArray()});
        ThreadsChunk.begin(w.reset(), 1);
        ThreadsChunk.row(w, TID, 31_337);
        c.add(new Object[] {SessionFormat.THREADS, w.toByteArray()});
        long[] nodes = new long[2 * TreeChunk.FIELDS]; // main, and its loop under it
        nodes[0] = 1;                       // calls
        nodes[2] = nodes[3] = 9_000;        // raw inclusive, exclusive
        nodes[4] = nodes[5] = nodes[6] = nodes[7] = 8_500; // deducted inclusive, exclusive, min, max
        nodes[10] = nodes[11] = 6_000;      // CPU
        nodes[12] = 1_000;                  // native: instructions, cycles, est ns, pJ (the epoch's)
        nodes[13] = 1_500;
        nodes[14] = 750;
        nodes[15] = 400_000;
        nodes[TreeChunk.FIELDS] = 1;
        nodes[TreeChunk.FIELDS + 6] = Long.MAX_VALUE; // as the runtime keeps min until a call is timed
        nodes[TreeChunk.FIELDS + 8] = 3;    // iterations
        TreeChunk.begin(w.reset(), 3_000_000, 100_000, 64, 1, 1);
        TreeChunk.thread(w, TID, 2);
        TreeChunk.node(w, 1, 0, 1 << 2, nodes, 0, null);
        TreeChunk.node(w, 2, 1, 2 << 2 | 1, nodes, TreeChunk.FIELDS, null);
        c.add(new Object[] {SessionFormat.TREE, w.toByteArray()});
        new EndChunk(1_764_000_001_000L, 4_000_000, 0).encode(w.reset());
        c.add(new Object[] {SessionFormat.END, w.toByteArray()});
        return c;
    }

    /** The golden session file: magic, then every chunk of {@link #chunks}. */
    public static byte[] golden() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(SessionFormat.MAGIC, 0, SessionFormat.MAGIC.length);
        for (Object[] c : chunks()) out.writeBytes(chunk((Integer) c[0], (byte[]) c[1]));
        return out.toByteArray();
    }

    /** A whole chunk with its CRC, as the runtime writes it. */
    public static byte[] chunk(int type, byte[] payload) {
        return new PayloadWriter().bytes(payload).chunk(type);
    }

    /** Where the golden file's n-th chunk (0 = HEADER) starts. */
    public static int offsetOfChunk(int n) {
        int at = SessionFormat.MAGIC.length;
        List<Object[]> c = chunks();
        for (int i = 0; i < n; i++) at += 9 + ((byte[]) c.get(i)[1]).length;
        return at;
    }

    /**
     * Damaged variants, by name. Each keeps the golden file's valid prefix where it can, so a reader
     * must import what comes before the damage and say where the damage is:
     * <ul>
     * <li>{@code bad-magic}, {@code bad-version}: not a session file of this format at all;</li>
     * <li>{@code empty-after-magic}: the magic only;</li>
     * <li>{@code truncated-chunk-header}: cut inside the 5 bytes of the SNAPSHOT chunk's header;</li>
     * <li>{@code torn-last-chunk}: the TREE chunk, the last before END, cut in the middle (kill -9 during a write);</li>
     * <li>{@code bad-crc}: one payload byte of the EVENTS chunk changed;</li>
     * <li>{@code huge-length}: the SNAPSHOT chunk's length field set to 0x7fffffff;</li>
     * <li>{@code unknown-type}: a chunk of type 200 after the calibration;</li>
     * <li>{@code string-length-overflow}: an ERROR chunk (valid CRC) whose string length is 0x7fffffff (pos + n overflows an int);</li>
     * <li>{@code padded-varints}: a SNAPSHOT (valid CRC) whose thread count is an 11-byte varint;</li>
     * <li>{@code huge-count}: a NATIVE_BLOCKS chunk (valid CRC) claiming 2^31 − 1 blocks in 10 bytes.</li>
     * </ul>
     * The last three have valid chunk framing: a reader skips the chunk with a warning and goes on.
     */
    public static Map<String, byte[]> damaged() {
        byte[] g = golden();
        Map<String, byte[]> d = new LinkedHashMap<>();
        byte[] badMagic = g.clone();
        badMagic[0] = 'X';
        d.put("bad-magic", badMagic);
        byte[] badVersion = g.clone();
        badVersion[7] = 99;
        d.put("bad-version", badVersion);
        d.put("empty-after-magic", Arrays.copyOf(g, SessionFormat.MAGIC.length));
        int snapshot = offsetOfChunk(3);
        d.put("truncated-chunk-header", Arrays.copyOf(g, snapshot + 3));
        int end = offsetOfChunk(chunks().size() - 2); // the TREE chunk; END never comes
        d.put("torn-last-chunk", Arrays.copyOf(g, end + 7));
        byte[] badCrc = g.clone();
        badCrc[offsetOfChunk(4) + 6] ^= 0x40;
        d.put("bad-crc", badCrc);
        byte[] huge = g.clone();
        huge[snapshot + 1] = 0x7f;
        huge[snapshot + 2] = huge[snapshot + 3] = huge[snapshot + 4] = (byte) 0xff;
        d.put("huge-length", huge);
        d.put("unknown-type", insert(g, snapshot, chunk(200, new byte[] {1, 2, 3})));
        d.put("string-length-overflow", insert(g, snapshot,
                chunk(SessionFormat.ERROR, new PayloadWriter().varint(0x7fffffffL).bytes(new byte[] {'x'}).toByteArray())));
        PayloadWriter padded = new PayloadWriter().varint(5_000_000).varint(Stats.HIST)
                .bytes(new byte[] {(byte) 0x81, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                        (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x00});
        d.put("padded-varints", insert(g, snapshot, chunk(SessionFormat.SNAPSHOT, padded.toByteArray())));
        d.put("huge-count", insert(g, snapshot,
                chunk(SessionFormat.NATIVE_BLOCKS, new PayloadWriter().varint(Integer.MAX_VALUE).bytes(new byte[5]).toByteArray())));
        return d;
    }

    private static byte[] insert(byte[] g, int at, byte[] chunk) {
        byte[] r = new byte[g.length + chunk.length];
        System.arraycopy(g, 0, r, 0, at);
        System.arraycopy(chunk, 0, r, at, chunk.length);
        System.arraycopy(g, at, r, at + chunk.length, g.length - at);
        return r;
    }

    /** Names of the damaged variants whose framing is intact (readers skip one chunk and go on). */
    public static final List<String> SKIPPED_CHUNK = List.of("string-length-overflow", "padded-varints", "huge-count");

    /** All of them, for iteration in tests. */
    public static Map<String, byte[]> all() {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put("golden", golden());
        m.putAll(damaged());
        return m;
    }
}
