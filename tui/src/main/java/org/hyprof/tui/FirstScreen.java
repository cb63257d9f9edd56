package org.hyprof.tui;

import com.googlecode.lanterna.TerminalSize;
import com.googlecode.lanterna.screen.TerminalScreen;
import com.googlecode.lanterna.terminal.virtual.DefaultVirtualTerminal;
import java.io.IOException;
import java.nio.file.Path;

/** Opens a stored session and draws the first screen on a virtual terminal (for benchmarks). */
public final class FirstScreen {
    private FirstScreen() {}

    /** Returns the nanoseconds from opening the session to the first screen drawn. */
    public static long measure(Path session) throws IOException {
        long t0 = System.nanoTime();
        TerminalScreen screen = new TerminalScreen(new DefaultVirtualTerminal(new TerminalSize(120, 40)));
        screen.startScreen();
        try (Source s = new Source.Stored(session)) {
            TuiApp app = new TuiApp(screen, s);
            app.reload();
            app.render();
            long nanos = System.nanoTime() - t0;
            app.close();
            return nanos;
        } finally {
            screen.stopScreen();
        }
    }
}
