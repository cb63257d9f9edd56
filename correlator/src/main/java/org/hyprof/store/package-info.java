/**
 * The session store: one SQLite file per session, and getting session data into it (session files
 * from the runtime, chunks from live agents).
 *
 * <p><b>Rules.</b>
 * <ul>
 * <li>SQLite is used through this package only. Every other package and module (analysis,
 *     reports, exports, the collector, the UI, the command) reads and writes sessions through
 *     {@link org.hyprof.store.Store}'s methods and the records they return, never with SQL or JDBC
 *     of its own; tests that damage a file on purpose are the one exception.</li>
 * <li>{@code Store} is the only public entry point: it is opened ({@code create}, {@code open},
 *     {@code openReadOnly}) and closed (try-with-resources) by its users, and hands each call to
 *     the package-private class of the tables concerned. A store opened read-only never writes
 *     its file, not even to migrate it.</li>
 * <li>The schema changes only by a new migration ({@code VN.sql} in this package's resources, and
 *     {@code Schema.VERSION} raised to N): a migration once released is never edited, since files
 *     on disk were made with it. The schema golden file ({@code schema.sql} in the tests) shows
 *     the result; regenerate it and review the diff.</li>
 * <li>All SQL runs through {@code Sql}, on the store's one connection, under its lock: a store is
 *     safe to share between threads and SQLite sees one writer.</li>
 * </ul>
 *
 * <p><b>Layout.</b> {@code Store} (opening, closing, the API); {@code Schema} (version check and
 * migrations); {@code Sql} (JDBC: queries, batches, transactions, one-line errors); one class per
 * group of tables: {@code SessionNotes} (settings, import notes), {@code Processes} (processes,
 * threads), {@code Probes} (probe manifest, skipped methods), {@code Calibrations},
 * {@code Aggregates} (per-thread probe statistics, with {@code HistogramCodec} for the histogram
 * column), {@code EventChunks} (event logs), {@code NativeBlocks} (the native side of hybrid runs:
 * settings, blocks, epochs), {@code NativeRuns} (runs of one native function). Records read back
 * ({@link org.hyprof.store.ProcessInfo}, {@link org.hyprof.store.ProbeStats},
 * {@link org.hyprof.store.NativeBlock}, ...) are public. Session data comes in through
 * {@link org.hyprof.store.SessionReader} (session-file chunks),
 * {@link org.hyprof.store.SessionImporter} (a whole file) and
 * {@link org.hyprof.store.SessionIngest} (chunk by chunk, idempotent, also for live agents).
 */
package org.hyprof.store;
