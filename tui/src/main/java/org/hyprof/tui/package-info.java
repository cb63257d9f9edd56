/**
 * The terminal UI ({@code hyprof tui}), run in a JVM of its own.
 *
 * <p>Rules of this package:
 * <ul>
 *   <li>It may import the store and analysis API ({@code org.hyprof.store}, {@code org.hyprof.analysis},
 *       {@code org.hyprof.correlate}), the configuration and control model ({@code org.hyprof.config},
 *       {@code org.hyprof.control}), the collector and live sessions ({@code org.hyprof.collector},
 *       {@code org.hyprof.live}) and Lanterna.</li>
 *   <li>Never the emulator (bb-tracer, Unicorn), the instrumenters or the command line: Lanterna
 *       (LGPL-3.0) never shares a process with GPL-2.0-only Unicorn. The module's enforcer rule
 *       fails the build on such a dependency.</li>
 *   <li>Sessions are read through {@link org.hyprof.tui.Source} only; every time, energy and count
 *       on screen is formatted by {@link org.hyprof.correlate.Units}, as reports are.</li>
 *   <li>Jobs stay apart: {@link org.hyprof.tui.UiState} holds where the UI is,
 *       {@link org.hyprof.tui.KeyActions} changes it, one class per view turns it into rows or
 *       lines, {@link org.hyprof.tui.Painter} alone draws, {@link org.hyprof.tui.TuiApp} is the
 *       loop. Everything runs on the UI thread except call-graph replays
 *       ({@link org.hyprof.tui.CallGraphs}).</li>
 * </ul>
 */
package org.hyprof.tui;
