/**
 * Offline instrumentation of Android code: APKs, DEX files and directories of DEX files, with
 * dexlib2. The probes mean exactly what the class-file rewriter's mean (same runtime entry
 * points, manifest format, ids and resolutions); {@link org.hyprof.instrument.dex.DexInstrumenter}
 * is the entry point.
 *
 * <p>One method is rewritten by small passes, each keeping one invariant (see each class):
 * <ol>
 * <li>{@code RegisterShift} — the frame grows by two scratch registers; arguments are copied
 *     back down so original code sees its registers unchanged;</li>
 * <li>{@code EntryExitPass} — {@code enter} once at entry (after {@code super()} in constructors),
 *     {@code exit} right before every return;</li>
 * <li>{@code LoopPass} — loop probes on control-flow edges of dominator-based natural loops
 *     ({@link org.hyprof.instrument.loops.LoopFinder}, shared with the class-file rewriter);</li>
 * <li>{@code ExceptionalExitPass} — an appended catch-all handler calling {@code exitThrow},
 *     last in every try item it joins;</li>
 * <li>{@code CodeEmitter} — layout: branches, payloads, try items and debug entries re-pointed;</li>
 * </ol>
 * and then, per DEX file, {@code DexOutput} — runtime injection and the 64K reference limit.
 * Analyses shared by the passes are in {@code MethodCode} (instructions and control-flow graph)
 * and {@code Dataflow} (monitor depths, constructor initialization).
 */
package org.hyprof.instrument.dex;
