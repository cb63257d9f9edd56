package org.hyprof.tui;

import java.util.List;

/** The help view: every key and what the table columns mean. Keep it in step with {@link KeyActions}. */
final class HelpView {
    private HelpView() {}

    /** The lines of the help: the keys, then what the columns mean. */
    static List<String> lines() {
        return List.of("keys",
                "  Up/Down, PgUp/PgDn, Home/End   move (in detail and energy: scroll)",
                "  Enter                          zoom in: process -> thread -> method -> loop (live: switches probes)",
                "  Backspace                      zoom out / back",
                "  Space                          switch the selected probe on or off (live)",
                "  f                              make the selected method the caller-filter root (again: clear)",
                "  r                              rules: min-duration=DUR, min-calls=N, max-depth=N, none (live)",
                "  D                              dump: the events each thread's log keeps (live, --keep last)",
                "  /                              search by name (Esc clears)",
                "  s                              sort: excl, incl, calls, energy",
                "  h or Tab                       zoom tree <-> hotspot table",
                "  t                              call tree: every call path (Right or + expands, Left or - collapses,",
                "                                 Enter toggles; / shows the paths to matching frames; Backspace:",
                "                                 zoom tree); live: reloaded every 2 s",
                "  b                              butterfly of the selected method: callers above, callees below",
                "                                 (Enter on one: its butterfly; Backspace or Esc: back)",
                "  d                              detail of the selected method or loop",
                "  e                              energy: Java vs native per process and thread",
                "  q                              quit",
                "",
                "columns",
                "  incl ms, excl ms   time with and without the methods it called (the probes' own cost deducted)",
                "  a loop's excl      its time less the methods called inside it; its inner loops are part of it",
                "                     (they are its method's own code), as in hyprof report --by loop",
                "  cpu ms             exclusive thread CPU time (empty: not recorded); excl - cpu is waiting",
                "                     (sleep, locks, I/O, no core free); Java energy is charged on CPU time",
                "  p50/p99 us         per call;  uJ: exclusive energy;  iter: loop iterations",
                "  call tree          per path: calls, incl/excl ms, uJ and uJ incl (with callees); siblings by incl",
                "                     (other paths): calls on paths past the runtime's node budget",
                "  butterfly          share %: the caller's (callee's) inclusive time / the method's",
                "",
                "Up/Down scroll, any other key closes this help");
    }
}
