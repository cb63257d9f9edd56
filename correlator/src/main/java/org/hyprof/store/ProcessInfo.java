package org.hyprof.store;

/**
 * A profiled process of a session. {@code status} is one of {@link #RUNNING}, {@link #DISCONNECTED},
 * {@link #ENDED}, {@link #CRASHED} or {@link #DAMAGED}; {@link #meaning} says what each means.
 */
public record ProcessInfo(long id, long pid, String name, String vm, String mode, long budgetBytes,
                          long startWallMillis, long startNanos, Long endWallMillis, String status,
                          long eventDrops, String source) {
    /** Streaming to a collector (as last written by the collector). */
    public static final String RUNNING = "running";
    /**
     * Its connection to the collector broke before it ended (killed, crashed, unreachable, or the
     * collector stopped): what it sent is kept; if it is still alive it reconnects and goes on in
     * the same row.
     */
    public static final String DISCONNECTED = "disconnected";
    /** Ended normally: its final data is in. */
    public static final String ENDED = "ended";
    /** Imported from a session file without a clean end (killed or still running when copied). */
    public static final String CRASHED = "crashed";
    /** Imported from a damaged session file: its valid part is in. */
    public static final String DAMAGED = "damaged";

    /** The source of processes a collector received (followed by the connection's address). */
    public static final String COLLECTOR_SOURCE = "collector ";

    /** One line, without commas, saying what a status means for the data of the process. */
    public static String meaning(String status) {
        return switch (status) {
            case RUNNING -> "connected to a collector and streaming";
            case DISCONNECTED -> "connection lost before the process ended (killed or unreachable or the collector stopped);"
                    + " data up to its last snapshot is kept; it resumes here if it reconnects";
            case ENDED -> "ended normally; its final data is in";
            case CRASHED -> "no clean end in its session file (killed?); data up to its last snapshot";
            case DAMAGED -> "its session file is damaged; the valid part is in";
            default -> "unknown status";
        };
    }

    /** Whether a collector received this process (an agent that may reconnect and resume it). */
    public boolean fromCollector() {
        return source != null && source.startsWith(COLLECTOR_SOURCE);
    }
}
