package org.hyprof.runtime;

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
 * length and UTF-8 bytes. Payloads by type:
 * <ul>
 * <li>{@link #HEADER}: string of {@code key=value} lines (format, pid, process, startWallMillis,
 *     startNanos, mode, budgetBytes, vm).</li>
 * <li>{@link #MANIFEST}: string, TSV lines of the probe manifest (appended as classes load).</li>
 * <li>{@link #CALIBRATION}: measuredAtNanos, innerPicos, perEventPicos, perIterPicos, clockPicos.</li>
 * <li>{@link #SNAPSHOT}: nanoTime, thread count, then per thread: tid, name, depthDrops,
 *     eventDrops, probe count, then per probe: id, {@link Stats#HIST} fields in index order
 *     ({@link Stats#MIN} written as 0 when nothing was recorded), non-empty bucket count, then
 *     (bucket, count) pairs. Values are cumulative: a later snapshot of the same thread and probe
 *     replaces an earlier one.</li>
 * <li>{@link #EVENTS}: tid, seq, baseNanos, byte length, records (see {@code EventLog}).</li>
 * <li>{@link #ERROR}: string.</li>
 * <li>{@link #END}: endWallMillis, endNanos, total dropped events (written at a clean exit).</li>
 * </ul>
 */
public final class SessionFormat {
    private SessionFormat() {}

    public static final byte[] MAGIC = {'H', 'Y', 'P', 'R', 'O', 'F', 0, 1};
    public static final int VERSION = 1;

    public static final int HEADER = 1;
    public static final int MANIFEST = 2;
    public static final int CALIBRATION = 3;
    public static final int SNAPSHOT = 4;
    public static final int EVENTS = 5;
    public static final int ERROR = 6;
    public static final int END = 7;

    /** Largest payload a reader accepts, checked before allocating. */
    public static final int MAX_PAYLOAD = 64 << 20;

    /** Event record kinds, as in the low 3 bits of a record's tag. */
    public static final int EV_ENTER = EventLog.ENTER;
    public static final int EV_EXIT = EventLog.EXIT;
    public static final int EV_THROW = EventLog.THROW;
    public static final int EV_LOOP_ENTER = EventLog.LOOP_ENTER;
    public static final int EV_LOOP_EXIT = EventLog.LOOP_EXIT;
}
