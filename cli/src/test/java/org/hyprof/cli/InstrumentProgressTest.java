package org.hyprof.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The progress bar of 'hyprof instrument' on DEX input: only for big inputs, once per percent, cleared at the end. */
class InstrumentProgressTest {
    @Test
    void smallInputsShowNoBar() {
        StringWriter s = new StringWriter();
        InstrumentCommand.Progress p = new InstrumentCommand.Progress(new PrintWriter(s, true));
        for (int i = 0; i <= 1999; i++) p.methods(i, 1999);
        p.clear();
        assertEquals("", s.toString());
    }

    @Test
    void bigInputsShowABarRedrawnOncePerPercent() {
        StringWriter s = new StringWriter();
        InstrumentCommand.Progress p = new InstrumentCommand.Progress(new PrintWriter(s, true));
        for (int i = 0; i <= 20_000; i++) p.methods(i, 20_000);
        String out = s.toString();
        assertEquals(101, out.split("\r", -1).length - 1, "0 % to 100 %, one redraw each");
        assertTrue(out.contains("[###############---------------]  50% 10,000/20,000 methods"), out.substring(0, 200));
        assertTrue(out.endsWith("[##############################] 100% 20,000/20,000 methods"));
        p.clear();
        assertTrue(s.toString().endsWith("\r"), "the bar is wiped before the summary");
    }
}
