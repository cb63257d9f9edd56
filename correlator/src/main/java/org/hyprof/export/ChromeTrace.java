package org.hyprof.export;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.hyprof.analysis.CallStream;
import org.hyprof.analysis.Timeline;
import org.hyprof.store.NativeEpoch;

/**
 * Chrome Trace Event JSON (Perfetto UI, chrome://tracing): B/E slices per invocation (loops as
 * slices of category {@code loop}), process and thread names as metadata, and counter tracks per
 * thread: {@code java time} (cumulative wall time of its outermost calls, ms), {@code power} (mW:
 * each outermost call's energy over its duration while it runs, 0 between calls) and
 * {@code energy} (cumulative µJ, Java and native; see {@link Timeline#selfEnergyMicrojoules}).
 * The cumulative tracks have a sample of 0 at the thread's first timestamp and one at the end of
 * each outermost call; power has one at each outermost call's start and end. Counter tracks
 * belong to a process, so threads sharing a name are told apart by their tid ({@code energy worker #12}).
 * Timestamps are µs since the earliest event of the exported processes (their monotonic clocks
 * share a base on one machine).
 *
 * <p>Written as the calls stream out of the store ({@link CallStream}), thread after thread:
 * memory does not grow with the session. Compact by default; {@code pretty} indents (as
 * Jackson's default pretty printer). The bytes are made by {@link JsonOut}: each thread's
 * repeated parts of an event once, names quoted once per probe.
 */
public final class ChromeTrace {
    private ChromeTrace() {}

    /** Compact JSON. */
    public static void write(List<CallStream> streams, Writer w) throws IOException {
        write(streams, w, false);
    }

    public static void write(List<CallStream> streams, Writer w, boolean pretty) throws IOException {
        write(streams, new JsonOut(w, pretty));
    }

    /** UTF-8 straight into a byte stream (no character encoder in between: the fastest way to a file). */
    public static void write(List<CallStream> streams, OutputStream out, boolean pretty) throws IOException {
        write(streams, new JsonOut(out, pretty));
    }

    private static void write(List<CallStream> streams, JsonOut o) throws IOException {
        long base = Long.MAX_VALUE;
        for (CallStream t : streams) base = Math.min(base, t.firstNanos());
        if (base == Long.MAX_VALUE) base = 0;
        try {
            o.beginObject();
            o.name("displayTimeUnit").string("ms");
            o.name("traceEvents").beginArray();
            for (CallStream t : streams) {
                long pid = t.process.pid();
                o.beginObject().name(PH).quoted(M).name(NAME).string("process_name").name(PID).number(pid);
                o.name(ARGS).beginObject().name(NAME).string(t.process.name()).endObject();
                o.endObject();
                Map<String, Integer> sameName = new HashMap<>();
                for (CallStream.ThreadRef th : t.threads) sameName.merge(th.name(), 1, Integer::sum);
                t.replay(new ThreadWriter(o, t, pid, base, sameName));
            }
            o.endArray();
            o.name("otherData").beginObject();
            o.name("exporter").string("hyprof");
            long drops = 0;
            for (CallStream t : streams) drops += t.eventDrops;
            o.name("event_drops").number(drops);
            o.endObject();
            o.endObject();
            o.flush();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** One process's threads: slices and counter samples as the calls open and close. */
    private static final class ThreadWriter implements CallStream.Visitor {
        private final JsonOut o;
        private final CallStream t;
        private final long pid, b;
        private final Map<String, Integer> sameName;
        /** Each probe's name as a JSON string, by probe id (made once). */
        private byte[][] quotedNames = new byte[256][];
        /** The thread's events up to their varying parts: begin (up to the name), after the name, end (up to ts). */
        private JsonOut.Fragment begin, javaTail, loopTail, end;
        /** Counter samples of the thread's tracks up to ts, and the args object up to its value. */
        private JsonOut.Fragment energy, javaTime, power, argsUj, argsBusy, argsMw;
        private boolean started;
        private double busyMillis, total;
        /** Inclusive energy of each open activation so far (its own and its closed children's), by depth. */
        private double[] incl = new double[64];

        ThreadWriter(JsonOut o, CallStream t, long pid, long b, Map<String, Integer> sameName) {
            this.o = o;
            this.t = t;
            this.pid = pid;
            this.b = b;
            this.sameName = sameName;
        }

        @Override
        public void thread(CallStream.ThreadRef th) {
            long tid = th.traceTid();
            o.beginObject().name(PH).quoted(M).name(NAME).string("thread_name").name(PID).number(pid).name(TID).number(tid);
            o.name(ARGS).beginObject().name(NAME).string(th.name()).endObject();
            o.endObject();
            // counter tracks belong to the process: threads of the same name need their tid to stay apart
            String track = sameName.get(th.name()) > 1 ? th.name() + " #" + tid : th.name();
            begin = o.fragment(null, x -> x.beginObject().name(PH).quoted(B).name(NAME));
            Consumer<JsonOut> named = x -> x.beginObject().name(PH).quoted(B).name(NAME).quoted(M);
            javaTail = o.fragment(named, x -> x.name(CAT).quoted(JAVA).name(PID).number(pid).name(TID).number(tid).name(TS));
            loopTail = o.fragment(named, x -> x.name(CAT).quoted(LOOP).name(PID).number(pid).name(TID).number(tid).name(TS));
            end = o.fragment(null, x -> x.beginObject().name(PH).quoted(E).name(PID).number(pid).name(TID).number(tid).name(TS));
            energy = counterHead("energy " + track);
            javaTime = counterHead("java time " + track);
            power = counterHead("power " + track);
            Consumer<JsonOut> sample = x -> x.beginObject().name(PH).quoted(C).name(NAME).quoted(M).name(PID).number(pid).name(TS).number(0);
            argsUj = o.fragment(sample, x -> x.name(ARGS).beginObject().name(UJ));
            argsBusy = o.fragment(sample, x -> x.name(ARGS).beginObject().name(BUSY_MS));
            argsMw = o.fragment(sample, x -> x.name(ARGS).beginObject().name(MW));
            started = false;
            busyMillis = 0;
            total = 0;
        }

        private JsonOut.Fragment counterHead(String track) {
            byte[] name = JsonText.quotedUtf8(track);
            return o.fragment(null, x -> x.beginObject().name(PH).quoted(C).name(NAME).quoted(name).name(PID).number(pid).name(TS));
        }

        private byte[] quotedName(int probeId) {
            if (probeId < 0 || probeId >= 1 << 24) return JsonText.quotedUtf8(t.name(probeId));
            if (probeId >= quotedNames.length) quotedNames = Arrays.copyOf(quotedNames, Math.max(probeId + 1, quotedNames.length * 2));
            byte[] q = quotedNames[probeId];
            if (q == null) quotedNames[probeId] = q = JsonText.quotedUtf8(t.name(probeId));
            return q;
        }

        @Override
        public void open(int probeId, boolean loop, long startNanos, int depth) {
            if (!started) {
                // the cumulative tracks start at 0 where the thread starts: a counter's value holds
                // until its next sample, so an end sample alone draws nothing
                started = true;
                counter(energy, startNanos - b, argsUj, 0);
                counter(javaTime, startNanos - b, argsBusy, 0);
            }
            if (depth == incl.length) incl = Arrays.copyOf(incl, depth * 2);
            incl[depth] = 0;
            o.paste(begin).quoted(quotedName(probeId)).paste(loop ? loopTail : javaTail).thousandths(startNanos - b).endObject();
        }

        @Override
        public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
            o.paste(end).thousandths(c.endNanos() - b);
            if (c.thrown() || c.closedAtEnd() || c.loop()) {
                o.name(ARGS).beginObject();
                if (c.thrown()) o.name(EXCEPTION).bool(true);
                if (c.closedAtEnd()) o.name(OPEN_AT_END).bool(true);
                if (c.loop()) o.name(ITERATIONS).number(c.iterations());
                o.endObject();
            }
            o.endObject();
            int d = c.depth();
            double e = incl[d] + selfEnergyMicrojoules;
            if (d > 0) {
                incl[d - 1] += e;
                return;
            }
            if (!c.loop()) busyMillis += (c.endNanos() - c.startNanos()) / 1e6;
            total += e;
            long dur = Math.max(1, c.endNanos() - c.startNanos());
            counter(power, c.startNanos() - b, argsMw, e / dur * 1e6);
            counter(power, c.endNanos() - b, argsMw, 0);
            counter(energy, c.endNanos() - b, argsUj, total);
            if (!c.loop()) counter(javaTime, c.endNanos() - b, argsBusy, busyMillis);
        }

        /** One sample of a counter track (its head made by {@link #counterHead}; the value in args, with its unit). */
        private void counter(JsonOut.Fragment head, long atNanos, JsonOut.Fragment args, double v) {
            o.paste(head).thousandths(atNanos).paste(args).thousandths(Math.round(v * 1000)).endObject().endObject();
        }
    }

    private static final byte[] PH = JsonText.quotedUtf8("ph"), NAME = JsonText.quotedUtf8("name"), CAT = JsonText.quotedUtf8("cat"),
            PID = JsonText.quotedUtf8("pid"), TID = JsonText.quotedUtf8("tid"), TS = JsonText.quotedUtf8("ts"),
            ARGS = JsonText.quotedUtf8("args"), B = JsonText.quotedUtf8("B"), E = JsonText.quotedUtf8("E"), C = JsonText.quotedUtf8("C"),
            M = JsonText.quotedUtf8("M"), JAVA = JsonText.quotedUtf8("java"), LOOP = JsonText.quotedUtf8("loop"),
            MW = JsonText.quotedUtf8("mW"), UJ = JsonText.quotedUtf8("uJ"), BUSY_MS = JsonText.quotedUtf8("busy_ms"),
            EXCEPTION = JsonText.quotedUtf8("exception"), OPEN_AT_END = JsonText.quotedUtf8("open_at_end"),
            ITERATIONS = JsonText.quotedUtf8("iterations");
}
