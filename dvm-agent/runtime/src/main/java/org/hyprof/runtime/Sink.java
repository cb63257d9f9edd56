package org.hyprof.runtime;

/** Where recorded data goes: the session file, a collector connection, or memory (tests). */
interface Sink {
    /** One thread's chunk of event records; the sink recycles {@code buf} when done with it. */
    void events(ThreadState thread, int seq, long baseNanos, byte[] buf, int len);

    /** Writes or sends the event chunks queued so far (called by the recorder's thread). */
    void drain();

    /** A chunk of probe manifest text (TSV lines) registered since the last one. */
    void manifest(String tsv);

    /** A new calibration is in effect. */
    void calibration(Calibration c);

    /** Periodic and final aggregate snapshot: {@code changedOnly} writes only probes that moved. */
    void snapshot(boolean changedOnly);

    /**
     * Threads that have ended: writes their final figures (every probe, whatever was written
     * before) in a way that is not lost (a collector connection keeps it until acknowledged), so
     * that their states can be dropped. Called by the recorder's thread after their event logs
     * were flushed; nothing when closed (the final snapshot had them).
     */
    void retire(ThreadState[] ended);

    /** A chunk another part of hyprof produced (native blocks and epochs of a hybrid run). */
    void custom(int type, byte[] payload);

    /** An internal failure disabled recording. */
    void error(String message);

    /** Final flush and close; nothing is accepted afterwards. */
    void close();
}
