package org.hyprof.runtime;

/**
 * Sends everything to two sinks (session file and collector). Each event buffer goes to the
 * first as it is and to the second as a copy, since each sink recycles the buffer it gets.
 */
final class TeeSink implements Sink {
    final Sink a, b;

    TeeSink(Sink a, Sink b) {
        this.a = a;
        this.b = b;
    }

    @Override
    public void events(ThreadState t, int seq, long baseNanos, byte[] buf, int len) {
        byte[] copy = new byte[len];
        System.arraycopy(buf, 0, copy, 0, len);
        a.events(t, seq, baseNanos, buf, len);
        b.events(t, seq, baseNanos, copy, len);
    }

    @Override public void drain() { a.drain(); b.drain(); }
    @Override public void manifest(String tsv) { a.manifest(tsv); b.manifest(tsv); }
    @Override public void calibration(Calibration c) { a.calibration(c); b.calibration(c); }
    @Override public void snapshot(boolean changedOnly) { a.snapshot(changedOnly); b.snapshot(changedOnly); }
    @Override public void retire(ThreadState[] ended) { a.retire(ended); b.retire(ended); }
    @Override public void custom(int type, byte[] payload) { a.custom(type, payload); b.custom(type, payload); }
    @Override public void error(String message) { a.error(message); b.error(message); }
    @Override public void close() { a.close(); b.close(); }
}
