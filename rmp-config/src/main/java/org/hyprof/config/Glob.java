package org.hyprof.config;

import java.util.regex.Pattern;

/**
 * A name pattern: {@code *} matches any run of characters (dots included), {@code ?} one
 * character; everything else is literal. {@code com.x.*} matches {@code com.x.A} and
 * {@code com.x.y.B}; {@code *.Main.main*} matches every {@code main} of a class named Main.
 */
public final class Glob {
    private final String text;
    private final Pattern regex;

    public Glob(String text) {
        if (text == null || text.isBlank()) throw new ConfigException("empty pattern");
        this.text = text.trim();
        StringBuilder b = new StringBuilder();
        for (char c : this.text.toCharArray()) {
            if (c == '*') b.append(".*");
            else if (c == '?') b.append('.');
            else b.append(Pattern.quote(String.valueOf(c)));
        }
        this.regex = Pattern.compile(b.toString());
    }

    public boolean matches(String name) {
        return regex.matcher(name).matches();
    }

    @Override
    public String toString() {
        return text;
    }
}
