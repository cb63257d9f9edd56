package org.hyprof.correlate;

import static org.junit.jupiter.api.Assertions.*;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** power_profile.xml in its three key generations, the CPU power formula, and bad files. */
class PowerProfileTest {
    static Path file(String name) {
        try {
            return Path.of(PowerProfileTest.class.getResource("/power/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void modernKeysAddActiveClusterAndCorePower() {
        PowerProfile p = PowerProfile.read(file("modern.xml"));
        PowerProfile.CpuPower c = p.cpu(0, 1, 3.8);
        assertEquals(2.55 + 2.11 + 20, c.currentMilliamps(), 1e-9);
        assertEquals((2.55 + 2.11 + 20) * 3.8, c.powerMilliwatts(), 1e-9);
        assertEquals(1_000_000, c.speedKilohertz());
        PowerProfile.CpuPower fastest = p.cpu(1, null, 4.0);
        assertEquals(3, fastest.step(), "no step given: the fastest");
        assertEquals(2.55 + 2.22 + 60, fastest.currentMilliamps(), 1e-9);
        assertEquals(3_000_000, fastest.speedKilohertz());
        assertEquals(4, p.steps(1));
    }

    @Test
    void legacyAndOldestKeys() {
        PowerProfile.CpuPower l = PowerProfile.read(file("legacy.xml")).cpu(1, 0, 3.7);
        assertEquals(90, l.currentMilliamps(), 1e-9);
        assertEquals(600_000, l.speedKilohertz());
        PowerProfile.CpuPower o = PowerProfile.read(file("oldest.xml")).cpu(0, null, 3.7);
        assertEquals(180, o.currentMilliamps(), 1e-9);
        assertEquals(768_000, o.speedKilohertz());
    }

    @Test
    void builtInSampleIsUsableAndSaysWhatItIs() {
        EnergyModel m = EnergyModel.sample();
        assertEquals((25 + 12 + 110) * PowerProfile.DEFAULT_VOLTAGE, m.javaPowerMilliwatts(), 1e-9);
        assertTrue(m.description().contains("not a real device"), m.description());
        assertEquals(558.6, m.javaMicrojoules(1_000_000_000L) / 1000, 1e-9, "1 s at 558.6 mW = 558.6 mJ");
    }

    @Test
    void badFilesAndSettingsAreOneLineErrors() {
        for (String f : new String[] {"bad-number.xml", "wrong-root.xml", "truncated.xml"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PowerProfile.read(file(f)).cpu(0, null, 3.8));
            assertTrue(e.getMessage().contains(f), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        PowerProfile p = PowerProfile.read(file("modern.xml"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> p.cpu(2, null, 3.8)).getMessage().contains("clusters here: 0, 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> p.cpu(0, 3, 3.8)).getMessage().contains("steps 0..2"));
        assertThrows(IllegalArgumentException.class, () -> p.cpu(0, 0, -1));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PowerProfile.read(Path.of("/nonexistent.xml")))
                .getMessage().contains("no such power profile"));
    }
}
