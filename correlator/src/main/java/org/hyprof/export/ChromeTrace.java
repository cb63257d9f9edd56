package org.hyprof.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * memory does not grow with the session. Compact by default; {@code pretty} indents.
 */
public final class ChromeTrace {
    private ChromeTrace() {}

    /** Compact JSON. */
    public static void write(List<CallStream> streams, Writer w) throws IOException {
        write(streams, w, false);
    }

    public static void write(List<CallStream> streams, Writer w, boolean pretty) throws IOException {
        write(streams, new JsonFactory().createGenerator(w), pretty);
    }

    /** UTF-8 straight into a byte stream (no character encoder in between: the fastest way to a file). */
    public static void write(List<CallStream> streams, OutputStream out, boolean pretty) throws IOException {
        write(streams, new JsonFactory().createGenerator(out, JsonEncoding.UTF8), pretty);
    }

    private static void write(List<CallStream> streams, JsonGenerator generator, boolean pretty) throws IOException {
        long base = Long.MAX_VALUE;
        for (CallStream t : streams) base = Math.min(base, t.firstNanos());
        if (base == Long.MAX_VALUE) base = 0;
        final long b = base;
        try (JsonGenerator g = generator) {
            if (pretty) g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("displayTimeUnit", "ms");
            g.writeArrayFieldStart("traceEvents");
            for (CallStream t : streams) {
                long pid = t.process.pid();
                g.writeStartObject();
                g.writeStringField("ph", "M");
                g.writeStringField("name", "process_name");
                g.writeNumberField("pid", pid);
                g.writeObjectFieldStart("args");
                g.writeStringField("name", t.process.name());
                g.writeEndObject();
                g.writeEndObject();
                Map<String, Integer> sameName = new HashMap<>();
                for (CallStream.ThreadRef th : t.threads) sameName.merge(th.name(), 1, Integer::sum);
                t.replay(new ThreadWriter(g, t, pid, b, sameName));
            }
            g.writeEndArray();
            g.writeObjectFieldStart("otherData");
            g.writeStringField("exporter", "hyprof");
            long drops = 0;
            for (CallStream t : streams) drops += t.eventDrops;
            g.writeNumberField("event_drops", drops);
            g.writeEndObject();
            g.writeEndObject();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** One process's threads: slices and counter samples as the calls open and close. */
    private static final class ThreadWriter implements CallStream.Visitor {
        private final JsonGenerator g;
        private final CallStream t;
        private final long pid, b;
        private final Map<String, Integer> sameName;
        private CallStream.ThreadRef th;
        private SerializedString energyTrack, javaTimeTrack, powerTrack;
        /** Each probe's name as a JSON string, by probe id (made once). */
        private String[] quotedNames = new String[256];
        private boolean started;
        private double busyMillis, total;
        /** Inclusive energy of each open activation so far (its own and its closed children's), by depth. */
        private double[] incl = new double[64];

        ThreadWriter(JsonGenerator g, CallStream t, long pid, long b, Map<String, Integer> sameName) {
            this.g = g;
            this.t = t;
            this.pid = pid;
            this.b = b;
            this.sameName = sameName;
        }

        @Override
        public void thread(CallStream.ThreadRef thread) {
            th = thread;
            // counter tracks belong to the process: threads of the same name need their tid to stay apart
            String track = sameName.get(th.name()) > 1 ? th.name() + " #" + th.traceTid() : th.name();
            energyTrack = new SerializedString("energy " + track);
            javaTimeTrack = new SerializedString("java time " + track);
            powerTrack = new SerializedString("power " + track);
            started = false;
            busyMillis = 0;
            total = 0;
            try {
                g.writeStartObject();
                g.writeStringField("ph", "M");
                g.writeStringField("name", "thread_name");
                g.writeNumberField("pid", pid);
                g.writeNumberField("tid", th.traceTid());
                g.writeObjectFieldStart("args");
                g.writeStringField("name", th.name());
                g.writeEndObject();
                g.writeEndObject();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private String quotedName(int probeId) {
            if (probeId < 0 || probeId >= 1 << 24) return JsonText.quoted(t.name(probeId));
            if (probeId >= quotedNames.length) quotedNames = Arrays.copyOf(quotedNames, Math.max(probeId + 1, quotedNames.length * 2));
            String q = quotedNames[probeId];
            if (q == null) quotedNames[probeId] = q = JsonText.quoted(t.name(probeId));
            return q;
        }

        @Override
        public void open(int probeId, boolean loop, long startNanos, int depth) {
            if (!started) {
                // the cumulative tracks start at 0 where the thread starts: a counter's value holds
                // until its next sample, so an end sample alone draws nothing
                started = true;
                counter(g, energyTrack, pid, startNanos - b, UJ, 0);
                counter(g, javaTimeTrack, pid, startNanos - b, BUSY_MS, 0);
            }
            if (depth == incl.length) incl = Arrays.copyOf(incl, depth * 2);
            incl[depth] = 0;
            try {
                g.writeStartObject();
                g.writeFieldName(PH);
                g.writeString(B);
                g.writeFieldName(NAME);
                g.writeRawValue(quotedName(probeId));
                g.writeFieldName(CAT);
                g.writeString(loop ? LOOP : JAVA);
                g.writeFieldName(PID);
                g.writeNumber(pid);
                g.writeFieldName(TID);
                g.writeNumber(th.traceTid());
                g.writeFieldName(TS);
                g.writeNumber(JsonText.thousandths(startNanos - b));
                g.writeEndObject();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
            try {
                g.writeStartObject();
                g.writeFieldName(PH);
                g.writeString(E);
                g.writeFieldName(PID);
                g.writeNumber(pid);
                g.writeFieldName(TID);
                g.writeNumber(th.traceTid());
                g.writeFieldName(TS);
                g.writeNumber(JsonText.thousandths(c.endNanos() - b));
                if (c.thrown() || c.closedAtEnd() || c.loop()) {
                    g.writeObjectFieldStart("args");
                    if (c.thrown()) g.writeBooleanField("exception", true);
                    if (c.closedAtEnd()) g.writeBooleanField("open_at_end", true);
                    if (c.loop()) g.writeNumberField("iterations", c.iterations());
                    g.writeEndObject();
                }
                g.writeEndObject();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            int d = c.depth();
            double e = incl[d] + selfEnergyMicrojoules;
            if (d > 0) {
                incl[d - 1] += e;
                return;
            }
            if (!c.loop()) busyMillis += (c.endNanos() - c.startNanos()) / 1e6;
            total += e;
            long dur = Math.max(1, c.endNanos() - c.startNanos());
            counter(g, powerTrack, pid, c.startNanos() - b, MW, e / dur * 1e6);
            counter(g, powerTrack, pid, c.endNanos() - b, MW, 0);
            counter(g, energyTrack, pid, c.endNanos() - b, UJ, total);
            if (!c.loop()) counter(g, javaTimeTrack, pid, c.endNanos() - b, BUSY_MS, busyMillis);
        }
    }

    private static final SerializedString PH = new SerializedString("ph"), NAME = new SerializedString("name"),
            CAT = new SerializedString("cat"), PID = new SerializedString("pid"), TID = new SerializedString("tid"),
            TS = new SerializedString("ts"), ARGS = new SerializedString("args"), B = new SerializedString("B"),
            E = new SerializedString("E"), C = new SerializedString("C"), JAVA = new SerializedString("java"),
            LOOP = new SerializedString("loop"), MW = new SerializedString("mW"), UJ = new SerializedString("uJ"),
            BUSY_MS = new SerializedString("busy_ms");

    /** One sample of counter track {@code name} (its value in args under {@code arg}, the unit). */
    private static void counter(JsonGenerator g, SerializedString name, long pid, long atNanos, SerializedString arg, double v) {
        try {
            g.writeStartObject();
            g.writeFieldName(PH);
            g.writeString(C);
            g.writeFieldName(NAME);
            g.writeString(name);
            g.writeFieldName(PID);
            g.writeNumber(pid);
            g.writeFieldName(TS);
            g.writeNumber(JsonText.thousandths(atNanos));
            g.writeFieldName(ARGS);
            g.writeStartObject();
            g.writeFieldName(arg);
            g.writeNumber(JsonText.thousandths(Math.round(v * 1000)));
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
