package org.hyprof.instrument.dex;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import org.jf.dexlib2.AccessFlags;
import org.jf.dexlib2.Opcode;
import org.jf.dexlib2.ReferenceType;
import org.jf.dexlib2.base.reference.BaseFieldReference;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.instruction.Instruction;
import org.jf.dexlib2.iface.instruction.formats.Instruction21c;
import org.jf.dexlib2.iface.reference.Reference;
import org.jf.dexlib2.immutable.ImmutableClassDef;
import org.jf.dexlib2.immutable.ImmutableField;
import org.jf.dexlib2.immutable.ImmutableMethod;
import org.jf.dexlib2.immutable.ImmutableMethodImplementation;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction10x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction11x;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction21c;
import org.jf.dexlib2.immutable.instruction.ImmutableInstruction35c;
import org.jf.dexlib2.immutable.reference.ImmutableFieldReference;
import org.jf.dexlib2.immutable.reference.ImmutableMethodReference;
import org.jf.dexlib2.immutable.reference.ImmutableStringReference;
import org.jf.dexlib2.immutable.reference.ImmutableTypeReference;

/**
 * The piece an instrumented output is: its probes are numbered from 1 in the output, and at run
 * time they are {@code base + local}, the base given by {@code org.hyprof.runtime.Hyprof.piece},
 * so outputs instrumented one by one (two DEX files, APK splits, a library and an app) never share
 * ids in one process.
 *
 * <p>The piece's <b>key</b> is the first 16 hex digits of the SHA-256 of its manifest's probe lines
 * (each with its {@code \n}, UTF-8): the same input instrumented with the same settings gets the
 * same key, and different pieces different keys. Its manifest is
 * {@code assets/hyprof/pieces/KEY/manifest.tsv} in an APK (or the class-path resource
 * {@code META-INF/hyprof/pieces/KEY/manifest.tsv}).
 *
 * <p>The <b>holder</b>, {@code org.hyprof.pieces.P_KEY}, goes into the output's first DEX file:
 * <pre>
 * public final class P_KEY {
 *     public static final int BASE = org.hyprof.runtime.Hyprof.piece("KEY", P_KEY.class);
 * }
 * </pre>
 * Every probe id register is set at method entry from {@code BASE} ({@code sget}, then the local
 * id added), so the first probe the program runs initializes the holder, which defines the piece's
 * probes before any of its ids is used. The key is known only when every class is rewritten, so
 * the rewritten code refers to {@code BASE} through a {@link Base} whose class is filled in then.
 */
final class PieceHolder {
    private PieceHolder() {}

    static final String HYPROF_TYPE = "Lorg/hyprof/runtime/Hyprof;";
    static final ImmutableMethodReference PIECE = new ImmutableMethodReference(HYPROF_TYPE, "piece",
            List.of("Ljava/lang/String;", "Ljava/lang/Class;"), "I");
    static final String FIELD = "BASE";

    /** The piece key of a manifest (its probe lines, see above). */
    static String key(String manifestText) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has it
        }
        for (String line : manifestText.split("\n")) {
            if (line.startsWith("probe\t")) sha.update((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
        byte[] d = sha.digest();
        StringBuilder b = new StringBuilder(16);
        for (int i = 0; i < 8; i++) b.append(String.format("%02x", d[i] & 0xff));
        return b.toString();
    }

    /** {@code Lorg/hyprof/pieces/P_KEY;}. */
    static String type(String key) {
        return "Lorg/hyprof/pieces/P_" + key + ";";
    }

    /** Where a piece's manifest goes in an APK. */
    static String asset(String key) {
        return "assets/hyprof/pieces/" + key + "/manifest.tsv";
    }

    /** Where a piece's manifest goes on a class path (a jar, a directory). */
    static String resource(String key) {
        return "META-INF/hyprof/pieces/" + key + "/manifest.tsv";
    }

    /**
     * The holder class: {@code BASE} set in {@code <clinit>} by const-string, const-class,
     * invoke-static {@code Hyprof.piece}, move-result, sput, return-void.
     */
    static ClassDef holder(String key) {
        String type = type(key);
        ImmutableFieldReference base = new ImmutableFieldReference(type, FIELD, "I");
        List<Instruction> code = List.of(
                new ImmutableInstruction21c(Opcode.CONST_STRING, 0, new ImmutableStringReference(key)),
                new ImmutableInstruction21c(Opcode.CONST_CLASS, 1, new ImmutableTypeReference(type)),
                new ImmutableInstruction35c(Opcode.INVOKE_STATIC, 2, 0, 1, 0, 0, 0, PIECE),
                new ImmutableInstruction11x(Opcode.MOVE_RESULT, 0),
                new ImmutableInstruction21c(Opcode.SPUT, 0, base),
                new ImmutableInstruction10x(Opcode.RETURN_VOID));
        ImmutableMethod clinit = new ImmutableMethod(type, "<clinit>", List.of(), "V",
                AccessFlags.STATIC.getValue() | AccessFlags.CONSTRUCTOR.getValue(), null, null,
                new ImmutableMethodImplementation(2, code, null, null));
        ImmutableField field = new ImmutableField(type, FIELD, "I",
                AccessFlags.PUBLIC.getValue() | AccessFlags.STATIC.getValue() | AccessFlags.FINAL.getValue(), null, null, null);
        return new ImmutableClassDef(type, AccessFlags.PUBLIC.getValue() | AccessFlags.FINAL.getValue(), "Ljava/lang/Object;",
                null, null, null, List.of(field), List.of(clinit));
    }

    /**
     * {@code P_KEY.BASE} for a key not known yet: the class is filled in once ({@link #resolve})
     * after every class is rewritten and before any is written; reading it earlier is a bug and
     * throws.
     */
    static final class Base extends BaseFieldReference {
        private volatile String type;

        void resolve(String key) {
            if (type != null) throw new IllegalStateException("piece key set twice");
            type = type(key);
        }

        @Override
        public String getDefiningClass() {
            String t = type;
            if (t == null) throw new IllegalStateException("the piece key is not known yet");
            return t;
        }

        @Override
        public String getName() {
            return FIELD;
        }

        @Override
        public String getType() {
            return "I";
        }
    }

    /**
     * {@code sget reg, P_KEY.BASE} ({@code reg} ≤ 255), keeping the {@link Base} itself (dexlib2's
     * immutable instructions would copy the reference, reading the class too early).
     */
    static Instruction sget(int reg, Base base) {
        return new Sget(reg, base);
    }

    private record Sget(int register, Base base) implements Instruction21c {
        @Override public int getRegisterA() { return register; }
        @Override public Opcode getOpcode() { return Opcode.SGET; }
        @Override public int getCodeUnits() { return Opcode.SGET.format.size / 2; }
        @Override public Reference getReference() { return base; }
        @Override public int getReferenceType() { return ReferenceType.FIELD; }
    }
}
