package org.hyprof.cli;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * What {@code profile} and {@code demo} print last (on stderr, with their other messages, always:
 * the same text whether or not it is a terminal, so scripts and tests see one output): the
 * commands that open the session they wrote. Only commands that work on it are named: the tree
 * exports work on every session that recorded a calling-context tree; timelines need the calls
 * themselves, which only an events-mode session has.
 */
final class NextCommands {
    private NextCommands() {}

    /**
     * The lines for session {@code db}; {@code events}: recorded with {@code --mode events};
     * {@code hybrid}: its native methods ran in the emulator (their cost per library is stored);
     * {@code loops}: its loop probes were on from the start (else the agent placed none, and the
     * lines say how to have them).
     */
    static void print(PrintWriter err, Path db, boolean events, boolean hybrid, boolean loops) {
        String s = quoted(db.toString());
        err.println("hyprof: next:");
        if (loops) {
            err.println("  hyprof report " + s + " --top 20          methods (--by loop: loops by source line, --descriptors: JVM names)");
            err.println("  hyprof report " + s + " --by loop");
        } else {
            err.println("  hyprof report " + s + " --top 20          methods (--descriptors: JVM names)");
            err.println("  (loops were off: profile with --resolution process,thread,method,loop, or switch them on live with hyprof ctl)");
        }
        err.println("  hyprof tui " + s);
        String base = db.getFileName().toString().replaceFirst("\\.db$", "");
        err.println("  hyprof report " + s + " --by tree         the calling-context tree (--callers M, --callees M: a method's butterfly)");
        err.println("  hyprof report " + s + " --format html -o " + quoted(base + ".html") + "   flame graphs of time, CPU and energy in a browser");
        if (hybrid) err.println("  hyprof report " + s + " --by library      native cost per library (the app's own code, libc.so, libm.so …)");
        if (events) {
            err.println("  hyprof export " + s + " --format speedscope -o " + quoted(base + ".speedscope.json"));
        } else {
            err.println("  hyprof export " + s + " --format folded --weight time -o " + quoted(base + ".folded"));
            err.println("  (timelines — chrome, perfetto, speedscope's — need the calls: profile with --mode events)");
        }
        err.flush();
    }

    /** A path as a shell word: quoted when it holds anything but safe characters. */
    static String quoted(String s) {
        return s.matches("[A-Za-z0-9_./:=+@%,-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
