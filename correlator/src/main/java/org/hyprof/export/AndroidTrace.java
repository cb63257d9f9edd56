package org.hyprof.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hyprof.analysis.CallStream;
import org.hyprof.config.ProbeInfo;

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
 * <p>The records of all threads are in time order: each thread's calls are followed by a
 * {@link CallStream.Cursor} and merged by time (a heap of threads), so memory holds a chunk per
 * thread, never the session. The text part comes first in the file but names what only the whole
 * merge knows (the methods, in order of first call; the calls; the span), so the records are
 * written in one pass to a spill file (beside the output, or in the temporary directory for a
 * stream), then the text part, then the spill file is copied after it: one replay of the session
 * instead of two (a first pass to count, then the merge), at the price of writing the records twice.
 */
public final class AndroidTrace {
    private AndroidTrace() {}

    /** To a stream: the records wait in a temporary file (created 0600) while the merge runs. */
    public static void write(CallStream t, OutputStream out) throws IOException {
        viaSpill(t, Files.createTempFile("hyprof-trace-", ".records"), (head, records) -> {
            out.write(head);
            Files.copy(records, out);
            out.flush();
        });
    }

    /**
     * To a file: the records wait in a hidden file beside it (same file system, the user's own
     * directory) and are appended by the kernel ({@link FileChannel#transferTo}).
     */
    public static void write(CallStream t, Path file) throws IOException {
        if (Files.exists(file) && !Files.isRegularFile(file)) { // a device or a pipe: nothing beside it to use
            try (OutputStream out = Files.newOutputStream(file)) {
                write(t, out);
            }
            return;
        }
        Path dir = file.toAbsolutePath().getParent();
        viaSpill(t, Files.createTempFile(dir, "." + file.getFileName() + ".", ".records"), (head, records) -> {
            try (FileChannel in = FileChannel.open(records, StandardOpenOption.READ);
                 FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                         StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer h = ByteBuffer.wrap(head);
                while (h.hasRemaining()) out.write(h);
                long size = in.size();
                for (long at = 0; at < size; ) {
                    long n = in.transferTo(at, size - at, out);
                    if (n <= 0) throw new IOException(file + ": could not append the trace's records from " + records);
                    at += n;
                }
            }
        });
    }

    /** Writes the text part and header ({@code head}), then the records spilled to {@code records}. */
    private interface Assembly {
        void write(byte[] head, Path records) throws IOException;
    }

    /** The records merged into {@code spill}, then the whole trace put together; the spill file is gone after. */
    private static void viaSpill(CallStream t, Path spill, Assembly assembly) throws IOException {
        spill.toFile().deleteOnExit(); // interrupted (Ctrl-C): no stray file
        try {
            Text text;
            try (OutputStream records = Files.newOutputStream(spill)) {
                text = records(t, records);
            }
            assembly.write(text.bytes(t), spill);
        } finally {
            Files.deleteIfExists(spill);
        }
    }

    /** What the text part and header name, learnt from the merge. */
    /** Threads are renumbered 1, 2, … in the order of {@code t.threads} (their records and the text part alike). */
    private record Text(MethodIds methodIds, long enters, long baseNanos, long lastNanos) {
        byte[] bytes(CallStream t) {
            StringBuilder text = new StringBuilder();
            text.append("*version\n3\ndata-file-overflow=false\nclock=dual\n");
            text.append("elapsed-time-usec=").append((lastNanos - baseNanos) / 1000).append('\n');
            text.append("num-method-calls=").append(enters).append('\n');
            text.append("clock-call-overhead-nsec=0\nvm=art\npid=").append(t.process.pid()).append('\n');
            text.append("*threads\n");
            for (int i = 0; i < t.threads.size(); i++) text.append(i + 1).append('\t').append(t.threads.get(i).name()).append('\n');
            text.append("*methods\n");
            for (Map.Entry<Integer, Integer> e : methodIds.inOrder.entrySet()) {
                ProbeInfo p = t.probes.get(e.getKey());
                String cls = p == null ? "unknown" : p.className();
                String m = p == null ? "probe" + e.getKey() : p.methodName();
                String d = p == null ? "()V" : p.descriptor();
                String src = p == null || p.source().isEmpty() ? "unknown" : p.source();
                text.append(String.format("0x%08x\t%s\t%s\t%s\t%s\n", e.getValue(), cls, m, d, src));
            }
            text.append("*end\n");
            byte[] head = text.toString().getBytes(StandardCharsets.UTF_8);
            ByteBuffer h = ByteBuffer.allocate(head.length + 32).order(ByteOrder.LITTLE_ENDIAN);
            h.put(head);
            h.putInt(0x574F4C53).putShort((short) 3).putShort((short) 32).putLong(t.process.startWallMillis() * 1000).putShort((short) 14);
            return h.array();
        }
    }

    /** Merges the threads' calls into 14-byte records on {@code out}; returns what the text part needs. */
    private static Text records(CallStream t, OutputStream out) throws IOException {
        MethodIds methodIds = new MethodIds();
        long first = t.firstNanos(); // the earliest start, loops too (as the span has always been measured)
        long base = first == Long.MAX_VALUE ? 0 : first;
        // threads interleave by time (ties: by renumbered thread); within a thread the replay order already nests
        int n = t.threads.size();
        Walk[] walks = new Walk[n];
        Merge merge = new Merge(n);
        for (int i = 0; i < n; i++) {
            walks[i] = new Walk(t.cursor(t.threads.get(i)));
            if (walks[i].nextMethod()) merge.add(i, walks[i].c.nanos(), i + 1);
        }
        byte[] buf = new byte[14 * 4096];
        int at = 0;
        long enters = 0;
        long[] cpuBase = new long[n]; // by thread: its first CPU time (-1: none yet)
        Arrays.fill(cpuBase, -1);
        while (!merge.isEmpty()) {
            int i = merge.top();
            CallStream.Cursor c = walks[i].c;
            int action;
            if (c.isOpen()) {
                action = 0;
                enters++;
                methodIds.add(c.probeId());
            } else {
                action = c.thrown() ? 2 : 1;
            }
            int id = methodIds.of(c.probeId()) | action;
            int us = (int) ((c.nanos() - base) / 1000);
            int cpuUs = us;
            long cpu = c.cpuNanos();
            if (cpu >= 0) {
                if (cpuBase[i] < 0) cpuBase[i] = cpu;
                cpuUs = (int) (Math.max(0, cpu - cpuBase[i]) / 1000);
            }
            if (at == buf.length) {
                out.write(buf, 0, at);
                at = 0;
            }
            at = putShort(buf, at, i + 1);
            at = putInt(buf, at, id);
            at = putInt(buf, at, cpuUs);
            at = putInt(buf, at, us);
            if (walks[i].nextMethod()) merge.replaceTop(c.nanos());
            else merge.removeTop();
        }
        out.write(buf, 0, at);
        long last = Long.MIN_VALUE;
        for (Walk w : walks) last = Math.max(last, w.lastCloseNanos);
        return new Text(methodIds, enters, base, last == Long.MIN_VALUE ? 0 : last);
    }

    private static int putShort(byte[] b, int p, int v) {
        b[p] = (byte) v;
        b[p + 1] = (byte) (v >>> 8);
        return p + 2;
    }

    private static int putInt(byte[] b, int p, int v) {
        b[p] = (byte) v;
        b[p + 1] = (byte) (v >>> 8);
        b[p + 2] = (byte) (v >>> 16);
        b[p + 3] = (byte) (v >>> 24);
        return p + 4;
    }

    /** The trace's method ids (4, 8, 12, …) by probe id, in order of first call. */
    private static final class MethodIds {
        final Map<Integer, Integer> inOrder = new LinkedHashMap<>();
        private int[] byProbe = new int[256]; // 0: not seen (ids outside 0..2^24 only in the map)

        void add(int probeId) {
            if (probeId >= 0 && probeId < 1 << 24) {
                if (probeId >= byProbe.length) byProbe = Arrays.copyOf(byProbe, Math.max(probeId + 1, byProbe.length * 2));
                if (byProbe[probeId] != 0) return;
                byProbe[probeId] = 4 * (inOrder.size() + 1);
            }
            inOrder.putIfAbsent(probeId, 4 * (inOrder.size() + 1));
        }

        int of(int probeId) {
            return probeId >= 0 && probeId < byProbe.length && byProbe[probeId] != 0 ? byProbe[probeId] : inOrder.get(probeId);
        }
    }

    /**
     * A binary min-heap of threads by (time of their next record, renumbered thread): the merge's
     * order, without an object or a comparator call per record.
     */
    private static final class Merge {
        private final int[] heap;
        private final long[] nanos;
        private final int[] thread;
        private int size;

        Merge(int n) {
            heap = new int[n];
            nanos = new long[n];
            thread = new int[n];
        }

        boolean isEmpty() {
            return size == 0;
        }

        int top() {
            return heap[0];
        }

        void add(int i, long atNanos, int renumbered) {
            nanos[i] = atNanos;
            thread[i] = renumbered;
            int k = size++;
            while (k > 0) { // sift up
                int parent = (k - 1) >>> 1;
                if (!before(i, heap[parent])) break;
                heap[k] = heap[parent];
                k = parent;
            }
            heap[k] = i;
        }

        /** The top thread's next record is at {@code atNanos}. */
        void replaceTop(long atNanos) {
            nanos[heap[0]] = atNanos;
            siftDown(heap[0]);
        }

        void removeTop() {
            int last = heap[--size];
            if (size > 0) siftDown(last);
        }

        private void siftDown(int i) {
            int k = 0;
            while (true) {
                int child = 2 * k + 1;
                if (child >= size) break;
                if (child + 1 < size && before(heap[child + 1], heap[child])) child++;
                if (!before(heap[child], i)) break;
                heap[k] = heap[child];
                k = child;
            }
            heap[k] = i;
        }

        private boolean before(int a, int b) {
            return nanos[a] != nanos[b] ? nanos[a] < nanos[b] : thread[a] < thread[b];
        }
    }

    /** A thread's cursor moved from method open or close to the next (loops are not in this format). */
    private static final class Walk {
        final CallStream.Cursor c;
        /** The latest end of a call, loops too, the cursor has passed (the span's end, as always measured). */
        long lastCloseNanos = Long.MIN_VALUE;

        Walk(CallStream.Cursor c) {
            this.c = c;
        }

        boolean nextMethod() {
            while (c.next()) {
                if (!c.isOpen()) lastCloseNanos = Math.max(lastCloseNanos, c.nanos());
                if (!c.loop()) return true;
            }
            return false;
        }
    }
}
