package org.hyprof.instrument.jvm;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * A piece of a program instrumented on its own (one jar of {@code hyprof instrument}): its probes
 * are numbered from 1 in the piece, and at run time the runtime gives the piece a base id
 * ({@code Hyprof.piece(KEY, class)}) so that pieces instrumented one by one (a library and its
 * tests, an app and its plugins) never share ids when they run together.
 *
 * <p>The piece's code reads its base from a generated <em>holder</em> class,
 * {@code org.hyprof.pieces.P_KEY}, whose static initializer asks the runtime for it once and keeps
 * it in {@code public static final int BASE}; its manifest is
 * {@code META-INF/hyprof/pieces/KEY/manifest.tsv}, read through the holder's class loader.
 *
 * @param key the piece key: hex digits ({@link #keyOf}), or a placeholder of the same length
 *            while the manifest, and so the key, is not known yet
 */
record Piece(String key) {
    /** The holder's field with the piece's base id. */
    static final String BASE = "BASE";
    /** Package of the holder classes. */
    static final String PACKAGE = "org/hyprof/pieces/";
    /** Hex digits of a key. */
    static final int KEY_LENGTH = 16;

    /** Internal name of the holder class. */
    String holder() {
        return holderOf(key);
    }

    static String holderOf(String key) {
        return PACKAGE + "P_" + key;
    }

    /** Where the piece's manifest goes in a jar (the runtime's {@code Bootstrap.pieceResource}). */
    String manifestEntry() {
        return "META-INF/hyprof/pieces/" + key + "/manifest.tsv";
    }

    /**
     * The key of a piece with this manifest: the first {@value #KEY_LENGTH} hex digits of the
     * SHA-256 of its {@code probe} lines (each with its {@code \n}, in manifest order, UTF-8). So
     * it depends only on what the piece's probes are (class, method, descriptor, line, source,
     * local id): the same input instrumented twice gets the same key, two different pieces
     * different keys. Skip lines and the header do not count (a reason's wording may change).
     */
    static String keyOf(String manifestText) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is in every JDK", e);
        }
        for (String line : manifestText.split("\n")) {
            if (line.startsWith("probe\t")) sha.update((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
        byte[] d = sha.digest();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < KEY_LENGTH / 2; i++) b.append(String.format("%02x", d[i] & 0xff));
        return b.toString();
    }

    /**
     * The holder class: {@code public final class P_KEY { public static final int BASE =
     * Hyprof.piece("KEY", P_KEY.class); }} (class file version 52: {@code ldc} of a class needs
     * 49, and the piece's own classes may be older, which only read the field).
     */
    byte[] holderClass() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
        cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER | Opcodes.ACC_SYNTHETIC,
                holder(), null, "java/lang/Object", null);
        cw.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL, BASE, "I", null, null).visitEnd();
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PRIVATE, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor clinit = cw.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
        clinit.visitCode();
        clinit.visitLdcInsn(key);
        clinit.visitLdcInsn(Type.getObjectType(holder()));
        clinit.visitMethodInsn(Opcodes.INVOKESTATIC, "org/hyprof/runtime/Hyprof", "piece",
                "(Ljava/lang/String;Ljava/lang/Class;)I", false);
        clinit.visitFieldInsn(Opcodes.PUTSTATIC, holder(), BASE, "I");
        clinit.visitInsn(Opcodes.RETURN);
        clinit.visitMaxs(0, 0);
        clinit.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }
}
