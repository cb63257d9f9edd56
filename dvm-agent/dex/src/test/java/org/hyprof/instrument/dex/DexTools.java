package org.hyprof.instrument.dex;

import com.googlecode.d2j.Method;
import com.googlecode.d2j.dex.Dex2jar;
import com.googlecode.d2j.dex.DexExceptionHandler;
import com.googlecode.d2j.node.DexClassNode;
import com.googlecode.d2j.node.DexFileNode;
import com.googlecode.d2j.node.DexMethodNode;
import com.googlecode.d2j.reader.BaseDexFileReader;
import com.googlecode.d2j.reader.MultiDexFileReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.HashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The real tools the DEX tests run: Debian's {@code dexdump}, dex2jar (compute-frames mode, so
 * the JVM's verifier accepts its output) and a child JVM.
 */
public final class DexTools {
    private DexTools() {}

    public static final Path DEXDUMP = Path.of("/usr/bin/dexdump");

    /** Whether Debian's dexdump is installed (.ci/run installs it). */
    public static boolean hasDexdump() {
        return Files.isExecutable(DEXDUMP);
    }

    /** Result of {@code dexdump -d}: exit code, lines mentioning a failure, instructions seen. */
    public record Dump(int exit, List<String> failures, long instructions) {
        public boolean clean() {
            return exit == 0 && failures.isEmpty();
        }
    }

    /**
     * Runs {@code dexdump -d FILE}, streaming its (possibly huge) output. dexdump reports a broken
     * file on stderr ("Failure to verify dex file", "Invalid handler addr", ...) and usually
     * exits 1; a clean file gives exit 0 and an empty stderr. Disassembled instructions are
     * counted so a test can tell that dexdump really walked the code.
     */
    public static Dump dexdump(Path dex) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(DEXDUMP.toString(), "-d", dex.toString()).start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
        List<String> failures = new ArrayList<>();
        long insns = 0;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("Failure") || line.contains("Invalid handler")) failures.add(line);
                if (line.length() > 24 && line.charAt(6) == ':' && line.contains("|")) insns++;
            }
        }
        int exit = p.waitFor();
        for (String line : err.join().split("\n")) if (!line.isBlank() && failures.size() < 20) failures.add(line);
        return new Dump(exit, failures, insns);
    }

    /** What dex2jar's reader made of every class: classes, methods read, and the classes it failed on. */
    public record Read(int classes, int methods, List<String> failures) {}

    /**
     * dex2jar's reader over every class with debug info on (what {@code d2j-dex2jar -d} reads) and
     * no read error ignored. {@link Dex2jar} itself ignores them: it prints the error (e.g.
     * "Encountered RESTART_LOCAL on new v9" for debug info that ends or restarts a local never
     * started) to stderr and drops the rest of the class, so a translation can look clean and
     * lack methods.
     */
    public static Read readWithDebugInfo(byte[] dexOrApk) throws IOException {
        BaseDexFileReader reader = MultiDexFileReader.open(dexOrApk);
        List<String> names = reader.getClassNames();
        List<String> failures = new ArrayList<>();
        int methods = 0;
        for (int i = 0; i < names.size(); i++) {
            DexFileNode node = new DexFileNode();
            try {
                reader.accept(node, i, 0); // 0: debug info read, exceptions thrown
                for (DexClassNode c : node.clzs) methods += c.methods == null ? 0 : c.methods.size();
            } catch (RuntimeException e) {
                failures.add(names.get(i) + ": " + e.getMessage());
            }
        }
        return new Read(names.size(), methods, failures);
    }

    /** Methods per class (internal name) in a jar, as ASM reads them. */
    public static Map<String, Integer> methodsPerClass(Path jar) throws IOException {
        Map<String, Integer> out = new java.util.TreeMap<>();
        try (JarFile j = new JarFile(jar.toFile())) {
            for (JarEntry e : Collections.list(j.entries())) {
                if (!e.getName().endsWith(".class")) continue;
                try (InputStream s = j.getInputStream(e)) {
                    org.objectweb.asm.tree.ClassNode cn = new org.objectweb.asm.tree.ClassNode();
                    new ClassReader(s.readAllBytes()).accept(cn, ClassReader.SKIP_CODE);
                    out.put(cn.name, cn.methods.size());
                }
            }
        }
        return out;
    }

    /**
     * dex2jar of a DEX file or an APK (every classes*.dex) into a jar, with debug info (locals,
     * lines: {@code d2j-dex2jar -d}) and frames computed. A class dex2jar's reader fails on
     * ({@link #readWithDebugInfo}) and a method it could not translate are errors: it would
     * otherwise drop or replace them silently.
     */
    public static void dex2jar(byte[] dexOrApk, Path jar) throws IOException {
        Read read = readWithDebugInfo(dexOrApk);
        if (!read.failures().isEmpty())
            throw new IOException("dex2jar -d could not read " + read.failures().size() + " classes, first: " + read.failures().get(0));
        List<String> failed = Collections.synchronizedList(new ArrayList<>());
        Files.deleteIfExists(jar);
        Dex2jar.from(MultiDexFileReader.open(dexOrApk))
                .withExceptionHandler(new DexExceptionHandler() {
                    @Override
                    public void handleFileException(Exception e) {
                        failed.add("file: " + e);
                    }

                    @Override
                    public void handleMethodTranslateException(Method method, DexMethodNode node, MethodVisitor mv, Exception e) {
                        failed.add(method + ": " + e);
                    }
                })
                .reUseReg(false)
                .topoLogicalSort()
                .skipDebug(false)
                .optimizeSynchronized(false)
                .computeFrames(true)
                .to(jar);
        if (!failed.isEmpty()) throw new IOException("dex2jar failed on " + failed.size() + " methods, first: " + failed.get(0));
        recomputeFrames(jar);
    }

    /**
     * dex2jar computes stack-map frames without the program's class hierarchy, so where two
     * program types meet it can pick a supertype that is too general and the JVM rejects the
     * method (seen on Guava, instrumented or not). The frames are computed again here with the
     * hierarchy read from the jar itself (JDK classes through the platform class loader).
     */
    static void recomputeFrames(Path jar) throws IOException {
        Map<String, byte[]> classes = new java.util.LinkedHashMap<>();
        Map<String, byte[]> other = new java.util.LinkedHashMap<>();
        try (JarFile j = new JarFile(jar.toFile())) {
            for (JarEntry e : Collections.list(j.entries())) {
                if (e.isDirectory()) continue;
                try (InputStream s = j.getInputStream(e)) {
                    (e.getName().endsWith(".class") ? classes : other).put(e.getName(), s.readAllBytes());
                }
            }
        }
        Map<String, String[]> supers = new HashMap<>(); // name -> {super, "i" if interface}
        for (byte[] b : classes.values()) {
            ClassReader r = new ClassReader(b);
            supers.put(r.getClassName(), new String[] {r.getSuperName(), (r.getAccess() & Opcodes.ACC_INTERFACE) != 0 ? "i" : ""});
        }
        Path tmp = jar.resolveSibling(jar.getFileName() + ".frames");
        try (OutputStream fo = Files.newOutputStream(tmp); JarOutputStream jo = new JarOutputStream(fo)) {
            for (Map.Entry<String, byte[]> e : classes.entrySet()) {
                ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
                    @Override
                    protected String getCommonSuperClass(String a, String b) {
                        if (isInterface(a, supers) || isInterface(b, supers)) return "java/lang/Object";
                        List<String> chain = new ArrayList<>();
                        for (String t = a; t != null; t = superOf(t, supers)) chain.add(t);
                        for (String t = b; t != null; t = superOf(t, supers)) if (chain.contains(t)) return t;
                        return "java/lang/Object";
                    }
                };
                new ClassReader(e.getValue()).accept(w, ClassReader.SKIP_FRAMES);
                jo.putNextEntry(new JarEntry(e.getKey()));
                jo.write(w.toByteArray());
                jo.closeEntry();
            }
            for (Map.Entry<String, byte[]> e : other.entrySet()) {
                jo.putNextEntry(new JarEntry(e.getKey()));
                jo.write(e.getValue());
                jo.closeEntry();
            }
        }
        Files.move(tmp, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static String superOf(String name, Map<String, String[]> supers) {
        String[] s = supers.get(name);
        if (s != null) return s[0];
        Class<?> c = jdkClass(name);
        return c == null || c.getSuperclass() == null ? null : c.getSuperclass().getName().replace('.', '/');
    }

    private static boolean isInterface(String name, Map<String, String[]> supers) {
        String[] s = supers.get(name);
        if (s != null) return !s[1].isEmpty();
        Class<?> c = jdkClass(name);
        return c != null && c.isInterface();
    }

    private static Class<?> jdkClass(String name) {
        try {
            return Class.forName(name.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** Copies a jar and adds entries (e.g. the manifest and settings the runtime reads as resources). */
    public static void addToJar(Path in, Map<String, byte[]> extra, Path out) throws IOException {
        try (JarFile j = new JarFile(in.toFile()); OutputStream fo = Files.newOutputStream(out);
             JarOutputStream jo = new JarOutputStream(fo)) {
            for (JarEntry e : Collections.list(j.entries())) {
                if (extra.containsKey(e.getName())) continue;
                jo.putNextEntry(new JarEntry(e.getName()));
                try (InputStream s = j.getInputStream(e)) {
                    s.transferTo(jo);
                }
                jo.closeEntry();
            }
            for (Map.Entry<String, byte[]> e : extra.entrySet()) {
                jo.putNextEntry(new JarEntry(e.getKey()));
                jo.write(e.getValue());
                jo.closeEntry();
            }
        }
    }

    /**
     * What the instrumenter wrote beside a DEX output for the class path ({@code OUT.resources/}:
     * the piece's manifest and the runtime's settings), by resource name: what goes into a jar
     * made from the DEX code.
     */
    public static Map<String, byte[]> besideResources(Path out) throws IOException {
        Path root = out.resolveSibling(out.getFileName() + ".resources");
        Map<String, byte[]> r = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator)
                if (Files.isRegularFile(p)) r.put(root.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
        }
        if (r.isEmpty()) throw new IOException("nothing in " + root);
        return r;
    }

    /** Output of a child process. */
    public record Run(int exit, String out, String err) {}

    /** Runs {@code java [jvmArgs] -cp CLASSPATH MAIN [args]} in a child JVM (2 minutes at most). */
    public static Run java(List<String> jvmArgs, String classpath, String main, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(main);
        Collections.addAll(cmd, args);
        Process p = new ProcessBuilder(cmd).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(main + " did not finish in 2 minutes");
        }
        return new Run(p.exitValue(), out.get(), err.get());
    }

    private static String drain(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "<" + e + ">";
        }
    }
}
