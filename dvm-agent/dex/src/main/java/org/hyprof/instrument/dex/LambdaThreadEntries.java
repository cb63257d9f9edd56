package org.hyprof.instrument.dex;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hyprof.config.Classifier;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.ReferenceType;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.iface.MethodImplementation;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.iface.instruction.ReferenceInstruction;
import org.jf.dexlib2.iface.reference.FieldReference;
import org.jf.dexlib2.iface.reference.MethodReference;
import org.jf.dexlib2.iface.reference.Reference;
import org.jf.dexlib2.iface.reference.TypeReference;

/**
 * Pass before rewriting (reads only, over all the input's classes): the methods that are thread
 * entries because they implement or are called by a desugared lambda. D8 turns each lambda and
 * method reference into a synthetic class ({@code -$$Lambda$Main$…} in older D8,
 * {@code Main$$ExternalSyntheticLambda0} in newer) implementing the functional interface, whose
 * one method calls the body ({@code lambda$main$0} in the enclosing class, or the referenced
 * method). When the interface's method is a thread entry ({@link Classifier#isThreadEntryBinding}:
 * {@code Runnable.run}, {@code Callable.call}, {@code Supplier.get} when the lambda object goes
 * straight to {@code CompletableFuture.supplyAsync}), that method and the methods of the input it
 * calls are thread entries.
 *
 * <p>Keys are {@code Ltype;->name(params)ret}. Limits: methods outside the input (the JDK's) are
 * not bodies; {@code invoke-custom} (kept by D8 only for non-lambda bootstraps) is not followed.
 */
final class LambdaThreadEntries {
    private LambdaThreadEntries() {}

    /** Instructions looked ahead from a lambda object's creation for the method it is passed to. */
    private static final int LOOKAHEAD = 8;

    static Set<String> scan(Iterable<? extends ClassDef> classes) {
        Map<String, ClassDef> lambdas = new HashMap<>();
        Set<String> defined = new HashSet<>();
        List<ClassDef> all = new ArrayList<>();
        for (ClassDef cd : classes) {
            all.add(cd);
            defined.add(cd.getType());
            if (isDesugaredLambda(cd.getType())) lambdas.put(cd.getType(), cd);
        }
        Set<String> entries = new HashSet<>();
        if (lambdas.isEmpty()) return entries;
        // only a Supplier's classification depends on where it goes: skip the whole-input walk otherwise
        boolean suppliers = lambdas.values().stream().anyMatch(cd -> cd.getInterfaces().contains("Ljava/util/function/Supplier;"));
        Map<String, String> consumers = suppliers ? consumers(all, lambdas.keySet()) : Map.of();
        for (ClassDef cd : lambdas.values()) {
            for (String iface : cd.getInterfaces()) {
                for (Method m : cd.getVirtualMethods()) {
                    String desc = ClassRewriter.descriptor(m);
                    if (!Classifier.isThreadEntryBinding(ClassRewriter.dotted(iface), m.getName(), desc, consumers.get(cd.getType())))
                        continue;
                    entries.add(key(cd.getType(), m.getName(), desc));
                    for (Instruction i : instructions(m)) {
                        if (i.getOpcode().referenceType != ReferenceType.METHOD) continue;
                        MethodReference target = (MethodReference) ((ReferenceInstruction) i).getReference();
                        if (defined.contains(target.getDefiningClass()) && !target.getDefiningClass().equals(cd.getType()))
                            entries.add(key(target));
                    }
                }
            }
        }
        return entries;
    }

    static boolean isDesugaredLambda(String type) {
        return type.contains("$$Lambda$") || type.contains("$$ExternalSyntheticLambda");
    }

    static String key(String type, String name, String descriptor) {
        return type + "->" + name + descriptor;
    }

    private static String key(MethodReference m) {
        StringBuilder b = new StringBuilder("(");
        for (CharSequence p : m.getParameterTypes()) b.append(p);
        return key(m.getDefiningClass(), m.getName(), b.append(')').append(m.getReturnType()).toString());
    }

    /**
     * For each lambda class, the method ("dotted.Owner.name") an instance of it is passed to right
     * after it is created ({@code new-instance} + constructor) or read from its singleton field
     * ({@code sget-object}, for lambdas that capture nothing); absent when none is seen.
     */
    private static Map<String, String> consumers(List<ClassDef> classes, Set<String> lambdaTypes) {
        Map<String, String> consumers = new HashMap<>();
        for (ClassDef cd : classes) {
            for (Method m : cd.getMethods()) {
                List<Instruction> code = instructions(m);
                for (int k = 0; k < code.size(); k++) {
                    String lambda = createdLambda(code.get(k), lambdaTypes);
                    if (lambda == null) continue;
                    for (int j = k + 1; j < code.size() && j <= k + LOOKAHEAD; j++) {
                        Instruction i = code.get(j);
                        if (i.getOpcode().referenceType != ReferenceType.METHOD) continue;
                        MethodReference t = (MethodReference) ((ReferenceInstruction) i).getReference();
                        if (t.getDefiningClass().equals(lambda) && t.getName().equals("<init>")) continue;
                        consumers.putIfAbsent(lambda, ClassRewriter.dotted(t.getDefiningClass()) + "." + t.getName());
                        break;
                    }
                }
            }
        }
        return consumers;
    }

    /**
     * A method's instructions; none when it has no code or its code cannot be decoded (the
     * rewriter reports that method when it gets to it: this pass only looks).
     */
    private static List<Instruction> instructions(Method m) {
        List<Instruction> code = new ArrayList<>();
        try {
            MethodImplementation impl = m.getImplementation();
            if (impl != null) for (Instruction i : impl.getInstructions()) code.add(i);
        } catch (RuntimeException undecodable) {
            return List.of();
        }
        return code;
    }

    private static String createdLambda(Instruction i, Set<String> lambdaTypes) {
        if (i.getOpcode() != Opcode.NEW_INSTANCE && i.getOpcode() != Opcode.SGET_OBJECT) return null;
        Reference r = ((ReferenceInstruction) i).getReference();
        String type = r instanceof TypeReference t ? t.getType() : r instanceof FieldReference f ? f.getDefiningClass() : null;
        return type != null && lambdaTypes.contains(type) ? type : null;
    }
}
