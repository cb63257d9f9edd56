package org.hyprof.instrument.jvm;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Hybrid runs: turns a {@code native} method into an ordinary one whose body hands its
 * arguments to {@code NativeCall.invoke(id, this-or-class, Object[])} (which runs the native code
 * in the emulator) and unboxes the result, so the method gets probes like any other and native
 * cost lands on it. Also redirects {@code System.loadLibrary}/{@code System.load} to the emulator.
 */
final class NativeBridge {
    private NativeBridge() {}

    static final String CALL = "org/hyprof/runtime/NativeCall";

    /** Gives a native method a bridge body calling native method {@code id}. */
    static void bridge(String owner, MethodNode mn, int id) {
        mn.access &= ~Opcodes.ACC_NATIVE;
        boolean isStatic = (mn.access & Opcodes.ACC_STATIC) != 0;
        Type[] args = Type.getArgumentTypes(mn.desc);
        Type ret = Type.getReturnType(mn.desc);
        InsnList l = new InsnList();
        l.add(new LdcInsnNode(id));
        if (isStatic) l.add(new LdcInsnNode(Type.getObjectType(owner)));
        else l.add(new VarInsnNode(Opcodes.ALOAD, 0));
        l.add(push(args.length));
        l.add(new TypeInsnNode(Opcodes.ANEWARRAY, "java/lang/Object"));
        int slot = isStatic ? 0 : 1;
        for (int i = 0; i < args.length; i++) {
            l.add(new InsnNode(Opcodes.DUP));
            l.add(push(i));
            l.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slot));
            box(l, args[i]);
            l.add(new InsnNode(Opcodes.AASTORE));
            slot += args[i].getSize();
        }
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, CALL, "invoke", "(ILjava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;", false));
        unbox(l, ret);
        l.add(new InsnNode(ret.getOpcode(Opcodes.IRETURN)));
        mn.instructions = l;
        mn.maxLocals = slot;
        mn.maxStack = 8;
    }

    /**
     * Points {@code System.loadLibrary/load} and {@code Runtime.loadLibrary/load} calls at the
     * emulator (the same-named static methods of NativeCall; the Runtime forms take the receiver
     * as first argument). Returns how many were changed.
     */
    static int redirectLoads(MethodNode mn) {
        int n = 0;
        for (AbstractInsnNode i : mn.instructions) {
            if (!(i instanceof MethodInsnNode m) || !(m.name.equals("loadLibrary") || m.name.equals("load"))
                    || !m.desc.equals("(Ljava/lang/String;)V")) continue;
            if (m.getOpcode() == Opcodes.INVOKESTATIC && m.owner.equals("java/lang/System")) {
                m.owner = CALL;
                n++;
            } else if (m.getOpcode() == Opcodes.INVOKEVIRTUAL && m.owner.equals("java/lang/Runtime")) {
                m.setOpcode(Opcodes.INVOKESTATIC);
                m.owner = CALL;
                m.desc = "(Ljava/lang/Runtime;Ljava/lang/String;)V";
                n++;
            }
        }
        return n;
    }

    private static AbstractInsnNode push(int v) {
        if (v <= 5) return new InsnNode(Opcodes.ICONST_0 + v);
        if (v <= Byte.MAX_VALUE) return new IntInsnNode(Opcodes.BIPUSH, v);
        return new IntInsnNode(Opcodes.SIPUSH, v);
    }

    private static void box(InsnList l, Type t) {
        String w = wrapper(t);
        if (w != null) l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, w, "valueOf", "(" + t.getDescriptor() + ")L" + w + ";", false));
    }

    private static void unbox(InsnList l, Type t) {
        if (t.getSort() == Type.VOID) { l.add(new InsnNode(Opcodes.POP)); return; }
        String w = wrapper(t);
        if (w == null) { l.add(new TypeInsnNode(Opcodes.CHECKCAST, t.getInternalName())); return; }
        l.add(new TypeInsnNode(Opcodes.CHECKCAST, w));
        l.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, w, t.getClassName() + "Value", "()" + t.getDescriptor(), false));
    }

    private static String wrapper(Type t) {
        return switch (t.getSort()) {
            case Type.BOOLEAN -> "java/lang/Boolean";
            case Type.BYTE -> "java/lang/Byte";
            case Type.CHAR -> "java/lang/Character";
            case Type.SHORT -> "java/lang/Short";
            case Type.INT -> "java/lang/Integer";
            case Type.LONG -> "java/lang/Long";
            case Type.FLOAT -> "java/lang/Float";
            case Type.DOUBLE -> "java/lang/Double";
            default -> null;
        };
    }
}
