package org.hyprof.correlate;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * power_profile.xml in its four key generations, the CPU power formula, the shipped profiles,
 * the compiled forms (binary XML and APK, built by aapt: {@code power/compiled/build.sh}) and bad
 * files: inconsistent keys ({@code power/keys/}) and damaged binary XML
 * ({@code power/compiled/invalid/}).
 */
class PowerProfileTest {
    @TempDir Path dir;

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

    @Test
    void perPolicyKeysMapToClustersInPolicyOrderAndWinOverClusterKeys() {
        PowerProfile p = PowerProfile.read(file("policy.xml"));
        PowerProfile.CpuPower little = p.cpu(0, 1, 3.8);
        assertEquals(3 + 1.5 + 40, little.currentMilliamps(), 1e-9, "policy0 (cluster 0), not cpu.core_power.cluster0's 99");
        assertEquals(0, little.speedKilohertz(), "no speeds for cluster 0: unknown");
        assertTrue(little.formula().contains("cpu.scaling_step_power.policy0[1]"), little.formula());
        PowerProfile.CpuPower big = p.cpu(1, null, 3.8);
        assertEquals(3 + 2.5 + 200, big.currentMilliamps(), 1e-9);
        assertEquals(2_800_000, big.speedKilohertz());
        assertEquals(3, p.steps(1));
        assertEquals(2, p.steps(0));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> p.cpu(2, null, 3.8)).getMessage().contains("policy0, policy4"));
        assertEquals(4, p.idleMilliamps().orElseThrow(), 1e-9);
        assertEquals(2, p.suspendMilliamps().orElseThrow(), 1e-9);
        assertEquals(4500, p.batteryCapacityMilliampHours().orElseThrow(), 1e-9);
    }

    @Test
    void shippedProfilesByName() {
        assertEquals(PowerProfile.SHIPPED_NAMES, PowerProfile.names());
        assertEquals(List.of("sample", "pixel-4a"), PowerProfile.shipped().stream().map(PowerProfile.Shipped::name).toList());
        PowerProfile pixel = PowerProfile.load("pixel-4a");
        assertTrue(pixel.source().contains("Pixel 4a"), pixel.source());
        PowerProfile.CpuPower big = pixel.cpu(1, null, 3.8);
        assertEquals(8.4 + 2.2 + 266.21, big.currentMilliamps(), 1e-9);
        assertEquals(2_208_000, big.speedKilohertz());
        PowerProfile.CpuPower little = pixel.cpu(0, 0, 3.8);
        assertEquals(8.4 + 2 + 34.55, little.currentMilliamps(), 1e-9);
        assertEquals(300_000, little.speedKilohertz());
        assertEquals(10, pixel.steps(0));
        assertEquals(13, pixel.steps(1));
        assertEquals(3080, pixel.batteryCapacityMilliampHours().orElseThrow(), 1e-9);
        assertEquals(EnergyModel.sample(), EnergyModel.of(PowerProfile.load("sample").cpu(0, null, PowerProfile.DEFAULT_VOLTAGE)));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PowerProfile.load("pixel-9")).getMessage()
                .contains("no such power profile"));
    }

    /** The shipped text profile and its aapt-compiled forms (UTF-8 and UTF-16 pools, and the APK) agree on every setting. */
    @Test
    void compiledFormsGiveTheSameEnergyAsTheText() {
        PowerProfile text = PowerProfile.load("pixel-4a");
        for (String f : new String[] {"compiled/pixel-4a-utf8.axml", "compiled/pixel-4a-utf16.axml", "compiled/pixel-4a.apk"}) {
            PowerProfile compiled = PowerProfile.read(file(f));
            if (f.endsWith(".apk")) assertTrue(compiled.source().endsWith("pixel-4a.apk!/res/xml/power_profile.xml"), compiled.source());
            for (int cluster = 0; cluster < 2; cluster++) {
                assertEquals(text.steps(cluster), compiled.steps(cluster), f);
                for (int step = 0; step < text.steps(cluster); step++) {
                    PowerProfile.CpuPower a = text.cpu(cluster, step, 3.85);
                    PowerProfile.CpuPower b = compiled.cpu(cluster, step, 3.85);
                    assertEquals(a.currentMilliamps(), b.currentMilliamps(), 0.0, f + " cluster " + cluster + " step " + step);
                    assertEquals(a.speedKilohertz(), b.speedKilohertz(), f);
                    assertEquals(a.formula(), b.formula(), f);
                    assertEquals(EnergyModel.of(a).javaMicrojoules(123_456_789L), EnergyModel.of(b).javaMicrojoules(123_456_789L), 0.0, f);
                }
            }
            assertEquals(text.batteryCapacityMilliampHours(), compiled.batteryCapacityMilliampHours(), f);
            assertEquals(text.idleMilliamps(), compiled.idleMilliamps(), f);
            assertEquals(text.suspendMilliamps(), compiled.suspendMilliamps(), f);
        }
    }

    /** Android 10's own framework-res.apk, as Debian's android-framework-res ships it (skipped when not installed). */
    @Test
    void readsAndroidsFrameworkResApk() {
        Path apk = Path.of("/usr/share/android-framework-res/framework-res.apk");
        Assumptions.assumeTrue(Files.isRegularFile(apk), "android-framework-res not installed");
        PowerProfile p = PowerProfile.read(apk);
        PowerProfile.CpuPower c = p.cpu(0, null, 3.8);
        assertTrue(c.formula().startsWith("cpu.active.cluster0["), c.formula());
        assertTrue(c.currentMilliamps() > 0);
    }

    @Test
    void inconsistentOrUnknownKeysAreOneLineErrorsNamingTheKey() {
        Map<String, String> keyOf = Map.ofEntries(
                Map.entry("unknown-key.xml", "cpu.core_powers.cluster0: unknown key"),
                Map.entry("core-power-length.xml", "cpu.core_power.cluster0: 2 values, but cpu.core_speeds.cluster0 has 3"),
                Map.entry("item-not-array.xml", "cpu.core_power.cluster0: must be an <array>"),
                Map.entry("cluster-beyond-cores.xml", "cpu.core_power.cluster2: cluster 2, but cpu.clusters.cores lists 2"),
                Map.entry("policy-count.xml", "cpu.scaling_policy_power.policy0: 3 policies (policy0, policy4, policy6), but cpu.clusters.cores lists 2"),
                Map.entry("policy-first-cpu.xml", "cpu.scaling_step_power.policy2: policy 2 for cluster 1, whose first CPU"),
                Map.entry("policy-without-steps.xml", "cpu.scaling_policy_power.policy0: no cpu.scaling_step_power.policy0"),
                Map.entry("duplicate.xml", "cpu.active: defined twice"),
                Map.entry("negative.xml", "cpu.core_power.cluster0: negative value"),
                Map.entry("fractional-cores.xml", "cpu.clusters.cores: core count 2.5"),
                Map.entry("empty-array.xml", "cpu.core_power.cluster0: array without values"));
        assertEquals(keyOf.size(), dirSize("keys"), "every file of power/keys/ has its expectation");
        keyOf.forEach((f, expected) -> {
            String m = assertThrows(IllegalArgumentException.class, () -> PowerProfile.read(file("keys/" + f)), f).getMessage();
            assertTrue(m.contains(f + ": " + expected), m);
            assertFalse(m.contains("\n"), m);
        });
    }

    @Test
    void damagedBinaryXmlIsAOneLineError() {
        Map<String, String> problem = Map.of(
                "truncated.axml", "document chunk claims 11156 bytes, the file has 5578",
                "bad-chunk-size.axml", "chunk type 0x0102 claims size 4294967040",
                "chunk-smaller-than-header.axml", "chunk type 0x0102 claims size 4 with header 16",
                "string-index-out-of-range.axml", "string index 2147483647 out of range (the pool has 113)",
                "huge-string-count.axml", "268435456 strings and 0 styles do not fit a pool",
                "string-past-pool.axml", "string 0 runs past the string data (65534 bytes at 490",
                "unknown-value-type.axml", "value of type 0x77 is not a number or string",
                "mismatched-end.axml", "</device> closes <item>",
                "unclosed-element.axml", "element <device> not closed at the end of the document",
                "attributes-past-chunk.axml", "65535 attributes of 20 bytes");
        assertEquals(problem.size(), dirSize("compiled/invalid"), "every file of compiled/invalid/ has its expectation");
        problem.forEach((f, expected) -> {
            String m = assertThrows(IllegalArgumentException.class, () -> PowerProfile.read(file("compiled/invalid/" + f)), f).getMessage();
            assertTrue(m.contains(f + ": not a power_profile.xml (binary XML: " + expected), m);
            assertTrue(m.matches(".*\\(byte \\d+\\)\\)$"), m);
            assertFalse(m.contains("\n"), m);
        });
    }

    @Test
    void zipWithoutTheProfileAndOversizedFiles() throws IOException {
        Path zip = dir.resolve("other.apk");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
            z.putNextEntry(new ZipEntry("res/xml/other.xml"));
            z.write(new byte[] {1, 2, 3});
        }
        assertEquals(zip + ": an APK or zip without res/xml/power_profile.xml",
                assertThrows(IllegalArgumentException.class, () -> PowerProfile.read(zip)).getMessage());
        Path big = dir.resolve("big.xml");
        try (OutputStream out = Files.newOutputStream(big)) {
            out.write(new byte[(int) PowerProfile.MAX_BYTES + 1]);
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PowerProfile.read(big)).getMessage()
                .contains("too large for a power profile"));
    }

    private static long dirSize(String name) {
        try (Stream<Path> s = Files.list(file(name))) {
            return s.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
