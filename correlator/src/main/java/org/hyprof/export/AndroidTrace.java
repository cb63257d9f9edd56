package org.hyprof.export;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.analysis.Sweep;
import org.hyprof.analysis.Timeline;
import org.hyprof.config.ProbeInfo;

/**
 * Android method trace ({@code .trace}, version 3, {@code clock=dual}): what Android Studio,
 * dmtracedump and Perfetto open. A text part (threads, methods) then a little-endian binary part:
 * a 32-byte header and 14-byte records (thread, method id | action, thread-CPU µs, wall µs).
 * Method ids are multiples of 4 (the low 2 bits carry the action: enter, exit, unwind = exit by
 * exception); thread ids are renumbered from 1 so they fit 16 bits. Loops are not part of this
 * format. hyprof reads no per-thread CPU clock (a syscall per probe), so the thread-CPU column
 * carries the wall clock too.
 */
public final class AndroidTrace {
    private AndroidTrace() {}

    public static void write(Timeline t, OutputStream out) throws IOException {
        Map<Integer, Integer> methodIds = new LinkedHashMap<>();
        List<long[]> records = new ArrayList<>(); // time, thread, method id | action, order
        Map<Long, Integer> threadIds = new LinkedHashMap<>();
        long[] order = {0};
        int enters = 0;
        for (Timeline.ThreadCalls th : t.threads) {
            int tid = threadIds.computeIfAbsent(th.tid(), k -> threadIds.size() + 1);
            for (Timeline.Call c : th.calls()) if (!c.loop()) methodIds.computeIfAbsent(c.probeId(), k -> 4 * (methodIds.size() + 1));
            for (Timeline.Call c : th.calls()) if (!c.loop()) enters++;
            Sweep.walk(th.calls(), new Sweep.Visitor() { // loops open and close too: skipped here
                @Override
                public void open(Timeline.Call c, Deque<Timeline.Call> s) {
                    if (!c.loop()) records.add(new long[] {c.startNanos(), tid, methodIds.get(c.probeId()), order[0]++});
                }

                @Override
                public void close(Timeline.Call c, Deque<Timeline.Call> s) {
                    if (!c.loop()) records.add(new long[] {c.endNanos(), tid, methodIds.get(c.probeId()) | (c.thrown() ? 2 : 1), order[0]++});
                }
            });
        }
        // threads interleave by time; within a thread the walk order already nests
        records.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : a[1] != b[1] ? Long.compare(a[1], b[1]) : Long.compare(a[3], b[3]));
        long base = t.firstNanos;
        StringBuilder text = new StringBuilder();
        text.append("*version\n3\ndata-file-overflow=false\nclock=dual\n");
        text.append("elapsed-time-usec=").append((t.lastNanos - base) / 1000).append('\n');
        text.append("num-method-calls=").append(enters).append('\n');
        text.append("clock-call-overhead-nsec=0\nvm=art\npid=").append(t.process.pid()).append('\n');
        text.append("*threads\n");
        for (Timeline.ThreadCalls th : t.threads) text.append(threadIds.get(th.tid())).append('\t').append(th.name()).append('\n');
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
        ByteArrayOutputStream bin = new ByteArrayOutputStream(32 + records.size() * 14);
        ByteBuffer h = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0x574F4C53).putShort((short) 3).putShort((short) 32).putLong(t.process.startWallMillis() * 1000).putShort((short) 14);
        bin.write(h.array());
        ByteBuffer r = ByteBuffer.allocate(14).order(ByteOrder.LITTLE_ENDIAN);
        for (long[] rec : records) {
            int us = (int) ((rec[0] - base) / 1000);
            r.clear();
            r.putShort((short) rec[1]).putInt((int) rec[2]).putInt(us).putInt(us);
            bin.write(r.array());
        }
        out.write(text.toString().getBytes(StandardCharsets.UTF_8));
        bin.writeTo(out);
    }
}
