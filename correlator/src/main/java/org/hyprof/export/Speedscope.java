package org.hyprof.export;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.analysis.Sweep;
import org.hyprof.analysis.Timeline;
import org.hyprof.config.ProbeInfo;

/**
 * speedscope's file format: one evented profile (open/close frame events, µs since the
 * session's first event) per thread, frames shared. Validated in tests against the schema that
 * the speedscope npm package ships.
 */
public final class Speedscope {
    private Speedscope() {}

    public static void write(List<Timeline> timelines, String name, Writer w) throws IOException {
        Map<String, Integer> frames = new LinkedHashMap<>();
        Map<String, ProbeInfo> info = new LinkedHashMap<>();
        List<Object[]> profiles = new ArrayList<>(); // name, start, end, events(list of {type, frame, at})
        long base = Long.MAX_VALUE;
        for (Timeline t : timelines) if (!t.isEmpty()) base = Math.min(base, t.firstNanos);
        final long b = base == Long.MAX_VALUE ? 0 : base;
        for (Timeline t : timelines) {
            for (Timeline.ThreadCalls th : t.threads) {
                List<Object[]> events = new ArrayList<>();
                long[] span = {Long.MAX_VALUE, 0};
                Sweep.walk(th.calls(), new Sweep.Visitor() {
                    @Override
                    public void open(Timeline.Call c, Deque<Timeline.Call> s) {
                        String n = ChromeTrace.name(t, c);
                        frames.putIfAbsent(n, frames.size());
                        info.putIfAbsent(n, t.probes.get(c.probeId()));
                        double at = (c.startNanos() - b) / 1000.0;
                        span[0] = Math.min(span[0], (long) Math.floor(at));
                        events.add(new Object[] {"O", frames.get(n), at});
                    }

                    @Override
                    public void close(Timeline.Call c, Deque<Timeline.Call> s) {
                        double at = (c.endNanos() - b) / 1000.0;
                        span[1] = Math.max(span[1], (long) Math.ceil(at));
                        events.add(new Object[] {"C", frames.get(ChromeTrace.name(t, c)), at});
                    }
                });
                if (events.isEmpty()) continue;
                profiles.add(new Object[] {t.process.name() + " / " + th.name(), span[0], span[1], events});
            }
        }
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("$schema", "https://www.speedscope.app/file-format-schema.json");
            g.writeStringField("name", name);
            g.writeStringField("exporter", "hyprof");
            g.writeNumberField("activeProfileIndex", 0);
            g.writeObjectFieldStart("shared");
            g.writeArrayFieldStart("frames");
            for (Map.Entry<String, Integer> f : frames.entrySet()) {
                g.writeStartObject();
                g.writeStringField("name", f.getKey());
                ProbeInfo p = info.get(f.getKey());
                if (p != null && !p.source().isEmpty()) g.writeStringField("file", p.source());
                if (p != null && p.line() > 0) g.writeNumberField("line", p.line());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeArrayFieldStart("profiles");
            for (Object[] p : profiles) {
                g.writeStartObject();
                g.writeStringField("type", "evented");
                g.writeStringField("name", (String) p[0]);
                g.writeStringField("unit", "microseconds");
                g.writeNumberField("startValue", (Long) p[1]);
                g.writeNumberField("endValue", (Long) p[2]);
                g.writeArrayFieldStart("events");
                @SuppressWarnings("unchecked")
                List<Object[]> events = (List<Object[]>) p[3];
                for (Object[] e : events) {
                    g.writeStartObject();
                    g.writeStringField("type", (String) e[0]);
                    g.writeNumberField("frame", (Integer) e[1]);
                    g.writeNumberField("at", (Double) e[2]);
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }
}
