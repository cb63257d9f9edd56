package org.hyprof.export;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import org.hyprof.analysis.CallStream;
import org.hyprof.analysis.Timeline;
import org.hyprof.store.NativeEpoch;

/**
 * Perfetto's own trace format (a {@code Trace} protobuf: a sequence of {@code TracePacket}s),
 * what ui.perfetto.dev and trace_processor open natively, and what can be put together with a
 * system trace of the same device. The messages and field numbers are those of Perfetto's
 * published schema; {@code perfetto_trace.proto} beside this class holds the subset written here.
 *
 * <ul>
 *   <li>A {@code ClockSnapshot} first: the recording VM's {@code System.nanoTime} is
 *       CLOCK_MONOTONIC (JVM on Linux, Android), so every timestamp is marked MONOTONIC; the
 *       snapshot sets BOOTTIME (Perfetto's default trace clock) equal to it at the first process's
 *       start (the suspend time between the two is not recorded) and REALTIME from the process's
 *       start wall time.</li>
 *   <li>A process {@code TrackDescriptor} per process (pid, name); per thread a thread track
 *       (pid, tid, name) and counter tracks under it: {@code energy uJ} (cumulative, Java and
 *       native: a sample of 0 where the thread starts and one at the end of each outermost call,
 *       as in the Chrome export) and, on threads of a hybrid run that made native calls,
 *       {@code native cycles} (cumulative, at the end of each bridge call).</li>
 *   <li>Each thread is one packet sequence ({@code trusted_packet_sequence_id}) with incremental
 *       state: its first packet clears it and sets the defaults (clock, the thread's track); each
 *       call is a {@code TYPE_SLICE_BEGIN} / {@code TYPE_SLICE_END} pair of {@code TrackEvent}s
 *       whose name is interned ({@code InternedData.event_names}) the first time it occurs on the
 *       sequence; categories {@code java} and {@code loop}; an end says {@code exception},
 *       {@code open_at_end} or a loop's {@code iterations} as debug annotations.</li>
 * </ul>
 *
 * Thread ids are the recording VM's Java thread ids: the store has no OS thread id yet.
 * Written as the calls stream out of the store ({@link CallStream}), thread after thread.
 */
public final class PerfettoTrace {
    private PerfettoTrace() {}

    // field numbers: see perfetto_trace.proto
    private static final int TRACE_PACKET = 1;
    private static final int P_TIMESTAMP = 8, P_CLOCK_SNAPSHOT = 6, P_TRACK_EVENT = 11, P_INTERNED = 12,
            P_SEQUENCE_ID = 10, P_SEQUENCE_FLAGS = 13, P_DEFAULTS = 59, P_TRACK_DESCRIPTOR = 60;
    private static final int SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2;
    private static final int D_TIMESTAMP_CLOCK_ID = 58, D_TRACK_EVENT_DEFAULTS = 11, TED_TRACK_UUID = 11;
    private static final int CS_CLOCKS = 1, CLOCK_ID = 1, CLOCK_TIMESTAMP = 2;
    private static final int CLOCK_REALTIME = 1, CLOCK_MONOTONIC = 3, CLOCK_BOOTTIME = 6;
    private static final int ID_CATEGORIES = 1, ID_EVENT_NAMES = 2, IID = 1, INAME = 2;
    private static final int TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4, TD_PARENT = 5, TD_COUNTER = 8;
    private static final int PD_PID = 1, PD_NAME = 6, THD_PID = 1, THD_TID = 2, THD_NAME = 5;
    private static final int TE_CATEGORY_IIDS = 3, TE_ANNOTATIONS = 4, TE_TYPE = 9, TE_NAME_IID = 10, TE_TRACK_UUID = 11,
            TE_COUNTER_VALUE = 30, TE_DOUBLE_COUNTER_VALUE = 44;
    private static final int SLICE_BEGIN = 1, SLICE_END = 2, COUNTER = 4;
    private static final int DA_BOOL = 2, DA_INT = 4, DA_NAME = 10;
    private static final int CATEGORY_JAVA = 1, CATEGORY_LOOP = 2;
    /** Longest name written (chars); a name is never longer in practice. */
    private static final int MAX_NAME = 4096;

    public static void write(List<CallStream> streams, OutputStream out) throws IOException {
        CodedOutputStream o = CodedOutputStream.newInstance(out, 1 << 16);
        Encoder enc = new Encoder(o);
        try {
            int sequence = 1; // 1: clock and process descriptors; then one per thread
            boolean clock = false;
            for (CallStream t : streams) {
                if (!clock) {
                    clock = true;
                    enc.clockSnapshot(t.process.startNanos(), t.process.startWallMillis() * 1_000_000L);
                }
                long pid = t.process.pid();
                enc.processDescriptor(uuid(pid, 0, 0), pid, t.process.name());
                ThreadWriter w = new ThreadWriter(enc, t, pid);
                w.nextSequence = sequence + 1;
                t.replay(w);
                sequence = w.nextSequence - 1;
            }
            o.flush();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** A stable track id: a hash of (pid, tid, kind) so that tracks of two exports never collide by chance. */
    static long uuid(long pid, long tid, int kind) {
        long z = pid * 0x9E3779B97F4A7C15L + tid * 0xC2B2AE3D27D4EB4FL + kind * 0x165667B19E3779F9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return z == 0 ? 1 : z;
    }

    private static final int TRACK_THREAD = 1, TRACK_ENERGY = 2, TRACK_CYCLES = 3;

    /** One process's threads, each a packet sequence of its own. */
    private static final class ThreadWriter implements CallStream.Visitor {
        private final Encoder enc;
        private final CallStream t;
        private final long pid;
        int nextSequence;
        private int seq;
        private long threadTrack, energyTrack, cyclesTrack;
        private boolean started;
        private double totalMicrojoules;
        private long totalCycles;
        private double[] incl = new double[64];
        /** The iid of each probe's name on the current sequence (0: not interned yet), by probe id. */
        private long[] nameIids = new long[256];
        private long nextIid;

        ThreadWriter(Encoder enc, CallStream t, long pid) {
            this.enc = enc;
            this.t = t;
            this.pid = pid;
        }

        @Override
        public void thread(CallStream.ThreadRef th) {
            seq = nextSequence++;
            threadTrack = uuid(pid, th.tid(), TRACK_THREAD);
            energyTrack = uuid(pid, th.tid(), TRACK_ENERGY);
            cyclesTrack = th.hasNativeEpochs() ? uuid(pid, th.tid(), TRACK_CYCLES) : 0;
            started = false;
            totalMicrojoules = 0;
            totalCycles = 0;
            Arrays.fill(nameIids, 0);
            nextIid = 1;
            enc.threadStart(seq, threadTrack, pid, th.traceTid(), th.name());
            enc.counterDescriptor(seq, energyTrack, threadTrack, "energy uJ");
            if (cyclesTrack != 0) enc.counterDescriptor(seq, cyclesTrack, threadTrack, "native cycles");
        }

        @Override
        public void open(int probeId, boolean loop, long startNanos, int depth) {
            if (!started) {
                started = true;
                enc.counter(seq, startNanos, energyTrack, 0, true);
                if (cyclesTrack != 0) enc.counter(seq, startNanos, cyclesTrack, 0, false);
            }
            if (depth == incl.length) incl = Arrays.copyOf(incl, depth * 2);
            incl[depth] = 0;
            String newName = null;
            long iid;
            if (probeId >= 0 && probeId < (1 << 24)) {
                if (probeId >= nameIids.length) nameIids = Arrays.copyOf(nameIids, Math.max(probeId + 1, nameIids.length * 2));
                iid = nameIids[probeId];
                if (iid == 0) {
                    iid = nameIids[probeId] = nextIid++;
                    newName = t.name(probeId);
                }
            } else { // an id no manifest would give: interned anew each time
                iid = nextIid++;
                newName = t.name(probeId);
            }
            enc.sliceBegin(seq, startNanos, iid, newName, loop ? CATEGORY_LOOP : CATEGORY_JAVA);
        }

        @Override
        public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
            enc.sliceEnd(seq, c.endNanos(), c.thrown(), c.closedAtEnd(), c.loop(), c.iterations());
            if (epoch != null && cyclesTrack != 0) {
                totalCycles += epoch.cycles();
                enc.counter(seq, c.endNanos(), cyclesTrack, totalCycles, false);
            }
            int d = c.depth();
            double e = incl[d] + selfEnergyMicrojoules;
            if (d > 0) {
                incl[d - 1] += e;
                return;
            }
            totalMicrojoules += e;
            enc.counter(seq, c.endNanos(), energyTrack, Math.round(totalMicrojoules * 1000) / 1000.0, true);
        }
    }

    /**
     * Writes packets: each message is encoded into a scratch array of its nesting level, then
     * copied into its parent with its length (a packet holds at most three levels).
     */
    private static final class Encoder {
        private final CodedOutputStream out;
        private final byte[][] scratch = {new byte[1 << 16], new byte[1 << 16], new byte[1 << 16]};
        private final CodedOutputStream[] level = new CodedOutputStream[3];

        Encoder(CodedOutputStream out) {
            this.out = out;
        }

        private CodedOutputStream begin(int l) {
            return level[l] = CodedOutputStream.newInstance(scratch[l]);
        }

        /** Writes level {@code l} as field {@code field} of {@code parent}. */
        private void end(int l, CodedOutputStream parent, int field) throws IOException {
            int n = level[l].getTotalBytesWritten();
            parent.writeTag(field, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            parent.writeUInt32NoTag(n);
            parent.writeRawBytes(scratch[l], 0, n);
        }

        private void packet() throws IOException {
            end(0, out, TRACE_PACKET);
        }

        private static String clip(String s) {
            return s.length() > MAX_NAME ? s.substring(0, MAX_NAME) : s;
        }

        void clockSnapshot(long monotonicNanos, long realtimeNanos) {
            try {
                CodedOutputStream p = begin(0);
                p.writeUInt64(P_TIMESTAMP, monotonicNanos); // in BOOTTIME, the default clock: equal here
                CodedOutputStream cs = begin(1);
                for (int[] clock : new int[][] {{CLOCK_BOOTTIME, 0}, {CLOCK_MONOTONIC, 0}, {CLOCK_REALTIME, 1}}) {
                    CodedOutputStream c = begin(2);
                    c.writeUInt32(CLOCK_ID, clock[0]);
                    c.writeUInt64(CLOCK_TIMESTAMP, clock[1] == 1 ? realtimeNanos : monotonicNanos);
                    end(2, cs, CS_CLOCKS);
                }
                end(1, p, P_CLOCK_SNAPSHOT);
                p.writeUInt32(P_SEQUENCE_ID, 1);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void processDescriptor(long uuid, long pid, String name) {
            try {
                CodedOutputStream p = begin(0);
                CodedOutputStream td = begin(1);
                td.writeUInt64(TD_UUID, uuid);
                CodedOutputStream pd = begin(2);
                pd.writeInt32(PD_PID, (int) pid);
                pd.writeString(PD_NAME, clip(name));
                end(2, td, TD_PROCESS);
                end(1, p, P_TRACK_DESCRIPTOR);
                p.writeUInt32(P_SEQUENCE_ID, 1);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The first packet of a thread's sequence: clears its state, sets its defaults, describes the thread. */
        void threadStart(int seq, long uuid, long pid, long tid, String name) {
            try {
                CodedOutputStream p = begin(0);
                CodedOutputStream td = begin(1);
                td.writeUInt64(TD_UUID, uuid);
                td.writeUInt64(TD_PARENT, uuid(pid, 0, 0));
                CodedOutputStream thd = begin(2);
                thd.writeInt32(THD_PID, (int) pid);
                thd.writeInt32(THD_TID, (int) tid);
                thd.writeString(THD_NAME, clip(name));
                end(2, td, TD_THREAD);
                end(1, p, P_TRACK_DESCRIPTOR);
                CodedOutputStream d = begin(1);
                d.writeUInt32(D_TIMESTAMP_CLOCK_ID, CLOCK_MONOTONIC);
                CodedOutputStream ted = begin(2);
                ted.writeUInt64(TED_TRACK_UUID, uuid);
                end(2, d, D_TRACK_EVENT_DEFAULTS);
                end(1, p, P_DEFAULTS);
                CodedOutputStream in = begin(1);
                for (String[] c : new String[][] {{"1", "java"}, {"2", "loop"}}) {
                    CodedOutputStream ec = begin(2);
                    ec.writeUInt64(IID, Long.parseLong(c[0]));
                    ec.writeString(INAME, c[1]);
                    end(2, in, ID_CATEGORIES);
                }
                end(1, p, P_INTERNED);
                p.writeUInt32(P_SEQUENCE_ID, seq);
                p.writeUInt32(P_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void counterDescriptor(int seq, long uuid, long parent, String name) {
            try {
                CodedOutputStream p = begin(0);
                CodedOutputStream td = begin(1);
                td.writeUInt64(TD_UUID, uuid);
                td.writeUInt64(TD_PARENT, parent);
                td.writeString(TD_NAME, name);
                begin(2);
                end(2, td, TD_COUNTER);
                end(1, p, P_TRACK_DESCRIPTOR);
                p.writeUInt32(P_SEQUENCE_ID, seq);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** An event packet's head: its time (on the sequence's default clock, MONOTONIC) and sequence. */
        private CodedOutputStream eventPacket(int seq, long nanos) throws IOException {
            CodedOutputStream p = begin(0);
            p.writeUInt64(P_TIMESTAMP, nanos);
            p.writeUInt32(P_SEQUENCE_ID, seq);
            p.writeUInt32(P_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
            return p;
        }

        void counter(int seq, long nanos, long track, double value, boolean isDouble) {
            try {
                CodedOutputStream p = eventPacket(seq, nanos);
                CodedOutputStream te = begin(1);
                te.writeEnum(TE_TYPE, COUNTER);
                te.writeUInt64(TE_TRACK_UUID, track);
                if (isDouble) te.writeDouble(TE_DOUBLE_COUNTER_VALUE, value);
                else te.writeInt64(TE_COUNTER_VALUE, (long) value);
                end(1, p, P_TRACK_EVENT);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void sliceBegin(int seq, long nanos, long nameIid, String newName, int category) {
            try {
                CodedOutputStream p = eventPacket(seq, nanos);
                CodedOutputStream te = begin(1);
                te.writeEnum(TE_TYPE, SLICE_BEGIN);
                te.writeUInt64(TE_CATEGORY_IIDS, category);
                te.writeUInt64(TE_NAME_IID, nameIid);
                end(1, p, P_TRACK_EVENT);
                if (newName != null) {
                    CodedOutputStream in = begin(1);
                    CodedOutputStream en = begin(2);
                    en.writeUInt64(IID, nameIid);
                    en.writeString(INAME, clip(newName));
                    end(2, in, ID_EVENT_NAMES);
                    end(1, p, P_INTERNED);
                }
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void sliceEnd(int seq, long nanos, boolean thrown, boolean atEnd, boolean loop, long iterations) {
            try {
                CodedOutputStream p = eventPacket(seq, nanos);
                CodedOutputStream te = begin(1);
                te.writeEnum(TE_TYPE, SLICE_END);
                if (thrown) annotation(te, "exception", true, 0);
                if (atEnd) annotation(te, "open_at_end", true, 0);
                if (loop) annotation(te, "iterations", false, iterations);
                end(1, p, P_TRACK_EVENT);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void annotation(CodedOutputStream te, String name, boolean isBool, long value) throws IOException {
            CodedOutputStream a = begin(2);
            a.writeString(DA_NAME, name);
            if (isBool) a.writeBool(DA_BOOL, true);
            else a.writeInt64(DA_INT, value);
            end(2, te, TE_ANNOTATIONS);
        }
    }
}
