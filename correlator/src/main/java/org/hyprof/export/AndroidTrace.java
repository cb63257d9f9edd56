package org.hyprof.export;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.hyprof.analysis.CallStream;
import org.hyprof.analysis.Timeline;
import org.hyprof.config.ProbeInfo;
import org.hyprof.store.NativeEpoch;

/**
 * Android method trace ({@code .trace}, version 3, {@code clock=dual}): what Android Studio,
 * dmtracedump and Perfetto open. A text part (threads, methods) then a little-endian binary part:
 * a 32-byte header and 14-byte records (thread, method id | action, thread-CPU µs, wall µs).
 * Method ids are multiples of 4 (the low 2 bits carry the action: enter, exit, unwind = exit by
 * exception); thread ids are renumbered from 1 so they fit 16 bits. Loops are not part of this
 * format.
 *
 * <p>The thread-CPU column is the thread's CPU clock at each event as the probe had it for the
 * report's CPU columns ({@code cpuClock=dual}: read at the event; {@code sampled}: extrapolated
 * from the sampler's last reading), in µs since the thread's first event here (as ART counts it
 * from the thread's trace base), not deducted: a method's thread-CPU time in dmtracedump or
 * Android Studio is its {@code cpu_incl_ns} plus the probe cost the report took off it
 * ({@code incl_raw_ns - incl_ns}), to the µs. A session without thread CPU time in its event
 * records ({@code --clock off}, or recorded before session format 5) has the wall clock in both
 * columns, so those tools show wall time as thread time.
 *
 * <p>The records of all threads are in time order: a first pass over the calls
 * ({@link CallStream#replay}) finds the methods, the call count and the span for the text part;
 * then each thread's calls are followed by a {@link CallStream.Cursor} and merged by time, so
 * memory holds a chunk per thread, never the session.
 */
public final class AndroidTrace {
    private AndroidTrace() {}

    public static void write(CallStream t, OutputStream out) throws IOException {
        Map<Integer, Integer> methodIds = new LinkedHashMap<>();
        long[] span = {Long.MAX_VALUE, Long.MIN_VALUE}; // first start, last end over all calls
        long[] enters = {0};
        t.replay(new CallStream.Visitor() {
            @Override
            public void open(int probeId, boolean loop, long startNanos, int depth) {
                span[0] = Math.min(span[0], startNanos);
                if (loop) return;
                enters[0]++;
                if (!methodIds.containsKey(probeId)) methodIds.put(probeId, 4 * (methodIds.size() + 1));
            }

            @Override
            public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
                span[1] = Math.max(span[1], c.endNanos());
            }
        });
        long base = span[0] == Long.MAX_VALUE ? 0 : span[0];
        long last = span[1] == Long.MIN_VALUE ? 0 : span[1];
        Map<Long, Integer> threadIds = new HashMap<>();
        StringBuilder text = new StringBuilder();
        text.append("*version\n3\ndata-file-overflow=false\nclock=dual\n");
        text.append("elapsed-time-usec=").append((last - base) / 1000).append('\n');
        text.append("num-method-calls=").append(enters[0]).append('\n');
        text.append("clock-call-overhead-nsec=0\nvm=art\npid=").append(t.process.pid()).append('\n');
        text.append("*threads\n");
        for (CallStream.ThreadRef th : t.threads) {
            threadIds.put(th.tid(), threadIds.size() + 1);
            text.append(threadIds.get(th.tid())).append('\t').append(th.name()).append('\n');
        }
        text.append("*methods\n");
        for (Map.Entry<Integer, Integer> e : methodIds.entrySet()) {
            ProbeInfo p = t.probes.get(e.getKey());
            String cls = p == null ? "unknown" : p.className();
            String m = p == null ? "probe" + e.getKey() : p.methodName();
            String d = p == null ? "()V" : p.descriptor();
            String src = p == null || p.source().isEmpty() ? "unknown" : p.source();
            text.append(String.format("0x%08x\t%s\t%s\t%s\t%s\n", e.getValue(), cls, m, d, src));
        }
        text.append("*end\n");
        OutputStream bin = new BufferedOutputStream(out, 1 << 16);
        bin.write(text.toString().getBytes(StandardCharsets.UTF_8));
        ByteBuffer h = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0x574F4C53).putShort((short) 3).putShort((short) 32).putLong(t.process.startWallMillis() * 1000).putShort((short) 14);
        bin.write(h.array());
        // threads interleave by time (ties: by renumbered thread); within a thread the replay order already nests
        record Head(int thread, CallStream.Cursor c) {}
        PriorityQueue<Head> merge = new PriorityQueue<>((x, y) -> x.c.nanos() != y.c.nanos()
                ? Long.compare(x.c.nanos(), y.c.nanos()) : Integer.compare(x.thread, y.thread));
        List<Head> heads = new ArrayList<>();
        for (CallStream.ThreadRef th : t.threads) heads.add(new Head(threadIds.get(th.tid()), t.cursor(th)));
        for (Head hd : heads) if (nextMethod(hd.c)) merge.add(hd);
        ByteBuffer r = ByteBuffer.allocate(14).order(ByteOrder.LITTLE_ENDIAN);
        long[] cpuBase = new long[heads.size() + 1]; // by renumbered thread: its first CPU time (-1: none yet)
        java.util.Arrays.fill(cpuBase, -1);
        while (!merge.isEmpty()) {
            Head hd = merge.poll();
            CallStream.Cursor c = hd.c;
            int id = methodIds.get(c.probeId()) | (c.isOpen() ? 0 : c.thrown() ? 2 : 1);
            int us = (int) ((c.nanos() - base) / 1000);
            int cpuUs = us;
            long cpu = c.cpuNanos();
            if (cpu >= 0) {
                if (cpuBase[hd.thread] < 0) cpuBase[hd.thread] = cpu;
                cpuUs = (int) (Math.max(0, cpu - cpuBase[hd.thread]) / 1000);
            }
            r.clear();
            r.putShort((short) hd.thread).putInt(id).putInt(cpuUs).putInt(us);
            bin.write(r.array());
            if (nextMethod(c)) merge.add(hd);
        }
        bin.flush();
    }

    /** Moves to the cursor's next method open or close (loops are not in this format). */
    private static boolean nextMethod(CallStream.Cursor c) {
        while (c.next()) if (!c.loop()) return true;
        return false;
    }
}
