package org.hyprof.tui;

import com.googlecode.lanterna.input.KeyStroke;
import com.googlecode.lanterna.input.KeyType;
import com.googlecode.lanterna.screen.Screen;
import java.io.IOException;

/**
 * The terminal UI: RMP's zoom tree (process → thread → method → loop) with each probe's state
 * and live counts, a hotspot table, method detail, an energy view and a status line. Everything
 * is driven from the keyboard; every failure becomes a message on screen, never a stack trace.
 *
 * <p>This class is the loop: it reads keys (handed to {@link KeyActions}), reloads a live session
 * every second, and draws ({@link Painter}) when something changed. Where the UI is lives in
 * {@link UiState}; each view is drawn from {@link TableView}, {@link DetailView},
 * {@link EnergyView} or {@link HelpView}.
 */
final class TuiApp {
    private final Screen screen;
    private final Source source;
    private final UiState ui = new UiState();
    private final CallGraphs graphs;
    private final KeyActions keys;
    private final Painter painter;
    private long lastLoadMillis;
    private boolean everLoaded;

    TuiApp(Screen screen, Source source) {
        this.screen = screen;
        this.source = source;
        this.graphs = new CallGraphs(source.store());
        this.keys = new KeyActions(ui, source, this::reload, () -> screen.getTerminalSize().getRows());
        this.painter = new Painter(screen, source, graphs);
    }

    /**
     * Runs until q. The screen is started and stopped by the caller. Returns the exit code: 0, or
     * 1 when the session could never be read (the message was on screen).
     */
    int run() throws IOException {
        try {
            reload();
            render();
            while (ui.running) {
                KeyStroke k = screen.pollInput();
                boolean dirty = false;
                if (k != null) {
                    if (k.getKeyType() == KeyType.EOF) break;
                    handle(k);
                    dirty = true;
                } else if (source.live() && System.currentTimeMillis() - lastLoadMillis > 1000) {
                    ui.keep = ui.selected();
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
        return ui.running;
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
            ui.data = source.load();
            everLoaded = true;
            lastLoadMillis = System.currentTimeMillis();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            ui.message = "cannot read the session: " + Text.oneLine(e);
            lastLoadMillis = System.currentTimeMillis();
        }
    }

    /** Acts on one key (tests call it directly, then {@link #render}). */
    void handle(KeyStroke k) {
        keys.handle(k);
    }

    void render() throws IOException {
        painter.paint(ui);
    }
}
