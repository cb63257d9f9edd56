package org.hyprof.export;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
        Encoder enc = new Encoder(out);
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
            enc.flush();
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
     * Writes packets in protobuf's wire format, by hand (the bytes protobuf-java's
     * {@code CodedOutputStream} writes for the same calls, without an object per message): each
     * message is encoded into a scratch array of its nesting level, then copied into its parent
     * after its tag and length (a packet holds at most three levels); packets go into one reused
     * buffer that is handed to the stream when full.
     */
    private static final class Encoder {
        private static final int LENGTH_DELIMITED = 2, FIXED64 = 1;
        private final OutputStream out;
        /** Levels 0–2: a packet and the messages inside it; level 3: the stream's buffer. */
        private final byte[][] b = {new byte[1 << 16], new byte[1 << 16], new byte[1 << 16], new byte[1 << 16]};
        private final int[] at = new int[4];

        Encoder(OutputStream out) {
            this.out = out;
        }

        private void begin(int l) {
            at[l] = 0;
        }

        /** Writes level {@code l} as field {@code field} of level {@code parent}. */
        private void end(int l, int parent, int field) {
            int n = at[l];
            tag(parent, field, LENGTH_DELIMITED);
            varint(parent, n);
            System.arraycopy(b[l], 0, b[parent], at[parent], n);
            at[parent] += n;
        }

        /** The packet (level 0) into the stream's buffer, which goes out first if the packet would not fit. */
        private void packet() throws IOException {
            if (at[3] + at[0] + 16 > b[3].length) drain();
            end(0, 3, TRACE_PACKET);
        }

        private void drain() throws IOException {
            out.write(b[3], 0, at[3]);
            at[3] = 0;
        }

        void flush() {
            try {
                drain();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void tag(int l, int field, int wireType) {
            varint(l, (field << 3) | wireType);
        }

        private void varint(int l, long v) {
            byte[] a = b[l];
            int p = at[l];
            while ((v & ~0x7FL) != 0) {
                a[p++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            a[p++] = (byte) v;
            at[l] = p;
        }

        private void uint64(int l, int field, long v) {
            tag(l, field, 0);
            varint(l, v);
        }

        /** int32, enum: a negative value takes ten bytes, sign-extended (as protobuf writes it). */
        private void int32(int l, int field, int v) {
            tag(l, field, 0);
            varint(l, v);
        }

        private void bool(int l, int field, boolean v) {
            uint64(l, field, v ? 1 : 0);
        }

        private void fixed64(int l, int field, long v) {
            tag(l, field, FIXED64);
            byte[] a = b[l];
            int p = at[l];
            for (int i = 0; i < 8; i++) a[p++] = (byte) (v >>> (8 * i));
            at[l] = p;
        }

        private void string(int l, int field, String s) {
            byte[] u = s.getBytes(StandardCharsets.UTF_8);
            tag(l, field, LENGTH_DELIMITED);
            varint(l, u.length);
            System.arraycopy(u, 0, b[l], at[l], u.length);
            at[l] += u.length;
        }

        private static String clip(String s) {
            return s.length() > MAX_NAME ? s.substring(0, MAX_NAME) : s;
        }

        void clockSnapshot(long monotonicNanos, long realtimeNanos) {
            try {
                begin(0);
                uint64(0, P_TIMESTAMP, monotonicNanos); // in BOOTTIME, the default clock: equal here
                begin(1);
                for (int[] clock : new int[][] {{CLOCK_BOOTTIME, 0}, {CLOCK_MONOTONIC, 0}, {CLOCK_REALTIME, 1}}) {
                    begin(2);
                    uint64(2, CLOCK_ID, clock[0]);
                    uint64(2, CLOCK_TIMESTAMP, clock[1] == 1 ? realtimeNanos : monotonicNanos);
                    end(2, 1, CS_CLOCKS);
                }
                end(1, 0, P_CLOCK_SNAPSHOT);
                uint64(0, P_SEQUENCE_ID, 1);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void processDescriptor(long uuid, long pid, String name) {
            try {
                begin(0);
                begin(1);
                uint64(1, TD_UUID, uuid);
                begin(2);
                int32(2, PD_PID, (int) pid);
                string(2, PD_NAME, clip(name));
                end(2, 1, TD_PROCESS);
                end(1, 0, P_TRACK_DESCRIPTOR);
                uint64(0, P_SEQUENCE_ID, 1);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The first packet of a thread's sequence: clears its state, sets its defaults, describes the thread. */
        void threadStart(int seq, long uuid, long pid, long tid, String name) {
            try {
                begin(0);
                begin(1);
                uint64(1, TD_UUID, uuid);
                uint64(1, TD_PARENT, uuid(pid, 0, 0));
                begin(2);
                int32(2, THD_PID, (int) pid);
                int32(2, THD_TID, (int) tid);
                string(2, THD_NAME, clip(name));
                end(2, 1, TD_THREAD);
                end(1, 0, P_TRACK_DESCRIPTOR);
                begin(1);
                uint64(1, D_TIMESTAMP_CLOCK_ID, CLOCK_MONOTONIC);
                begin(2);
                uint64(2, TED_TRACK_UUID, uuid);
                end(2, 1, D_TRACK_EVENT_DEFAULTS);
                end(1, 0, P_DEFAULTS);
                begin(1);
                for (String[] c : new String[][] {{"1", "java"}, {"2", "loop"}}) {
                    begin(2);
                    uint64(2, IID, Long.parseLong(c[0]));
                    string(2, INAME, c[1]);
                    end(2, 1, ID_CATEGORIES);
                }
                end(1, 0, P_INTERNED);
                uint64(0, P_SEQUENCE_ID, seq);
                uint64(0, P_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void counterDescriptor(int seq, long uuid, long parent, String name) {
            try {
                begin(0);
                begin(1);
                uint64(1, TD_UUID, uuid);
                uint64(1, TD_PARENT, parent);
                string(1, TD_NAME, name);
                begin(2);
                end(2, 1, TD_COUNTER);
                end(1, 0, P_TRACK_DESCRIPTOR);
                uint64(0, P_SEQUENCE_ID, seq);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** An event packet's head: its time (on the sequence's default clock, MONOTONIC) and sequence. */
        private void eventPacket(int seq, long nanos) {
            begin(0);
            uint64(0, P_TIMESTAMP, nanos);
            uint64(0, P_SEQUENCE_ID, seq);
            uint64(0, P_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
        }

        void counter(int seq, long nanos, long track, double value, boolean isDouble) {
            try {
                eventPacket(seq, nanos);
                begin(1);
                int32(1, TE_TYPE, COUNTER);
                uint64(1, TE_TRACK_UUID, track);
                if (isDouble) fixed64(1, TE_DOUBLE_COUNTER_VALUE, Double.doubleToRawLongBits(value));
                else uint64(1, TE_COUNTER_VALUE, (long) value);
                end(1, 0, P_TRACK_EVENT);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void sliceBegin(int seq, long nanos, long nameIid, String newName, int category) {
            try {
                eventPacket(seq, nanos);
                begin(1);
                int32(1, TE_TYPE, SLICE_BEGIN);
                uint64(1, TE_CATEGORY_IIDS, category);
                uint64(1, TE_NAME_IID, nameIid);
                end(1, 0, P_TRACK_EVENT);
                if (newName != null) {
                    begin(1);
                    begin(2);
                    uint64(2, IID, nameIid);
                    string(2, INAME, clip(newName));
                    end(2, 1, ID_EVENT_NAMES);
                    end(1, 0, P_INTERNED);
                }
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void sliceEnd(int seq, long nanos, boolean thrown, boolean atEnd, boolean loop, long iterations) {
            try {
                eventPacket(seq, nanos);
                begin(1);
                int32(1, TE_TYPE, SLICE_END);
                if (thrown) annotation("exception", true, 0);
                if (atEnd) annotation("open_at_end", true, 0);
                if (loop) annotation("iterations", false, iterations);
                end(1, 0, P_TRACK_EVENT);
                packet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void annotation(String name, boolean isBool, long value) {
            begin(2);
            string(2, DA_NAME, name);
            if (isBool) bool(2, DA_BOOL, true);
            else uint64(2, DA_INT, value);
            end(2, 1, TE_ANNOTATIONS);
        }
    }
}
