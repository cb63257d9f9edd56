package org.hyprof.bb.emu;

import java.util.Locale;
import org.hyprof.bb.NativeException;

/**
 * What one native call may use before it is stopped: {@code instructions} executed in the
 * library (0 = no limit) and {@code wallMillis} of wall time (0 = no limit), a call's nested calls
 * (native → Java → native) included. Instructions are counted as 4 bytes of executed code each,
 * from the block sizes the engine already sees (exact on ARM and AArch64; a 16-bit Thumb
 * instruction counts half), so the check adds no hook. Given as {@code --native-limit}: a count
 * with an optional k, m or g suffix (thousand, million, billion) and/or a time in {@code s} or
 * {@code ms}, separated by a comma (or {@code ;}), or {@code off}.
 */
public record Limits(long instructions, long wallMillis) {
    /** 10 billion instructions and 120 s per call: far beyond any real JNI call, short of a hang. */
    public static final Limits DEFAULT = new Limits(10_000_000_000L, 120_000);
    public static final Limits NONE = new Limits(0, 0);

    public Limits {
        if (instructions < 0 || wallMillis < 0) throw new NativeException("--native-limit: limits cannot be negative");
    }

    /** Parses {@code 10g,120s}, {@code 500m}, {@code 30s}, {@code 1500ms}, {@code off}; a part not given keeps its default. */
    public static Limits parse(String spec) {
        String s = spec == null ? "" : spec.trim().toLowerCase(Locale.ROOT);
        if (s.isEmpty()) return DEFAULT;
        if (s.equals("off") || s.equals("none")) return NONE;
        long instr = DEFAULT.instructions, wall = DEFAULT.wallMillis;
        boolean sawInstr = false, sawTime = false;
        for (String part : s.split("[,;]")) {
            String p = part.trim().replace("_", "");
            try {
                if (p.endsWith("ms") || p.endsWith("s")) {
                    if (sawTime) throw bad(spec, "two times");
                    sawTime = true;
                    boolean ms = p.endsWith("ms");
                    double v = Double.parseDouble(p.substring(0, p.length() - (ms ? 2 : 1)));
                    if (v < 0 || Double.isNaN(v) || v > 1e12) throw bad(spec, "a time out of range");
                    wall = Math.round(ms ? v : v * 1000);
                    if (v > 0 && wall == 0) wall = 1;
                } else {
                    if (sawInstr) throw bad(spec, "two instruction counts");
                    sawInstr = true;
                    long mult = 1;
                    char last = p.isEmpty() ? ' ' : p.charAt(p.length() - 1);
                    if (last == 'k') mult = 1_000;
                    else if (last == 'm') mult = 1_000_000;
                    else if (last == 'g') mult = 1_000_000_000;
                    String digits = mult == 1 ? p : p.substring(0, p.length() - 1);
                    instr = Math.multiplyExact(Long.parseLong(digits), mult);
                    if (instr < 0 || instr > Long.MAX_VALUE / 4) throw bad(spec, "an instruction count out of range");
                }
            } catch (NumberFormatException | ArithmeticException e) {
                throw bad(spec, "'" + part.trim() + "' is neither an instruction count (e.g. 500m) nor a time (e.g. 30s)");
            }
        }
        return new Limits(instr, wall);
    }

    private static NativeException bad(String spec, String why) {
        return new NativeException("--native-limit '" + spec + "': " + why
                + " (examples: 10g,120s  500m  30s  off; instructions with k/m/g, time in s or ms; 0 = no limit)");
    }

    /** The budget in bytes of executed code (4 per instruction), Long.MAX_VALUE when unlimited. */
    long codeBytes() {
        return instructions == 0 ? Long.MAX_VALUE : instructions * 4;
    }

    /** The form agent settings carry (no comma: agent arguments are comma-separated). */
    public String setting() {
        return instructions + ";" + wallMillis + "ms";
    }

    /** For messages and help: {@code 10,000,000,000 instructions, 120 s}. */
    public String describe() {
        String i = instructions == 0 ? "no instruction limit" : String.format(Locale.ROOT, "%,d instructions", instructions);
        return i + ", " + (wallMillis == 0 ? "no time limit" : seconds(wallMillis));
    }

    static String seconds(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + " s" : String.format(Locale.ROOT, "%.3f s", millis / 1000.0).replaceAll("0+ s$", " s");
    }
}
