/**
 * Offline instrumentation of Android code: APKs, DEX files and directories of DEX files, with
 * dexlib2. The probes mean exactly what the class-file rewriter's mean (same runtime entry
 * points, manifest format, ids and resolutions); {@link org.hyprof.instrument.dex.DexInstrumenter}
 * is the entry point.
 *
 * <p>One method is rewritten by small passes, each keeping one invariant (see each class):
 * <ol>
 * <li>{@code RegisterShift} — the frame grows by the probe registers (an exception register, the
 *     method's id and token, and per loop an id, a token and a back-edge counter, all set at
 *     entry, the ids from the piece's base: {@code PieceHolder}); arguments are copied back down
 *     so original code sees its registers unchanged;</li>
 * <li>{@code EntryExitPass} — {@code tok = begin(id)} once at entry (after {@code super()} in
 *     constructors), {@code end(id, tok)} right before every return;</li>
 * <li>{@code LoopPass} — loop probes on control-flow edges of dominator-based natural loops
 *     ({@link org.hyprof.instrument.loops.LoopFinder}, shared with the class-file rewriter):
 *     {@code loopBegin} on entry edges, a register increment on back edges, {@code loopEnd} with
 *     the count on every exit edge, exception edges to the method's handlers included;</li>
 * <li>{@code ExceptionalExitPass} — an appended catch-all handler calling {@code loopEnd} for
 *     every loop and {@code endThrow(id, tok)}, last in every try item it joins;</li>
 * <li>{@code CodeEmitter} — layout: branches, payloads, try items and debug entries re-pointed;</li>
 * </ol>
 * and then, per DEX file, {@code DexOutput} — runtime injection, the piece's holder class
 * ({@code PieceHolder}: every output is a piece whose probe ids the runtime moves past those of
 * the pieces loaded before it) and the 64K reference limit.
 * Analyses shared by the passes are in {@code MethodCode} (instructions and control-flow graph)
 * and {@code Dataflow} (monitor depths, constructor initialization).
 */
package org.hyprof.instrument.dex;
