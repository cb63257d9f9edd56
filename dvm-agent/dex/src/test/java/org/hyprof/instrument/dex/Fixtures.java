package org.hyprof.instrument.dex;

import com.android.tools.r8.CompilationMode;
import com.android.tools.r8.D8;
import com.android.tools.r8.D8Command;
import com.android.tools.r8.JdkClassFileProvider;
import com.android.tools.r8.OutputMode;
import com.android.tools.r8.origin.Origin;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.antlr.runtime.CommonTokenStream;
import org.antlr.runtime.TokenSource;
import org.antlr.runtime.tree.CommonTree;
import org.antlr.runtime.tree.CommonTreeNodeStream;
import org.jf.dexlib2.Opcodes;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.jf.dexlib2.writer.builder.DexBuilder;
import org.jf.dexlib2.writer.io.MemoryDataStore;
import org.jf.smali.smaliFlexLexer;
import org.jf.smali.smaliParser;
import org.jf.smali.smaliTreeWalker;

/**
 * The DEX fixture corpus: the Java sources of package {@code dexfixtures} (compiled by javac as
 * test sources, then by D8 here) and the hand-written smali files in
 * {@code src/test/resources/dex/smali/} (assembled in-process by smali). Both are rebuilt from
 * source on every test run; nothing binary is checked in.
 */
public final class Fixtures {
    private Fixtures() {}

    /** The smali fixtures, assembled into one DEX file; {@code smalifix.SmaliMain} runs them all. */
    public static final List<String> SMALI = List.of("LoopAtZero", "MoveResultExit", "MonitorLoop", "BigRegisters",
            "Payloads", "CtorThrow", "SmaliMain");

    /** API level the fixtures are compiled for (D8 and smali). */
    public static final int API = 21;

    private static byte[] javaDex, javaDebugDex, smaliDex;

    /** D8 output of the {@code dexfixtures} package; {@code dexfixtures.Main} runs them all. */
    public static synchronized byte[] javaDex() throws Exception {
        if (javaDex == null) javaDex = d8(classesOf(dexfixtures.Main.class, "dexfixtures/"), API);
        return javaDex.clone();
    }

    /**
     * The same in D8's debug mode (its default on the command line, what a debug build holds):
     * local variables with their scopes, parameters reused as locals ending and restarting.
     */
    public static synchronized byte[] javaDebugDex() throws Exception {
        if (javaDebugDex == null)
            javaDebugDex = d8(classesOf(dexfixtures.Main.class, "dexfixtures/"), API, CompilationMode.DEBUG);
        return javaDebugDex.clone();
    }

    /** The smali fixtures as one DEX file. */
    public static synchronized byte[] smaliDex() throws Exception {
        if (smaliDex == null) {
            List<String> texts = new ArrayList<>();
            for (String name : SMALI) texts.add(resource("dex/smali/" + name + ".smali"));
            smaliDex = smali(API, texts);
        }
        return smaliDex.clone();
    }

    /** Class files (entry name → bytes) under {@code prefix} where {@code anchor} was loaded from. */
    public static Map<String, byte[]> classesOf(Class<?> anchor, String prefix) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        Path src;
        try {
            src = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        if (Files.isDirectory(src)) {
            try (Stream<Path> s = Files.walk(src.resolve(prefix))) {
                for (Path p : (Iterable<Path>) s.filter(f -> f.toString().endsWith(".class"))::iterator)
                    out.put(src.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        } else {
            try (JarFile jar = new JarFile(src.toFile())) {
                for (JarEntry e : Collections.list(jar.entries())) {
                    if (!e.getName().startsWith(prefix) || !e.getName().endsWith(".class")) continue;
                    try (InputStream in = jar.getInputStream(e)) {
                        out.put(e.getName(), in.readAllBytes());
                    }
                }
            }
        }
        if (out.isEmpty()) throw new IOException("no classes under " + prefix + " in " + src);
        return out;
    }

    /** Compiles class files to one DEX file with D8 (release mode, JDK classes as the library). */
    public static byte[] d8(Map<String, byte[]> classes, int minApi) throws Exception {
        return d8(classes, minApi, CompilationMode.RELEASE);
    }

    /** Compiles class files to one DEX file with D8 in the given mode (JDK classes as the library). */
    public static byte[] d8(Map<String, byte[]> classes, int minApi, CompilationMode mode) throws Exception {
        Path dir = Files.createTempDirectory("hyprof-d8");
        try {
            D8Command.Builder b = D8Command.builder()
                    .setMode(mode)
                    .setMinApiLevel(minApi)
                    .addLibraryResourceProvider(JdkClassFileProvider.fromSystemJdk())
                    .setOutput(dir, OutputMode.DexIndexed);
            for (byte[] c : classes.values()) b.addClassProgramData(c, Origin.unknown());
            D8.run(b.build());
            return Files.readAllBytes(dir.resolve("classes.dex"));
        } finally {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : (Iterable<Path>) s::iterator) Files.delete(p);
            }
            Files.delete(dir);
        }
    }

    /** D8 over a jar (e.g. a library from Maven Central); more than one output file is an error. */
    public static byte[] d8Jar(Path jar, int minApi) throws Exception {
        return d8Jar(jar, minApi, CompilationMode.RELEASE);
    }

    /** D8 over a jar in the given mode; more than one output file is an error. */
    public static byte[] d8Jar(Path jar, int minApi, CompilationMode mode) throws Exception {
        Path dir = Files.createTempDirectory("hyprof-d8");
        try {
            D8.run(D8Command.builder()
                    .setMode(mode)
                    .setMinApiLevel(minApi)
                    .addLibraryResourceProvider(JdkClassFileProvider.fromSystemJdk())
                    .addProgramFiles(jar)
                    .setOutput(dir, OutputMode.DexIndexed)
                    .build());
            if (Files.exists(dir.resolve("classes2.dex"))) throw new IOException(jar + " needs more than one DEX file");
            return Files.readAllBytes(dir.resolve("classes.dex"));
        } finally {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : (Iterable<Path>) s::iterator) Files.delete(p);
            }
            Files.delete(dir);
        }
    }

    /** Assembles smali sources (one class each) into one DEX file, in-process. */
    public static byte[] smali(int api, List<String> sources) throws Exception {
        DexBuilder dex = new DexBuilder(Opcodes.forApi(api));
        for (String text : sources) {
            Reader reader = new StringReader(text);
            smaliFlexLexer lexer = new smaliFlexLexer(reader, api);
            CommonTokenStream tokens = new CommonTokenStream((TokenSource) lexer);
            smaliParser parser = new smaliParser(tokens);
            parser.setVerboseErrors(true);
            parser.setAllowOdex(false);
            parser.setApiLevel(api);
            smaliParser.smali_file_return result = parser.smali_file();
            if (parser.getNumberOfSyntaxErrors() > 0 || lexer.getNumberOfSyntaxErrors() > 0)
                throw new IllegalArgumentException("smali syntax errors in:\n" + text.lines().limit(3).toList());
            CommonTreeNodeStream tree = new CommonTreeNodeStream(result.getTree());
            tree.setTokenStream(tokens);
            smaliTreeWalker walker = new smaliTreeWalker(tree);
            walker.setApiLevel(api);
            walker.setVerboseErrors(true);
            walker.setDexBuilder(dex);
            walker.smali_file();
            if (walker.getNumberOfSyntaxErrors() > 0)
                throw new IllegalArgumentException("smali errors in:\n" + text.lines().limit(3).toList());
        }
        MemoryDataStore store = new MemoryDataStore();
        dex.writeTo(store);
        return java.util.Arrays.copyOf(store.getBuffer(), store.getSize());
    }

    /** A test resource as text. */
    public static String resource(String name) throws IOException {
        try (InputStream in = Fixtures.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) throw new IOException("missing test resource " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Opens DEX bytes with their own version's opcodes. */
    public static DexBackedDexFile open(byte[] dex) {
        return new DexBackedDexFile(null, dex);
    }
}
