package org.hyprof.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NextCommandsTest {
    static String print(Path db, boolean events) {
        return print(db, events, false);
    }

    static String print(Path db, boolean events, boolean hybrid) {
        return print(db, events, hybrid, true);
    }

    static String print(Path db, boolean events, boolean hybrid, boolean loops) {
        StringWriter w = new StringWriter();
        NextCommands.print(new PrintWriter(w), db, events, hybrid, loops);
        return w.toString();
    }

    @Test
    void namesTheCommandsThatOpenTheSession() {
        String agg = print(Path.of("hyprof-demo.db"), false);
        assertTrue(agg.contains("  hyprof report hyprof-demo.db --by loop\n"), agg);
        assertTrue(agg.contains("  hyprof tui hyprof-demo.db\n"), agg);
        assertTrue(agg.contains("  hyprof export hyprof-demo.db --format folded --weight time -o hyprof-demo.folded\n"), agg);
        assertTrue(agg.contains("  hyprof report hyprof-demo.db --format html -o hyprof-demo.html "), agg);
        assertTrue(agg.contains("  hyprof report hyprof-demo.db --by tree "), agg);
        assertFalse(agg.contains("--format speedscope"), "an aggregate session has no timeline:\n" + agg);
        String ev = print(Path.of("out/S.db"), true);
        assertTrue(ev.contains("  hyprof export out/S.db --format speedscope -o S.speedscope.json\n"), ev);
        assertTrue(ev.contains("  hyprof report out/S.db --by tree "), ev);
        assertFalse(agg.contains("--by library"), "no native code ran:\n" + agg);
        String hybrid = print(Path.of("hyprof-demo.db"), false, true);
        assertTrue(hybrid.contains("  hyprof report hyprof-demo.db --by library "), hybrid);
    }

    /** Loops off from the start (the agent's default): no loop report to open, but how to have one. */
    @Test
    void withoutLoopsSaysHowToHaveThem() {
        String s = print(Path.of("S.db"), false, false, false);
        assertFalse(s.contains("--by loop"), s);
        assertTrue(s.contains("--resolution process,thread,method,loop"), s);
        assertTrue(s.contains("  hyprof report S.db --top 20 "), s);
    }

    @Test
    void pathsAreShellWords() {
        assertTrue(print(Path.of("my run.db"), false).contains("hyprof tui 'my run.db'\n"));
        assertTrue(NextCommands.quoted("it's").equals("'it'\\''s'"));
    }
}
