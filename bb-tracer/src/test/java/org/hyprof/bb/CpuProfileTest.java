package org.hyprof.bb;

import static org.junit.jupiter.api.Assertions.*;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.hyprof.bb.cost.CpuProfile;
import org.hyprof.bb.cost.Estimate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuProfileTest {
    @TempDir Path dir;

    /**
     * The AndroProf thesis (§5.2, Table 5.3): the same instruction count on a Cortex-A8 (CPI
     * 13.03, 0.89 W, 1 GHz) and a Cortex-A9 (CPI 2.37, 1.25 W, 2 GHz), memory accesses at 1 % and
     * 2.61 nJ: estimated cycles differ by ≈ 5.5 and energy by ≈ 7.7.
     */
    @Test
    void reproducesTheThesisA8VersusA9Comparison() {
        CpuProfile a8 = CpuProfile.load("cortex-a8"), a9 = CpuProfile.load("cortex-a9");
        Map<String, Long> counts = Map.of("alu", 39_171_751_755L); // Table 5.3, A8 instruction count
        Estimate e8 = Estimate.of(counts, a8), e9 = Estimate.of(counts, a9);
        assertEquals(5.5, e8.cycles() / e9.cycles(), 0.05);
        assertEquals(7.7, e8.energyMicrojoules() / e9.energyMicrojoules(), 0.05);
        assertEquals(13.03 * 39_171_751_755L, e8.cycles(), 1e3);
        assertEquals(e8.cycles(), e8.timeNanos(), 1e3, "1 GHz: one cycle per ns");
        // energy = P_proc × t + 2.61 nJ × 1 % × N
        double expectedJ = 0.89 * e8.timeNanos() * 1e-9 + 2.61e-9 * 0.01 * 39_171_751_755L;
        assertEquals(expectedJ * 1e6, e8.energyMicrojoules(), 1e-3 * expectedJ * 1e6);
    }

    @Test
    void categoryCostsOverrideTheCpi() {
        CpuProfile a8 = CpuProfile.load("cortex-a8");
        Estimate e = Estimate.of(Map.of("branch-cond", 1000L), a8);
        assertEquals(3000, e.cycles(), 1e-9, "a conditional branch costs 3 cycles");
        assertEquals(3000e-9 * 0.113 * 1e6 + 2.61e-9 * 0.01 * 1000 * 1e6, e.energyMicrojoules(), 1e-9, "at 113 mW");
    }

    @Test
    void categorizesArmThumbAndAArch64Mnemonics() {
        CpuProfile arm = CpuProfile.load("cortex-a9"), a64 = CpuProfile.load("generic-aarch64");
        assertEquals("branch-cond", arm.categorize("bne", ""));
        assertEquals("branch-cond", arm.categorize("bne.n", ""), "Thumb width suffix");
        assertEquals("branch-cond", arm.categorize("cbz", ""));
        assertEquals("branch", arm.categorize("bx", "lr"));
        assertEquals("load", arm.categorize("ldr.w", ""));
        assertEquals("load", arm.categorize("pop", "{r4, pc}"));
        assertEquals("store", arm.categorize("push", ""));
        assertEquals("fp", arm.categorize("vmla.f64", ""));
        assertEquals("alu", arm.categorize("adds", ""));
        assertEquals("alu", arm.categorize("bic", ""), "not a branch");
        assertEquals("branch-cond", a64.categorize("b.ne", ""));
        assertEquals("fp", a64.categorize("fmadd", ""));
        assertEquals("load", a64.categorize("ldp", ""));
        assertEquals("other", a64.categorize("hint", ""));
    }

    @Test
    void profileFilesAreCheckedWithOneLineErrors() throws Exception {
        Path p = dir.resolve("bad.properties");
        Files.writeString(p, "name=x\narch=mips\n");
        NativeException e = assertThrows(NativeException.class, () -> CpuProfile.load(p.toString()));
        assertTrue(e.getMessage().startsWith(p.toString()), e.getMessage());
        Files.writeString(p, "name=x\narch=arm\nfrequency.mhz=-1\npower.mw=1\ncpi=1\ncategories=a\ncategory.a.mnemonics=add\n");
        assertTrue(assertThrows(NativeException.class, () -> CpuProfile.load(p.toString())).getMessage().contains("frequency.mhz"));
        Files.writeString(p, "name=x\narch=arm\nfrequency.mhz=100\npower.mw=1\ncpi=1\ncategories=a\ncategory.a.mnemonics=add\ncolour=red\n");
        assertTrue(assertThrows(NativeException.class, () -> CpuProfile.load(p.toString())).getMessage().contains("unknown key 'colour'"));
        assertTrue(assertThrows(NativeException.class, () -> CpuProfile.load("no-such-profile")).getMessage().contains("no such CPU profile"));
    }
}
