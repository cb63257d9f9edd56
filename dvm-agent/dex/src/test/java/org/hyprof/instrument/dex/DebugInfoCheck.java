package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jf.dexlib2.AccessFlags;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.DexFile;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.iface.MethodImplementation;
import org.jf.dexlib2.iface.MethodParameter;
import org.jf.dexlib2.iface.debug.DebugItem;
import org.jf.dexlib2.iface.debug.EndLocal;
import org.jf.dexlib2.iface.debug.LineNumber;
import org.jf.dexlib2.iface.debug.RestartLocal;
import org.jf.dexlib2.iface.debug.StartLocal;
import org.jf.dexlib2.iface.instruction.FiveRegisterInstruction;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.iface.instruction.NarrowLiteralInstruction;
import org.jf.dexlib2.iface.instruction.OffsetInstruction;
import org.jf.dexlib2.iface.instruction.OneRegisterInstruction;
import org.jf.dexlib2.iface.instruction.ReferenceInstruction;
import org.jf.dexlib2.iface.instruction.RegisterRangeInstruction;
import org.jf.dexlib2.iface.instruction.ThreeRegisterInstruction;
import org.jf.dexlib2.iface.instruction.TwoRegisterInstruction;
import org.jf.dexlib2.iface.instruction.WideLiteralInstruction;
import org.jf.dexlib2.util.ReferenceUtil;

/**
 * A strict check of DEX debug info (the {@code debug_info_item} of every method), stricter than
 * {@code dexdump}, which prints whatever it finds and exits 0.
 *
 * <p>On one DEX file ({@link #check}): entries in address order and inside the code; local
 * registers inside the frame; every {@code END_LOCAL} and {@code RESTART_LOCAL} names a register
 * in which a local was started before (explicitly, or as {@code this}/a named parameter in its
 * arrival register) — dex2jar's reader throws "Encountered RESTART_LOCAL on new vN" otherwise and
 * drops the rest of the class — and every {@code END_LOCAL} ends a live local.
 *
 * <p>Against the original ({@link #compare}): the original instructions are found again in the
 * instrumented code (everything else is inserted code: it touches only registers above the
 * original frame, calls the probe runtime, or is a {@code goto}/{@code nop}), and for every one of
 * them the source line and the set of live locals (register, name, type, signature) are what
 * they were; inserted code before the end of the original code carries the line of the original
 * instruction it precedes, a trampoline ({@code probes; goto T}) the line of T; and where the
 * original lines rose monotonically over the code, they still do.
 */
public final class DebugInfoCheck {
    private DebugInfoCheck() {}

    /** One problem: method ({@code Lcls;->name(desc)}), kind and detail. */
    public record Violation(String method, String kind, String detail) {
        @Override
        public String toString() {
            return method + ": " + kind + " (" + detail + ")";
        }
    }

    /** Checked methods and what was wrong with them. */
    public record Report(int methods, List<Violation> violations) {
        /** Methods with at least one violation. */
        public long badMethods() {
            return violations.stream().map(Violation::method).distinct().count();
        }
    }

    static String key(Method m) {
        return m.getDefiningClass() + "->" + m.getName() + ClassRewriter.descriptor(m);
    }

    /** The structural checks on every method with code in {@code dex}. */
    public static Report check(DexFile dex) {
        List<Violation> out = new ArrayList<>();
        int n = 0;
        for (ClassDef cd : dex.getClasses()) {
            for (Method m : cd.getMethods()) {
                if (m.getImplementation() == null) continue;
                n++;
                new Trace(m).structural(out);
            }
        }
        return new Report(n, out);
    }

    /**
     * The structural checks on {@code instrumented}, and its lines and locals against
     * {@code original} for every method present in both. Classes only in {@code instrumented}
     * (the injected runtime) get the structural checks.
     */
    public static Report compare(DexFile original, DexFile instrumented) {
        Map<String, Method> before = new HashMap<>();
        for (ClassDef cd : original.getClasses())
            for (Method m : cd.getMethods()) if (m.getImplementation() != null) before.put(key(m), m);
        List<Violation> out = new ArrayList<>();
        int n = 0;
        for (ClassDef cd : instrumented.getClasses()) {
            for (Method m : cd.getMethods()) {
                if (m.getImplementation() == null) continue;
                n++;
                Trace after = new Trace(m);
                after.structural(out);
                Method o = before.get(key(m));
                if (o != null) compare(new Trace(o), after, out);
            }
        }
        return new Report(n, out);
    }

    // ------------------------------------------------------------------ one method's debug state

    /** A local as a debugger sees it. */
    record Local(String name, String type, String signature) {
        @Override
        public String toString() {
            return name + ":" + type + (signature == null ? "" : "<" + signature + ">");
        }
    }

    /** One method's instructions and the debug state (line, live locals) at each of them. */
    static final class Trace {
        final String name;
        final Method method;
        final MethodImplementation impl;
        final List<Instruction> insns = new ArrayList<>();
        final int[] addr;
        final int codeUnits;
        final int registers;
        final List<DebugItem> items = new ArrayList<>();
        /** Line at each instruction, -1 for none. */
        int[] line;
        /** Live locals at each instruction. */
        List<Map<Integer, Local>> live;

        Trace(Method m) {
            method = m;
            name = key(m);
            impl = m.getImplementation();
            for (Instruction i : impl.getInstructions()) insns.add(i);
            addr = new int[insns.size() + 1];
            for (int i = 0; i < insns.size(); i++) addr[i + 1] = addr[i] + insns.get(i).getCodeUnits();
            codeUnits = addr[insns.size()];
            registers = impl.getRegisterCount();
            for (DebugItem d : impl.getDebugItems()) items.add(d);
        }

        /** {@code this} and the named parameters, in their arrival registers. */
        Map<Integer, Local> implicit() {
            Map<Integer, Local> m = new TreeMap<>();
            boolean isStatic = AccessFlags.STATIC.isSet(method.getAccessFlags());
            int ins = isStatic ? 0 : 1;
            for (CharSequence t : method.getParameterTypes()) ins += wide(t) ? 2 : 1;
            int r = registers - ins;
            if (!isStatic) m.put(r++, new Local("this", method.getDefiningClass(), null));
            for (MethodParameter p : method.getParameters()) {
                if (p.getName() != null) m.put(r, new Local(p.getName(), p.getType(), null));
                r += wide(p.getType()) ? 2 : 1;
            }
            return m;
        }

        /** Replays the items (ART's decoder semantics) and records problems when {@code out} is not null. */
        void structural(List<Violation> out) {
            int n = insns.size();
            line = new int[n];
            live = new ArrayList<>(n);
            boolean hasDebug = !items.isEmpty() || method.getParameters().stream().anyMatch(p -> p.getName() != null);
            Map<Integer, Local> alive = hasDebug ? implicit() : new TreeMap<>();
            Map<Integer, Local> last = new HashMap<>(alive);
            int cur = -1, k = 0, prevAddr = 0;
            for (int i = 0; i <= n; i++) {
                int at = i < n ? addr[i] : Integer.MAX_VALUE;
                for (; k < items.size() && items.get(k).getCodeAddress() <= at; k++) {
                    DebugItem d = items.get(k);
                    int a = d.getCodeAddress();
                    if (a < prevAddr) bad(out, "debug entries out of address order", d + " after address " + prevAddr);
                    if (a > codeUnits) bad(out, "debug entry past the end of the code", d + " (code units " + codeUnits + ")");
                    prevAddr = Math.max(prevAddr, a);
                    if (d instanceof LineNumber ln) cur = ln.getLineNumber();
                    else if (d instanceof StartLocal s) {
                        int top = s.getRegister() + (s.getType() != null && wide(s.getType()) ? 1 : 0);
                        if (top >= registers) bad(out, "local outside the frame", "v" + s.getRegister() + " " + s.getName() + " of " + registers + " registers");
                        Local l = new Local(s.getName(), s.getType(), s.getSignature());
                        alive.put(s.getRegister(), l);
                        last.put(s.getRegister(), l);
                    } else if (d instanceof EndLocal e) {
                        int r = e.getRegister();
                        if (!last.containsKey(r)) bad(out, "END_LOCAL in a register no local was started in", "v" + r + " @" + a);
                        else if (!alive.containsKey(r)) bad(out, "END_LOCAL of a local that is not live", "v" + r + " @" + a);
                        alive.remove(r);
                    } else if (d instanceof RestartLocal rl) {
                        int r = rl.getRegister();
                        Local l = last.get(r);
                        if (l == null) bad(out, "RESTART_LOCAL in a register no local was started in", "v" + r + " @" + a);
                        else alive.put(r, l);
                    }
                }
                if (i < n) {
                    line[i] = cur;
                    live.add(new TreeMap<>(alive));
                }
            }
            for (int r : last.keySet()) if (r >= registers) bad(out, "local outside the frame", "v" + r + " of " + registers + " registers");
        }

        private void bad(List<Violation> out, String kind, String detail) {
            if (out != null) out.add(new Violation(name, kind, detail));
        }
    }

    static boolean wide(CharSequence t) {
        return t.length() > 0 && (t.charAt(0) == 'J' || t.charAt(0) == 'D');
    }

    // ------------------------------------------------------------------ original against instrumented

    static void compare(Trace o, Trace x, List<Violation> out) {
        o.structural(null);
        // the original instructions, found again in order; payloads carry no debug state
        int[] at = new int[o.insns.size()];
        java.util.Arrays.fill(at, -1);
        boolean[] original = new boolean[x.insns.size()];
        int j = 0;
        for (int i = 0; i < o.insns.size(); i++) {
            Instruction oi = o.insns.get(i);
            if (skipped(oi)) continue;
            String want = fingerprint(oi);
            while (j < x.insns.size() && (skipped(x.insns.get(j)) || !fingerprint(x.insns.get(j)).equals(want))) {
                Instruction xi = x.insns.get(j);
                if (!skipped(xi) && !inserted(xi, o.registers)) {
                    out.add(new Violation(x.name, "original instruction changed or lost",
                            "expected " + want + " @" + o.addr[i] + ", found " + fingerprint(xi) + " @" + x.addr[j]));
                    return;
                }
                j++;
            }
            if (j == x.insns.size()) {
                out.add(new Violation(x.name, "original instruction lost", want + " @" + o.addr[i]));
                return;
            }
            at[i] = j;
            original[j] = true;
            j++;
        }
        boolean rising = true;
        int prev = Integer.MIN_VALUE, prevX = Integer.MIN_VALUE;
        for (int i = 0; i < o.insns.size(); i++) {
            if (at[i] < 0) continue;
            int k = at[i];
            if (o.line[i] != x.line[k])
                out.add(new Violation(x.name, "line changed", o.insns.get(i).getOpcode().name + " @" + o.addr[i]
                        + ": line " + o.line[i] + " -> " + x.line[k]));
            if (!o.live.get(i).equals(x.live.get(k)))
                out.add(new Violation(x.name, "locals changed", o.insns.get(i).getOpcode().name + " @" + o.addr[i]
                        + ": " + o.live.get(i) + " -> " + x.live.get(k)));
            if (o.line[i] >= 0) {
                if (o.line[i] < prev) rising = false;
                prev = Math.max(prev, o.line[i]);
                if (rising && x.line[k] < prevX)
                    out.add(new Violation(x.name, "line table no longer monotonic", "line " + x.line[k] + " @" + x.addr[k]));
                prevX = Math.max(prevX, x.line[k]);
            }
        }
        // inserted code: the line of the original instruction it precedes (or of a trampoline's target)
        int lastOriginal = -1;
        for (int k = 0; k < x.insns.size(); k++) if (original[k]) lastOriginal = k;
        int next = -1;
        for (int k = x.insns.size() - 1; k >= 0; k--) {
            if (original[k]) { next = k; continue; }
            if (skipped(x.insns.get(k)) || x.insns.get(k).getOpcode() == Opcode.NOP) continue;
            int want;
            if (k < lastOriginal) want = x.line[next];
            else {
                int t = trampolineTarget(x, k, original);
                if (t < 0) continue; // the exceptional-exit handler precedes no original instruction
                want = x.line[t];
            }
            if (x.line[k] != want && want >= 0)
                out.add(new Violation(x.name, "probe line differs from the instruction it precedes",
                        x.insns.get(k).getOpcode().name + " @" + x.addr[k] + ": line " + x.line[k] + ", expected " + want));
        }
    }

    /** For inserted code after the original code: the original instruction its chunk's goto jumps to, or -1. */
    static int trampolineTarget(Trace x, int k, boolean[] original) {
        for (int g = k; g < x.insns.size(); g++) {
            Instruction i = x.insns.get(g);
            if (!MethodCode.isGoto(i.getOpcode())) continue;
            int target = x.addr[g] + ((OffsetInstruction) i).getCodeOffset();
            int idx = java.util.Arrays.binarySearch(x.addr, target);
            return idx >= 0 && idx < original.length && original[idx] ? idx : -1;
        }
        return -1;
    }

    /** Payloads: data, not code, with no debug state. */
    static boolean skipped(Instruction i) {
        Opcode op = i.getOpcode();
        return op == Opcode.PACKED_SWITCH_PAYLOAD || op == Opcode.SPARSE_SWITCH_PAYLOAD || op == Opcode.ARRAY_PAYLOAD;
    }

    /**
     * Code the instrumenter may add: probe calls, registers above the original frame, jumps, and
     * the {@code nop} that aligns a payload. (An original {@code nop} is matched as an original
     * instruction: D8's debug mode puts one where a line has no other code.)
     */
    static boolean inserted(Instruction i, int originalRegisters) {
        if (MethodCode.isGoto(i.getOpcode()) || i.getOpcode() == Opcode.NOP) return true;
        if (i instanceof ReferenceInstruction r && ReferenceUtil.getReferenceString(r.getReference()).startsWith(ProbeCode.PROBE_TYPE))
            return true;
        List<Integer> regs = registers(i);
        return !regs.isEmpty() && regs.stream().allMatch(r -> r >= originalRegisters)
                || i instanceof TwoRegisterInstruction t && t.getRegisterA() < originalRegisters && t.getRegisterB() >= originalRegisters
                        && i.getOpcode().name.startsWith("move");
    }

    static List<Integer> registers(Instruction i) {
        List<Integer> r = new ArrayList<>(5);
        if (i instanceof RegisterRangeInstruction rr) {
            for (int k = 0; k < rr.getRegisterCount(); k++) r.add(rr.getStartRegister() + k);
        } else if (i instanceof FiveRegisterInstruction f) {
            int[] all = {f.getRegisterC(), f.getRegisterD(), f.getRegisterE(), f.getRegisterF(), f.getRegisterG()};
            for (int k = 0; k < f.getRegisterCount(); k++) r.add(all[k]);
        } else {
            if (i instanceof OneRegisterInstruction a) r.add(a.getRegisterA());
            if (i instanceof TwoRegisterInstruction b) r.add(b.getRegisterB());
            if (i instanceof ThreeRegisterInstruction c) r.add(c.getRegisterC());
        }
        return r;
    }

    /** What identifies an instruction apart from its code offsets (branches move; goto may widen). */
    static String fingerprint(Instruction i) {
        Opcode op = i.getOpcode();
        StringBuilder b = new StringBuilder(MethodCode.isGoto(op) ? "goto" : op.name);
        b.append(' ').append(registers(i));
        if (i instanceof ReferenceInstruction r) b.append(' ').append(ReferenceUtil.getReferenceString(r.getReference()));
        if (i instanceof WideLiteralInstruction w) b.append(" #").append(w.getWideLiteral());
        else if (i instanceof NarrowLiteralInstruction w) b.append(" #").append(w.getNarrowLiteral());
        return Objects.requireNonNull(b.toString());
    }
}
