package org.hyprof.runtime;

import org.hyprof.runtime.chunk.EventRecords;

/**
 * Events mode: one thread's log of compact records in a preallocated buffer.
 *
 * <p>Records are in {@link EventRecords}' format (it owns their encoding and decoding). Two ways
 * to live within the user's log budget ({@code keep}):
 * <ul>
 * <li>{@code first} (default): a full buffer goes to the {@link Sink} as one chunk and is
 * recycled; when the budget is used up, records are dropped <em>and counted</em>.</li>
 * <li>{@code last}, a flight recorder: full buffers are kept here, not sent, and when the budget
 * is used up the thread's oldest kept buffer is reused — its records are <em>overwritten</em>
 * and counted. With {@code maxAge} buffers whose newest record is older than that are given back
 * to the budget. Kept buffers go to the sink when the thread ends or the session closes
 * ({@link #flush}). Each buffer starts with the thread's open frames ({@link EventRecords#OPEN},
 * {@link EventRecords#OPEN_LOOP}, at their entry times), so the calls around the oldest kept
 * record stay well nested on the host however many buffers before it were overwritten.</li>
 * </ul>
 * Drops and overwrites are in every snapshot and report (as drops; the session's notes say how
 * many were overwritten).
 */
final class EventLog {
    static final int ENTER = EventRecords.ENTER;
    static final int EXIT = EventRecords.EXIT;
    /** Exit by exception (or a frame closed because an outer frame exited): an unwind. */
    static final int THROW = EventRecords.THROW;
    static final int LOOP_ENTER = EventRecords.LOOP_ENTER;
    static final int LOOP_EXIT = EventRecords.LOOP_EXIT;

    private static final int MAX_RECORD = EventRecords.MAX_RECORD;

    private final ThreadState owner;
    private byte[] buf;
    private int pos;
    /** Records in {@link #buf} (counted when its records are overwritten). */
    private int records;
    private long baseNanos;
    private long lastNanos;
    /**
     * Whether {@link #buf}'s records carry thread CPU time (it starts with
     * {@link EventRecords#CPU_MARK}: the session has a CPU clock), and the CPU time of its last record.
     */
    private boolean cpu;
    private long lastCpu;
    private int seq;
    private boolean exhausted;
    /** Records dropped because the log budget was used up (keep first), or overwritten (keep last). */
    long dropped;
    /** Of {@link #dropped}, those overwritten by newer records (keep last). */
    long overwritten;

    /** Keep last: full buffers kept, oldest first, in a ring of {@link #keptCount} from {@link #keptHead}. */
    private byte[][] keptBuf;
    private int[] keptLen, keptSeq, keptRecords;
    private long[] keptBase, keptLast;
    private int keptHead, keptCount;
    /** The last dump request this log answered ({@link Recorder#dumpEpoch}). */
    private int dumpSeen;

    EventLog(ThreadState owner) {
        this.owner = owner;
    }

    /**
     * One record: probe {@code id}'s event {@code kind} at wall time {@code now}, when the thread's
     * CPU clock read {@code cpuNanos} (the value the probe's aggregates use; written only when the
     * session has a CPU clock), with a loop exit's {@code extra} iterations.
     */
    void record(int id, int kind, long now, long cpuNanos, long extra) {
        if (dumpSeen != Recorder.dumpEpoch) dump();
        byte[] b = buf;
        if (b == null || pos + MAX_RECORD > b.length) {
            if (exhausted || !next(now, kind == ENTER || kind == LOOP_ENTER)) { dropped++; return; }
            b = buf;
        }
        pos = EventRecords.put(b, pos, id, kind, now - lastNanos, cpu, cpuNanos - lastCpu, extra);
        records++;
        lastNanos = now;
        lastCpu = cpuNanos;
    }

    /** Hands the full buffer on (keep first: to the sink; keep last: to the ring) and takes a fresh one. */
    private boolean next(long now, boolean entering) {
        boolean ring = Recorder.keepLast;
        if (ring) keep(now);
        else flush();
        byte[] n = Recorder.acquireBuffer();
        if (n == null && ring) n = reuseOldest();
        if (n == null) { exhausted = true; return false; }
        buf = n;
        pos = 0;
        records = 0;
        baseNanos = now;
        lastNanos = now;
        cpu = Recorder.cpuMode != CpuClock.OFF;
        lastCpu = 0; // a chunk's first CPU delta is from 0: each chunk reads alone
        if (cpu) n[pos++] = (byte) EventRecords.CPU_MARK;
        if (ring) writeOpenFrames(entering);
        return true;
    }

    /**
     * Keep last: writes the frames open now as OPEN records at their entry times (outermost first,
     * at most what fills half the buffer: beyond, the innermost are left out and their exits are
     * skipped on the host as exits without an entry). {@code entering}: the record about to be
     * written is an entry, whose frame is already on the stack: it is not repeated.
     */
    private void writeOpenFrames(boolean entering) {
        byte[] b = buf;
        int room = b.length / 2;
        int n = owner.openFrames() - (entering ? 1 : 0);
        for (int i = 0; i < n && pos + MAX_RECORD <= room; i++) {
            long start = owner.openFrameStart(i);
            if (start == Long.MIN_VALUE) continue; // not a recorded frame (below --max-depth)
            int kind = owner.openFrameIsLoop(i) ? EventRecords.OPEN_LOOP : EventRecords.OPEN;
            long startCpu = owner.openFrameCpu(i);
            pos = EventRecords.put(b, pos, owner.openFrameId(i), kind, start - lastNanos, cpu, startCpu - lastCpu, 0);
            records++;
            lastNanos = start;
            lastCpu = startCpu;
        }
    }

    /** Keep last: the full buffer joins the ring; buffers past {@code maxAge} go back to the budget. */
    private void keep(long now) {
        byte[] b = buf;
        if (b == null) return;
        buf = null;
        if (records == 0) { pos = 0; Recorder.releaseBuffer(b); return; }
        if (keptBuf == null || keptCount == keptBuf.length) growKept();
        int i = (keptHead + keptCount) % keptBuf.length;
        keptBuf[i] = b;
        keptLen[i] = pos;
        keptSeq[i] = seq++;
        keptBase[i] = baseNanos;
        keptLast[i] = lastNanos;
        keptRecords[i] = records;
        keptCount++;
        pos = 0;
        long maxAge = Recorder.maxAgeNanos;
        if (maxAge > 0) {
            // the newest kept buffer stays: it holds the last records before the fresh one
            while (keptCount > 1 && now - keptLast[keptHead] > maxAge) Recorder.releaseBuffer(dropOldest());
        }
    }

    /** Keep last: the oldest kept buffer, its records counted as overwritten; null when none is kept. */
    private byte[] reuseOldest() {
        return keptCount == 0 ? null : dropOldest();
    }

    private byte[] dropOldest() {
        int h = keptHead;
        byte[] b = keptBuf[h];
        dropped += keptRecords[h];
        overwritten += keptRecords[h];
        keptBuf[h] = null;
        keptHead = (h + 1) % keptBuf.length;
        keptCount--;
        return b;
    }

    private void growKept() {
        int n = keptBuf == null ? 16 : keptBuf.length * 2;
        byte[][] nb = new byte[n][];
        int[] nl = new int[n], ns = new int[n], nr = new int[n];
        long[] nbase = new long[n], nlast = new long[n];
        for (int k = 0; k < keptCount; k++) {
            int i = (keptHead + k) % keptBuf.length;
            nb[k] = keptBuf[i];
            nl[k] = keptLen[i];
            ns[k] = keptSeq[i];
            nr[k] = keptRecords[i];
            nbase[k] = keptBase[i];
            nlast[k] = keptLast[i];
        }
        keptBuf = nb;
        keptLen = nl;
        keptSeq = ns;
        keptRecords = nr;
        keptBase = nbase;
        keptLast = nlast;
        keptHead = 0;
    }

    /**
     * A dump was asked for: keep last sends what it keeps, and the ring starts again from the
     * budget those buffers give back (they are in the session now). Keep first sends as it goes.
     */
    private void dump() {
        dumpSeen = Recorder.dumpEpoch;
        if (!Recorder.keepLast) return;
        long bytes = 0;
        for (int k = 0; k < keptCount; k++) bytes += keptBuf[(keptHead + k) % keptBuf.length].length;
        if (buf != null && records > 0) bytes += buf.length; // sent by flush; an empty one stays
        flush();
        Recorder.returnBudget(bytes);
        exhausted = false;
    }

    /**
     * Sends what is buffered: kept buffers (keep last) oldest first, then the current one. Called
     * by the owner, or by the writer when the thread has ended or the session closes.
     */
    void flush() {
        Sink sink = Recorder.sink();
        while (keptCount > 0) {
            int h = keptHead;
            byte[] b = keptBuf[h];
            int len = keptLen[h], s = keptSeq[h];
            long base = keptBase[h];
            keptBuf[h] = null;
            keptHead = (h + 1) % keptBuf.length;
            keptCount--;
            sink.events(owner, s, base, b, len);
        }
        byte[] b = buf;
        int len = pos;
        if (b != null && records > 0) {
            buf = null;
            pos = 0;
            sink.events(owner, seq++, baseNanos, b, len);
        }
    }
}
