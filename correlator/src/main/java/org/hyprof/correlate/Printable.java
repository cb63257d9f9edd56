package org.hyprof.correlate;

/**
 * Text from outside (a process or thread name from an agent's HELLO or a session file) made safe
 * to print: control characters are shown as escapes ({@code \n}, {@code \r}, {@code \t},
 * {@code \x1b}, ...) so a name cannot start a new log or CSV line, move the cursor or recolour a
 * terminal. Applied where such text is printed (serve's log, {@code ctl} output, reports, the
 * TUI); stored values stay as received.
 */
public final class Printable {
    private Printable() {}

    /** {@code s} with C0 and C1 control characters and DEL escaped; null prints as "null". */
    public static String of(String s) {
        if (s == null) return "null";
        int i = 0;
        while (i < s.length() && !control(s.charAt(i))) i++;
        if (i == s.length()) return s;
        StringBuilder b = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!control(c)) b.append(c);
            else if (c == '\n') b.append("\\n");
            else if (c == '\r') b.append("\\r");
            else if (c == '\t') b.append("\\t");
            else if (c <= 0xff) b.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            else b.append("\\u").append(String.format(java.util.Locale.ROOT, "%04x", (int) c));
        }
        return b.toString();
    }

    private static boolean control(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }
}
