/**
 * The probe runtime, injected into the profiled program (dexed into APKs, on the JVM's boot class
 * path with the {@code -javaagent}).
 *
 * <p>Rules for everything in this package:
 * <ul>
 * <li>Java 8 bytecode and only APIs Android (API level 21) has — animal-sniffer checks it; no
 *     dependency of any kind (the enforcer bans them).</li>
 * <li>Never throw into the app: an internal failure goes to {@code Recorder.internalFailure},
 *     which switches recording off and reports it out of band.</li>
 * <li>The probes' hot path ({@code Probe}, {@code ThreadState}, {@code EventLog}) allocates
 *     nothing after a thread's first event, takes no lock, reads the clock once per event; a
 *     probe that is off is a flag read. Say what a choice costs, measured, beside it.</li>
 * <li>Encoding and I/O run on the recorder's daemon thread or at shutdown, never on an app
 *     thread; the bytes of every chunk are the business of its codec in
 *     {@link org.hyprof.runtime.chunk}.</li>
 * </ul>
 */
package org.hyprof.runtime;
