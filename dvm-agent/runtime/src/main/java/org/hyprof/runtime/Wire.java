package org.hyprof.runtime;

/**
 * The live-control protocol between a runtime (agent) and the collector, and between
 * {@code hyprof ctl} and the collector. TCP, big-endian frames:
 *
 * <pre>
 * frame   := length:u32 type:u8 payload[length - 1]      (length counts type and payload)
 * </pre>
 *
 * A reader checks the length against {@link #MAX_FRAME} (and {@link #MAX_CONTROL_FRAME} for
 * anything but {@link #CHUNK}) before allocating. The first frame of a connection is
 * {@link #HELLO}, at most {@link #MAX_HELLO_FRAME} bytes; anything else first (checked at its
 * length prefix, before its body is read), an unknown version or a wrong token closes the
 * connection. After HELLO each role may send only its own frames: an agent CHUNK, STATE and BYE,
 * ctl COMMAND and BYE.
 * Integers in payloads are unsigned LEB128 varints, strings a varint length and UTF-8 bytes.
 *
 * <ul>
 * <li>{@link #HELLO} (agent or ctl → collector): version, role ({@code agent}|{@code ctl}),
 *     token, pid, process name, vm, start wall millis, start nanos, runtime kind
 *     ({@code jvm}|{@code android}), resume secret (empty on an agent's first connection and for
 *     ctl; optional: a HELLO that ends before it has an empty one).</li>
 * <li>{@link #WELCOME} (collector →): process id in the session (0 for ctl), message, resume
 *     secret (optional, as in HELLO): an agent keeps it in memory and presents it in the HELLO of
 *     every reconnection, which proves it is the run that owns the process row (pid, name and
 *     start times alone are not secret).</li>
 * <li>{@link #REJECT} (collector →): reason; the collector closes the connection.</li>
 * <li>{@link #CHUNK} (agent →): sequence number, session chunk type ({@link SessionFormat}),
 *     then that chunk's payload: manifest text, calibration, snapshot, events, error, end.</li>
 * <li>{@link #ACK} (collector → agent): the sequence number of a chunk just stored. The collector
 *     stores a connection's chunks in the order received, so the chunks the agent wrote before it
 *     on that connection are stored too (not every lower number: an agent's final snapshot and
 *     END overtake chunks still queued).</li>
 * <li>{@link #CONFIG} (collector → agent) and {@link #STATE} (agent → collector, after
 *     {@link #WELCOME} and after applying a CONFIG): probe-id count n, ⌈n/8⌉ bytes of on-flags
 *     (bit i of byte i/8 = probe i), root count, root ids, min duration ns, min calls, max depth,
 *     events mode (0|1), event budget bytes.</li>
 * <li>{@link #SNAPSHOT_REQUEST} (collector → agent): request id; the agent answers with a full
 *     snapshot chunk.</li>
 * <li>{@link #COMMAND} (ctl → collector): argument count, arguments.</li>
 * <li>{@link #RESULT} (collector → ctl): exit code, output text.</li>
 * <li>{@link #BYE} (any direction): reason; the connection ends normally.</li>
 * </ul>
 */
public final class Wire {
    private Wire() {}

    /**
     * 3: session chunks of format 5 ({@link SessionFormat#VERSION}: event records with thread CPU
     * time, which a collector of version 2 would misread); 2: session chunks of format 2 to 4.
     */
    public static final int VERSION = 3;

    public static final int HELLO = 1;
    public static final int WELCOME = 2;
    public static final int REJECT = 3;
    public static final int CHUNK = 4;
    public static final int ACK = 5;
    public static final int CONFIG = 6;
    public static final int STATE = 7;
    public static final int SNAPSHOT_REQUEST = 8;
    public static final int COMMAND = 9;
    public static final int RESULT = 10;
    public static final int BYE = 11;

    /** Largest frame (a chunk of events or a big manifest). */
    public static final int MAX_FRAME = SessionFormat.MAX_PAYLOAD + 64;
    /** Largest frame of any type but {@link #CHUNK}. */
    public static final int MAX_CONTROL_FRAME = 1 << 20;
    /** Largest HELLO (the only frame accepted before the handshake). */
    public static final int MAX_HELLO_FRAME = 4096;

    public static final String ROLE_AGENT = "agent";
    public static final String ROLE_CTL = "ctl";
}
