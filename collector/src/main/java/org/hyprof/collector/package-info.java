/**
 * The collector agents and {@code hyprof ctl} connect to (Netty). It owns the sockets: framing,
 * the HELLO handshake and token, frame size limits, one connection per process; what the frames
 * mean for a session is {@code org.hyprof.live}'s business.
 *
 * <p>Rules: bytes from the wire decide nothing about memory or time until checked (lengths
 * against the frame limits of {@link org.hyprof.runtime.Wire} and the role's frame types before
 * buffering or allocating, on the frame header); the event loop never blocks on the store or on a
 * command (those run on their own threads: {@code hyprof-store}, {@code hyprof-ctl-commands});
 * what is held for the store is bounded ({@code BufferBudget}) and its excess stops reading; Netty stays in this
 * module (never in the runtime, the agent or the model).
 */
package org.hyprof.collector;
