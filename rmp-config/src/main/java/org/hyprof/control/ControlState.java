package org.hyprof.control;

import java.util.Arrays;
import java.util.BitSet;
import org.hyprof.runtime.chunk.PayloadReader;
import org.hyprof.runtime.chunk.PayloadWriter;

/**
 * What an agent records: on-flags over probe ids {@code 0..idCount-1}, caller-filter roots,
 * rules and mode. The payload of CONFIG and STATE frames. Immutable.
 *
 * @param budgetBytes event budget (CONFIG: applied when events mode is switched on; STATE: left)
 */
public record ControlState(int idCount, BitSet on, int[] roots, long minDurationNanos, int minCalls, int maxDepth,
                           boolean events, long budgetBytes) {
    public ControlState {
        on = (BitSet) on.clone();
        roots = roots.clone();
    }

    @Override
    public BitSet on() {
        return (BitSet) on.clone();
    }

    @Override
    public int[] roots() {
        return roots.clone();
    }

    public boolean isOn(int id) {
        return on.get(id);
    }

    public ControlState withOn(BitSet newOn, int newCount) {
        return new ControlState(newCount, newOn, roots, minDurationNanos, minCalls, maxDepth, events, budgetBytes);
    }

    public ControlState withRoots(int[] newRoots) {
        return new ControlState(idCount, on, newRoots, minDurationNanos, minCalls, maxDepth, events, budgetBytes);
    }

    public ControlState withRules(long minDur, int minC, int maxD) {
        return new ControlState(idCount, on, roots, minDur, minC, maxD, events, budgetBytes);
    }

    byte[] encode() {
        byte[] bits = new byte[(idCount + 7) / 8];
        for (int i = on.nextSetBit(0); i >= 0 && i < idCount; i = on.nextSetBit(i + 1)) bits[i >> 3] |= (byte) (1 << (i & 7));
        PayloadWriter e = new PayloadWriter().varint(idCount).bytes(bits).varint(roots.length);
        for (int r : roots) e.varint(r);
        return e.varint(minDurationNanos).varint(minCalls).varint(maxDepth).u8(events ? 1 : 0).varint(budgetBytes).toByteArray();
    }

    static ControlState decode(PayloadReader d) {
        long n = d.varint();
        if (n < 0 || n > 1 << 24) throw new FrameException("control state with " + Long.toUnsignedString(n) + " probe ids");
        byte[] bits = d.bytes((int) ((n + 7) / 8));
        BitSet on = new BitSet((int) n);
        for (int i = 0; i < n; i++) if ((bits[i >> 3] & (1 << (i & 7))) != 0) on.set(i);
        int nr = d.count(1); // each root id takes at least a byte
        if (nr > n + 1) throw new FrameException("control state with " + nr + " roots");
        int[] roots = new int[nr];
        for (int i = 0; i < nr; i++) roots[i] = (int) d.varint();
        return new ControlState((int) n, on, roots, d.varint(), (int) d.varint(), (int) d.varint(), d.u8() != 0, d.varint());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ControlState s && s.idCount == idCount && s.on.equals(on) && Arrays.equals(s.roots, roots)
                && s.minDurationNanos == minDurationNanos && s.minCalls == minCalls && s.maxDepth == maxDepth
                && s.events == events && s.budgetBytes == budgetBytes;
    }

    @Override
    public int hashCode() {
        return on.hashCode() * 31 + Arrays.hashCode(roots);
    }

    @Override
    public String toString() {
        return "ControlState[ids=" + idCount + ", on=" + on.cardinality() + ", roots=" + Arrays.toString(roots)
                + ", minDuration=" + minDurationNanos + "ns, minCalls=" + minCalls + ", maxDepth=" + maxDepth
                + ", events=" + events + "]";
    }
}
