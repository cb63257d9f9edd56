package org.hyprof.export;

import com.fasterxml.jackson.core.JsonGenerator;
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
 * <p>One pass over the calls ({@link CallStream}), written as they stream out of the store: the
 * profiles come first, each profile's span after its events, and the shared frames (named in the
 * order of their first use) last — JSON's members have no order, and speedscope reads the file
 * whole. Memory grows with the number of distinct frames and threads, not with the calls.
 */
public final class Speedscope {
    private Speedscope() {}

    /** Opens a speedscope file on a Jackson generator: the document, its schema, name and exporter. */
    static void begin(JsonGenerator g, String name) throws IOException {
        g.writeStartObject();
        g.writeStringField("$schema", SCHEMA);
        g.writeStringField("name", name);
        g.writeStringField("exporter", "hyprof");
        g.writeNumberField("activeProfileIndex", 0);
    }

    private static final String SCHEMA = "https://www.speedscope.app/file-format-schema.json";

    public static void write(List<CallStream> streams, String name, Writer w) throws IOException {
        write(streams, name, new JsonOut(w, false));
    }

    /** UTF-8 straight into a byte stream (no character encoder in between: the fastest way to a file). */
    public static void write(List<CallStream> streams, String name, OutputStream out) throws IOException {
        write(streams, name, new JsonOut(out, false));
    }

    private static final byte[] TYPE = JsonText.quotedUtf8("type"), FRAME = JsonText.quotedUtf8("frame"),
            AT = JsonText.quotedUtf8("at"), OPEN = JsonText.quotedUtf8("O"), CLOSE = JsonText.quotedUtf8("C");

    private static void write(List<CallStream> streams, String name, JsonOut o) throws IOException {
        Map<String, Integer> frames = new LinkedHashMap<>();
        Map<String, ProbeInfo> info = new HashMap<>();
        long base = Long.MAX_VALUE;
        for (CallStream t : streams) base = Math.min(base, t.firstNanos());
        final long b = base == Long.MAX_VALUE ? 0 : base;
        try {
            o.beginObject();
            o.name("$schema").string(SCHEMA);
            o.name("name").string(name);
            o.name("exporter").string("hyprof");
            o.name("activeProfileIndex").number(0);
            o.name("profiles").beginArray();
            for (CallStream t : streams) {
                t.replay(new CallStream.Visitor() {
                    CallStream.ThreadRef thread;
                    boolean any;
                    long start, end; // ns: the first start and the last end
                    int[] frameOf = new int[256]; // frame index + 1 by probe id (0: not looked up yet)
                    JsonOut.Fragment open, close, at; // an event up to its frame, and from there to its time

                    @Override
                    public void thread(CallStream.ThreadRef th) {
                        thread = th;
                        any = false;
                        start = Long.MAX_VALUE;
                        end = Long.MIN_VALUE;
                    }

                    @Override
                    public void open(int probeId, boolean loop, long startNanos, int depth) {
                        if (!any) {
                            any = true;
                            o.beginObject();
                            o.name("type").string("evented");
                            o.name("name").string(t.process.name() + " / " + thread.name());
                            o.name("unit").string("microseconds");
                            o.name("events").beginArray();
                            if (open == null) {
                                open = o.fragment(null, x -> x.beginObject().name(TYPE).quoted(OPEN).name(FRAME));
                                close = o.fragment(null, x -> x.beginObject().name(TYPE).quoted(CLOSE).name(FRAME));
                                at = o.fragment(x -> x.beginObject().name(TYPE).quoted(OPEN).name(FRAME).number(0), x -> x.name(AT));
                            }
                        }
                        start = Math.min(start, startNanos);
                        o.paste(open).number(frame(probeId)).paste(at).thousandths(startNanos - b).endObject();
                    }

                    @Override
                    public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
                        end = Math.max(end, c.endNanos());
                        o.paste(close).number(frame(c.probeId())).paste(at).thousandths(c.endNanos() - b).endObject();
                    }

                    /** A probe's frame: its name's index, the name added to the frames at its first use. */
                    private int frame(int probeId) {
                        if (probeId < 0 || probeId >= 1 << 24) return frameOf(probeId);
                        if (probeId >= frameOf.length) frameOf = Arrays.copyOf(frameOf, Math.max(probeId + 1, frameOf.length * 2));
                        int f = frameOf[probeId];
                        if (f == 0) frameOf[probeId] = f = frameOf(probeId) + 1;
                        return f - 1;
                    }

                    private int frameOf(int probeId) {
                        String n = t.name(probeId);
                        Integer f = frames.get(n);
                        if (f == null) {
                            frames.put(n, f = frames.size());
                            info.put(n, t.probes.get(probeId));
                        }
                        return f;
                    }

                    @Override
                    public void threadEnd(CallStream.ThreadRef th) {
                        if (!any) return;
                        o.endArray();
                        // the span in whole µs around the events
                        o.name("startValue").number((long) Math.floor((start - b) / 1000.0));
                        o.name("endValue").number(end == Long.MIN_VALUE ? 0 : Math.max(0, (long) Math.ceil((end - b) / 1000.0)));
                        o.endObject();
                    }
                });
            }
            o.endArray();
            o.name("shared").beginObject();
            o.name("frames").beginArray();
            for (Map.Entry<String, Integer> f : frames.entrySet()) {
                o.beginObject();
                o.name("name").string(f.getKey());
                ProbeInfo p = info.get(f.getKey());
                if (p != null && !p.source().isEmpty()) o.name("file").string(p.source());
                if (p != null && p.line() > 0) o.name("line").number(p.line());
                o.endObject();
            }
            o.endArray();
            o.endObject();
            o.endObject();
            o.flush();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
