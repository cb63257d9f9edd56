package org.hyprof.config;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.hyprof.control.ControlState;

/**
 * RMP's zoom as pure functions: a {@link Scope} (resolution × area) turns into on-flags and
 * caller-filter roots, and zooming in or out is a new scope. Nothing here touches code: each step
 * only changes flags, roots and rules.
 *
 * <ul>
 * <li>{@code start}: process level — component probes (process resolution) on;</li>
 * <li>into the process: thread level — process and thread-entry probes on;</li>
 * <li>into a thread entry probe T: method level — every method probe on, root = T;</li>
 * <li>into a method M: loop level — method probes stay on, only M's loop probes on, root = M;</li>
 * <li>zoom out undoes one step.</li>
 * </ul>
 */
public final class Zoom {
    private Zoom() {}

    /** Where the user is: the targets zoomed into, outermost first. */
    public record Scope(List<Integer> targets, boolean inProcess) {
        public Scope {
            targets = List.copyOf(targets);
        }

        /** The resolution this scope shows. */
        public Resolution level() {
            if (!inProcess) return Resolution.PROCESS;
            return switch (targets.size()) {
                case 0 -> Resolution.THREAD;
                case 1 -> Resolution.METHOD;
                default -> Resolution.LOOP;
            };
        }

        /** The probe id that is the caller-filter root, or -1. */
        public int root() {
            return targets.isEmpty() ? -1 : targets.get(targets.size() - 1);
        }
    }

    /** Process level. */
    public static Scope start() {
        return new Scope(List.of(), false);
    }

    /**
     * One step in. At process level the target is ignored (the process is the area); at thread
     * level it must be a method probe (normally a thread entry such as {@code run()}), at method
     * level a method probe too. Throws ConfigException naming the problem.
     */
    public static Scope zoomIn(Scope s, Manifest m, int target) {
        switch (s.level()) {
            case PROCESS:
                return new Scope(List.of(), true);
            case THREAD:
            case METHOD: {
                ProbeInfo p = find(m, target);
                if (p.loop()) throw new ConfigException("probe " + target + " is a loop: zoom into a method");
                List<Integer> t = new ArrayList<>(s.targets());
                t.add(target);
                return new Scope(t, true);
            }
            default:
                throw new ConfigException("already at loop level (the finest)");
        }
    }

    /** One step out; at process level nothing changes. */
    public static Scope zoomOut(Scope s) {
        if (!s.inProcess()) return s;
        if (s.targets().isEmpty()) return start();
        return new Scope(s.targets().subList(0, s.targets().size() - 1), true);
    }

    /** The flags and roots of a scope; rules, mode and budget are kept from {@code base}. */
    public static ControlState apply(Scope s, Manifest m, ControlState base) {
        int n = Math.max(m.idLimit(), base.idCount());
        BitSet on = new BitSet(n);
        Resolution level = s.level();
        int root = s.root();
        for (ProbeInfo p : m.probes()) {
            boolean v = switch (level) {
                case PROCESS -> p.resolution() == Resolution.PROCESS;
                case THREAD -> p.resolution() == Resolution.PROCESS || p.resolution() == Resolution.THREAD;
                case METHOD -> !p.loop();
                case LOOP -> !p.loop() || p.ownerId() == root;
            };
            if (v) on.set(p.id());
        }
        int[] roots = root >= 0 ? new int[] {root} : new int[0];
        return new ControlState(n, on, roots, base.minDurationNanos(), base.minCalls(), base.maxDepth(),
                base.events(), base.budgetBytes());
    }

    /**
     * Probes that became known after a zoom step (classes loaded later, their manifest lines
     * arriving later) get the flags the scope gives them; the probes known before keep theirs
     * (the user may have switched some since). {@code knownIds}: how many ids the scope was
     * applied to.
     */
    public static ControlState extend(Scope s, Manifest m, ControlState cur, int knownIds) {
        ControlState scoped = apply(s, m, cur);
        BitSet on = scoped.on();
        BitSet before = cur.on();
        for (int id = 0; id < knownIds; id++) on.set(id, before.get(id));
        return new ControlState(scoped.idCount(), on, cur.roots(), cur.minDurationNanos(), cur.minCalls(), cur.maxDepth(),
                cur.events(), cur.budgetBytes());
    }

    /** Flags with every probe whose report name matches {@code pattern} switched on or off. */
    public static ControlState setFlags(ControlState s, Manifest m, String pattern, boolean value) {
        Glob g = new Glob(pattern);
        BitSet on = s.on();
        int n = Math.max(s.idCount(), m.idLimit());
        int matched = 0;
        for (ProbeInfo p : m.probes()) {
            if (matchesAny(g, MethodNames.matchable(p))) {
                on.set(p.id(), value);
                matched++;
            }
        }
        if (matched == 0) throw new ConfigException("no probe matches '" + pattern + "'");
        return normalize(s, s.withOn(on, n), m);
    }

    /**
     * One probe switched on or off, as the terminal UI's Space key does: switching a method off
     * also switches its loops off, switching a loop on also switches its method on (see
     * {@link #normalize(ControlState, ControlState, Manifest)}).
     */
    public static ControlState setProbe(ControlState s, Manifest m, int id, boolean value) {
        find(m, id);
        BitSet on = s.on();
        on.set(id, value);
        return normalize(s, s.withOn(on, Math.max(s.idCount(), m.idLimit())), m);
    }

    /** Caller-filter roots: the method probes matching {@code pattern} (empty pattern: none). */
    public static ControlState setRoots(ControlState s, Manifest m, String pattern) {
        if (pattern == null || pattern.isBlank()) return s.withRoots(new int[0]);
        Glob g = new Glob(pattern);
        List<Integer> ids = new ArrayList<>();
        for (ProbeInfo p : m.probes())
            if (!p.loop() && matchesAny(g, MethodNames.matchable(p))) ids.add(p.id());
        if (ids.isEmpty()) throw new ConfigException("no method matches '" + pattern + "'");
        BitSet on = s.on();
        for (int id : ids) on.set(id); // a root must record to count as entered
        return s.withOn(on, Math.max(s.idCount(), m.idLimit())).withRoots(ids.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * Rules from {@code min-duration=DUR}, {@code min-calls=N}, {@code max-depth=N} or
     * {@code none} (all off); other rules are kept.
     */
    public static ControlState setRule(ControlState s, String rule) {
        String r = rule.trim();
        if (r.equals("none")) return s.withRules(0, 0, 0);
        int eq = r.indexOf('=');
        if (eq <= 0) throw new ConfigException("rule must be min-duration=DUR, min-calls=N, max-depth=N or none, not '" + rule + "'");
        String k = r.substring(0, eq), v = r.substring(eq + 1);
        try {
            return switch (k) {
                case "min-duration" -> s.withRules(org.hyprof.runtime.Options.parseDurationNanos(v), s.minCalls(), s.maxDepth());
                case "min-calls" -> s.withRules(s.minDurationNanos(), nonNegative(k, v), s.maxDepth());
                case "max-depth" -> s.withRules(s.minDurationNanos(), s.minCalls(), nonNegative(k, v));
                default -> throw new ConfigException("unknown rule '" + k + "' (min-duration, min-calls, max-depth)");
            };
        } catch (IllegalArgumentException e) {
            throw new ConfigException(k + ": " + e.getMessage());
        }
    }

    /**
     * {@link #normalize(ControlState, ControlState, Manifest)} without a previous state: every loop
     * that is on gets its method switched on.
     */
    public static ControlState normalize(ControlState s, Manifest m) {
        return normalize(null, s, m);
    }

    /**
     * A loop probe records only inside its method's frame, so a loop that is on needs its method
     * on. Where {@code next} has a loop on and its method off, this decides from what changed since
     * {@code before} (nullable: nothing known): if the method was switched off while the loop was
     * already on, the user switched the method off, and its loop goes off with it; otherwise (the
     * loop was switched on, or nothing is known) the method goes back on. Without the first rule a
     * method with a loop on could never be switched off.
     */
    public static ControlState normalize(ControlState before, ControlState next, Manifest m) {
        BitSet on = next.on();
        boolean changed = false;
        for (ProbeInfo p : m.probes()) {
            int owner = p.ownerId();
            if (!p.loop() || owner < 0 || !on.get(p.id()) || on.get(owner)) continue;
            boolean methodSwitchedOff = before != null && before.isOn(owner) && before.isOn(p.id());
            on.set(methodSwitchedOff ? p.id() : owner, !methodSwitchedOff);
            changed = true;
        }
        return changed ? next.withOn(on, next.idCount()) : next;
    }

    private static int nonNegative(String k, String v) {
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new ConfigException(k + " must be an integer ≥ 0, not '" + v + "'");
        }
    }

    private static ProbeInfo find(Manifest m, int id) {
        for (ProbeInfo p : m.probes()) if (p.id() == id) return p;
        throw new ConfigException("no probe with id " + id);
    }

    /** Whether {@code g} matches one of a probe's spellings (Java signature or JVM descriptor, see {@link MethodNames#matchable}). */
    private static boolean matchesAny(Glob g, String[] names) {
        for (String n : names) if (g.matches(n)) return true;
        return false;
    }
}
