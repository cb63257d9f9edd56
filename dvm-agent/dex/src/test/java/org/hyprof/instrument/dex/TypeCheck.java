package org.hyprof.instrument.dex;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jf.dexlib2.AccessFlags;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.analysis.AnalyzedInstruction;
import org.jf.dexlib2.analysis.ClassPath;
import org.jf.dexlib2.analysis.ClassProvider;
import org.jf.dexlib2.analysis.DexClassProvider;
import org.jf.dexlib2.analysis.MethodAnalyzer;
import org.jf.dexlib2.analysis.RegisterType;
import org.jf.dexlib2.analysis.reflection.ReflectionClassDef;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.DexFile;
import org.jf.dexlib2.iface.ExceptionHandler;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.iface.MethodImplementation;
import org.jf.dexlib2.iface.TryBlock;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.iface.instruction.OffsetInstruction;
import org.jf.dexlib2.iface.instruction.OneRegisterInstruction;
import org.jf.dexlib2.iface.instruction.ReferenceInstruction;
import org.jf.dexlib2.iface.instruction.RegisterRangeInstruction;
import org.jf.dexlib2.iface.instruction.SwitchElement;
import org.jf.dexlib2.iface.instruction.SwitchPayload;
import org.jf.dexlib2.iface.instruction.formats.Instruction35c;
import org.jf.dexlib2.iface.reference.MethodReference;

/**
 * A type check of DEX code built on dexlib2's {@link MethodAnalyzer}, which infers the type of
 * every register before every instruction (it does not check them itself). On top of it:
 * argument and receiver register types of every invoke against the callee's signature (an
 * uninitialized reference only as the receiver of {@code <init>}), return register types against
 * the method's, {@code throw} and monitor registers, moves of the right width and kind, and
 * monitor coverage — an instruction that can throw while a monitor is
 * held must be inside a catch-all, as ART's verifier requires. The JDK's classes come from
 * reflection; other unknown classes are unresolved (dexlib2 treats them as plain references).
 */
public final class TypeCheck {
    private TypeCheck() {}

    /** One problem: method ({@code Lcls;->name(desc)}), kind and detail. */
    public record Violation(String method, String kind, String detail) {
        @Override
        public String toString() {
            return method + ": " + kind + " (" + detail + ")";
        }
    }

    /** Checks every method with code in {@code dex}; {@code others} are on the class path too. */
    public static List<Violation> check(DexFile dex, DexFile... others) {
        List<ClassProvider> providers = new ArrayList<>();
        providers.add(new DexClassProvider(dex));
        for (DexFile o : others) providers.add(new DexClassProvider(o));
        providers.add(new JdkClasses());
        ClassPath cp = new ClassPath(providers, false, ClassPath.NOT_ART);
        List<Violation> out = new ArrayList<>();
        for (ClassDef cd : dex.getClasses()) {
            for (Method m : cd.getMethods()) {
                if (m.getImplementation() == null) continue;
                check(cp, m, out);
            }
        }
        return out;
    }

    /**
     * Violations of {@code instrumented} beyond those its original already had (counted per
     * method and kind, since instrumentation moves addresses): what the instrumenter introduced.
     */
    public static List<Violation> introduced(DexFile original, DexFile instrumented, DexFile... others) {
        Map<String, Integer> before = new HashMap<>();
        for (Violation v : check(original, others)) before.merge(v.method + " " + v.kind, 1, Integer::sum);
        List<Violation> out = new ArrayList<>();
        for (Violation v : check(instrumented, others)) {
            String k = v.method + " " + v.kind;
            Integer n = before.get(k);
            if (n != null && n > 0) before.put(k, n - 1);
            else out.add(v);
        }
        return out;
    }

    static void check(ClassPath cp, Method m, List<Violation> out) {
        String name = m.getDefiningClass() + "->" + m.getName() + ClassRewriter.descriptor(m);
        MethodAnalyzer ma;
        try {
            ma = new MethodAnalyzer(cp, m, null, false);
        } catch (RuntimeException | AssertionError e) {
            out.add(new Violation(name, "analyzer failed", String.valueOf(e)));
            return;
        }
        if (ma.getAnalysisException() != null) {
            out.add(new Violation(name, "analysis", ma.getAnalysisException().getMessage()));
            return;
        }
        MethodImplementation impl = m.getImplementation();
        List<AnalyzedInstruction> ais = ma.getAnalyzedInstructions();
        int[] addr = new int[ais.size() + 1];
        for (int i = 0; i < ais.size(); i++) addr[i + 1] = addr[i] + ais.get(i).getInstruction().getCodeUnits();
        boolean[] reached = new boolean[ais.size()];
        for (int i = 0; i < ais.size(); i++) reached[i] = ais.get(i).getPredecessorCount() > 0;
        for (int i = 0; i < ais.size(); i++) {
            if (!reached[i]) continue;
            AnalyzedInstruction ai = ais.get(i);
            Instruction in = ai.getInstruction();
            Opcode op = in.getOpcode();
            String at = op.name + " @" + addr[i];
            switch (op) {
                case INVOKE_VIRTUAL, INVOKE_SUPER, INVOKE_DIRECT, INVOKE_STATIC, INVOKE_INTERFACE,
                     INVOKE_VIRTUAL_RANGE, INVOKE_SUPER_RANGE, INVOKE_DIRECT_RANGE, INVOKE_STATIC_RANGE,
                     INVOKE_INTERFACE_RANGE -> invoke(ai, in, op, name, at, out);
                case RETURN_OBJECT -> expect(ai, reg(in), "L", name, "return register", at, out);
                case RETURN_WIDE -> expect(ai, reg(in), m.getReturnType(), name, "return register", at, out);
                case RETURN -> expect(ai, reg(in), m.getReturnType(), name, "return register", at, out);
                case THROW -> expect(ai, reg(in), "Ljava/lang/Throwable;", name, "thrown register", at, out);
                case MONITOR_ENTER, MONITOR_EXIT -> expect(ai, reg(in), "Ljava/lang/Object;", name, "monitor register", at, out);
                case MOVE, MOVE_FROM16, MOVE_16 -> move(ai, in, 'I', name, at, out);
                case MOVE_WIDE, MOVE_WIDE_FROM16, MOVE_WIDE_16 -> move(ai, in, 'J', name, at, out);
                case MOVE_OBJECT, MOVE_OBJECT_FROM16, MOVE_OBJECT_16 -> move(ai, in, 'L', name, at, out);
                default -> { }
            }
        }
        monitors(ais, addr, impl.getTryBlocks(), reached, name, out);
    }

    private static int reg(Instruction in) {
        return ((OneRegisterInstruction) in).getRegisterA();
    }

    private static void invoke(AnalyzedInstruction ai, Instruction in, Opcode op, String name, String at, List<Violation> out) {
        MethodReference ref = (MethodReference) ((ReferenceInstruction) in).getReference();
        int[] regs;
        if (in instanceof Instruction35c f) {
            int[] all = {f.getRegisterC(), f.getRegisterD(), f.getRegisterE(), f.getRegisterF(), f.getRegisterG()};
            regs = Arrays.copyOf(all, f.getRegisterCount());
        } else {
            RegisterRangeInstruction r = (RegisterRangeInstruction) in;
            regs = new int[r.getRegisterCount()];
            for (int k = 0; k < regs.length; k++) regs[k] = r.getStartRegister() + k;
        }
        boolean isStatic = op == Opcode.INVOKE_STATIC || op == Opcode.INVOKE_STATIC_RANGE;
        int expected = isStatic ? 0 : 1;
        for (CharSequence p : ref.getParameterTypes()) expected += p.charAt(0) == 'J' || p.charAt(0) == 'D' ? 2 : 1;
        if (expected != regs.length) {
            out.add(new Violation(name, "argument count", at + " " + ref));
            return;
        }
        int k = 0;
        if (!isStatic) {
            RegisterType t = ai.getPreInstructionRegisterType(regs[k]);
            boolean init = ref.getName().equals("<init>") && (op == Opcode.INVOKE_DIRECT || op == Opcode.INVOKE_DIRECT_RANGE);
            boolean ok = t.category == RegisterType.REFERENCE || t.category == RegisterType.NULL
                    || (init && (t.category == RegisterType.UNINIT_REF || t.category == RegisterType.UNINIT_THIS));
            if (!ok) out.add(new Violation(name, "receiver type", at + " v" + regs[k] + "=" + t + " for " + ref));
            k++;
        }
        for (CharSequence p : ref.getParameterTypes()) {
            if (!fits(ai, regs[k], p.toString()))
                out.add(new Violation(name, "argument type", at + " v" + regs[k] + "=" + ai.getPreInstructionRegisterType(regs[k]) + " for " + p + " of " + ref));
            k += p.charAt(0) == 'J' || p.charAt(0) == 'D' ? 2 : 1;
        }
    }

    /** A move must move what its source holds: 32-bit, wide (both halves) or a reference (maybe uninitialized). */
    private static void move(AnalyzedInstruction ai, Instruction in, char kind, String name, String at, List<Violation> out) {
        int src = ((org.jf.dexlib2.iface.instruction.TwoRegisterInstruction) in).getRegisterB();
        byte c = ai.getPreInstructionRegisterType(src).category;
        boolean ok = switch (kind) {
            case 'J' -> (c == RegisterType.LONG_LO || c == RegisterType.DOUBLE_LO)
                    && fits(ai, src, "J");
            case 'L' -> c == RegisterType.REFERENCE || c == RegisterType.NULL || c == RegisterType.UNINIT_REF
                    || c == RegisterType.UNINIT_THIS;
            default -> intLike(c) || c == RegisterType.FLOAT;
        };
        if (!ok) out.add(new Violation(name, "move source type", at + " v" + src + "=" + ai.getPreInstructionRegisterType(src)));
    }

    private static void expect(AnalyzedInstruction ai, int reg, String type, String name, String what, String at, List<Violation> out) {
        if (!fits(ai, reg, type))
            out.add(new Violation(name, what + " type", at + " v" + reg + "=" + ai.getPreInstructionRegisterType(reg) + " for " + type));
    }

    /** Whether the register before {@code ai} holds a value a slot of descriptor {@code type} accepts. */
    private static boolean fits(AnalyzedInstruction ai, int reg, String type) {
        byte c = ai.getPreInstructionRegisterType(reg).category;
        switch (type.charAt(0)) {
            case 'L', '[':
                return c == RegisterType.REFERENCE || c == RegisterType.NULL;
            case 'J', 'D': {
                byte hi = ai.getPreInstructionRegisterType(reg + 1).category;
                return (c == RegisterType.LONG_LO || c == RegisterType.DOUBLE_LO)
                        && (hi == RegisterType.LONG_HI || hi == RegisterType.DOUBLE_HI);
            }
            case 'F':
                return c == RegisterType.FLOAT || intLike(c);
            default:
                return intLike(c);
        }
    }

    private static boolean intLike(byte c) {
        return c == RegisterType.NULL || c == RegisterType.ONE || c == RegisterType.BOOLEAN || c == RegisterType.BYTE
                || c == RegisterType.POS_BYTE || c == RegisterType.SHORT || c == RegisterType.POS_SHORT
                || c == RegisterType.CHAR || c == RegisterType.INTEGER;
    }

    /**
     * Monitor coverage, on a control-flow graph of its own (dexlib2's analyzer hangs exception
     * edges off the predecessor of a throwing instruction): an exception edge carries the depth
     * from before the instruction; an instruction that can throw where the depth is positive needs
     * a catch-all in its try item. {@code monitor-exit} counts as unable to throw, as in ART's
     * verifier (so D8 emits it outside the catch-all, and javac's handler may cover itself).
     */
    private static void monitors(List<AnalyzedInstruction> ais, int[] addr, List<? extends TryBlock<? extends ExceptionHandler>> tries,
                                 boolean[] reached, String name, List<Violation> out) {
        int n = ais.size();
        int[] depth = new int[n];
        Arrays.fill(depth, -1);
        ArrayDeque<Integer> work = new ArrayDeque<>();
        depth[0] = 0;
        work.add(0);
        while (!work.isEmpty()) {
            int i = work.poll();
            Instruction in = ais.get(i).getInstruction();
            Opcode op = in.getOpcode();
            int d = depth[i];
            int after = op == Opcode.MONITOR_ENTER ? Math.min(d + 1, 8) : op == Opcode.MONITOR_EXIT ? Math.max(d - 1, 0) : d;
            for (int j : normalSuccessors(ais, addr, i)) if (after > depth[j]) { depth[j] = after; work.add(j); }
            if (op.canThrow() && op != Opcode.MONITOR_EXIT) {
                for (int j : handlers(addr[i], tries, addr)) if (d > depth[j]) { depth[j] = d; work.add(j); }
            }
        }
        if (System.getProperty("hyprof.debugMonitors", "").equals(name))
            for (int i = 0; i < n; i++) System.out.println("  @" + addr[i] + " d=" + depth[i] + " " + ais.get(i).getInstruction().getOpcode().name + " succ=" + normalSuccessors(ais, addr, i) + " h=" + handlers(addr[i], tries, addr));
        for (int i = 0; i < n; i++) {
            Opcode op = ais.get(i).getInstruction().getOpcode();
            if (depth[i] <= 0 || !op.canThrow() || !reached[i] || op == Opcode.MONITOR_EXIT) continue;
            boolean catchAll = false;
            for (TryBlock<? extends ExceptionHandler> t : tries) {
                if (addr[i] < t.getStartCodeAddress() || addr[i] >= t.getStartCodeAddress() + t.getCodeUnitCount()) continue;
                for (ExceptionHandler h : t.getExceptionHandlers()) catchAll |= h.getExceptionType() == null;
            }
            if (!catchAll) out.add(new Violation(name, "monitor coverage", op.name + " @" + addr[i] + " can throw while a monitor is held, outside any catch-all"));
        }
    }

    private static List<Integer> normalSuccessors(List<AnalyzedInstruction> ais, int[] addr, int i) {
        Instruction in = ais.get(i).getInstruction();
        Opcode op = in.getOpcode();
        List<Integer> out = new ArrayList<>(2);
        switch (op) {
            case RETURN, RETURN_VOID, RETURN_WIDE, RETURN_OBJECT, THROW -> { return out; }
            case GOTO, GOTO_16, GOTO_32 -> {
                out.add(at(addr, addr[i] + ((OffsetInstruction) in).getCodeOffset()));
                return out;
            }
            case PACKED_SWITCH, SPARSE_SWITCH -> {
                int p = at(addr, addr[i] + ((OffsetInstruction) in).getCodeOffset());
                for (SwitchElement e : ((SwitchPayload) ais.get(p).getInstruction()).getSwitchElements())
                    out.add(at(addr, addr[i] + e.getOffset()));
            }
            default -> {
                if (in instanceof OffsetInstruction o && op != Opcode.FILL_ARRAY_DATA) out.add(at(addr, addr[i] + o.getCodeOffset()));
            }
        }
        if (op.canContinue() && i + 1 < ais.size()) out.add(i + 1);
        return out;
    }

    /** Instruction indices of the handlers of the try item covering {@code address}. */
    private static List<Integer> handlers(int address, List<? extends TryBlock<? extends ExceptionHandler>> tries, int[] addr) {
        List<Integer> out = new ArrayList<>(2);
        for (TryBlock<? extends ExceptionHandler> t : tries) {
            if (address < t.getStartCodeAddress() || address >= t.getStartCodeAddress() + t.getCodeUnitCount()) continue;
            for (ExceptionHandler h : t.getExceptionHandlers()) out.add(at(addr, h.getHandlerCodeAddress()));
        }
        return out;
    }

    private static int at(int[] addr, int address) {
        int k = Arrays.binarySearch(addr, address);
        if (k < 0) throw new IllegalStateException("no instruction at " + address);
        return k;
    }

    /** JDK classes by reflection, so the analyzer knows their hierarchy. */
    static final class JdkClasses implements ClassProvider {
        private final Map<String, ClassDef> cache = new HashMap<>();

        @Override
        public synchronized ClassDef getClassDef(String type) {
            if (!type.startsWith("Ljava/") && !type.startsWith("Ljavax/")) return null;
            return cache.computeIfAbsent(type, t -> {
                try {
                    return new ReflectionClassDef(Class.forName(t.substring(1, t.length() - 1).replace('/', '.'), false,
                            ClassLoader.getSystemClassLoader()));
                } catch (ClassNotFoundException | LinkageError e) {
                    return null;
                }
            });
        }
    }

    /** Whether the method is static (for callers that build their own checks). */
    static boolean isStatic(Method m) {
        return AccessFlags.STATIC.isSet(m.getAccessFlags());
    }
}
