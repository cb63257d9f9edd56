package org.hyprof.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.hyprof.runtime.Calibration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code hyprof calibrate}'s figures from given measurements (the measuring itself is
 * {@code CalibrateIT}'s): the order statistics, how much a cost moved, the verdict, CSV and JSON.
 */
class CalibrateCommandTest {
    /** A measurement of the given event cost (ps), the other figures derived from it. */
    private static CalibrateCommand.Measurement m(long atMillis, long eventPicos) {
        return new CalibrateCommand.Measurement(atMillis,
                new Calibration(eventPicos / 2, eventPicos, 7_000, 30_000, 0, 1_000, 3_000, 20_000));
    }

    @Test
    void movedIsTheRangeOverTheMedian() {
        assertEquals(62_000, CalibrateCommand.Stats.median(new long[] {90_000, 62_000, 61_000, 64_000}),
                "the lower middle of an even count: a value that was measured");
        assertEquals(100.0 * (90_000 - 60_000) / 62_000, CalibrateCommand.movedPercent(new long[] {62_000, 60_000, 90_000}), 1e-9);
        assertEquals(0.0, CalibrateCommand.movedPercent(new long[] {55_000}));
        assertEquals(0.0, CalibrateCommand.movedPercent(new long[] {0, 0}), "no median to divide by");
    }

    @Test
    void theVerdictSaysSteadyOrMovingWithTheRange() {
        String steady = CalibrateCommand.verdict(List.of(m(500, 60_000), m(1_000, 61_000), m(1_500, 60_500)));
        assertTrue(steady.startsWith("steady: the probe event's cost moved 1.7 % over 1.5 s (60.0-61.0 ns, 3 of 3 within 5 % of the median)"), steady);
        String moving = CalibrateCommand.verdict(List.of(m(500, 62_000), m(1_000, 90_000), m(1_500, 61_000)));
        assertTrue(moving.startsWith("moving: the probe event's cost moved 46.8 % over 1.5 s (61.0-90.0 ns, 2 of 3 within 5 % of the median)"), moving);
        assertTrue(moving.contains("up to about 47 % of the probe cost taken from it"), moving);
        assertTrue(CalibrateCommand.verdict(List.of(m(500, 60_000))).startsWith("one measurement"));
    }

    @Test
    void csvHasOneRowPerMeasurementInPicoseconds() {
        String csv = CalibrateCommand.csv(List.of(m(500, 60_000), m(1_000, 90_000)));
        assertEquals("measurement,at_ms,event_ps,event_spread_ps,inner_ps,outer_ps,count_only_ps,loop_hand_over_ps,clock_ps\n"
                + "1,500,60000,1000,30000,90000,3000,20000,30000\n"
                + "2,1000,90000,1000,45000,135000,3000,20000,30000\n", csv);
    }

    @Test
    void jsonHasTheMeasurementsAndASummaryPerFigure() throws Exception {
        String json = CalibrateCommand.json(List.of(m(500, 60_000), m(1_000, 90_000), m(1_500, 61_000)));
        com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        assertEquals(3, root.get("measurements").size());
        assertEquals(90_000, root.get("measurements").get(1).get("event_ps").asLong());
        assertEquals(61_000, root.get("summary").get("event").get("median_ps").asLong());
        assertEquals(60_000, root.get("summary").get("event").get("min_ps").asLong());
        assertEquals(49.2, root.get("summary").get("event").get("moved_percent").asDouble(), 1e-9);
        assertEquals(0.0, root.get("summary").get("clock").get("moved_percent").asDouble(), 1e-9);
        assertTrue(root.get("verdict").asText().startsWith("moving:"));
    }

    @Test
    void badSettingsAreUsageErrorsBeforeAnyMeasurement() {
        for (String[] args : new String[][] {{"--count", "0"}, {"--count", "1001"}, {"--interval-ms", "-1"}, {"--format", "xml"}}) {
            StringWriter out = new StringWriter(), err = new StringWriter();
            CommandLine cl = HyprofCommand.newCommandLine();
            cl.setOut(new PrintWriter(out));
            cl.setErr(new PrintWriter(err));
            String[] all = new String[args.length + 1];
            all[0] = "calibrate";
            System.arraycopy(args, 0, all, 1, args.length);
            assertEquals(2, cl.execute(all), String.join(" ", args) + ": " + err);
            assertEquals("", out.toString(), "nothing measured or printed");
            assertEquals(1, err.toString().strip().lines().count(), err.toString());
            assertTrue(err.toString().startsWith("hyprof: " + args[0] + ": "), err.toString());
        }
    }

    @Test
    void helpSaysWhatTheFiguresMean() {
        String help = new CommandLine(new CalibrateCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
        assertTrue(help.contains("the report's probe% column"), help);
        assertTrue(help.contains("--count=N"), help);
        assertTrue(help.contains("taskset -c N"), help);
    }
}
