package org.hyprof.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.analysis.CallStream;
import org.hyprof.analysis.Timeline;
import org.hyprof.config.ProbeInfo;
import org.hyprof.store.NativeEpoch;

/**
 * speedscope's file format: one evented profile (open/close frame events, µs since the
 * session's first event) per thread, frames shared. Validated in tests against the schema that
 * the speedscope npm package ships.
 *
 * <p>The file names every frame and each profile's span before the events, so the calls stream
 * out of the store twice ({@link CallStream}): once for the frames and spans, once to write the
 * events. Memory grows with the number of distinct frames and threads, not with the calls.
 */
public final class Speedscope {
    private Speedscope() {}

    private static final SerializedString TYPE = new SerializedString("type"), FRAME = new SerializedString("frame"),
            AT = new SerializedString("at"), OPEN = new SerializedString("O"), CLOSE = new SerializedString("C");

    /** One thread's profile: its name and span (µs, whole), known after the first pass. */
    private record Profile(String name, long startMicros, long endMicros) {}

    /** Opens a speedscope file: the document, its schema, name and exporter, and the {@code shared} object. */
    static void begin(JsonGenerator g, String name) throws IOException {
        g.writeStartObject();
        g.writeStringField("$schema", "https://www.speedscope.app/file-format-schema.json");
        g.writeStringField("name", name);
        g.writeStringField("exporter", "hyprof");
        g.writeNumberField("activeProfileIndex", 0);
        g.writeObjectFieldStart("shared");
    }

    public static void write(List<CallStream> streams, String name, Writer w) throws IOException {
        write(streams, name, () -> new JsonFactory().createGenerator(w));
    }

    /** UTF-8 straight into a byte stream (no character encoder in between: the fastest way to a file). */
    public static void write(List<CallStream> streams, String name, OutputStream out) throws IOException {
        write(streams, name, () -> new JsonFactory().createGenerator(out, JsonEncoding.UTF8));
    }

    private interface Generator {
        JsonGenerator open() throws IOException;
    }

    private static void write(List<CallStream> streams, String name, Generator generator) throws IOException {
        Map<String, Integer> frames = new LinkedHashMap<>();
        Map<String, ProbeInfo> info = new HashMap<>();
        List<Profile> profiles = new ArrayList<>();
        long base = Long.MAX_VALUE;
        for (CallStream t : streams) base = Math.min(base, t.firstNanos());
        final long b = base == Long.MAX_VALUE ? 0 : base;
        for (CallStream t : streams) {
            t.replay(new CallStream.Visitor() { // first pass: frames in order of first use, spans
                long start, end;
                boolean any;

                @Override
                public void thread(CallStream.ThreadRef th) {
                    start = Long.MAX_VALUE;
                    end = 0;
                    any = false;
                }

                @Override
                public void open(int probeId, boolean loop, long startNanos, int depth) {
                    String n = t.name(probeId);
                    if (frames.putIfAbsent(n, frames.size()) == null) info.put(n, t.probes.get(probeId));
                    start = Math.min(start, (long) Math.floor((startNanos - b) / 1000.0));
                    any = true;
                }

                @Override
                public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
                    end = Math.max(end, (long) Math.ceil((c.endNanos() - b) / 1000.0));
                }

                @Override
                public void threadEnd(CallStream.ThreadRef th) {
                    if (any) profiles.add(new Profile(t.process.name() + " / " + th.name(), start, end));
                }
            });
        }
        try (JsonGenerator g = generator.open()) {
            begin(g, name);
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
            int[] next = {0};
            for (CallStream t : streams) {
                t.replay(new CallStream.Visitor() { // second pass: the events
                    boolean any;
                    int[] frameOf = new int[256]; // frame index + 1 by probe id (0: not looked up yet)

                    @Override
                    public void thread(CallStream.ThreadRef th) {
                        any = false;
                    }

                    @Override
                    public void open(int probeId, boolean loop, long startNanos, int depth) {
                        try {
                            if (!any) {
                                any = true;
                                Profile p = profiles.get(next[0]++);
                                g.writeStartObject();
                                g.writeStringField("type", "evented");
                                g.writeStringField("name", p.name());
                                g.writeStringField("unit", "microseconds");
                                g.writeNumberField("startValue", p.startMicros());
                                g.writeNumberField("endValue", p.endMicros());
                                g.writeArrayFieldStart("events");
                            }
                            event(OPEN, probeId, startNanos);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }

                    @Override
                    public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
                        try {
                            event(CLOSE, c.probeId(), c.endNanos());
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }

                    private void event(SerializedString type, int probeId, long atNanos) throws IOException {
                        g.writeStartObject();
                        g.writeFieldName(TYPE);
                        g.writeString(type);
                        g.writeFieldName(FRAME);
                        g.writeNumber(frame(probeId));
                        g.writeFieldName(AT);
                        g.writeNumber(JsonText.thousandths(atNanos - b));
                        g.writeEndObject();
                    }

                    private int frame(int probeId) {
                        if (probeId < 0 || probeId >= 1 << 24) return frames.get(t.name(probeId));
                        if (probeId >= frameOf.length) frameOf = Arrays.copyOf(frameOf, Math.max(probeId + 1, frameOf.length * 2));
                        int f = frameOf[probeId];
                        if (f == 0) frameOf[probeId] = f = frames.get(t.name(probeId)) + 1;
                        return f - 1;
                    }

                    @Override
                    public void threadEnd(CallStream.ThreadRef th) {
                        if (!any) return;
                        try {
                            g.writeEndArray();
                            g.writeEndObject();
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                });
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
