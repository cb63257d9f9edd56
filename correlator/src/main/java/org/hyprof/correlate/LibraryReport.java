package org.hyprof.correlate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.MethodNames;
import org.hyprof.store.NativeLibraryCost;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;

/**
 * Native cost by library ({@code hyprof report S.db --by library}; issue 16 item 4): how much of a
 * hybrid run's native instructions, cycles, estimated device time and energy ran in the app's own
 * libraries and how much in the system libraries loaded beside them ({@code --userland bionic}:
 * {@code libc.so}, {@code libm.so} …), over the whole session and per native method, with the
 * share spent in system libraries. Read from {@code native_library_cost} (schema 9); a system
 * library of several app libraries' emulators is one row. Table, CSV or JSON.
 */
public final class LibraryReport {
    /** CSV header: one row per library over all methods ({@code method} empty), then per method and library. */
    public static final String COLUMNS =
            "method,library,kind,blocks,instructions,cycles,est_ns,energy_uj,share_instructions,share_energy";
    /** What the table says when the session has no per-library rows (and why that may be). */
    public static final String NONE = "no native cost per library in this session (it is stored for hybrid runs, hyprof profile"
            + " --native-libs DIR, recorded by hyprof with schema 9 or later)";

    /** Figures summed over calls, methods or processes. */
    record Sum(long blocks, long instructions, long cycles, long estNanos, long energyPicojoules) {
        static final Sum ZERO = new Sum(0, 0, 0, 0, 0);

        Sum plus(NativeLibraryCost c) {
            return new Sum(blocks + c.blocks(), instructions + c.instructions(), cycles + c.cycles(), estNanos + c.estNanos(),
                    energyPicojoules + c.energyPicojoules());
        }

        Sum plus(Sum o) {
            return new Sum(blocks + o.blocks, instructions + o.instructions, cycles + o.cycles, estNanos + o.estNanos,
                    energyPicojoules + o.energyPicojoules);
        }
    }

    /** One library's share: its name, whether it is a system library, its figures. */
    record Library(String name, boolean system, Sum sum) {}

    /** One native method: its name, its figures per library (app libraries first), and the total. */
    record Method(String name, List<Library> libraries, Sum total) {
        Sum system() {
            Sum s = Sum.ZERO;
            for (Library l : libraries) if (l.system()) s = s.plus(l.sum());
            return s;
        }
    }

    private final List<Library> libraries;
    private final List<Method> methods;
    private final Sum total;
    private final int top;

    LibraryReport(List<Library> libraries, List<Method> methods, int top) {
        this.libraries = libraries;
        this.methods = methods;
        Sum t = Sum.ZERO;
        for (Library l : libraries) t = t.plus(l.sum());
        this.total = t;
        this.top = top;
    }

    /**
     * The session's per-library native cost, methods named in {@code style}; {@code top} &gt; 0
     * shows only the first {@code top} methods (most native instructions first).
     */
    public static LibraryReport load(Store store, MethodNames.Style style, int top) {
        Map<String, Library> libs = new LinkedHashMap<>();
        Map<String, Map<String, Library>> byMethod = new LinkedHashMap<>();
        for (ProcessInfo p : store.processes()) {
            List<NativeLibraryCost> costs = store.nativeLibraryCosts(p.id());
            if (costs.isEmpty()) continue;
            Map<Integer, String> names = MethodNames.names(store.probes(p.id()), style);
            for (NativeLibraryCost c : costs) {
                String method = c.probeId() < 0 ? "JNI_OnLoad (" + c.library() + ")"
                        : names.getOrDefault(c.probeId(), "probe#" + c.probeId());
                libs.merge(c.codeLibrary(), new Library(c.codeLibrary(), c.system(), Sum.ZERO.plus(c)),
                        (a, b) -> new Library(a.name(), a.system(), a.sum().plus(b.sum())));
                byMethod.computeIfAbsent(method, k -> new LinkedHashMap<>()).merge(c.codeLibrary(),
                        new Library(c.codeLibrary(), c.system(), Sum.ZERO.plus(c)),
                        (a, b) -> new Library(a.name(), a.system(), a.sum().plus(b.sum())));
            }
        }
        Comparator<Library> order = Comparator.comparing(Library::system)
                .thenComparing(Comparator.comparingLong((Library l) -> l.sum().instructions()).reversed())
                .thenComparing(Library::name);
        List<Library> all = new ArrayList<>(libs.values());
        all.sort(order);
        List<Method> methods = new ArrayList<>();
        byMethod.forEach((name, m) -> {
            List<Library> l = new ArrayList<>(m.values());
            l.sort(order);
            Sum t = Sum.ZERO;
            for (Library x : l) t = t.plus(x.sum());
            methods.add(new Method(name, l, t));
        });
        methods.sort(Comparator.comparingLong((Method m) -> m.total().instructions()).reversed().thenComparing(Method::name));
        return new LibraryReport(all, methods, top);
    }

    /** Whether the session has any per-library rows. */
    public boolean any() {
        return !libraries.isEmpty();
    }

    public void write(ReportWriter.Format format, PrintWriter out) {
        format.write(out, this::table, this::csv, this::json);
    }

    private List<Method> shown() {
        return top > 0 && top < methods.size() ? methods.subList(0, top) : methods;
    }

    private static double share(long part, long whole) {
        return whole == 0 ? 0 : part / (double) whole;
    }

    private Sum system() {
        Sum s = Sum.ZERO;
        for (Library l : libraries) if (l.system()) s = s.plus(l.sum());
        return s;
    }

    private void table(PrintWriter out) {
        if (!any()) {
            out.println(NONE);
            return;
        }
        out.println("native cost by library (estimated for the device from the CPU profile)");
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"instructions", "share %", "cycles", "time us", "energy uJ", "energy %", "kind", "library"});
        for (Library l : libraries) cells.add(row(l.sum(), total, l.system() ? "system" : "app", l.name()));
        cells.add(row(total, total, "", "(all native code)"));
        ReportWriter.aligned(out, cells);
        Sum sys = system();
        out.println("in system libraries: " + Units.percent(share(sys.instructions(), total.instructions())) + " % of native instructions, "
                + Units.percent(share(sys.cycles(), total.cycles())) + " % of cycles, "
                + Units.percent(share(sys.energyPicojoules(), total.energyPicojoules())) + " % of energy");
        out.println();
        out.println("per native method (share of its native instructions in each library):");
        List<String> names = new ArrayList<>();
        for (Library l : libraries) names.add(l.name());
        List<String[]> m = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("instructions", "cycles", "energy uJ", "system %"));
        for (String n : names) head.add(n + " %");
        head.add("method");
        m.add(head.toArray(new String[0]));
        for (Method x : shown()) {
            List<String> r = new ArrayList<>(List.of(Units.count(x.total().instructions()), Units.count(x.total().cycles()),
                    Units.microjoules(x.total().energyPicojoules() / 1e6),
                    Units.percent(share(x.system().instructions(), x.total().instructions()))));
            for (String n : names) {
                Library l = x.libraries().stream().filter(y -> y.name().equals(n)).findFirst().orElse(null);
                r.add(l == null ? "" : Units.percent(share(l.sum().instructions(), x.total().instructions())));
            }
            r.add(Printable.of(x.name()));
            m.add(r.toArray(new String[0]));
        }
        ReportWriter.aligned(out, m);
        if (shown().size() < methods.size()) out.println("(" + (methods.size() - shown().size()) + " more methods: --top 0 shows all)");
    }

    private static String[] row(Sum s, Sum total, String kind, String name) {
        return new String[] {Units.count(s.instructions()), Units.percent(share(s.instructions(), total.instructions())),
            Units.count(s.cycles()), Units.micros(s.estNanos()), Units.microjoules(s.energyPicojoules() / 1e6),
            Units.percent(share(s.energyPicojoules(), total.energyPicojoules())), kind, Printable.of(name)};
    }

    private void csv(PrintWriter out) {
        out.println(COLUMNS);
        for (Library l : libraries) out.println(csvRow("", l, total));
        for (Method m : shown()) for (Library l : m.libraries()) out.println(csvRow(m.name(), l, m.total()));
    }

    private static String csvRow(String method, Library l, Sum whole) {
        Sum s = l.sum();
        return String.join(",", ReportWriter.csvField(method), ReportWriter.csvField(l.name()), l.system() ? "system" : "app",
                Long.toString(s.blocks()), Long.toString(s.instructions()), Long.toString(s.cycles()), Long.toString(s.estNanos()),
                Units.microjoulesFine(s.energyPicojoules() / 1e6), Units.share(share(s.instructions(), whole.instructions())),
                Units.share(share(s.energyPicojoules(), whole.energyPicojoules())));
    }

    private void json(PrintWriter out) {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode o = mapper.createObjectNode();
        put(o.putObject("total"), total);
        Sum sys = system();
        ObjectNode s = o.putObject("system_share");
        s.put("instructions", share(sys.instructions(), total.instructions())).put("cycles", share(sys.cycles(), total.cycles()))
                .put("energy", share(sys.energyPicojoules(), total.energyPicojoules()));
        libraries(o.putArray("libraries"), libraries, total);
        ArrayNode ms = o.putArray("methods");
        for (Method m : shown()) {
            ObjectNode j = ms.addObject();
            j.put("method", m.name());
            put(j, m.total());
            j.put("system_share_instructions", share(m.system().instructions(), m.total().instructions()));
            j.put("system_share_energy", share(m.system().energyPicojoules(), m.total().energyPicojoules()));
            libraries(j.putArray("libraries"), m.libraries(), m.total());
        }
        if (!any()) o.put("note", NONE);
        try {
            out.println(mapper.writeValueAsString(o));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void libraries(ArrayNode a, List<Library> libs, Sum whole) {
        for (Library l : libs) {
            ObjectNode j = a.addObject();
            j.put("library", l.name()).put("kind", l.system() ? "system" : "app");
            put(j, l.sum());
            j.put("share_instructions", share(l.sum().instructions(), whole.instructions()));
            j.put("share_energy", share(l.sum().energyPicojoules(), whole.energyPicojoules()));
        }
    }

    private static void put(ObjectNode j, Sum s) {
        j.put("blocks", s.blocks()).put("instructions", s.instructions()).put("cycles", s.cycles()).put("est_ns", s.estNanos())
                .put("energy_uj", s.energyPicojoules() / 1e6);
    }
}
