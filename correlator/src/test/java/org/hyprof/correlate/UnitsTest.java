package org.hyprof.correlate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The units formatter at its boundaries (run again under a German default locale: parent pom, goldens-under-de-DE). */
class UnitsTest {
    @Test
    void millisHaveMicrosecondResolution() {
        assertEquals("0.000", Units.millis(0));
        assertEquals("0.001", Units.millis(1_000));
        assertEquals("1.235", Units.millis(1_234_567));
        assertEquals("0.000", Units.millis(499));       // under half a µs: 0
        assertEquals("0.001", Units.millis(500));       // half up
        assertEquals("2.000", Units.millis(1_999_999)); // the carry runs through
        assertEquals("1000.000", Units.millis(1_000_000_000));
    }

    @Test
    void microsHaveOneDecimal() {
        assertEquals("0.0", Units.micros(0));
        assertEquals("0.2", Units.micros(200));
        assertEquals("0.1", Units.micros(50));          // half up, not to even
        assertEquals("0.3", Units.micros(250));
        assertEquals("1000.0", Units.micros(999_960));
    }

    @Test
    void probeCostsInNanosFromPicos() {
        assertEquals("0.0", Units.nanosOfPicos(0));
        assertEquals("0.0", Units.nanosOfPicos(49));
        assertEquals("0.1", Units.nanosOfPicos(50));
        assertEquals("24.1", Units.nanosOfPicos(24_050));
        assertEquals("33.0", Units.nanosOfPicos(33_000));
        assertEquals("-4.0", Units.nanosOfPicos(-4_000));
    }

    @Test
    void durationPicksTheUnitBeforeRounding() {
        assertEquals("0 ns", Units.duration(0));
        assertEquals("999 ns", Units.duration(999));
        assertEquals("1.0 us", Units.duration(1_000));
        assertEquals("1.5 us", Units.duration(1_500));
        assertEquals("1000.0 us", Units.duration(999_999)); // still µs: the unit is chosen before rounding
        assertEquals("1.0 ms", Units.duration(1_000_000));
        assertEquals("1000.0 ms", Units.duration(999_999_999));
        assertEquals("1.0 s", Units.duration(1_000_000_000));
        assertEquals("4.3 s", Units.duration(1L << 32));
    }

    @Test
    void energyInMicrojoules() {
        assertEquals("0.0", Units.microjoules(0));
        assertEquals("12.3", Units.microjoules(12.34));
        assertEquals("12.4", Units.microjoules(12.35));
        assertEquals("0.000", Units.microjoulesFine(0));
        assertEquals("12.340", Units.microjoulesFine(12.34));
        assertEquals("0.001", Units.microjoulesFine(0.0005)); // 0.5 nJ rounds up to 1 nJ
        assertEquals("400.000", Units.microjoulesFine(400_000_000 / 1e6)); // pJ → µJ as the TUI passes them
    }

    @Test
    void countsGroupThousandsWithCommas() {
        assertEquals("0", Units.count(0));
        assertEquals("999", Units.count(999));
        assertEquals("1,000", Units.count(1_000));
        assertEquals("5,000", Units.count(5_000));
        assertEquals("1,234,567", Units.count(1_234_567));
    }

    @Test
    void negativeValuesKeepTheirSign() {
        assertEquals("-0.000", Units.millis(-1));
        assertEquals("-1.500", Units.millis(-1_500_000));
        assertEquals("-0.1", Units.micros(-100));
        assertEquals("-5 ns", Units.duration(-5));
        assertEquals("-2,000", Units.count(-2_000));
        assertEquals("-0.5", Units.microjoules(-0.5));
    }

    @Test
    void hugeValues() {
        assertEquals("9223372036854.775", Units.millis(Long.MAX_VALUE));
        assertEquals("-9223372036854.775", Units.millis(Long.MIN_VALUE));
        assertEquals("9223372036854776.0", Units.micros(Long.MAX_VALUE)); // a double's 17 digits
        assertEquals("9223372036.9 s", Units.duration(Long.MAX_VALUE));
        assertEquals("9,223,372,036,854,775,807", Units.count(Long.MAX_VALUE));
        assertEquals("-9,223,372,036,854,775,808", Units.count(Long.MIN_VALUE));
        assertEquals("100000000000000000000.0", Units.microjoules(1e20));
        assertEquals("NaN", Units.microjoules(Double.NaN));
    }
}
