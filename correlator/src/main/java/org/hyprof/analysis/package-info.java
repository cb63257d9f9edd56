/**
 * Call trees rebuilt from a session's event log: {@link org.hyprof.analysis.EventReplay} is the
 * one reconstruction (enters matched with exits, cut records, missing enters, frames left open);
 * {@link org.hyprof.analysis.CallStream} hands each call over as it opens and closes, reading the
 * store a chunk at a time (for exports, whatever the session's size), {@link
 * org.hyprof.analysis.Timeline} keeps every call (small sessions, tests), {@link
 * org.hyprof.analysis.CallGraph} only sums caller → callee pairs (for the UI, in little memory).
 *
 * <p>Rules: reads sessions through {@code org.hyprof.store}'s API only; formats for other tools
 * belong in {@code org.hyprof.export}, which builds on this package, never the reverse.
 */
package org.hyprof.analysis;
