package org.hyprof.runtime.chunk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * NATIVE_EPOCHS (hybrid runs): native calls, one epoch each — id, thread, probe id of the native
 * method, symbol, blocks executed, instructions, estimated cycles, estimated device ns, energy pJ,
 * emulator wall ns (Java callbacks excluded).
 */
public final class NativeEpochsChunk {
    public final List<Epoch> epochs;

    public NativeEpochsChunk(List<Epoch> epochs) {
        this.epochs = Collections.unmodifiableList(epochs);
    }

    /** One native call. */
    public static final class Epoch {
        public final long id;
        public final long tid;
        public final int probeId;
        public final String symbol;
        public final long blocks;
        public final long instructions;
        public final long cycles;
        public final long estNanos;
        public final long energyPicojoules;
        public final long emulatorNanos;

        public Epoch(long id, long tid, int probeId, String symbol, long blocks, long instructions, long cycles,
                     long estNanos, long energyPicojoules, long emulatorNanos) {
            this.id = id;
            this.tid = tid;
            this.probeId = probeId;
            this.symbol = symbol;
            this.blocks = blocks;
            this.instructions = instructions;
            this.cycles = cycles;
            this.estNanos = estNanos;
            this.energyPicojoules = energyPicojoules;
            this.emulatorNanos = emulatorNanos;
        }
    }

    public void encode(PayloadWriter w) {
        w.varint(epochs.size());
        for (Epoch e : epochs)
            w.varint(e.id).varint(e.tid).varint(e.probeId & 0xffffffffL).string(e.symbol).varint(e.blocks)
                    .varint(e.instructions).varint(e.cycles).varint(e.estNanos).varint(e.energyPicojoules).varint(e.emulatorNanos);
    }

    public static NativeEpochsChunk decode(PayloadReader r) {
        int n = r.count(10);
        List<Epoch> epochs = new ArrayList<Epoch>(n);
        for (int i = 0; i < n; i++)
            epochs.add(new Epoch(r.varint(), r.varint(), (int) r.varint(), r.string(), r.varint(), r.varint(), r.varint(),
                    r.varint(), r.varint(), r.varint()));
        return new NativeEpochsChunk(epochs);
    }
}
