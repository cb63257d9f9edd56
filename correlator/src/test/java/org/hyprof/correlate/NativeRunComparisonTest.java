package org.hyprof.correlate;

import static org.junit.jupiter.api.Assertions.*;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.hyprof.testing.Golden;
import org.hyprof.store.NativeRunRecord;
import org.junit.jupiter.api.Test;

/** Stored native runs of two sessions, paired by call: ratios, unpaired runs, golden table and CSV. */
class NativeRunComparisonTest {
    static NativeRunRecord run(long id, String symbol, String args, String cpu, long instr, long cycles, long ns, long pj) {
        return new NativeRunRecord(id, "/lib/armeabi-v7a/libkernels.so", symbol, args, "armeabi-v7a", cpu, "libunicorn", 7,
                instr / 10, instr, cycles, ns, pj, 1_000_000, Map.of("alu", instr), 0, List.of(), List.of());
    }

    static final List<NativeRunRecord> A8 = List.of(
            run(1, "kernel_fft", "256, 4", "cortex-a8", 294_855, 3_605_544, 3_605_544, 3_161_685_447L),
            run(2, "count_loop", "100", "cortex-a8", 405, 4_264, 4_264, 3_800_000));
    static final List<NativeRunRecord> A9 = List.of(
            run(1, "kernel_fft", "256, 4", "cortex-a9", 294_855, 698_806, 349_403, 444_449_684),
            run(2, "kernel_sor", "30, 3", "cortex-a9", 42_290, 100_227, 50_114, 63_745_831));

    static String text(NativeRunComparison c, boolean csv) {
        StringWriter s = new StringWriter();
        if (csv) c.csv(new PrintWriter(s));
        else c.table(new PrintWriter(s));
        return s.toString();
    }

    @Test
    void pairsRunsOfTheSameCallAndKeepsTheOthers() throws Exception {
        NativeRunComparison c = new NativeRunComparison(A8, A9);
        assertEquals(3, c.rows().size());
        NativeRunComparison.Row fft = c.rows().get(0);
        assertEquals("libkernels.so kernel_fft(256, 4)", fft.call());
        assertEquals("cortex-a8", fft.a().cpuProfile());
        assertEquals("cortex-a9", fft.b().cpuProfile());
        assertNull(c.rows().get(1).b(), "count_loop only in A");
        assertNull(c.rows().get(2).a(), "kernel_sor only in B");
        String csv = text(c, true);
        assertTrue(csv.startsWith(NativeRunComparison.COLUMNS + "\n"));
        assertTrue(csv.contains(",3605544,698806," + String.format(java.util.Locale.ROOT, "%.4f", 698_806 / 3_605_544.0) + ","), csv);
        Golden.check("compare-native.txt", text(c, false));
        Golden.check("compare-native.csv", csv);
    }
}
