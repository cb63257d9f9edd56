package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import com.android.tools.r8.CompilationMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hyprof.config.ProfilingConfig;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.Method;
import org.jf.dexlib2.iface.debug.DebugItem;
import org.jf.dexlib2.iface.debug.EndLocal;
import org.jf.dexlib2.iface.debug.RestartLocal;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Debug info on real code: Apache Commons Collections 4.4 (Maven Central, copied to target/scale
 * by the build), compiled by D8 in debug mode (locals, parameters reused as locals) at
 * {@code --min-api} 21 and 33, instrumented, then: no debug-info violation in any method (as in
 * D8's own output), the line and the live locals of every original instruction unchanged
 * ({@link DebugInfoCheck}), and dex2jar reading with debug info and translating every method.
 */
class DexDebugInfoIT {
    @TempDir Path dir;

    static final Path LIBRARY = Path.of("target/scale/commons-collections4.jar");

    @ParameterizedTest
    @ValueSource(ints = {21, 33})
    void aRealLibraryKeepsItsDebugInfo(int minApi) throws Exception {
        assertTrue(Files.exists(LIBRARY), LIBRARY + " is copied by the build (pre-integration-test)");
        Coverage c = roundTrip("commons-collections4", Fixtures.d8Jar(LIBRARY, minApi, CompilationMode.DEBUG), minApi, 2000);
        // the case issue 24 is about is really there
        assertTrue(c.parameterEndsOrRestarts > 10, "methods where D8 ends or restarts a parameter's local: " + c.parameterEndsOrRestarts);
    }

    /** The Java fixtures: frames of more than 16 registers with long/double parameters (the library has few). */
    @ParameterizedTest
    @ValueSource(ints = {21, 33})
    void bigFramesWithWideParametersKeepTheirDebugInfo(int minApi) throws Exception {
        byte[] dex = Fixtures.d8(Fixtures.classesOf(dexfixtures.Main.class, "dexfixtures/"), minApi, CompilationMode.DEBUG);
        Coverage c = roundTrip("dexfixtures", dex, minApi, 40);
        assertTrue(c.bigFramesWithWideArgs >= 2, "instrumented methods with > 16 registers and wide parameters: " + c.bigFramesWithWideArgs);
        assertTrue(c.parameterEndsOrRestarts >= 2, "methods where D8 ends or restarts a parameter's local: " + c.parameterEndsOrRestarts);
    }

    /** Instruments D8 output and checks its debug info every way; what the checked code holds. */
    Coverage roundTrip(String name, byte[] dex, int minApi, int minMethods) throws Exception {
        DexBackedDexFile original = Fixtures.open(dex);
        DebugInfoCheck.Report d8 = DebugInfoCheck.check(original);
        assertEquals(List.of(), d8.violations(), "D8's own output");
        DexTools.Read d8Read = DexTools.readWithDebugInfo(dex);
        assertEquals(List.of(), d8Read.failures(), "dex2jar -d on D8's own output");

        Path in = dir.resolve(name + minApi), out = dir.resolve(name + minApi + "-out");
        Files.createDirectories(in);
        Files.write(in.resolve("classes.dex"), dex);
        DexInstrumenter.Summary s = DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null);
        byte[] probed = Files.readAllBytes(out.resolve("classes.dex"));
        DexBackedDexFile instrumented = Fixtures.open(probed);

        DebugInfoCheck.Report r = DebugInfoCheck.compare(original, instrumented);
        assertEquals(List.of(), r.violations().stream().limit(20).toList(),
                r.badMethods() + " of " + r.methods() + " methods with debug-info violations");
        assertEquals(d8.methods() + 1, r.methods(), "every method with code checked, and the piece holder's <clinit>");
        assertTrue(s.methods() > minMethods, "instrumented methods " + s.methods());

        DexTools.Read read = DexTools.readWithDebugInfo(probed);
        assertEquals(List.of(), read.failures(), "dex2jar -d reads every class");
        assertEquals(d8Read.methods() + 1, read.methods(), "dex2jar -d reads every method, and the piece holder's <clinit>");
        Path plainJar = dir.resolve(name + minApi + ".jar"), jar = dir.resolve(name + minApi + "-probed.jar");
        DexTools.dex2jar(dex, plainJar);
        DexTools.dex2jar(probed, jar); // fails on any method dex2jar cannot translate
        Map<String, Integer> plain = DexTools.methodsPerClass(plainJar), after = DexTools.methodsPerClass(jar);
        assertEquals(1, after.remove("org/hyprof/pieces/P_" + s.pieceKey()), "the piece's holder: its <clinit>");
        assertEquals(plain, after, "dex2jar -d translated every method");
        Map<String, Integer> dexCounts = methodsPerClass(original), jarCounts = new TreeMap<>();
        after.forEach((k, v) -> jarCounts.put(sanitized(k), v));
        Map<String, String> differ = new TreeMap<>();
        for (String k : dexCounts.keySet())
            if (!dexCounts.get(k).equals(jarCounts.get(sanitized(k)))) differ.put(k, dexCounts.get(k) + " -> " + jarCounts.get(sanitized(k)));
        assertEquals(Map.of(), differ, "as many methods in the jar as in the DEX file");
        Coverage c = coverage(original, instrumented);
        System.out.printf("%s, min-api %d: %d methods checked (%d instrumented), debug-info violations: D8 %d, instrumented %d;"
                        + " dex2jar -d: %d classes failed, %d methods read; parameter END/RESTART in %d methods;"
                        + " >16 registers + wide parameters: %d methods%n",
                name, minApi, r.methods(), s.methods(), d8.violations().size(), r.violations().size(), read.failures().size(),
                read.methods(), c.parameterEndsOrRestarts, c.bigFramesWithWideArgs);
        return c;
    }

    record Coverage(int parameterEndsOrRestarts, int bigFramesWithWideArgs) {}

    /**
     * Methods where D8 ends or restarts a local in a parameter's register, and methods of more
     * than 16 registers with long/double parameters that were instrumented (their register count
     * grew).
     */
    static Coverage coverage(DexBackedDexFile original, DexBackedDexFile instrumented) {
        Map<String, Integer> grown = new TreeMap<>();
        for (ClassDef cd : instrumented.getClasses())
            for (Method m : cd.getMethods())
                if (m.getImplementation() != null) grown.put(DebugInfoCheck.key(m), m.getImplementation().getRegisterCount());
        int ends = 0, big = 0;
        for (ClassDef cd : original.getClasses()) {
            for (Method m : cd.getMethods()) {
                if (m.getImplementation() == null) continue;
                DebugInfoCheck.Trace t = new DebugInfoCheck.Trace(m);
                Map<Integer, DebugInfoCheck.Local> args = t.implicit();
                for (DebugItem d : t.items) {
                    int reg = d instanceof EndLocal e ? e.getRegister() : d instanceof RestartLocal x ? x.getRegister() : -1;
                    if (args.containsKey(reg)) { ends++; break; }
                }
                boolean wide = m.getParameterTypes().stream().anyMatch(DebugInfoCheck::wide);
                Integer after = grown.get(DebugInfoCheck.key(m));
                if (wide && t.registers > 16 && after != null && after > t.registers) big++;
            }
        }
        return new Coverage(ends, big);
    }

    /** A class name as dex2jar writes it (it renames D8's {@code I$-CC} companion classes, for one). */
    static String sanitized(String internalName) {
        return internalName.replaceAll("[^A-Za-z0-9/$_]", "_");
    }

    static Map<String, Integer> methodsPerClass(DexBackedDexFile d) {
        Map<String, Integer> out = new TreeMap<>();
        for (ClassDef cd : d.getClasses()) {
            int n = 0;
            for (Method m : cd.getMethods()) n++;
            out.put(cd.getType().substring(1, cd.getType().length() - 1), n);
        }
        return out;
    }
}
