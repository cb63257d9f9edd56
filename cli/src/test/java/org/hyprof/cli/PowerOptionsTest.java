package org.hyprof.cli;

import static org.junit.jupiter.api.Assertions.*;

import org.hyprof.correlate.EnergyModel;
import org.hyprof.correlate.PowerProfile;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --power-profile NAME|FILE}: the shipped names, listed in --help, and one-line errors. */
class PowerOptionsTest {
    private static PowerOptions parse(String... args) {
        ReportCommand r = new ReportCommand();
        new CommandLine(r).parseArgs(args);
        return r.power;
    }

    @Test
    void shippedNamesAreChoicesAndListedInHelp() {
        String help = new CommandLine(new ReportCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertTrue(help.contains("--power-profile=NAME|FILE"), help);
        assertTrue(help.replaceAll("\\s+", " ").contains("A shipped profile (sample, pixel-4a)"), help);
        EnergyModel pixel = parse("s.db", "--power-profile", "pixel-4a", "--cluster", "1").model();
        assertEquals((8.4 + 2.2 + 266.21) * PowerProfile.DEFAULT_VOLTAGE, pixel.javaPowerMilliwatts(), 1e-9);
        assertTrue(pixel.description().startsWith("Google Pixel 4a (sunfish)"), pixel.description());
        assertEquals(EnergyModel.sample(), parse("s.db", "--power-profile", "sample").model());
        assertEquals(EnergyModel.sample(), parse("s.db").model());
    }

    @Test
    void aMissingOrBadProfileIsAOneLineUserError() {
        UserError missing = assertThrows(UserError.class, () -> parse("s.db", "--power-profile", "pixel-99").model());
        assertEquals("pixel-99: no such power profile", missing.getMessage());
        assertEquals(1, missing.exitCode);
        UserError cluster = assertThrows(UserError.class, () -> parse("s.db", "--power-profile", "pixel-4a", "--cluster", "2").model());
        assertFalse(cluster.getMessage().contains("\n"), cluster.getMessage());
        assertEquals(2, cluster.exitCode);
    }
}
