package org.hyprof.runtime.chunk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * NATIVE_LIBRARIES (hybrid runs, format 5): the native cost of each native method split by the
 * library its instructions lie in — per row the app library whose emulator ran the calls
 * ({@code libconscrypt_jni.so}), the library the code is in (the same name, a library found beside
 * it such as {@code libc++_shared.so}, or a system library: {@code libc.so}, {@code libm.so} …),
 * whether that is a system library (1) or the app's code (0), the probe id of the native method (-1 is
 * {@code JNI_OnLoad}), block executions, instructions, estimated cycles, device ns and energy pJ,
 * over all the method's calls. Written once, at the end of the run, beside NATIVE_BLOCKS.
 */
public final class NativeLibrariesChunk {
    public final List<Row> rows;

    public NativeLibrariesChunk(List<Row> rows) {
        this.rows = Collections.unmodifiableList(rows);
    }

    /** One native method's cost in one library. */
    public static final class Row {
        /** The app library whose calls these are (its file name). */
        public final String library;
        /** Where the code lies: {@link #library} itself, a library beside it, or a system library. */
        public final String codeLibrary;
        /** Whether {@link #codeLibrary} is one of Android's system libraries (not the app's code). */
        public final boolean system;
        public final int probeId;
        public final long blocks;
        public final long instructions;
        public final long cycles;
        public final long estNanos;
        public final long energyPicojoules;

        public Row(String library, String codeLibrary, boolean system, int probeId, long blocks, long instructions, long cycles,
                   long estNanos, long energyPicojoules) {
            this.library = library;
            this.codeLibrary = codeLibrary;
            this.system = system;
            this.probeId = probeId;
            this.blocks = blocks;
            this.instructions = instructions;
            this.cycles = cycles;
            this.estNanos = estNanos;
            this.energyPicojoules = energyPicojoules;
        }
    }

    public void encode(PayloadWriter w) {
        w.varint(rows.size());
        for (Row r : rows)
            w.string(r.library).string(r.codeLibrary).varint(r.system ? 1 : 0).varint(r.probeId & 0xffffffffL).varint(r.blocks).varint(r.instructions)
                    .varint(r.cycles).varint(r.estNanos).varint(r.energyPicojoules);
    }

    public static NativeLibrariesChunk decode(PayloadReader r) {
        int n = r.count(9);
        List<Row> rows = new ArrayList<Row>(n);
        for (int i = 0; i < n; i++)
            rows.add(new Row(r.string(), r.string(), r.varintAtMost(1, "system flag") == 1, (int) r.varint(), r.varint(), r.varint(),
                    r.varint(), r.varint(), r.varint()));
        return new NativeLibrariesChunk(rows);
    }
}
