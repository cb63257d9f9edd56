package org.hyprof.tui;

import com.googlecode.lanterna.input.KeyStroke;
import com.googlecode.lanterna.input.KeyType;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.hyprof.config.ConfigException;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.config.Zoom;
import org.hyprof.control.ControlState;
import org.hyprof.tui.UiState.Sort;
import org.hyprof.tui.UiState.View;

/**
 * What each key does: moving and scrolling, zooming in and out, switching probes, the caller-filter
 * root and rules (sent to a live session's agent through {@link Source}), search, sort and the
 * choice of view. It changes the {@link UiState} and draws nothing; a failure becomes the message
 * line, never an exception out of {@link #handle}.
 *
 * <p>Keys: arrows/PgUp/PgDn move, Enter zooms in (or opens detail), Backspace zooms out, Space
 * toggles a probe, {@code r} rules, {@code f} caller-filter root, {@code /} search, {@code s}
 * sort, {@code h}/Tab tree ↔ hotspots, {@code t} call tree (Right/{@code +} expand, Left/{@code -}
 * collapse, Enter toggles), {@code b} butterfly, {@code d} detail, {@code e} energy, {@code ?} help,
 * {@code q} quit ({@link HelpView} lists them for the user).
 */
final class KeyActions {
    private final UiState ui;
    private final Source source;
    /** Loads the session again after a change, so the screen shows what the agent now does. */
    private final Runnable reload;
    /** The terminal's height in rows, for page moves and text scrolling. */
    private final IntSupplier screenRows;

    KeyActions(UiState ui, Source source, Runnable reload, IntSupplier screenRows) {
        this.ui = ui;
        this.source = source;
        this.reload = reload;
        this.screenRows = screenRows;
    }

    /** Acts on one key, or on the open prompt. */
    void handle(KeyStroke k) {
        try {
            if (ui.promptText != null) { prompt(k); return; }
            KeyType t = k.getKeyType();
            if (ui.view == View.HELP) { // the arrows scroll a long help; any other key closes it
                switch (t) {
                    case ArrowUp, ArrowDown, PageUp, PageDown, Home, End -> { }
                    default -> { ui.view = ui.back; return; }
                }
            }
            Character c = t == KeyType.Character ? k.getCharacter() : null;
            boolean text = ui.view == View.DETAIL || ui.view == View.ENERGY || ui.view == View.HELP; // the arrows scroll text
            switch (t) {
                case ArrowUp -> { if (text) scrollText(-1); else move(-1); }
                case ArrowDown -> { if (text) scrollText(1); else move(1); }
                case PageUp -> { if (text) scrollText(-pageRows()); else move(-pageRows()); }
                case PageDown -> { if (text) scrollText(pageRows()); else move(pageRows()); }
                case Home -> { if (text) scrollText(-ui.textLines); else move(-ui.cursor); }
                case End -> { if (text) scrollText(ui.textLines); else move(ui.rows.size()); }
                case Enter -> enter();
                case Backspace -> zoomOut();
                case Escape -> {
                    ui.filter = "";
                    ui.message = "";
                    if (ui.view == View.BUTTERFLY) leaveButterfly();
                    if (ui.view == View.DETAIL || ui.view == View.ENERGY) ui.view = ui.back;
                }
                case Tab -> switchView(ui.view == View.TREE ? View.HOTSPOTS : View.TREE);
                case ArrowRight -> { if (ui.view == View.CALLTREE) CallTreeView.expand(ui, true); }
                case ArrowLeft -> { if (ui.view == View.CALLTREE) CallTreeView.expand(ui, false); }
                default -> { }
            }
            if (c == null) return;
            switch (c) {
                case 'q' -> ui.running = false;
                case 't' -> { if (ui.view != View.CALLTREE) switchView(View.CALLTREE); }
                case 'b' -> butterfly();
                case '+' -> { if (ui.view == View.CALLTREE) CallTreeView.expand(ui, true); }
                case '-' -> { if (ui.view == View.CALLTREE) CallTreeView.expand(ui, false); }
                case ' ' -> toggle();
                case 'r' -> startPrompt("rule (min-duration=DUR, min-calls=N, max-depth=N, none): ", this::rule);
                case 'f' -> root();
                case 'D' -> { ui.message = source.dump(); reload.run(); }
                case '/' -> startPrompt("search: ", s -> { ui.filter = s; ui.cursor = 0; ui.scroll = 0; });
                case 's' -> {
                    ui.sort = Sort.values()[(ui.sort.ordinal() + 1) % Sort.values().length];
                    ui.message = "sort " + ui.sortLabel()
                            + (ui.sort == Sort.ENERGY && !ui.data.hybrid() ? " (Java energy only: no native code ran in the emulator)" : "");
                }
                case 'h' -> switchView(ui.view == View.TREE ? View.HOTSPOTS : View.TREE);
                case 'd' -> detail();
                case 'e' -> {
                    ui.back = ui.view == View.ENERGY ? ui.back : ui.view;
                    ui.view = View.ENERGY;
                    ui.textScroll = 0;
                }
                case '?' -> { ui.back = ui.view; ui.view = View.HELP; ui.textScroll = 0; }
                default -> { }
            }
        } catch (ConfigException | IllegalStateException e) {
            ui.message = Text.oneLine(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            ui.message = "error: " + Text.oneLine(e);
        }
    }

    private void switchView(View v) {
        ui.view = v;
        ui.cursor = 0;
        ui.scroll = 0;
    }

    private void move(int d) {
        ui.cursor = Math.max(0, Math.min(ui.rows.size() - 1, ui.cursor + d));
    }

    private void scrollText(int d) {
        int body = Math.max(1, screenRows.getAsInt() - 3);
        ui.textScroll = Math.max(0, Math.min(Math.max(0, ui.textLines - body), ui.textScroll + d));
    }

    private int pageRows() {
        return Math.max(1, screenRows.getAsInt() - 4);
    }

    /** The butterfly of the selected method (call tree: the node's; tables: the probe's; butterfly: the row's). */
    private void butterfly() {
        TableView.Row r = ui.selected();
        String m = null;
        if (ui.view == View.CALLTREE) m = CallTreeView.method(ui, r);
        else if (ui.view == View.BUTTERFLY) m = r == null ? null : r.key();
        else if (r != null && r.probeId() >= 0) {
            SessionView.Proc p = ui.proc(r.processId());
            ProbeInfo probe = p == null ? null : p.probe(r.probeId());
            if (probe != null) m = p.name(probe);
        }
        if (m == null) { ui.message = "select a method for its butterfly (callers and callees)"; return; }
        if (ui.view != View.BUTTERFLY) {
            ui.back = ui.view;
            ui.backRow = r;
        }
        ui.butterflyMethod = m;
        ui.view = View.BUTTERFLY;
        ui.cursor = 0;
        ui.scroll = 0;
        ui.keep = new TableView.Row(new String[0], -1, -1, m); // the method's own row, once drawn
    }

    /** Back to the view the butterfly was opened from, on the row selected there. */
    private void leaveButterfly() {
        ui.view = ui.back;
        ui.keep = ui.backRow;
        ui.backRow = null;
    }

    private void enter() throws InterruptedException {
        TableView.Row r = ui.selected();
        if (ui.view == View.CALLTREE) { CallTreeView.toggle(ui); return; }
        if (ui.view == View.BUTTERFLY) { butterfly(); return; }
        if (ui.view == View.HOTSPOTS) { detail(); return; }
        if (ui.view != View.TREE || r == null) return;
        if (ui.currentProcess == null) {
            ui.currentProcess = r.processId();
            zoomIn(r.processId(), -1);
            return;
        }
        SessionView.Proc p = ui.proc(ui.currentProcess);
        ProbeInfo probe = p == null ? null : p.probe(r.probeId());
        if (probe == null) return;
        if (probe.loop()) { detail(); return; }
        Zoom.Scope s = ui.scope(p);
        if (s.level() == Resolution.LOOP) { detail(); return; }
        zoomIn(ui.currentProcess, probe.id());
    }

    private void zoomIn(long process, int target) throws InterruptedException {
        SessionView.Proc p = ui.proc(process);
        if (source.live() && p != null && p.connected()) {
            ui.message = source.zoomIn(process, target);
            reload.run();
        } else {
            Manifest m = p == null ? new Manifest() : manifest(p);
            ui.storedScopes.put(process, Zoom.zoomIn(ui.scope(p), m, target));
            ui.message = ui.scope(p).level().label() + " level" + (source.live() ? " (not connected: navigation only)" : "");
        }
        ui.cursor = 0;
        ui.scroll = 0;
    }

    private void zoomOut() throws InterruptedException {
        if (ui.view == View.BUTTERFLY) { leaveButterfly(); return; }
        if (ui.view == View.DETAIL || ui.view == View.ENERGY) { ui.view = ui.back; return; }
        if (ui.view == View.CALLTREE) { switchView(View.TREE); return; }
        if (ui.view != View.TREE || ui.currentProcess == null) return;
        SessionView.Proc p = ui.proc(ui.currentProcess);
        if (source.live() && p != null && p.connected()) {
            ui.message = source.zoomOut(ui.currentProcess);
            reload.run();
            p = ui.proc(ui.currentProcess);
        } else {
            ui.storedScopes.put(ui.currentProcess, Zoom.zoomOut(ui.scope(p)));
            ui.message = ui.scope(p).level().label() + " level";
        }
        if (p == null || !ui.scope(p).inProcess()) ui.currentProcess = null;
        ui.cursor = 0;
        ui.scroll = 0;
    }

    private void toggle() throws InterruptedException {
        TableView.Row r = ui.selected();
        SessionView.Proc p = r == null ? null : ui.proc(r.processId());
        ProbeInfo probe = p == null || r.probeId() < 0 ? null : p.probe(r.probeId());
        if (probe == null) { ui.message = "select a probe to switch it on or off"; return; }
        Manifest m = manifest(p);
        ControlState[] before = new ControlState[1];
        ControlState after = source.change(p.info().id(), cur -> {
            before[0] = cur;
            return Zoom.setProbe(cur, m, probe.id(), !cur.isOn(probe.id()));
        });
        ui.message = toggleMessage(p.name(probe), probe, p.probes(), before[0], after);
        reload.run();
    }

    /**
     * What a toggle did, for the message line: the probe's new state and what changed with it
     * ("m1 off, and its 1 loop": a loop records only inside its method's frame, so switching a
     * method off switches its loops off, and switching a loop on switches its method on).
     */
    static String toggleMessage(String name, ProbeInfo probe, List<ProbeInfo> probes, ControlState before, ControlState after) {
        StringBuilder b = new StringBuilder(name).append(after.isOn(probe.id()) ? " on" : " off");
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
        TableView.Row r = ui.selected();
        if (r == null || r.probeId() < 0) { ui.message = "select a method to make it the caller-filter root"; return; }
        SessionView.Proc p = ui.proc(r.processId());
        ProbeInfo probe = p == null ? null : p.probe(r.probeId());
        if (probe == null || probe.loop()) { ui.message = "the caller-filter root must be a method"; return; }
        int id = probe.id();
        ui.message = summary(source.change(r.processId(), cur -> {
            boolean already = cur.roots().length == 1 && cur.roots()[0] == id;
            BitSet on = cur.on();
            on.set(id);
            return cur.withOn(on, Math.max(cur.idCount(), id + 1)).withRoots(already ? new int[0] : new int[] {id});
        })) + " (root " + p.name(probe) + ")";
        reload.run();
    }

    private void rule(String text) {
        long target = ui.currentProcess != null ? ui.currentProcess
                : ui.data.processes.isEmpty() ? -1 : ui.data.processes.get(0).info().id();
        try {
            ui.message = summary(source.change(target, cur -> Zoom.setRule(cur, text)));
            reload.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void detail() {
        TableView.Row r = ui.selected();
        if (r == null || r.probeId() < 0) { ui.message = "select a method or loop for its detail"; return; }
        ui.detailProbe = r.probeId();
        ui.detailProcess = r.processId();
        ui.back = ui.view;
        ui.view = View.DETAIL;
        ui.textScroll = 0;
    }

    private void startPrompt(String label, Consumer<String> action) {
        ui.promptLabel = label;
        ui.promptText = new StringBuilder();
        ui.promptAction = action;
    }

    private void prompt(KeyStroke k) {
        switch (k.getKeyType()) {
            case Enter -> {
                String text = ui.promptText.toString();
                Consumer<String> a = ui.promptAction;
                ui.promptText = null;
                a.accept(text.trim());
            }
            case Escape -> ui.promptText = null;
            case Backspace -> { if (ui.promptText.length() > 0) ui.promptText.setLength(ui.promptText.length() - 1); }
            case Character -> ui.promptText.append(k.getCharacter());
            default -> { }
        }
    }
}
