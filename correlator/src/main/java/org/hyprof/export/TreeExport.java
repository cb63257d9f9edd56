package org.hyprof.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.hyprof.analysis.CallTree;

/**
 * Folded stacks and speedscope profiles from a session's calling-context tree ({@link CallTree}):
 * what {@code hyprof export --format folded|speedscope} writes for sessions without an event log
 * (aggregate mode), or when asked for a weight the event log does not give. Each path of the tree is
 * one stack whose value is the path's <em>exclusive</em> weight ({@link Weight}); flame graphs then
 * add the values up into inclusive widths. Calls on paths past the runtime's node budget are in
 * {@code (other paths)} frames.
 */
public final class TreeExport {
    private TreeExport() {}

    /** What a stack's value is: the path's own (exclusive) figure. */
    public enum Weight {
        /** Wall time, µs in folded stacks (rounded), ns in speedscope (deducted in a recorded tree, raw in a rebuilt one). */
        TIME,
        /** Thread CPU time, as TIME (0 where the session recorded none). */
        CPU,
        /** Energy, µJ (folded: rounded). */
        ENERGY,
        /** Calls made on the path. */
        CALLS;

        /** {@code time}, {@code cpu}, {@code energy} or {@code calls} (any case); IllegalArgumentException otherwise. */
        public static Weight parse(String s) {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        }
    }

    /** The exclusive weight of one node, in the folded unit (µs, µJ or calls) when {@code folded}, else in speedscope's (ns, µJ, calls). */
    static double weight(CallTree.Node n, Weight w, boolean folded) {
        return switch (w) {
            case TIME -> folded ? n.exclNanos() / 1000.0 : n.exclNanos();
            case CPU -> n.cpuExclNanos() == null ? 0 : folded ? n.cpuExclNanos() / 1000.0 : n.cpuExclNanos();
            case ENERGY -> n.energyMicrojoules();
            case CALLS -> n.calls();
        };
    }

    /** A frame name as folded stacks need it: no {@code ;} (the separator) and no spaces (before the value). */
    static String frame(String name) {
        return name.replace(';', ':').replace(' ', '_');
    }

    /**
     * One line per path with a non-zero (rounded) value, {@code thread;frame;…;frame value}, in
     * lexical order; paths of same-named threads add up. {@code threads} picks the thread roots.
     */
    public static void folded(CallTree tree, Weight w, Predicate<CallTree.Node> threads, PrintWriter out) {
        Map<String, double[]> lines = new TreeMap<>();
        List<CallTree.Node> nodes = tree.nodes();
        String[] prefix = new String[nodes.size()];
        boolean[] keep = new boolean[nodes.size()];
        for (CallTree.Node n : nodes) { // preorder: parents first
            if (n.parent() < 0) {
                keep[n.index()] = threads.test(n);
                prefix[n.index()] = frame(n.name());
                continue;
            }
            keep[n.index()] = keep[n.parent()];
            if (!keep[n.index()]) continue;
            prefix[n.index()] = prefix[n.parent()] + ";" + frame(n.name());
            lines.computeIfAbsent(prefix[n.index()], k -> new double[1])[0] += weight(n, w, true);
        }
        for (Map.Entry<String, double[]> e : lines.entrySet()) {
            long v = Math.round(e.getValue()[0]);
            if (v > 0) out.println(e.getKey() + " " + v);
        }
        out.flush();
    }

    /**
     * speedscope's file format: one "sampled" profile per thread, whose samples are the thread's
     * paths (frame indexes from the top-level frame down) weighted by their exclusive weight (unit
     * {@code nanoseconds} for time and CPU; {@code none} for energy in µJ and for calls); frames shared.
     */
    public static void speedscope(CallTree tree, Weight w, Predicate<CallTree.Node> threads, String name, OutputStream out)
            throws IOException {
        Map<String, Integer> frames = new LinkedHashMap<>();
        List<CallTree.Node> nodes = tree.nodes();
        int[] frameOf = new int[nodes.size()];
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            // first the frames (every name of the kept threads), then the profiles that index them
            List<CallTree.Node> roots = new ArrayList<>();
            for (CallTree.Node r : tree.threads()) {
                if (!threads.test(r)) continue;
                roots.add(r);
                for (int i = r.index() + 1; i < nodes.size() && nodes.get(i).parent() >= 0; i++)
                    frameOf[i] = frames.computeIfAbsent(nodes.get(i).name(), k -> frames.size());
            }
            Speedscope.begin(g, name);
            g.writeObjectFieldStart("shared");
            g.writeArrayFieldStart("frames");
            for (String f : frames.keySet()) {
                g.writeStartObject();
                g.writeStringField("name", f);
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeArrayFieldStart("profiles");
            String unit = w == Weight.TIME || w == Weight.CPU ? "nanoseconds" : "none";
            for (CallTree.Node r : roots) {
                // a path's frames are read up its parents when written: memory stays that of one path
                List<Integer> samples = new ArrayList<>();
                List<Double> weights = new ArrayList<>();
                double total = 0;
                for (int i = r.index() + 1; i < nodes.size() && nodes.get(i).parent() >= 0; i++) {
                    double v = weight(nodes.get(i), w, false);
                    if (v <= 0) continue;
                    samples.add(i);
                    weights.add(v);
                    total += v;
                }
                g.writeStartObject();
                g.writeStringField("type", "sampled");
                g.writeStringField("name", r.name());
                g.writeStringField("unit", unit);
                g.writeNumberField("startValue", 0);
                number(g, "endValue", total, w);
                g.writeArrayFieldStart("samples");
                int[] path = new int[16];
                for (int i : samples) {
                    int depth = 0;
                    for (int k = i; nodes.get(k).parent() >= 0; k = nodes.get(k).parent()) {
                        if (depth == path.length) path = java.util.Arrays.copyOf(path, depth * 2);
                        path[depth++] = frameOf[k];
                    }
                    g.writeStartArray();
                    for (int d = depth - 1; d >= 0; d--) g.writeNumber(path[d]);
                    g.writeEndArray();
                }
                g.writeEndArray();
                g.writeArrayFieldStart("weights");
                for (double v : weights) number(g, null, v, w);
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    /** Whole numbers for time, CPU and calls; µJ with nJ resolution. */
    private static void number(JsonGenerator g, String field, double v, Weight w) throws IOException {
        if (field != null) g.writeFieldName(field);
        if (w == Weight.ENERGY) g.writeNumber(Math.round(v * 1000) / 1000.0);
        else g.writeNumber(Math.round(v));
    }
}
