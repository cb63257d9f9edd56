package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code hyprof calibrate} as a user runs it (the CLI jar, a JVM of its own): it measures the
 * runtime's real probe path, so every cost is positive and the measurements are as many as asked;
 * the table ends with its summary rows and the verdict. Nothing is asserted on the values' size:
 * they are this machine's.
 */
class CalibrateIT {
    @Test
    void csvHasOneRowOfPositiveCostsPerMeasurement() {
        Cli c = Cli.run("calibrate", "--count", "3", "--format", "csv");
        assertEquals(0, c.exit, c.err);
        List<String> lines = c.out.strip().lines().toList();
        assertEquals(4, lines.size(), c.out);
        assertEquals("measurement,at_ms,event_ps,event_spread_ps,inner_ps,outer_ps,count_only_ps,loop_hand_over_ps,clock_ps", lines.get(0));
        Map<String, Map<String, String>> rows = Cli.csv(c.out);
        assertEquals(3, rows.size(), c.out);
        long at = -1;
        for (String n : new String[] {"1", "2", "3"}) {
            Map<String, String> r = rows.get(n);
            assertNotNull(r, "measurement " + n + ": " + c.out);
            for (String col : new String[] {"event_ps", "inner_ps", "outer_ps", "count_only_ps", "loop_hand_over_ps", "clock_ps"})
                assertTrue(Long.parseLong(r.get(col)) > 0, col + " measured: " + r);
            assertTrue(Long.parseLong(r.get("inner_ps")) <= 2 * Long.parseLong(r.get("event_ps")), "inner within a pair: " + r);
            long now = Long.parseLong(r.get("at_ms"));
            assertTrue(now > at, "measurements in order: " + c.out);
            at = now;
        }
        assertTrue(c.err.contains("hyprof: measurement 3 of 3"), "progress on stderr: " + c.err);
    }

    @Test
    void tableEndsWithTheSummaryAndTheVerdict() {
        Cli c = Cli.run("calibrate", "--count", "2", "--quick", "--interval-ms", "10");
        assertEquals(0, c.exit, c.err);
        List<String> lines = c.out.strip().lines().toList();
        assertTrue(lines.get(0).startsWith("2 measurements of hyprof's probe costs (quick, as repeated during a run)"), c.out);
        assertTrue(lines.get(1).startsWith("#") && lines.get(1).contains("probe event"), c.out);
        assertTrue(lines.get(2).startsWith("1 ") && lines.get(3).startsWith("2 "), c.out);
        assertTrue(lines.get(4).startsWith("median") && lines.get(5).startsWith("min") && lines.get(6).startsWith("max"), c.out);
        assertTrue(lines.get(7).matches("(steady|moving): the probe event's cost moved .* of 2 within 5 % of the median\\).*"), c.out);
        assertEquals(8, lines.size(), c.out);
    }

    @Test
    void jsonSummarisesEveryFigure() throws Exception {
        Cli c = Cli.run("calibrate", "--count", "2", "--format", "json");
        assertEquals(0, c.exit, c.err);
        JsonNode root = new ObjectMapper().readTree(c.out);
        assertEquals(2, root.get("measurements").size());
        JsonNode ev = root.get("summary").get("event");
        assertTrue(ev.get("min_ps").asLong() > 0 && ev.get("min_ps").asLong() <= ev.get("median_ps").asLong()
                && ev.get("median_ps").asLong() <= ev.get("max_ps").asLong(), ev.toString());
        assertTrue(root.get("verdict").asText().matches("(steady|moving): .*"), root.toString());
    }
}
