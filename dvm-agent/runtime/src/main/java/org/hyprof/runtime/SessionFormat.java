package org.hyprof.runtime;

import org.hyprof.runtime.chunk.EventRecords;

/**
 * The crash-safe session file the runtime writes and {@code hyprof import} reads.
 *
 * <pre>
 * file    := MAGIC chunk*
 * MAGIC   := "HYPROF" 0x00 VERSION                       (8 bytes)
 * chunk   := type:u8 length:u32be payload[length] crc:u32be
 *            crc = CRC-32 of the type byte, the 4 length bytes and the payload
 * </pre>
 *
 * Each chunk is written with one {@code write} call, so after {@code kill -9} the file is a valid
 * prefix plus at most one torn chunk, which the reader detects by length or CRC and reports.
 * Integers inside payloads are unsigned LEB128 varints unless stated; strings are a varint byte
 * length and UTF-8 bytes. Each chunk kind owns its encoding and decoding in
 * {@code org.hyprof.runtime.chunk} ({@code TextChunk}, {@code CalibrationChunk},
 * {@code SnapshotChunk}, {@code EventsChunk}/{@code EventRecords}, {@code EndChunk},
 * {@code NativeBlocksChunk}, {@code NativeEpochsChunk}, {@code NativeLibrariesChunk}), over one reader ({@code PayloadReader},
 * which checks every length and count against what remains) and one writer ({@code PayloadWriter}).
 * Payloads by type:
 * <ul>
 * <li>{@link #HEADER}: string of {@code key=value} lines (format, pid, process, startWallMillis,
 *     startNanos, mode, cpuClock (format 3), budgetBytes, vm).</li>
 * <li>{@link #MANIFEST}: string, TSV lines of the probe manifest (appended as classes load).</li>
 * <li>{@link #CALIBRATION}: measuredAtNanos, innerPicos, perEventPicos, perIterPicos, clockPicos,
 *     then perEventSpreadPicos, countPicos, loopFlushPicos (absent in files written before
 *     2026-11-29: read as 0, unknown; readers of the first five ignore them).</li>
 * <li>{@link #SNAPSHOT}: nanoTime, field count F, thread count, then per thread: tid, name,
 *     depthDrops, eventDrops, top-level deducted inclusive ns (the thread's total), native
 *     estimated ns and energy pJ under top-level activations, (format 3, F above
 *     {@code Stats.CPU_CLOCK}) top-level thread CPU ns, probe count, then per probe: id,
 *     F fields in {@link Stats} index order ({@link Stats#MIN} written as 0 when nothing was
 *     recorded; a reader ignores fields it does not know), non-empty bucket count, then
 *     (bucket, count) pairs of the log₂ histogram, then (format 4, F above {@code Stats.FINE_HIST})
 *     the fine histogram's pair count and (bucket, count) pairs, in {@code Buckets} at the resolution
 *     field {@code FINE_HIST} gives less one (0: none, log₂ percentiles only). Values are cumulative: a later snapshot of the same
 *     thread and probe replaces an earlier one (judged per thread: a thread that ended is in
 *     no later snapshot, its last one holds its final figures, every probe). A large snapshot
 *     comes as several chunks with the same nanoTime, a thread's probes split among them.</li>
 * <li>{@link #EVENTS}: tid, seq, baseNanos, byte length, records (see {@code EventRecords}; format 5:
 *     with the thread CPU time of each record when the session has a CPU clock).</li>
 * <li>{@link #ERROR}: string; one starting with {@link #INFO_PREFIX} is information, not an error.</li>
 * <li>{@link #END}: endWallMillis, endNanos, total dropped events (written at a clean exit).</li>
 * <li>{@link #NATIVE_INFO}: string, {@code key=value} lines (Java properties) of a hybrid run:
 *     ABI, CPU profile, libraries loaded; keys {@code error.N} are native-code errors.</li>
 * <li>{@link #NATIVE_BLOCKS}: block count, then per block: library, index, address (offset in
 *     the library), function, size in bytes, instructions, categories ({@code name=n,...} per
 *     execution), disassembly (a line per instruction), then count of (probe id, executions).</li>
 * <li>{@link #NATIVE_EPOCHS}: epoch count, then per epoch (one native call): id, tid, probe id of
 *     the native method, symbol, blocks executed, instructions, cycles, estimated ns, energy pJ,
 *     emulator wall ns (Java callbacks excluded).</li>
 * <li>{@link #THREADS}: count, then per thread: Java tid, OS tid (0 = unknown).</li>
 * <li>{@link #TREE}: calling-context tree nodes (see {@code TreeChunk}), after each snapshot.</li>
 * <li>{@link #NATIVE_LIBRARIES} (format 5): row count, then per row: app library, library the
 *     code lies in, 1 if that is a system library (else 0), probe id, block executions, instructions, cycles, estimated ns, energy pJ — each
 *     native method's cost split by library (see {@code NativeLibrariesChunk}).</li>
 * </ul>
 */
public final class SessionFormat {
    private SessionFormat() {}

    public static final byte[] MAGIC = {'H', 'Y', 'P', 'R', 'O', 'F', 0, 5};
    /**
     * 5: {@link #NATIVE_LIBRARIES} chunks (a reader of format 4 would stop at one as an unknown
     * type), and event records may carry the thread CPU time of each event
     * ({@code EventRecords.CPU_MARK} first in a chunk, then a CPU delta per record; a reader of
     * format 4 would misread them); 4: snapshot field {@code Stats.FINE_HIST} and, after each probe's log₂ pairs, its fine
     * per-call histogram ({@code Buckets}), and {@link #TREE} chunks (a reader of format 3 stops
     * at one as an unknown type); 3: snapshot fields {@code Stats.CPU_INCL}, {@code CPU_EXCL}, {@code CPU_CLOCK} (thread CPU
     * time) and the header's {@code cpuClock}; 2: snapshots carry a field count and per-thread
     * totals; hybrid-run chunks. Readers take 2 … 5 (a version-2 file has no CPU time, one
     * before 4 log₂ percentiles only, one before 5 no native cost per library and no CPU time in
     * its event records).
     */
    public static final int VERSION = 5;
    /** The oldest version readers still take. */
    public static final int OLDEST_READABLE = 2;

    public static final int HEADER = 1;
    public static final int MANIFEST = 2;
    public static final int CALIBRATION = 3;
    public static final int SNAPSHOT = 4;
    public static final int EVENTS = 5;
    public static final int ERROR = 6;
    /** An {@link #ERROR} chunk's text starting with this is information (e.g. what {@code keep=last} overwrote). */
    public static final String INFO_PREFIX = "info: ";
    public static final int END = 7;
    /** Hybrid run: library, ABI, CPU profile and power settings (string of key=value lines). */
    public static final int NATIVE_INFO = 8;
    /** Hybrid run: native blocks (address, function, instruction categories, disassembly). */
    public static final int NATIVE_BLOCKS = 9;
    /** Hybrid run: epochs (one native call each: thread, calling probe, counts and estimates). */
    public static final int NATIVE_EPOCHS = 10;
    /** The OS thread id of each recording thread (sent before its first snapshot row). */
    public static final int THREADS = 11;
    /** Nodes of the threads' calling-context trees, new or changed since the last TREE chunk. */
    public static final int TREE = 12;
    /** Hybrid run: each native method's cost split by library (app library, libc.so, libm.so …). */
    public static final int NATIVE_LIBRARIES = 13;
    /** Highest chunk type a reader must know. */
    public static final int LAST_TYPE = NATIVE_LIBRARIES;

    /** Largest payload a reader accepts, checked before allocating. */
    public static final int MAX_PAYLOAD = 64 << 20;

    /** Event record kinds, as in the low 3 bits of a record's tag. */
    public static final int EV_ENTER = EventRecords.ENTER;
    public static final int EV_EXIT = EventRecords.EXIT;
    public static final int EV_THROW = EventRecords.THROW;
    public static final int EV_LOOP_ENTER = EventRecords.LOOP_ENTER;
    public static final int EV_LOOP_EXIT = EventRecords.LOOP_EXIT;
}
