/**
 * The bytes of the session file's chunks (see {@link org.hyprof.runtime.SessionFormat}), which are
 * also the payloads of the live protocol's CHUNK frames: one class per chunk kind that encodes and
 * decodes it, over one reader ({@link org.hyprof.runtime.chunk.PayloadReader}) and one writer
 * ({@link org.hyprof.runtime.chunk.PayloadWriter}).
 *
 * <p>Rules: the runtime encodes, hosts decode, both with these classes and nothing else (no
 * hand-written varints elsewhere). Decoding treats its input as hostile: every length and count
 * is checked against the bytes that remain before anything is allocated or looped over, and
 * malformed input is a {@link org.hyprof.runtime.chunk.MalformedPayloadException}, never another
 * exception. Java 8, Android API 21, no dependencies (this package ships in the runtime).
 * Changing an encoding changes the golden files of {@code SessionFileGoldenTest}; a reader keeps
 * reading what earlier writers of the same format version wrote.
 */
package org.hyprof.runtime.chunk;
