package org.hyprof.export;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hyprof.analysis.CallStream;
import org.hyprof.analysis.CallTree;
import org.hyprof.analysis.Timeline;
import org.hyprof.config.MethodNames;
import org.hyprof.config.ProbeInfo;
import org.hyprof.correlate.Histogram;
import org.hyprof.correlate.MethodRow;
import org.hyprof.correlate.Profile;
import org.hyprof.store.CalibrationRecord;
import org.hyprof.store.NativeBlock;
import org.hyprof.store.NativeEpoch;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;

/**
 * The self-contained HTML report ({@code report --format html}, {@code compare --format html}): one
 * file with its script, style and data inlined, that opens from {@code file://} with no network.
 * The page draws on a {@code <canvas>} with a renderer of its own ({@code html/report.js}, as
 * async-profiler's flame graphs do): a flame graph or icicle of the calling-context tree with a
 * choice of weight (wall, CPU, energy, calls), zoom, regex search, colours by frame kind or energy
 * and an inverted (callers) view; the method table; native blocks of hybrid runs; a thread timeline
 * of events sessions; for two sessions a differential flame graph (colour = B/A).
 *
 * <p>Size is bounded whatever the session: frames whose share of the total is below
 * {@code prunePercent} in every weight are left out (their count and time are stated, and their
 * parent's tooltip shows them), and at most {@link #MAX_FRAMES} frames are kept (the threshold is
 * raised until they fit, and the page says so); the timeline keeps at most {@link #MAX_SLICES}
 * calls, shared among threads. The data is written as it is produced (a JSON object of column
 * arrays with a string table, inside a {@code <script type="application/json">}), so writing needs
 * memory for the tree and the kept columns, not for the page.
 */
public final class HtmlReport {
    /** Default pruning threshold: frames under this percentage of the total in every weight are left out. */
    public static final double DEFAULT_PRUNE_PERCENT = 0.001;
    /** The most frames a page carries (about 60 bytes each). */
    public static final int MAX_FRAMES = 250_000;
    /** The most timeline slices a page carries (calls of events sessions). */
    public static final int MAX_SLICES = 200_000;
    /** Hottest blocks shown per native method. */
    static final int BLOCKS_PER_METHOD = 8;
    /** Disassembly kept per block. */
    static final int MAX_DISASSEMBLY_CHARS = 4_000;

    private static final String DATA_MARK = "<!--HYPROF_DATA-->", CSS_MARK = "/*HYPROF_CSS*/", JS_MARK = "/*HYPROF_JS*/";

    private HtmlReport() {}

    /**
     * Writes the report of one session.
     *
     * @param profile      the method table (with the energy model the user chose)
     * @param prunePercent frames below this share of the total (percent) in every weight are pruned
     */
    public static void writeSession(Store store, Profile profile, MethodNames.Style style, double prunePercent, Writer out)
            throws IOException {
        CallTree tree = CallTree.load(store, style, profile.energy());
        Frames f = Frames.of(new CallTree[] {tree});
        page(out, "hyprof — " + programs(store), g -> {
            g.writeStringField("mode", "session");
            g.writeObjectFieldStart("header");
            header(g, store, profile, tree);
            g.writeEndObject();
            f.write(g, prunePercent);
            methods(g, profile);
            nativeCode(g, store, style);
            timeline(g, store, style);
        });
    }

    /** Writes the differential report of two sessions (frames matched by thread and path; colour = B/A). */
    public static void writeComparison(Store a, Profile pa, Store b, Profile pb, MethodNames.Style style, double prunePercent,
                                       Writer out) throws IOException {
        CallTree ta = CallTree.load(a, style, pa.energy()), tb = CallTree.load(b, style, pb.energy());
        Frames f = Frames.of(new CallTree[] {ta, tb});
        page(out, "hyprof compare — " + programs(a) + " / " + programs(b), g -> {
            g.writeStringField("mode", "compare");
            g.writeObjectFieldStart("header");
            g.writeObjectFieldStart("a");
            g.writeStringField("file", a.file().toString());
            header(g, a, pa, ta);
            g.writeEndObject();
            g.writeObjectFieldStart("b");
            g.writeStringField("file", b.file().toString());
            header(g, b, pb, tb);
            g.writeEndObject();
            g.writeEndObject();
            f.write(g, prunePercent);
            Map<String, MethodRow[]> byName = new LinkedHashMap<>();
            for (MethodRow r : pa.methods()) byName.computeIfAbsent(r.method(), k -> new MethodRow[2])[0] = r;
            for (MethodRow r : pb.methods()) byName.computeIfAbsent(r.method(), k -> new MethodRow[2])[1] = r;
            g.writeArrayFieldStart("methods2");
            for (Map.Entry<String, MethodRow[]> e : byName.entrySet()) {
                g.writeStartArray();
                g.writeString(e.getKey());
                for (MethodRow r : e.getValue()) {
                    g.writeNumber(r == null ? 0 : r.calls());
                    g.writeNumber(r == null ? 0 : r.exclNanos());
                    g.writeNumber(r == null ? 0 : r.inclNanos());
                    g.writeNumber(r == null ? 0 : Math.round(r.energyMicrojoules() * 1000));
                }
                g.writeEndArray();
            }
            g.writeEndArray();
        });
    }

    // ------------------------------------------------------------------ page

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static void page(Writer out, String title, Body body) throws IOException {
        String template = resource("report.html");
        int data = template.indexOf(DATA_MARK), css = template.indexOf(CSS_MARK), js = template.indexOf(JS_MARK);
        if (data < 0 || css < 0 || js < 0 || !(css < data && data < js)) throw new IllegalStateException("html/report.html: markers missing");
        out.write(template.substring(0, css).replace("HYPROF_TITLE", html(title)));
        out.write(resource("report.css"));
        out.write(template, css + CSS_MARK.length(), data - css - CSS_MARK.length());
        out.write("<script type=\"application/json\" id=\"hyprof-data\">");
        JsonGenerator g = json(out);
        g.writeStartObject();
        g.writeNumberField("format", 1);
        body.write(g);
        g.writeEndObject();
        g.flush();
        out.write("</script>");
        out.write(template, data + DATA_MARK.length(), js - data - DATA_MARK.length());
        out.write(resource("report.js"));
        out.write(template.substring(js + JS_MARK.length()));
        out.flush();
    }

    /** A generator that never closes the writer and escapes what could end the script element early. */
    private static JsonGenerator json(Writer out) throws IOException {
        JsonGenerator g = new JsonFactory().createGenerator(out);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.setCharacterEscapes(new CharacterEscapes() {
            private final int[] codes;

            {
                codes = CharacterEscapes.standardAsciiEscapesForJSON();
                codes['<'] = CharacterEscapes.ESCAPE_STANDARD; // "</script>" and "<!--" in a method name stay data
                codes['>'] = CharacterEscapes.ESCAPE_STANDARD;
                codes['&'] = CharacterEscapes.ESCAPE_STANDARD;
            }

            @Override
            public int[] getEscapeCodesForAscii() {
                return codes;
            }

            @Override
            public SerializableString getEscapeSequence(int ch) {
                return null;
            }
        });
        return g;
    }

    static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream("html/" + name)) {
            if (in == null) throw new IllegalStateException("resource html/" + name + " missing");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String html(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String programs(Store store) {
        List<String> names = new ArrayList<>();
        for (ProcessInfo p : store.processes()) if (!names.contains(p.name())) names.add(p.name());
        return names.isEmpty() ? "(no process)" : String.join(", ", names);
    }

    // ------------------------------------------------------------------ header

    private static void header(JsonGenerator g, Store store, Profile profile, CallTree tree) throws IOException {
        g.writeStringField("program", programs(store));
        g.writeArrayFieldStart("processes");
        long threads = 0, first = Long.MAX_VALUE, last = Long.MIN_VALUE;
        for (ProcessInfo p : store.processes()) {
            g.writeStartObject();
            g.writeStringField("name", p.name());
            g.writeNumberField("pid", p.pid());
            g.writeStringField("status", p.status());
            g.writeStringField("mode", p.mode());
            g.writeStringField("vm", p.vm());
            g.writeNumberField("eventDrops", p.eventDrops());
            if (p.endWallMillis() != null) g.writeNumberField("durationMillis", p.endWallMillis() - p.startWallMillis());
            Map<String, String> nat = store.nativeInfo(p.id());
            if (!nat.isEmpty()) {
                g.writeObjectFieldStart("native");
                for (Map.Entry<String, String> e : new java.util.TreeMap<>(nat).entrySet()) g.writeStringField(e.getKey(), e.getValue());
                g.writeEndObject();
            }
            g.writeEndObject();
            threads += store.threads(p.id()).size();
            first = Math.min(first, p.startWallMillis());
            if (p.endWallMillis() != null) last = Math.max(last, p.endWallMillis());
        }
        g.writeEndArray();
        g.writeNumberField("threads", threads);
        if (last >= first) g.writeNumberField("durationMillis", last - first);
        List<CalibrationRecord> cals = profile.calibrations();
        if (!cals.isEmpty()) {
            CalibrationRecord c = CalibrationRecord.inEffect(cals);
            g.writeStringField("calibration", org.hyprof.correlate.CalibrationSummary.of(cals) + "; calls under "
                    + c.tinyNanos() + " ns are tiny (loop activations under " + c.tinyLoopNanos() + " ns)");
        }
        g.writeNumberField("eventDrops", profile.eventDrops());
        g.writeNumberField("otherPathsCalls", tree.overflowCalls());
        g.writeNumberField("nodeBudget", tree.nodeBudget());
        g.writeStringField("treeSource", tree.source().name().toLowerCase(Locale.ROOT));
        g.writeBooleanField("timesDeducted", tree.timesDeducted());
        String power = profile.energy().description();
        g.writeStringField("power", power);
        g.writeBooleanField("powerIsSample", power.toLowerCase(Locale.ROOT).contains("sample"));
        g.writeBooleanField("cpuTime", profile.cpuClock() != 0);
        g.writeBooleanField("hybrid", profile.hybrid());
        g.writeArrayFieldStart("notes");
        for (String n : profile.notes()) g.writeString(n);
        g.writeEndArray();
    }

    // ------------------------------------------------------------------ method table

    private static void methods(JsonGenerator g, Profile profile) throws IOException {
        g.writeArrayFieldStart("methods");
        for (MethodRow r : profile.methods()) {
            g.writeStartArray();
            g.writeString(r.method());
            g.writeString(r.kind());
            g.writeNumber(r.calls());
            g.writeNumber(r.inclNanos());
            g.writeNumber(r.exclNanos());
            g.writeNumber(r.cpu() == null ? -1 : r.cpu().exclNanos());
            g.writeNumber(Math.round(r.energyMicrojoules() * 1000));
            g.writeNumber(Math.round(r.energyInclMicrojoules() * 1000));
            g.writeNumber(r.p50Nanos());
            g.writeNumber(r.p99Nanos());
            g.writeNumber(Math.round(r.probeShare() * 10_000) / 10_000.0);
            g.writeNumber(r.countOnlyCalls());
            g.writeString(r.countOnlyReason() == null ? "" : r.countOnlyReason());
            g.writeString(r.probeWarning() == null ? "" : r.probeWarning());
            g.writeNumber(r.nativeCost().estNanos());
            g.writeEndArray();
        }
        g.writeEndArray();
    }

    // ------------------------------------------------------------------ native code

    private static void nativeCode(JsonGenerator g, Store store, MethodNames.Style style) throws IOException {
        g.writeArrayFieldStart("native");
        for (ProcessInfo p : store.processes()) {
            List<NativeBlock> blocks = store.nativeBlocks(p.id());
            if (blocks.isEmpty()) continue;
            List<ProbeInfo> probes = store.probes(p.id());
            Map<Integer, String> names = MethodNames.names(probes, style);
            Map<Integer, List<NativeBlock>> byProbe = new java.util.TreeMap<>();
            for (NativeBlock b : blocks) for (int probe : b.executionsByProbe().keySet()) byProbe.computeIfAbsent(probe, k -> new ArrayList<>()).add(b);
            for (Map.Entry<Integer, List<NativeBlock>> e : byProbe.entrySet()) {
                int probe = e.getKey();
                List<NativeBlock> bs = e.getValue();
                bs.sort((x, y) -> Long.compare(y.executionsByProbe().get(probe) * y.instructions(),
                        x.executionsByProbe().get(probe) * x.instructions()));
                Map<String, Long> mix = new java.util.TreeMap<>();
                long instructions = 0;
                for (NativeBlock b : bs) {
                    long ex = b.executionsByProbe().get(probe);
                    instructions += ex * b.instructions();
                    for (Map.Entry<String, Long> c : categories(b.categories()).entrySet()) mix.merge(c.getKey(), c.getValue() * ex, Long::sum);
                }
                g.writeStartObject();
                g.writeStringField("method", names.getOrDefault(probe, "probe#" + probe));
                g.writeNumberField("pid", p.pid());
                g.writeNumberField("instructions", instructions);
                g.writeNumberField("blocks", bs.size());
                g.writeObjectFieldStart("mix");
                for (Map.Entry<String, Long> c : mix.entrySet()) g.writeNumberField(c.getKey(), c.getValue());
                g.writeEndObject();
                g.writeArrayFieldStart("hot");
                for (NativeBlock b : bs.subList(0, Math.min(BLOCKS_PER_METHOD, bs.size()))) {
                    g.writeStartObject();
                    g.writeStringField("library", b.library().substring(b.library().lastIndexOf('/') + 1));
                    g.writeStringField("function", b.function() == null ? "" : b.function());
                    g.writeStringField("address", "0x" + Long.toHexString(b.address()));
                    g.writeNumberField("instructions", b.instructions());
                    g.writeNumberField("executions", b.executionsByProbe().get(probe));
                    g.writeStringField("categories", b.categories() == null ? "" : b.categories());
                    String d = b.disassembly() == null ? "" : b.disassembly();
                    g.writeStringField("disassembly", d.length() > MAX_DISASSEMBLY_CHARS ? d.substring(0, MAX_DISASSEMBLY_CHARS) + "\n…" : d);
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
        }
        g.writeEndArray();
    }

    /** {@code name=count,...} (a block's per-execution instruction categories); malformed parts are skipped. */
    static Map<String, Long> categories(String s) {
        Map<String, Long> r = new LinkedHashMap<>();
        if (s == null || s.isEmpty()) return r;
        for (String part : s.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) continue;
            try {
                r.merge(part.substring(0, eq).trim(), Long.parseLong(part.substring(eq + 1).trim()), Long::sum);
            } catch (NumberFormatException ignored) {
                // a category count that is not a number: left out of the mix
            }
        }
        return r;
    }

    // ------------------------------------------------------------------ timeline

    /** Calls of events sessions as slices, lane per thread; at most {@link #MAX_SLICES}, shared evenly among threads. */
    private static void timeline(JsonGenerator g, Store store, MethodNames.Style style) throws IOException {
        List<CallStream> streams = new ArrayList<>();
        int threads = 0;
        for (ProcessInfo p : store.processes()) {
            if (store.eventChunkCount(p.id()) == 0) continue;
            CallStream s = CallStream.of(store, p, null, style);
            streams.add(s);
            threads += s.threads.size();
        }
        if (threads == 0) return;
        long origin = Long.MAX_VALUE;
        for (CallStream s : streams) origin = Math.min(origin, s.firstNanos());
        if (origin == Long.MAX_VALUE) origin = 0;
        int perThread = Math.max(1, MAX_SLICES / threads);
        final long t0 = origin;
        Map<String, Integer> strings = new HashMap<>();
        List<String> table = new ArrayList<>();
        long[] kept = new long[2]; // calls kept, calls left out
        g.writeObjectFieldStart("timeline");
        g.writeNumberField("perThreadLimit", perThread);
        g.writeArrayFieldStart("lanes");
        for (CallStream s : streams) {
            boolean many = streams.size() > 1;
            s.replay(new CallStream.Visitor() {
                long[] start = new long[64], end = new long[64];
                int[] depth = new int[64], name = new int[64];
                int n;
                long dropped;

                @Override
                public void thread(CallStream.ThreadRef t) {
                    n = 0;
                    dropped = 0;
                }

                @Override
                public void open(int probeId, boolean loop, long startNanos, int d) {}

                @Override
                public void close(Timeline.Call c, double selfEnergyMicrojoules, NativeEpoch epoch) {
                    if (n == perThread) {
                        dropped++;
                        return;
                    }
                    if (n == start.length) {
                        int m = Math.min(perThread, n * 2);
                        start = Arrays.copyOf(start, m);
                        end = Arrays.copyOf(end, m);
                        depth = Arrays.copyOf(depth, m);
                        name = Arrays.copyOf(name, m);
                    }
                    String nm = s.name(c.probeId());
                    Integer k = strings.get(nm);
                    if (k == null) {
                        k = table.size();
                        strings.put(nm, k);
                        table.add(nm);
                    }
                    start[n] = c.startNanos() - t0;
                    end[n] = Math.max(c.startNanos(), c.endNanos()) - t0;
                    depth[n] = c.depth();
                    name[n] = k;
                    n++;
                }

                @Override
                public void threadEnd(CallStream.ThreadRef t) {
                    // by start, parents before children (calls close children first)
                    Integer[] order = new Integer[n];
                    for (int i = 0; i < n; i++) order[i] = i;
                    Arrays.sort(order, (x, y) -> start[x] != start[y] ? Long.compare(start[x], start[y]) : Integer.compare(depth[x], depth[y]));
                    try {
                        g.writeStartObject();
                        g.writeStringField("thread", many ? s.process.name() + " " + s.process.pid() + "/" + t.name() : t.name());
                        g.writeNumberField("leftOut", dropped);
                        g.writeArrayFieldStart("s");
                        for (Integer i : order) g.writeNumber(start[i]);
                        g.writeEndArray();
                        g.writeArrayFieldStart("e");
                        for (Integer i : order) g.writeNumber(end[i]);
                        g.writeEndArray();
                        g.writeArrayFieldStart("d");
                        for (Integer i : order) g.writeNumber(depth[i]);
                        g.writeEndArray();
                        g.writeArrayFieldStart("n");
                        for (Integer i : order) g.writeNumber(name[i]);
                        g.writeEndArray();
                        g.writeEndObject();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    kept[0] += n;
                    kept[1] += dropped;
                }
            });
        }
        g.writeEndArray();
        g.writeNumberField("calls", kept[0]);
        g.writeNumberField("leftOut", kept[1]);
        g.writeArrayFieldStart("names");
        for (String nm : table) g.writeString(nm);
        g.writeEndArray();
        g.writeEndObject();
    }

    // ------------------------------------------------------------------ frames

    /**
     * The frames of one tree, or of two merged by (thread, path) for a comparison: per frame its
     * parent, kind and name, and per side the figures. Parents come before their children.
     */
    static final class Frames {
        final int sides;
        int n;
        int[] parent, kind, name;
        long[][] calls, wallIncl, wallExcl, cpuIncl, cpuExcl, energyIncl, energyExcl, p50, p99; // [side][frame], energy in nJ
        final List<String> names = new ArrayList<>();
        final Map<String, Integer> nameIndex = new HashMap<>();
        boolean percentiles;

        private Frames(int sides, int capacity) {
            this.sides = sides;
            parent = new int[capacity];
            kind = new int[capacity];
            name = new int[capacity];
            calls = new long[sides][capacity];
            wallIncl = new long[sides][capacity];
            wallExcl = new long[sides][capacity];
            cpuIncl = new long[sides][capacity];
            cpuExcl = new long[sides][capacity];
            energyIncl = new long[sides][capacity];
            energyExcl = new long[sides][capacity];
            p50 = new long[sides][capacity];
            p99 = new long[sides][capacity];
        }

        static Frames of(CallTree[] trees) {
            int cap = 0;
            for (CallTree t : trees) cap += t.nodes().size();
            Frames f = new Frames(trees.length, cap);
            Map<String, Integer> merged = trees.length > 1 ? new HashMap<>() : null;
            for (int s = 0; s < trees.length; s++) {
                List<CallTree.Node> nodes = trees[s].nodes();
                int[] at = new int[nodes.size()];
                for (CallTree.Node node : nodes) {
                    int p = node.parent() < 0 ? -1 : at[node.parent()];
                    int i;
                    if (merged == null) {
                        i = f.add(p, node.kind().ordinal(), node.name());
                    } else {
                        String key = p + "\u0000" + node.kind().ordinal() + "\u0000" + node.name();
                        Integer k = merged.get(key);
                        if (k == null) {
                            k = f.add(p, node.kind().ordinal(), node.name());
                            merged.put(key, k);
                        }
                        i = k;
                    }
                    at[node.index()] = i;
                    f.calls[s][i] += node.calls();
                    f.wallIncl[s][i] += node.inclNanos();
                    f.wallExcl[s][i] += node.exclNanos();
                    f.cpuIncl[s][i] += node.cpuInclNanos() == null ? 0 : node.cpuInclNanos();
                    f.cpuExcl[s][i] += node.cpuExclNanos() == null ? 0 : node.cpuExclNanos();
                    f.energyIncl[s][i] += Math.round(node.energyInclMicrojoules() * 1000);
                    f.energyExcl[s][i] += Math.round(node.energyMicrojoules() * 1000);
                    Long p50 = node.percentile(0.5);
                    if (p50 != null) {
                        f.percentiles = true;
                        f.p50[s][i] = p50;
                        f.p99[s][i] = node.percentile(0.99);
                    }
                }
            }
            return f;
        }

        private int add(int p, int k, String nm) {
            Integer s = nameIndex.get(nm);
            if (s == null) {
                s = names.size();
                nameIndex.put(nm, s);
                names.add(nm);
            }
            parent[n] = p;
            kind[n] = k;
            name[n] = s;
            return n++;
        }

        /** Calls of a frame and everything under it (a thread root: of its frames), summed over sides. */
        long[] callsIncl() {
            long[] r = new long[n];
            for (int i = 0; i < n; i++) for (int s = 0; s < sides; s++) r[i] += kind[i] == CallTree.Kind.THREAD.ordinal() ? 0 : calls[s][i];
            for (int i = n - 1; i >= 0; i--) if (parent[i] >= 0) r[parent[i]] += r[i];
            return r;
        }

        /** Per frame, its largest share of the total over the four weights (summed over sides). */
        double[] shares() {
            long[] ci = callsIncl();
            double[] totals = new double[4];
            for (int i = 0; i < n; i++) {
                if (parent[i] >= 0) continue;
                totals[0] += sum(wallIncl, i);
                totals[1] += sum(cpuIncl, i);
                totals[2] += sum(energyIncl, i);
                totals[3] += ci[i];
            }
            double[] r = new double[n];
            for (int i = 0; i < n; i++) {
                double m = 0;
                if (totals[0] > 0) m = Math.max(m, sum(wallIncl, i) / totals[0]);
                if (totals[1] > 0) m = Math.max(m, sum(cpuIncl, i) / totals[1]);
                if (totals[2] > 0) m = Math.max(m, sum(energyIncl, i) / totals[2]);
                if (totals[3] > 0) m = Math.max(m, ci[i] / totals[3]);
                r[i] = m;
            }
            return r;
        }

        private long sum(long[][] a, int i) {
            long t = 0;
            for (int s = 0; s < sides; s++) t += a[s][i];
            return t;
        }

        /** Chooses the frames to keep, then writes them as column arrays with their string table. */
        void write(JsonGenerator g, double prunePercent) throws IOException {
            double[] share = shares();
            double threshold = Math.max(0, prunePercent) / 100;
            int over = 0;
            for (int i = 0; i < n; i++) if (share[i] >= threshold) over++;
            boolean raised = false;
            if (over > MAX_FRAMES) {
                double[] sorted = share.clone();
                Arrays.sort(sorted);
                threshold = Math.nextUp(sorted[n - MAX_FRAMES - 1]); // keeps at most MAX_FRAMES (fewer when shares tie)
                raised = true;
            }
            int[] newIndex = new int[n];
            long[] subtree = new long[n];
            Arrays.fill(subtree, 1);
            for (int i = n - 1; i >= 0; i--) if (parent[i] >= 0) subtree[parent[i]] += subtree[i];
            int kept = 0;
            long prunedFrames = 0, prunedWall = 0, totalWall = 0;
            long[] prunedBelow = new long[n];
            for (int i = 0; i < n; i++) {
                int p = parent[i];
                if (p < 0) totalWall += sum(wallIncl, i);
                boolean keep = p < 0 || newIndex[p] >= 0 && share[i] >= threshold;
                newIndex[i] = keep ? kept++ : -1;
                if (!keep && p >= 0 && newIndex[p] >= 0) {
                    prunedBelow[p] += subtree[i];
                    prunedFrames += subtree[i];
                    prunedWall += sum(wallIncl, i);
                }
            }
            g.writeObjectFieldStart("frames");
            g.writeNumberField("sides", sides);
            g.writeNumberField("count", kept);
            g.writeNumberField("total", n);
            g.writeNumberField("prunePercent", threshold * 100);
            g.writeBooleanField("thresholdRaised", raised);
            g.writeNumberField("maxFrames", MAX_FRAMES);
            g.writeNumberField("prunedFrames", prunedFrames);
            g.writeNumberField("prunedWallNanos", prunedWall);
            g.writeNumberField("totalWallNanos", totalWall);
            // parent as the distance back to it (small numbers: most parents are close), 0 for roots
            g.writeArrayFieldStart("up");
            for (int i = 0; i < n; i++) if (newIndex[i] >= 0) g.writeNumber(parent[i] < 0 ? 0 : newIndex[i] - newIndex[parent[i]]);
            g.writeEndArray();
            column(g, "kind", kind, newIndex);
            column(g, "name", name, newIndex);
            column(g, "pruned", prunedBelow, newIndex);
            for (int s = 0; s < sides; s++) {
                String x = sides > 1 ? (s == 0 ? "A" : "B") : "";
                column(g, "calls" + x, calls[s], newIndex);
                column(g, "wallIncl" + x, wallIncl[s], newIndex);
                column(g, "wallExcl" + x, wallExcl[s], newIndex);
                column(g, "cpuIncl" + x, cpuIncl[s], newIndex);
                column(g, "cpuExcl" + x, cpuExcl[s], newIndex);
                column(g, "energyIncl" + x, energyIncl[s], newIndex);
                column(g, "energyExcl" + x, energyExcl[s], newIndex);
                if (percentiles) {
                    column(g, "p50" + x, p50[s], newIndex);
                    column(g, "p99" + x, p99[s], newIndex);
                }
            }
            g.writeArrayFieldStart("names");
            for (String nm : names) g.writeString(nm);
            g.writeEndArray();
            g.writeArrayFieldStart("kinds");
            for (CallTree.Kind k : CallTree.Kind.values()) g.writeString(k.name().toLowerCase(Locale.ROOT));
            g.writeEndArray();
            g.writeEndObject();
        }

        private void column(JsonGenerator g, String field, int[] v, int[] keep) throws IOException {
            g.writeArrayFieldStart(field);
            for (int i = 0; i < n; i++) if (keep[i] >= 0) g.writeNumber(v[i]);
            g.writeEndArray();
        }

        private void column(JsonGenerator g, String field, long[] v, int[] keep) throws IOException {
            g.writeArrayFieldStart(field);
            for (int i = 0; i < n; i++) if (keep[i] >= 0) g.writeNumber(v[i]);
            g.writeEndArray();
        }
    }
}
