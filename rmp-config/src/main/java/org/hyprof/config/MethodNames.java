package org.hyprof.config;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * How methods and loops are named in every output (report tables, CSV/JSON, exports, the terminal
 * UI): the one place that turns a probe's class, method, descriptor and loop line into text.
 *
 * <p>By default a method reads as Java source would write its signature, without the return
 * type: {@code demo.JavaKernels.fftTransform(double[], int, int)} (classes fully qualified,
 * nested classes as the JVM names them, {@code Outer$Inner}). {@link Style#DESCRIPTOR} keeps the
 * JVM descriptor instead: {@code demo.JavaKernels.fftTransform([DII)V}. A loop is its method's
 * name, {@code #loop} and its first source line ({@code …fftTransform(double[], int, int)#loop@57})
 * when the class has a line table, else its index in the method ({@code #loop3}).
 *
 * <p>It lives here, beside {@link ProbeInfo}, because the zoom and filter code of this module
 * matches user patterns against the same names; the correlator, collector and UI call it.
 */
public final class MethodNames {
    /** Which spelling of method signatures to use. */
    public enum Style {
        /** {@code pkg.Cls.m(int, java.lang.String[])}: the default. */
        JAVA,
        /** {@code pkg.Cls.m(I[Ljava/lang/String;)V}: the JVM descriptor ({@code --descriptors}). */
        DESCRIPTOR
    }

    private MethodNames() {}

    /**
     * A method's name in {@code style}. A descriptor that does not parse is shown as it is
     * ({@code pkg.Cls.m} followed by the raw text), so nothing is hidden.
     */
    public static String method(String className, String methodName, String descriptor, Style style) {
        String head = className + "." + methodName;
        if (style == Style.DESCRIPTOR) return head + descriptor;
        String params = javaParameters(descriptor);
        return head + (params != null ? params : descriptor);
    }

    /**
     * The parameter list of a JVM method descriptor in Java's spelling, e.g. {@code ([DII)V} →
     * {@code (double[], int, int)}; {@code null} when the descriptor is malformed (the return
     * type is checked too, though not shown).
     */
    public static String javaParameters(String descriptor) {
        if (descriptor == null || descriptor.isEmpty() || descriptor.charAt(0) != '(') return null;
        StringBuilder b = new StringBuilder("(");
        int[] pos = {1};
        boolean first = true;
        while (pos[0] < descriptor.length() && descriptor.charAt(pos[0]) != ')') {
            String t = type(descriptor, pos, false);
            if (t == null) return null;
            if (!first) b.append(", ");
            b.append(t);
            first = false;
        }
        if (pos[0] >= descriptor.length()) return null; // no ')'
        pos[0]++;
        String ret = type(descriptor, pos, true);
        if (ret == null || pos[0] != descriptor.length()) return null;
        return b.append(')').toString();
    }

    /** One field type at {@code pos[0]} (advanced past it), in Java's spelling; null if malformed. */
    private static String type(String d, int[] pos, boolean isReturn) {
        int i = pos[0];
        int dims = 0;
        while (i < d.length() && d.charAt(i) == '[') {
            dims++;
            i++;
        }
        if (i >= d.length() || dims > 255) return null; // the JVM's limit on array dimensions
        String base;
        char c = d.charAt(i);
        switch (c) {
            case 'B' -> base = "byte";
            case 'C' -> base = "char";
            case 'D' -> base = "double";
            case 'F' -> base = "float";
            case 'I' -> base = "int";
            case 'J' -> base = "long";
            case 'S' -> base = "short";
            case 'Z' -> base = "boolean";
            case 'V' -> {
                if (!isReturn || dims > 0) return null;
                base = "void";
            }
            case 'L' -> {
                int end = d.indexOf(';', i);
                if (end < 0 || end == i + 1) return null;
                String internal = d.substring(i + 1, end);
                if (internal.contains("(") || internal.contains(")") || internal.contains("[") || internal.contains("."))
                    return null;
                base = internal.replace('/', '.');
                i = end;
            }
            default -> {
                return null;
            }
        }
        pos[0] = i + 1;
        return dims == 0 ? base : base + "[]".repeat(dims);
    }

    /**
     * A probe's name in {@code style}: its method, or for a loop {@code METHOD#loop@LINE} (line
     * known) or {@code METHOD#loopK}. Names each probe alone: use {@link #names} where two loops
     * of one method may start on the same line.
     */
    public static String probe(ProbeInfo p, Style style) {
        return probe(p, style, false);
    }

    private static String probe(ProbeInfo p, Style style, boolean lineShared) {
        String m = method(p.className(), p.methodName(), p.descriptor(), style);
        if (!p.loop()) return m;
        if (p.line() <= 0) return m + "#loop" + p.loopIndex();
        // two loops of one method on one line (`for (…) for (…)`): the index keeps them apart
        return lineShared ? m + "#loop" + p.loopIndex() + "@" + p.line() : m + "#loop@" + p.line();
    }

    /**
     * Names of a manifest's probes (one process) by id, in {@code style}. Loops of one method
     * starting on the same source line are named {@code #loopK@LINE}, so no two probes share a
     * name (reports add up rows by name).
     */
    public static Map<Integer, String> names(Collection<ProbeInfo> probes, Style style) {
        Map<String, Integer> perLine = new HashMap<>(); // "ownerId:line" -> loops there
        for (ProbeInfo p : probes)
            if (p.loop() && p.line() > 0) perLine.merge(p.ownerId() + ":" + p.line(), 1, Integer::sum);
        Map<Integer, String> out = new HashMap<>();
        for (ProbeInfo p : probes) {
            boolean shared = p.loop() && p.line() > 0 && perLine.getOrDefault(p.ownerId() + ":" + p.line(), 0) > 1;
            out.put(p.id(), probe(p, style, shared));
        }
        return out;
    }

    /**
     * The spellings a user pattern may match for a probe: its names in both styles, its
     * loop-index name (loops), and {@code pkg.Cls.method}.
     */
    public static String[] matchable(ProbeInfo p) {
        String plain = p.className() + "." + p.methodName();
        String java = probe(p, Style.JAVA), desc = probe(p, Style.DESCRIPTOR);
        if (!p.loop()) return new String[] {java, desc, plain};
        return new String[] {java, desc, plain,
            method(p.className(), p.methodName(), p.descriptor(), Style.JAVA) + "#loop" + p.loopIndex(),
            method(p.className(), p.methodName(), p.descriptor(), Style.DESCRIPTOR) + "#loop" + p.loopIndex()};
    }

    /**
     * A name shortened to fit {@code width} columns as IDEs do, in steps until it fits: the
     * packages of the method's class to their first letters ({@code d.HybridDemo.round(boolean)}),
     * then the packages of its parameter types, then the parameters dropped ({@code (…)}), then
     * the start cut ({@code …}). A name without a parameter list ({@code libx.so!f}) is only cut.
     */
    public static String abbreviate(String name, int width) {
        if (width <= 0) return "";
        if (name.length() <= width) return name;
        int open = name.indexOf('(');
        int close = open < 0 ? -1 : name.indexOf(')', open);
        if (open > 0 && close > open) {
            String head = name.substring(0, open), params = name.substring(open + 1, close), tail = name.substring(close + 1);
            String h = abbreviateOwner(head);
            String s = h + "(" + params + ")" + tail;
            if (s.length() <= width) return s;
            StringBuilder p = new StringBuilder();
            for (String part : params.split(", ", -1)) {
                if (p.length() > 0) p.append(", ");
                p.append(abbreviateQualified(part));
            }
            s = h + "(" + p + ")" + tail;
            if (s.length() <= width) return s;
            s = h + (params.isEmpty() ? "()" : "(…)") + tail;
            if (s.length() <= width) return s;
            name = s;
        }
        return width == 1 ? "…" : "…" + name.substring(name.length() - (width - 1));
    }

    /** {@code demo.sub.HybridDemo.round} → {@code d.s.HybridDemo.round}: packages only. */
    private static String abbreviateOwner(String head) {
        String[] parts = head.split("\\.", -1);
        if (parts.length <= 2) return head;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) b.append('.');
            b.append(i < parts.length - 2 && !parts[i].isEmpty() ? parts[i].substring(0, 1) : parts[i]);
        }
        return b.toString();
    }

    /** {@code java.lang.String[]} → {@code j.l.String[]}. */
    private static String abbreviateQualified(String type) {
        String[] parts = type.split("\\.", -1);
        if (parts.length <= 1) return type;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) b.append('.');
            b.append(i < parts.length - 1 && !parts[i].isEmpty() ? parts[i].substring(0, 1) : parts[i]);
        }
        return b.toString();
    }
}
