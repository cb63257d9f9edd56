package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hyprof.config.Classifier;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.config.SkippedMethod;
import org.hyprof.instrument.ProbeIds;
import org.jf.dexlib2.AccessFlags;
import org.jf.dexlib2.HiddenApiRestriction;
import org.jf.dexlib2.base.reference.BaseMethodReference;
import org.jf.dexlib2.base.reference.BaseTypeReference;
import org.jf.dexlib2.iface.Annotation;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.Field;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.iface.MethodImplementation;
import org.jf.dexlib2.iface.MethodParameter;

/**
 * Instruments one DEX class: every method with code gets entry/exit/exceptional-exit probes and
 * loop probes ({@link MethodRewriter}); methods that cannot be rewritten are left unchanged and
 * reported — the same rules, manifest records and resolutions ({@link Classifier}) as the
 * class-file rewriter. Not thread-safe (ids are handed out in order).
 */
public final class ClassRewriter {
    /**
     * @param classDef the class to write: rewritten, or the input when nothing changed
     * @param className dotted name
     * @param methods  methods with code that were looked at
     * @param probes   probes placed (method probes and loop probes)
     * @param skipped  methods left unchanged, with reasons
     */
    public record Result(ClassDef classDef, String className, int methods, List<ProbeInfo> probes,
                         List<SkippedMethod> skipped) {}

    private ClassRewriter() {}

    /**
     * Rewrites {@code cd}, taking local probe ids from {@code ids} (the code adds them to the
     * piece's {@code base}, {@link PieceHolder}); {@code threadEntries} are the methods
     * ({@code Ltype;->name(params)ret}) found by {@link LambdaThreadEntries#scan} over the whole
     * input, classified {@code thread}.
     */
    static Result rewrite(ClassDef cd, ProbeIds ids, PieceHolder.Base base, Set<String> threadEntries) {
        String dotted = dotted(cd.getType());
        String superName = cd.getSuperclass() == null ? null : dotted(cd.getSuperclass());
        List<String> ifaces = new ArrayList<>();
        for (String i : cd.getInterfaces()) ifaces.add(dotted(i));
        String source = cd.getSourceFile() == null ? "" : cd.getSourceFile();
        List<ProbeInfo> probes = new ArrayList<>();
        List<SkippedMethod> skipped = new ArrayList<>();
        Map<String, MethodImplementation> rewritten = new HashMap<>();
        int methods = 0;
        for (Method m : cd.getMethods()) {
            int flags = m.getAccessFlags();
            String desc = descriptor(m);
            if (AccessFlags.ABSTRACT.isSet(flags)) continue;
            if (AccessFlags.NATIVE.isSet(flags)) {
                skipped.add(new SkippedMethod(dotted, m.getName(), desc, "native method"));
                continue;
            }
            MethodImplementation impl = m.getImplementation();
            if (impl == null) continue;
            methods++;
            if (AccessFlags.BRIDGE.isSet(flags)) {
                skipped.add(new SkippedMethod(dotted, m.getName(), desc, "bridge method (its target has probes)"));
                continue;
            }
            try {
                MethodRewriter.Result r = MethodRewriter.rewrite(m, impl, ids, base);
                boolean isStatic = AccessFlags.STATIC.isSet(flags);
                Resolution res = Classifier.classify(dotted, superName, ifaces, m.getName(), desc, isStatic,
                        threadEntries.contains(LambdaThreadEntries.key(cd.getType(), m.getName(), desc)));
                probes.add(new ProbeInfo(r.methodId(), false, res, dotted, m.getName(), desc, -1, -1,
                        r.firstLine(), source));
                int k = 0;
                for (int[] l : r.loops())
                    probes.add(new ProbeInfo(l[0], true, Resolution.LOOP, dotted, m.getName(), desc, r.methodId(), k++, l[1], source));
                for (String s : r.loopSkips()) skipped.add(new SkippedMethod(dotted, m.getName(), desc, s));
                rewritten.put(m.getName() + desc, r.code());
            } catch (Skip s) {
                skipped.add(new SkippedMethod(dotted, m.getName(), desc, s.getMessage()));
            } catch (RuntimeException bad) {
                // a decoding failure in one method must not stop the others
                skipped.add(new SkippedMethod(dotted, m.getName(), desc, "cannot decode: " + bad));
            }
        }
        ClassDef out = rewritten.isEmpty() ? cd : new RewrittenClass(cd, rewritten);
        return new Result(out, dotted, methods, probes, skipped);
    }

    /** {@code Lcom/x/A$B;} → {@code com.x.A$B}. */
    static String dotted(String type) {
        return type.substring(1, type.length() - 1).replace('/', '.');
    }

    static String descriptor(Method m) {
        StringBuilder b = new StringBuilder("(");
        for (CharSequence p : m.getParameterTypes()) b.append(p);
        return b.append(')').append(m.getReturnType()).toString();
    }

    /** The input class with some method bodies replaced; everything else read through. */
    static final class RewrittenClass extends BaseTypeReference implements ClassDef {
        private final ClassDef cd;
        private final List<Method> direct = new ArrayList<>(), virtual = new ArrayList<>();

        RewrittenClass(ClassDef cd, Map<String, MethodImplementation> code) {
            this.cd = cd;
            for (Method m : cd.getDirectMethods()) direct.add(wrap(m, code));
            for (Method m : cd.getVirtualMethods()) virtual.add(wrap(m, code));
        }

        private static Method wrap(Method m, Map<String, MethodImplementation> code) {
            // getDirectMethods() may return new objects each time: match by signature
            MethodImplementation c = code.get(m.getName() + descriptor(m));
            return c == null ? m : new RewrittenMethod(m, c);
        }

        @Override public String getType() { return cd.getType(); }
        @Override public int getAccessFlags() { return cd.getAccessFlags(); }
        @Override public String getSuperclass() { return cd.getSuperclass(); }
        @Override public List<String> getInterfaces() { return cd.getInterfaces(); }
        @Override public String getSourceFile() { return cd.getSourceFile(); }
        @Override public Set<? extends Annotation> getAnnotations() { return cd.getAnnotations(); }
        @Override public Iterable<? extends Field> getStaticFields() { return cd.getStaticFields(); }
        @Override public Iterable<? extends Field> getInstanceFields() { return cd.getInstanceFields(); }
        @Override public Iterable<? extends Field> getFields() { return cd.getFields(); }
        @Override public Iterable<? extends Method> getDirectMethods() { return direct; }
        @Override public Iterable<? extends Method> getVirtualMethods() { return virtual; }

        @Override
        public Iterable<? extends Method> getMethods() {
            List<Method> all = new ArrayList<>(direct);
            all.addAll(virtual);
            return all;
        }
    }

    /** A method with a new implementation. */
    static final class RewrittenMethod extends BaseMethodReference implements Method {
        private final Method m;
        private final MethodImplementation code;

        RewrittenMethod(Method m, MethodImplementation code) {
            this.m = m;
            this.code = code;
        }

        @Override public String getDefiningClass() { return m.getDefiningClass(); }
        @Override public String getName() { return m.getName(); }
        @Override public List<? extends CharSequence> getParameterTypes() { return m.getParameterTypes(); }
        @Override public List<? extends MethodParameter> getParameters() { return m.getParameters(); }
        @Override public String getReturnType() { return m.getReturnType(); }
        @Override public int getAccessFlags() { return m.getAccessFlags(); }
        @Override public Set<? extends Annotation> getAnnotations() { return m.getAnnotations(); }
        @Override public Set<HiddenApiRestriction> getHiddenApiRestrictions() { return m.getHiddenApiRestrictions(); }
        @Override public MethodImplementation getImplementation() { return code; }
    }
}
