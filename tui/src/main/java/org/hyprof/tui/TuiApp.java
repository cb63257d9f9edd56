package org.hyprof.tui;

import com.googlecode.lanterna.SGR;
import com.googlecode.lanterna.TerminalSize;
import com.googlecode.lanterna.TextColor;
import com.googlecode.lanterna.graphics.TextGraphics;
import com.googlecode.lanterna.input.KeyStroke;
import com.googlecode.lanterna.input.KeyType;
import com.googlecode.lanterna.screen.Screen;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.hyprof.config.ConfigException;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.config.Zoom;
import org.hyprof.control.ControlState;
import org.hyprof.analysis.CallGraph;
import org.hyprof.store.NativeBlock;
import org.hyprof.store.NativeCost;
import org.hyprof.store.ThreadInfo;

/**
 * The terminal UI: RMP's zoom tree (process → thread → method → loop) with each probe's state
 * and live counts, a hotspot table, method detail, an energy view and a status line. Everything
 * is driven from the keyboard; every failure becomes a message on screen, never a stack trace.
 *
 * <p>Keys: arrows/PgUp/PgDn move, Enter zooms in (or opens detail), Backspace zooms out, Space
 * toggles a probe, {@code r} rules, {@code f} caller-filter root, {@code /} search, {@code s}
 * sort, {@code h}/Tab tree ↔ hotspots, {@code d} detail, {@code e} energy, {@code ?} help,
 * {@code q} quit.
 */
final class TuiApp {
    enum View { TREE, HOTSPOTS, DETAIL, ENERGY, HELP }

    enum Sort { EXCL, INCL, CALLS, ENERGY }

    /** One table row: its cells and what it stands for (a process id or a probe id). */
    record Row(String[] cells, long processId, int probeId) {}

    private final Screen screen;
    private final Source source;
    private SessionView data;
    private View view = View.TREE;
    private View back = View.TREE;
    private Sort sort = Sort.EXCL;
    private int cursor, scroll;
    private String filter = "";
    private String message = "";
    private Long currentProcess;
    private final Map<Long, Zoom.Scope> storedScopes = new HashMap<>();
    private int detailProbe = -1;
    private long detailProcess = -1;
    private String promptLabel;
    private StringBuilder promptText;
    private Consumer<String> promptAction;
    private boolean running = true;
    private long lastLoadMillis;
    private boolean everLoaded;
    private List<Row> rows = List.of();
    /** First line shown of a text view (detail, energy), and how many lines it has. */
    private int textScroll, textLines;
    private final CallGraphs graphs;
    /** The row selected before a live refresh, to select again once the rows are rebuilt. */
    private Row keep;

    TuiApp(Screen screen, Source source) {
        this.screen = screen;
        this.source = source;
        this.graphs = new CallGraphs(source.store());
    }

    /**
     * Runs until q. The screen is started and stopped by the caller. Returns the exit code: 0, or
     * 1 when the session could never be read (the message was on screen).
     */
    int run() throws IOException {
        try {
            reload();
            render();
            while (running) {
                KeyStroke k = screen.pollInput();
                boolean dirty = false;
                if (k != null) {
                    if (k.getKeyType() == KeyType.EOF) break;
                    handle(k);
                    dirty = true;
                } else if (source.live() && System.currentTimeMillis() - lastLoadMillis > 1000) {
                    keep = selected();
                    reload();
                    dirty = true;
                }
                if (graphs.takeChanged()) dirty = true;
                if (screen.doResizeIfNecessary() != null) dirty = true;
                if (dirty) render();
                else sleep();
            }
            return everLoaded ? 0 : 1;
        } finally {
            close();
        }
    }

    /** Stops the call-graph worker (run does it on the way out). */
    void close() {
        graphs.close();
    }

    /** Waits for call graphs being built for method detail (tests). */
    void awaitCallGraphs() throws InterruptedException {
        graphs.awaitIdle(30_000);
    }

    boolean running() {
        return running;
    }

    private static void sleep() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Loads fresh data; a failure becomes the message line. */
    void reload() {
        try {
            data = source.load();
            everLoaded = true;
            lastLoadMillis = System.currentTimeMillis();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            message = "cannot read the session: " + oneLine(e);
            lastLoadMillis = System.currentTimeMillis();
        }
    }

    // ------------------------------------------------------------------ keys

    void handle(KeyStroke k) {
        try {
            if (promptText != null) { prompt(k); return; }
            KeyType t = k.getKeyType();
            if (view == View.HELP) { // the arrows scroll a long help; any other key closes it
                switch (t) {
                    case ArrowUp, ArrowDown, PageUp, PageDown, Home, End -> { }
                    default -> { view = back; return; }
                }
            }
            Character c = t == KeyType.Character ? k.getCharacter() : null;
            boolean text = view == View.DETAIL || view == View.ENERGY || view == View.HELP; // the arrows scroll text
            switch (t) {
                case ArrowUp -> { if (text) scrollText(-1); else move(-1); }
                case ArrowDown -> { if (text) scrollText(1); else move(1); }
                case PageUp -> { if (text) scrollText(-pageRows()); else move(-pageRows()); }
                case PageDown -> { if (text) scrollText(pageRows()); else move(pageRows()); }
                case Home -> { if (text) scrollText(-textLines); else move(-cursor); }
                case End -> { if (text) scrollText(textLines); else move(rows.size()); }
                case Enter -> enter();
                case Backspace -> zoomOut();
                case Escape -> { filter = ""; message = ""; if (view == View.DETAIL || view == View.ENERGY) view = back; }
                case Tab -> switchView(view == View.TREE ? View.HOTSPOTS : View.TREE);
                default -> { }
            }
            if (c == null) return;
            switch (c) {
                case 'q' -> running = false;
                case ' ' -> toggle();
                case 'r' -> startPrompt("rule (min-duration=DUR, min-calls=N, max-depth=N, none): ", this::rule);
                case 'f' -> root();
                case '/' -> startPrompt("search: ", s -> { filter = s; cursor = 0; scroll = 0; });
                case 's' -> {
                    sort = Sort.values()[(sort.ordinal() + 1) % Sort.values().length];
                    message = "sort " + label(sort) + (sort == Sort.ENERGY && !data.hybrid() ? " (Java energy only: no native code ran in the emulator)" : "");
                }
                case 'h' -> switchView(view == View.TREE ? View.HOTSPOTS : View.TREE);
                case 'd' -> detail();
                case 'e' -> { back = view == View.ENERGY ? back : view; view = View.ENERGY; textScroll = 0; }
                case '?' -> { back = view; view = View.HELP; textScroll = 0; }
                default -> { }
            }
        } catch (ConfigException | IllegalStateException e) {
            message = oneLine(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            message = "error: " + oneLine(e);
        }
    }

    private void switchView(View v) {
        view = v;
        cursor = 0;
        scroll = 0;
    }

    private void move(int d) {
        cursor = Math.max(0, Math.min(rows.size() - 1, cursor + d));
    }

    private void scrollText(int d) {
        int body = Math.max(1, screen.getTerminalSize().getRows() - 3);
        textScroll = Math.max(0, Math.min(Math.max(0, textLines - body), textScroll + d));
    }

    private int pageRows() {
        return Math.max(1, screen.getTerminalSize().getRows() - 4);
    }

    /**
     * Keeps the cursor on the same process or probe when a live refresh rebuilt the rows: the
     * table re-sorts as counts change, and a key press must act on the row the user saw selected.
     */
    private void keepSelection(Row before) {
        if (before == null) return;
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            if (r.processId() == before.processId() && r.probeId() == before.probeId()) {
                cursor = i;
                return;
            }
        }
    }

    private Row selected() {
        return cursor >= 0 && cursor < rows.size() ? rows.get(cursor) : null;
    }

    private void enter() throws InterruptedException {
        Row r = selected();
        if (view == View.HOTSPOTS) { detail(); return; }
        if (view != View.TREE || r == null) return;
        if (currentProcess == null) {
            currentProcess = r.processId();
            zoomIn(r.processId(), -1);
            return;
        }
        SessionView.Proc p = proc(currentProcess);
        ProbeInfo probe = p == null ? null : p.probe(r.probeId());
        if (probe == null) return;
        if (probe.loop()) { detail(); return; }
        Zoom.Scope s = scope(p);
        if (s.level() == Resolution.LOOP) { detail(); return; }
        zoomIn(currentProcess, probe.id());
    }

    private void zoomIn(long process, int target) throws InterruptedException {
        SessionView.Proc p = proc(process);
        if (source.live() && p != null && p.connected()) {
            message = source.zoomIn(process, target);
            reload();
        } else {
            Manifest m = p == null ? new Manifest() : manifest(p);
            storedScopes.put(process, Zoom.zoomIn(scope(p), m, target));
            message = scope(p).level().label() + " level" + (source.live() ? " (not connected: navigation only)" : "");
        }
        cursor = 0;
        scroll = 0;
    }

    private void zoomOut() throws InterruptedException {
        if (view == View.DETAIL || view == View.ENERGY) { view = back; return; }
        if (view != View.TREE || currentProcess == null) return;
        SessionView.Proc p = proc(currentProcess);
        if (source.live() && p != null && p.connected()) {
            message = source.zoomOut(currentProcess);
            reload();
            p = proc(currentProcess);
        } else {
            storedScopes.put(currentProcess, Zoom.zoomOut(scope(p)));
            message = scope(p).level().label() + " level";
        }
        if (p == null || !scope(p).inProcess()) currentProcess = null;
        cursor = 0;
        scroll = 0;
    }

    private void toggle() throws InterruptedException {
        Row r = selected();
        SessionView.Proc p = r == null ? null : proc(r.processId());
        ProbeInfo probe = p == null || r.probeId() < 0 ? null : p.probe(r.probeId());
        if (probe == null) { message = "select a probe to switch it on or off"; return; }
        Manifest m = manifest(p);
        ControlState[] before = new ControlState[1];
        ControlState after = source.change(p.info().id(), cur -> {
            before[0] = cur;
            return Zoom.setProbe(cur, m, probe.id(), !cur.isOn(probe.id()));
        });
        message = toggleMessage(probe, p.probes(), before[0], after);
        reload();
    }

    /**
     * What a toggle did, for the message line: the probe's new state and what changed with it
     * ("m1 off, and its 1 loop": a loop records only inside its method's frame, so switching a
     * method off switches its loops off, and switching a loop on switches its method on).
     */
    static String toggleMessage(ProbeInfo probe, List<ProbeInfo> probes, ControlState before, ControlState after) {
        StringBuilder b = new StringBuilder(probe.displayName()).append(after.isOn(probe.id()) ? " on" : " off");
        if (before == null) return b.toString();
        int loops = 0;
        boolean method = false;
        for (ProbeInfo q : probes) {
            if (q.id() == probe.id() || before.isOn(q.id()) == after.isOn(q.id())) continue;
            if (q.loop() && q.ownerId() == probe.id()) loops++;
            if (!q.loop() && q.id() == probe.ownerId()) method = true;
        }
        if (loops > 0) b.append(", and its ").append(loops).append(loops == 1 ? " loop" : " loops");
        if (method) b.append(", and its method (a loop records only inside its method)");
        return b.toString();
    }

    private static Manifest manifest(SessionView.Proc p) {
        Manifest m = new Manifest();
        p.probes().forEach(m::add);
        return m;
    }

    private static String summary(ControlState s) {
        return s.on().cardinality() + " probes on, " + s.roots().length + " roots";
    }

    private void root() throws InterruptedException {
        Row r = selected();
        if (r == null || r.probeId() < 0) { message = "select a method to make it the caller-filter root"; return; }
        SessionView.Proc p = proc(r.processId());
        ProbeInfo probe = p == null ? null : p.probe(r.probeId());
        if (probe == null || probe.loop()) { message = "the caller-filter root must be a method"; return; }
        int id = probe.id();
        message = summary(source.change(r.processId(), cur -> {
            boolean already = cur.roots().length == 1 && cur.roots()[0] == id;
            BitSet on = cur.on();
            on.set(id);
            return cur.withOn(on, Math.max(cur.idCount(), id + 1)).withRoots(already ? new int[0] : new int[] {id});
        })) + " (root " + probe.displayName() + ")";
        reload();
    }

    private void rule(String text) {
        long target = currentProcess != null ? currentProcess : data.processes.isEmpty() ? -1 : data.processes.get(0).info().id();
        try {
            message = summary(source.change(target, cur -> Zoom.setRule(cur, text)));
            reload();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void detail() {
        Row r = selected();
        if (r == null || r.probeId() < 0) { message = "select a method or loop for its detail"; return; }
        detailProbe = r.probeId();
        detailProcess = r.processId();
        back = view;
        view = View.DETAIL;
        textScroll = 0;
    }

    private void startPrompt(String label, Consumer<String> action) {
        promptLabel = label;
        promptText = new StringBuilder();
        promptAction = action;
    }

    private void prompt(KeyStroke k) {
        switch (k.getKeyType()) {
            case Enter -> {
                String text = promptText.toString();
                Consumer<String> a = promptAction;
                promptText = null;
                a.accept(text.trim());
            }
            case Escape -> promptText = null;
            case Backspace -> { if (promptText.length() > 0) promptText.setLength(promptText.length() - 1); }
            case Character -> promptText.append(k.getCharacter());
            default -> { }
        }
    }

    // ------------------------------------------------------------------ model helpers

    private SessionView.Proc proc(Long id) {
        if (data == null || id == null) return null;
        for (SessionView.Proc p : data.processes) if (p.info().id() == id) return p;
        return null;
    }

    private Zoom.Scope scope(SessionView.Proc p) {
        if (p == null) return Zoom.start();
        if (p.scope() != null && p.connected()) return p.scope();
        return storedScopes.getOrDefault(p.info().id(), p.scope() != null ? p.scope() : Zoom.start());
    }

    private static String label(Sort s) {
        return s.name().toLowerCase(Locale.ROOT);
    }

    // ------------------------------------------------------------------ rows

    private List<Row> treeRows() {
        List<Row> out = new ArrayList<>();
        if (currentProcess == null) {
            for (SessionView.Proc p : data.processes) {
                long calls = 0, time = 0;
                for (Map.Entry<Integer, SessionView.Agg> e : p.agg().entrySet()) {
                    ProbeInfo pi = p.probe(e.getKey());
                    if (pi != null && pi.loop()) continue;
                    calls += e.getValue().calls();
                    time += e.getValue().exclNanos();
                }
                out.add(new Row(new String[] {p.info().status(), Long.toString(p.info().pid()), Integer.toString(p.threads().size()),
                    Long.toString(calls), ms(time), Long.toString(p.eventDrops()), p.info().name()}, p.info().id(), -1));
            }
            return out;
        }
        SessionView.Proc p = proc(currentProcess);
        if (p == null) return out;
        Zoom.Scope s = scope(p);
        List<ProbeInfo> shown = new ArrayList<>();
        for (ProbeInfo i : p.probes()) {
            boolean v = switch (s.level()) {
                case PROCESS, THREAD -> !i.loop() && (i.resolution() == Resolution.PROCESS || i.resolution() == Resolution.THREAD);
                case METHOD -> !i.loop();
                case LOOP -> i.id() == s.root() || (i.loop() && i.ownerId() == s.root());
            };
            if (v && matches(i)) shown.add(i);
        }
        Comparator<ProbeInfo> order = s.level() == Resolution.LOOP ? Comparator.comparingInt(ProbeInfo::id)
                : (a, b) -> Long.compare(key(p, b), key(p, a));
        shown.sort(order);
        for (ProbeInfo i : shown) out.add(probeRow(p, i));
        return out;
    }

    private List<Row> hotspotRows() {
        List<Row> out = new ArrayList<>();
        List<Object[]> all = new ArrayList<>();
        for (SessionView.Proc p : data.processes)
            for (ProbeInfo i : p.probes())
                if (!i.loop() && matches(i) && p.agg(i.id()).calls() > 0) all.add(new Object[] {p, i});
        all.sort((a, b) -> Long.compare(key((SessionView.Proc) b[0], (ProbeInfo) b[1]), key((SessionView.Proc) a[0], (ProbeInfo) a[1])));
        for (Object[] o : all) out.add(probeRow((SessionView.Proc) o[0], (ProbeInfo) o[1]));
        return out;
    }

    private long key(SessionView.Proc p, ProbeInfo i) {
        SessionView.Agg a = p.agg(i.id());
        return switch (sort) {
            case INCL -> a.inclNanos();
            case CALLS -> a.calls();
            case ENERGY -> Math.round(a.energyMicrojoules() * 1000); // nJ
            default -> a.exclNanos();
        };
    }

    private boolean matches(ProbeInfo i) {
        return filter.isEmpty() || i.displayName().toLowerCase(Locale.ROOT).contains(filter.toLowerCase(Locale.ROOT));
    }

    private Row probeRow(SessionView.Proc p, ProbeInfo i) {
        SessionView.Agg a = p.agg(i.id());
        String state = p.state() == null ? "" : p.state().isOn(i.id()) ? "on" : "off";
        if (p.state() != null && containsRoot(p.state(), i.id())) state += "*";
        return new Row(new String[] {state, Long.toString(a.calls()), ms(a.inclNanos()), ms(a.exclNanos()), uj(a.energyMicrojoules()),
            us(a.p50()), us(a.p99()), i.loop() ? Long.toString(a.iterations()) : "", i.displayName()}, p.info().id(), i.id());
    }

    private static boolean containsRoot(ControlState s, int id) {
        for (int r : s.roots()) if (r == id) return true;
        return false;
    }

    // ------------------------------------------------------------------ drawing

    void render() throws IOException {
        screen.clear();
        TextGraphics g = screen.newTextGraphics();
        TerminalSize size = screen.getTerminalSize();
        int w = size.getColumns(), h = size.getRows();
        if (w < 40 || h < 8) {
            g.putString(0, 0, fit("terminal too small: " + w + "x" + h + " (need 40x8)", w));
            screen.refresh();
            return;
        }
        if (data == null) {
            g.putString(0, 0, fit("hyprof: " + message, w));
            g.putString(0, 2, fit("press q to quit", w));
            screen.refresh();
            return;
        }
        String[] header;
        List<String> text = null;
        switch (view) {
            case TREE -> {
                rows = treeRows();
                header = currentProcess == null
                        ? new String[] {"status", "pid", "threads", "calls", "time ms", "drops", "process"}
                        : new String[] {"state", "calls", "incl ms", "excl ms", "uJ", "p50 us", "p99 us", "iter", probeHeader()};
            }
            case HOTSPOTS -> {
                rows = hotspotRows();
                header = new String[] {"state", "calls", "incl ms", "excl ms", "uJ", "p50 us", "p99 us", "iter", "method (sorted by " + label(sort) + ")"};
            }
            default -> {
                rows = List.of();
                header = null;
                text = switch (view) {
                    case DETAIL -> detailLines();
                    case ENERGY -> energyLines();
                    default -> helpLines();
                };
            }
        }
        g.enableModifiers(SGR.BOLD);
        g.putString(0, 0, fit("hyprof  " + title(), w));
        g.disableModifiers(SGR.BOLD);
        int body = h - 4;
        if (header != null) {
            if (keep != null) keepSelection(keep);
            keep = null;
            cursor = Math.max(0, Math.min(cursor, rows.size() - 1));
            if (cursor < scroll) scroll = cursor;
            if (cursor >= scroll + body) scroll = cursor - body + 1;
            List<String[]> cells = new ArrayList<>();
            cells.add(header);
            for (Row r : rows) cells.add(r.cells());
            int[] widths = widths(cells);
            g.enableModifiers(SGR.UNDERLINE);
            g.putString(0, 1, fit(line(header, widths), w));
            g.disableModifiers(SGR.UNDERLINE);
            for (int i = 0; i < body && scroll + i < rows.size(); i++) {
                Row r = rows.get(scroll + i);
                boolean sel = scroll + i == cursor;
                if (sel) g.enableModifiers(SGR.REVERSE);
                g.putString(0, 2 + i, pad(fit(line(r.cells(), widths), w), w));
                if (sel) g.disableModifiers(SGR.REVERSE);
            }
            if (rows.isEmpty()) g.putString(0, 2, fit(filter.isEmpty() ? "(nothing recorded here yet)" : "(no match for '" + filter + "')", w));
        } else {
            textLines = text.size();
            textScroll = Math.max(0, Math.min(textScroll, text.size() - (body + 1)));
            boolean cut = text.size() - textScroll > body + 1; // the last row then says what is below
            for (int i = 0; i < body + 1 && textScroll + i < text.size(); i++) {
                int more = text.size() - textScroll - body;
                String l = cut && i == body ? "-- " + more + " more lines: Down, PgDn --" : text.get(textScroll + i);
                g.putString(0, 1 + i, fit(l, w));
            }
        }
        String msg = promptText != null ? promptLabel + promptText : message;
        if (promptText == null && !filter.isEmpty() && msg.isEmpty()) msg = "search: " + filter + "  (Esc clears)";
        g.setForegroundColor(TextColor.ANSI.YELLOW);
        g.putString(0, h - 2, fit(msg, w));
        g.setForegroundColor(TextColor.ANSI.DEFAULT);
        g.enableModifiers(SGR.REVERSE);
        g.putString(0, h - 1, pad(fit(status(), w), w));
        g.disableModifiers(SGR.REVERSE);
        screen.refresh();
    }

    private String probeHeader() {
        SessionView.Proc p = proc(currentProcess);
        return scope(p).level().label() + " level (sorted by " + label(sort) + ")";
    }

    private String title() {
        String v = view.name().toLowerCase(Locale.ROOT);
        if (view != View.TREE || currentProcess == null) return v + (view == View.TREE ? ": processes" : "");
        SessionView.Proc p = proc(currentProcess);
        if (p == null) return v;
        StringBuilder b = new StringBuilder(v + ": " + p.info().name() + " (pid " + p.info().pid() + ")");
        for (int t : scope(p).targets()) {
            ProbeInfo i = p.probe(t);
            b.append(" > ").append(i == null ? "#" + t : i.className().substring(i.className().lastIndexOf('.') + 1) + "." + i.methodName());
        }
        return b.toString();
    }

    private String status() {
        String cal = data.calibration == null ? "uncalibrated" : String.format(Locale.ROOT, "probe %.1f ns", data.calibration.perEventPicos() / 1000.0);
        return " " + source.describe() + " | " + cal + " | dropped " + data.eventDrops() + " | sort " + label(sort) + " | ? help  q quit";
    }

    private List<String> detailLines() {
        List<String> out = new ArrayList<>();
        SessionView.Proc p = proc(detailProcess);
        ProbeInfo i = p == null ? null : p.probe(detailProbe);
        if (i == null) { out.add("(gone)"); return out; }
        SessionView.Agg a = p.agg(i.id());
        out.add(i.displayName() + "   [" + i.kindLabel() + ", " + i.resolution().label() + (i.line() > 0 ? ", " + i.source() + ":" + i.line() : "") + "]");
        out.add(String.format(Locale.ROOT, "calls %d   incl %s ms   excl %s ms   min %s us   p50 %s us   p99 %s us   max %s us%s",
                a.calls(), ms(a.inclNanos()), ms(a.exclNanos()), us(a.minNanos()), us(a.p50()), us(a.p99()), us(a.maxNanos()),
                i.loop() ? "   iterations " + a.iterations() : "   exceptions " + a.throwsCount()));
        if (i.loop()) out.add("(a loop's excl is its time less the methods called inside it: its inner loops are part of it)");
        else callLines(out, p, i);
        out.add("per-call time (deducted inclusive), log2 buckets:");
        long max = 0;
        for (long c : a.hist()) max = Math.max(max, c);
        for (int b = 0; b < a.hist().length; b++) {
            if (a.hist()[b] == 0) continue;
            int bar = max == 0 ? 0 : (int) Math.max(1, 40 * a.hist()[b] / max);
            out.add(String.format(Locale.ROOT, "  %10s .. %-10s %8d %s", dur(b == 0 ? 0 : 1L << (b - 1)), dur(1L << b), a.hist()[b], "#".repeat(bar)));
        }
        if (!i.loop()) {
            out.add("loops:");
            boolean any = false;
            for (ProbeInfo l : p.probes()) {
                if (!l.loop() || l.ownerId() != i.id()) continue;
                SessionView.Agg la = p.agg(l.id());
                out.add(String.format(Locale.ROOT, "  #loop%d (line %d): entered %d, iterations %d, %s ms", l.loopIndex(), l.line(),
                        la.calls(), la.iterations(), ms(la.inclNanos())));
                any = true;
            }
            if (!any) out.add("  (none)");
        }
        out.add("threads:");
        Map<Long, String> names = new HashMap<>();
        for (ThreadInfo t : p.threads()) names.put(t.tid(), t.name());
        a.callsByThread().forEach((tid, n) -> out.add("  " + names.getOrDefault(tid, "tid " + tid) + ": " + n + " calls"));
        out.add(String.format(Locale.ROOT, "energy: %s uJ exclusive, %s uJ inclusive", uj(a.energyMicrojoules()), uj(a.energyInclMicrojoules())));
        NativeCost n = a.nativeCost();
        if (n.instructionsIncl() != 0 || n.instructions() != 0) {
            out.add(String.format(Locale.ROOT, "native (exclusive): %,d instructions, %,d cycles, %s ms device time, %s uJ",
                    n.instructions(), n.cycles(), ms(n.estNanos()), uj(n.energyPicojoules() / 1e6)));
            out.add(String.format(Locale.ROOT, "native (inclusive): %,d instructions, %,d cycles, %s ms device time, %s uJ",
                    n.instructionsIncl(), n.cyclesIncl(), ms(n.estNanosIncl()), uj(n.energyPicojoulesIncl() / 1e6)));
            List<NativeBlock> mine = new ArrayList<>();
            for (NativeBlock b : p.nativeBlocks()) if (b.executionsByProbe().containsKey(i.id())) mine.add(b);
            mine.sort(Comparator.comparingLong((NativeBlock b) -> b.executionsByProbe().get(i.id()) * b.instructions()).reversed());
            out.add("hottest native blocks (executions by this method's calls):");
            for (NativeBlock b : mine.subList(0, Math.min(5, mine.size()))) {
                out.add(String.format(Locale.ROOT, "  %s in %s: %,d executions, %d instructions [%s]", org.hyprof.runtime.chunk.NativeBlocksChunk.blockId(b.library(), b.address()),
                        b.function() == null ? "?" : b.function(), b.executionsByProbe().get(i.id()), b.instructions(), b.categories()));
                for (String d : b.disassembly().split("\n")) if (!d.isBlank()) out.add("      " + d);
            }
            if (mine.isEmpty()) out.add("  (block list not recorded yet: it is written when the program ends)");
        }
        out.add("");
        out.add("Backspace or Esc: back");
        return out;
    }

    /** Max callers (and callees) listed in method detail; the rest are counted. */
    private static final int MAX_EDGES = 8;

    /**
     * Callers and callees of a method, from the process's event log (events mode): calls and
     * raw inclusive time per edge. Aggregate-mode sessions have no log, and the lines say so and
     * how to record one.
     */
    private void callLines(List<String> out, SessionView.Proc p, ProbeInfo i) {
        CallGraphs.State st;
        try {
            st = graphs.get(p.info().id());
        } catch (RuntimeException e) {
            out.add("callers/callees: cannot read the event log: " + oneLine(e));
            return;
        }
        if (st.noEventLog()) {
            boolean events = "events".equals(p.info().mode()) || (p.state() != null && p.state().events());
            if (events) {
                out.add("callers/callees: no calls in the event log yet");
            } else {
                out.add("callers/callees: not recorded: aggregate mode (the default) keeps totals per method, not who called whom.");
                out.add("  Record with --mode events to see them: hyprof profile --mode events -o S.db -- java ...");
            }
            return;
        }
        CallGraph g = st.graph();
        if (g == null) {
            out.add(st.error() != null ? "callers/callees: cannot read the event log: " + st.error()
                    : "callers/callees: replaying the event log...");
            return;
        }
        long drops = p.eventDrops();
        out.add(String.format(Locale.ROOT, "callers and callees: %,d calls in the event log%s; raw times (probe cost not deducted)%s",
                g.calls(), drops > 0 ? String.format(Locale.ROOT, " (the first part of the run: %,d events dropped)", drops) : "",
                st.busy() ? "; updating" : ""));
        edgeLines(out, "callers", g.callers(i.id()), p, true);
        edgeLines(out, "callees", g.callees(i.id()), p, false);
    }

    private static void edgeLines(List<String> out, String title, List<CallGraph.Edge> edges, SessionView.Proc p, boolean callers) {
        out.add(String.format(Locale.ROOT, "  %-8s %12s %12s", title, "calls", "incl ms"));
        if (edges.isEmpty()) out.add("    (none)");
        for (CallGraph.Edge e : edges.subList(0, Math.min(MAX_EDGES, edges.size()))) {
            int other = callers ? e.callerId() : e.calleeId();
            ProbeInfo o = other == CallGraph.ROOT ? null : p.probe(other);
            String name = other == CallGraph.ROOT ? "(none recorded: the thread's first method)" : o == null ? "probe#" + other : o.displayName();
            out.add(String.format(Locale.ROOT, "  %-8s %,12d %12s  %s%s", "", e.calls(), ms(e.inclRawNanos()), name,
                    e.recursiveCalls() > 0 ? String.format(Locale.ROOT, " (%,d recursive: no time of their own)", e.recursiveCalls()) : ""));
        }
        if (edges.size() > MAX_EDGES) out.add("    ... and " + (edges.size() - MAX_EDGES) + " more");
    }

    private List<String> energyLines() {
        List<String> out = new ArrayList<>();
        String f = "%-28s %11s %11s %14s %11s %11s %11s";
        out.add(String.format(Locale.ROOT, f, "process / thread", "java ms", "native ms", "native cycles", "java uJ", "native uJ", "total uJ"));
        for (SessionView.Proc p : data.processes) {
            long java = 0, nat = 0, cyc = 0;
            double je = 0, ne = 0;
            for (SessionView.ThreadSum t : p.threadSums().values()) {
                java += t.exclNanos() - t.nativeEstNanos();
                nat += t.nativeEstNanos();
                cyc += t.nativeCycles();
                je += t.javaEnergyMicrojoules();
                ne += t.nativeEnergyMicrojoules();
            }
            out.add(String.format(Locale.ROOT, f, fit(p.info().name() + " (" + p.info().pid() + ")", 28), ms(java), ms(nat),
                    String.format(Locale.ROOT, "%,d", cyc), uj(je), uj(ne), uj(je + ne)));
            for (ThreadInfo t : p.threads()) {
                SessionView.ThreadSum s = p.threadSums().get(t.tid());
                if (s == null) continue;
                out.add(String.format(Locale.ROOT, f, fit("  " + t.name(), 28), ms(s.exclNanos() - s.nativeEstNanos()), ms(s.nativeEstNanos()),
                        String.format(Locale.ROOT, "%,d", s.nativeCycles()), uj(s.javaEnergyMicrojoules()), uj(s.nativeEnergyMicrojoules()),
                        uj(s.javaEnergyMicrojoules() + s.nativeEnergyMicrojoules())));
            }
        }
        out.add("");
        out.add("Java: exclusive time without native time x the CPU power of");
        out.add("  " + data.energy.description());
        out.add(data.hybrid() ? "Native: the emulator's estimate per call (CPU profile: cycles, time, energy)."
                : "Native: none ran in the emulator (a hybrid run: hyprof profile --native-libs DIR).");
        out.add("Backspace or Esc: back");
        return out;
    }

    private static List<String> helpLines() {
        return List.of("keys",
                "  Up/Down, PgUp/PgDn, Home/End   move (in detail and energy: scroll)",
                "  Enter                          zoom in: process -> thread -> method -> loop (live: switches probes)",
                "  Backspace                      zoom out / back",
                "  Space                          switch the selected probe on or off (live)",
                "  f                              make the selected method the caller-filter root (again: clear)",
                "  r                              rules: min-duration=DUR, min-calls=N, max-depth=N, none (live)",
                "  /                              search by name (Esc clears)",
                "  s                              sort: excl, incl, calls, energy",
                "  h or Tab                       zoom tree <-> hotspot table",
                "  d                              detail of the selected method or loop",
                "  e                              energy: Java vs native per process and thread",
                "  q                              quit",
                "",
                "columns",
                "  incl ms, excl ms   time with and without the methods it called (the probes' own cost deducted)",
                "  a loop's excl      its time less the methods called inside it; its inner loops are part of it",
                "                     (they are its method's own code), as in hyprof report --by loop",
                "  p50/p99 us         per call;  uJ: exclusive energy;  iter: loop iterations",
                "",
                "Up/Down scroll, any other key closes this help");
    }

    // ------------------------------------------------------------------ text helpers

    private static int[] widths(List<String[]> cells) {
        int[] w = new int[cells.get(0).length];
        for (String[] r : cells) for (int i = 0; i < r.length; i++) w[i] = Math.max(w[i], r[i].length());
        return w;
    }

    private static String line(String[] cells, int[] w) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.length - 1; i++) b.append(" ".repeat(w[i] - cells[i].length())).append(cells[i]).append("  ");
        return b.append(cells[cells.length - 1]).toString();
    }

    static String fit(String s, int w) {
        if (s.length() <= w) return s;
        return w <= 1 ? s.substring(0, w) : s.substring(0, w - 1) + "~";
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }

    static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    static String uj(double microjoules) {
        return String.format(Locale.ROOT, "%.1f", microjoules);
    }

    static String us(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e3);
    }

    private static String dur(long nanos) {
        if (nanos < 1000) return nanos + " ns";
        if (nanos < 1_000_000) return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
        if (nanos < 1_000_000_000) return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl >= 0 ? m.substring(0, nl) : m;
    }
}
