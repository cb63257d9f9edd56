package org.hyprof.export;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.util.Deque;
import java.util.List;
import org.hyprof.analysis.Sweep;
import org.hyprof.analysis.Timeline;
import org.hyprof.config.ProbeInfo;

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
 */
public final class ChromeTrace {
    private ChromeTrace() {}

    public static void write(List<Timeline> timelines, Writer w) throws IOException {
        long base = Long.MAX_VALUE;
        for (Timeline t : timelines) if (!t.isEmpty()) base = Math.min(base, t.firstNanos);
        if (base == Long.MAX_VALUE) base = 0;
        final long b = base;
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("displayTimeUnit", "ms");
            g.writeArrayFieldStart("traceEvents");
            for (Timeline t : timelines) {
                long pid = t.process.pid();
                g.writeStartObject();
                g.writeStringField("ph", "M");
                g.writeStringField("name", "process_name");
                g.writeNumberField("pid", pid);
                g.writeObjectFieldStart("args");
                g.writeStringField("name", t.process.name());
                g.writeEndObject();
                g.writeEndObject();
                java.util.Map<String, Integer> sameName = new java.util.HashMap<>();
                for (Timeline.ThreadCalls th : t.threads) sameName.merge(th.name(), 1, Integer::sum);
                for (Timeline.ThreadCalls th : t.threads) {
                    // counter tracks belong to the process: threads of the same name need their tid to stay apart
                    String track = sameName.get(th.name()) > 1 ? th.name() + " #" + th.tid() : th.name();
                    g.writeStartObject();
                    g.writeStringField("ph", "M");
                    g.writeStringField("name", "thread_name");
                    g.writeNumberField("pid", pid);
                    g.writeNumberField("tid", th.tid());
                    g.writeObjectFieldStart("args");
                    g.writeStringField("name", th.name());
                    g.writeEndObject();
                    g.writeEndObject();
                    // the cumulative tracks start at 0 where the thread starts: a counter's value holds
                    // until its next sample, so an end sample alone draws nothing
                    if (!th.calls().isEmpty()) {
                        long first = th.calls().get(0).startNanos() - b;
                        counter(g, "energy " + track, pid, first, "uJ", 0);
                        counter(g, "java time " + track, pid, first, "busy_ms", 0);
                    }
                    double[] busyMillis = {0};
                    double[] self = t.selfEnergyMicrojoules(th);
                    double[] total = {0};
                    java.util.Map<Timeline.Call, Integer> index = new java.util.IdentityHashMap<>();
                    for (int i = 0; i < th.calls().size(); i++) index.put(th.calls().get(i), i);
                    // inclusive energy of each open call (its own and its closed children's)
                    java.util.ArrayDeque<double[]> incl = new java.util.ArrayDeque<>();
                    Sweep.walk(th.calls(), new Sweep.Visitor() {
                        @Override
                        public void open(Timeline.Call c, Deque<Timeline.Call> s) {
                            slice(g, "B", c, pid, th.tid(), c.startNanos());
                            incl.push(new double[1]);
                        }

                        @Override
                        public void close(Timeline.Call c, Deque<Timeline.Call> s) {
                            slice(g, "E", c, pid, th.tid(), c.endNanos());
                            double e = incl.pop()[0] + self[index.get(c)];
                            if (!incl.isEmpty()) incl.peek()[0] += e;
                            if (s.isEmpty()) {
                                if (!c.loop()) busyMillis[0] += (c.endNanos() - c.startNanos()) / 1e6;
                                total[0] += e;
                                long dur = Math.max(1, c.endNanos() - c.startNanos());
                                counter(g, "power " + track, pid, c.startNanos() - b, "mW", e / dur * 1e6);
                                counter(g, "power " + track, pid, c.endNanos() - b, "mW", 0);
                                counter(g, "energy " + track, pid, c.endNanos() - b, "uJ", total[0]);
                                if (!c.loop()) counter(g, "java time " + track, pid, c.endNanos() - b, "busy_ms", busyMillis[0]);
                            }
                        }

                        private void slice(JsonGenerator g, String ph, Timeline.Call c, long pid, long tid, long at) {
                            try {
                                g.writeStartObject();
                                g.writeStringField("ph", ph);
                                if (ph.equals("B")) {
                                    g.writeStringField("name", name(t, c));
                                    g.writeStringField("cat", c.loop() ? "loop" : "java");
                                }
                                g.writeNumberField("pid", pid);
                                g.writeNumberField("tid", tid);
                                g.writeNumberField("ts", (at - b) / 1000.0);
                                if (ph.equals("E") && (c.thrown() || c.closedAtEnd() || c.loop())) {
                                    g.writeObjectFieldStart("args");
                                    if (c.thrown()) g.writeBooleanField("exception", true);
                                    if (c.closedAtEnd()) g.writeBooleanField("open_at_end", true);
                                    if (c.loop()) g.writeNumberField("iterations", c.iterations());
                                    g.writeEndObject();
                                }
                                g.writeEndObject();
                            } catch (IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        }
                    });
                }
            }
            g.writeEndArray();
            g.writeObjectFieldStart("otherData");
            g.writeStringField("exporter", "hyprof");
            long drops = 0;
            for (Timeline t : timelines) drops += t.eventDrops;
            g.writeNumberField("event_drops", drops);
            g.writeEndObject();
            g.writeEndObject();
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** One sample of counter track {@code name} (its value in args under {@code arg}, the unit). */
    private static void counter(JsonGenerator g, String name, long pid, long atNanos, String arg, double v) {
        try {
            g.writeStartObject();
            g.writeStringField("ph", "C");
            g.writeStringField("name", name);
            g.writeNumberField("pid", pid);
            g.writeNumberField("ts", atNanos / 1000.0);
            g.writeObjectFieldStart("args");
            g.writeNumberField(arg, Math.round(v * 1000) / 1000.0);
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String name(Timeline t, Timeline.Call c) {
        ProbeInfo p = t.probes.get(c.probeId());
        return p == null ? "probe#" + c.probeId() : p.displayName();
    }
}
