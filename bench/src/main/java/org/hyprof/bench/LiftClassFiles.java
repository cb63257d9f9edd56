package org.hyprof.bench;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * {@code LiftClassFiles IN.jar OUT.jar}: copies a jar with its class files turned into version 52
 * (Java 8) class files, stack map frames computed, code unchanged. SciMark 2.0's class files are
 * version 45, which has no invokedynamic, so the rewriter gives them static probe calls whatever
 * is asked; lifted, they can be instrumented both ways and compared (scimark.sh). A class that
 * cannot be lifted (jsr/ret subroutines) is copied as it is. Run with IN.jar on the class path
 * (frame computation loads classes to find common super classes).
 */
public final class LiftClassFiles {
    private LiftClassFiles() {}

    public static void main(String[] args) throws Exception {
        int lifted = 0, kept = 0;
        try (ZipFile in = new ZipFile(args[0]);
             OutputStream fo = Files.newOutputStream(Path.of(args[1]));
             JarOutputStream out = new JarOutputStream(fo)) {
            for (ZipEntry e : Collections.list(in.entries())) {
                byte[] data;
                try (InputStream s = in.getInputStream(e)) {
                    data = s.readAllBytes();
                }
                if (e.getName().endsWith(".class")) {
                    try {
                        data = lift(data);
                        lifted++;
                    } catch (RuntimeException bad) {
                        kept++;
                    }
                }
                out.putNextEntry(new JarEntry(e.getName()));
                out.write(data);
                out.closeEntry();
            }
        }
        System.err.println("lifted " + lifted + " class files to version 52, kept " + kept);
    }

    static byte[] lift(byte[] classFile) {
        ClassReader r = new ClassReader(classFile);
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
        r.accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                super.visit(Math.max(version & 0xFFFF, Opcodes.V1_8), access, name, signature, superName, interfaces);
            }
        }, ClassReader.SKIP_FRAMES);
        return w.toByteArray();
    }
}
