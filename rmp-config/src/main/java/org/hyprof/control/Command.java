package org.hyprof.control;

import java.util.ArrayList;
import java.util.List;
import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadReader;
import org.hyprof.runtime.chunk.PayloadWriter;

/** hyprof ctl → collector: one command with its arguments. */
public record Command(List<String> args) implements Frame {
    @Override public int type() { return Wire.COMMAND; }

    @Override
    public byte[] payload() {
        PayloadWriter e = new PayloadWriter().varint(args.size());
        for (String a : args) e.string(a);
        return e.toByteArray();
    }

    static Command decode(PayloadReader d) {
        int n = d.count(1); // each argument takes at least its length byte
        if (n > 1000) throw new FrameException("command with " + n + " arguments");
        List<String> args = new ArrayList<>();
        for (int i = 0; i < n; i++) args.add(d.string());
        return new Command(List.copyOf(args));
    }
}
