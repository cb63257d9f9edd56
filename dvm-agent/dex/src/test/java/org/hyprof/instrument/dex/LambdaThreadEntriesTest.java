package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.ProfilingConfig;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * D8-desugared lambdas ({@code dexlambdas.LambdaThreads}, compiled by javac then D8 here): the
 * synthetic lambda classes' {@code run}/{@code call}/{@code get} that are thread entries, and
 * the bodies they call, are classified thread in the manifest; a Supplier used in place and a
 * Function stay method.
 */
class LambdaThreadEntriesTest {
    @TempDir Path dir;

    @Test
    void desugaredLambdaThreadEntriesAreThread() throws Exception {
        byte[] dex = Fixtures.d8(Fixtures.classesOf(dexlambdas.LambdaThreads.class, "dexlambdas/"), Fixtures.API);
        DexBackedDexFile original = Fixtures.open(dex);
        assertTrue(original.getClasses().stream().anyMatch(c -> LambdaThreadEntries.isDesugaredLambda(c.getType())),
                "D8 desugared the lambdas into classes");
        Path in = dir.resolve("lambdas.dex");
        Files.write(in, dex);
        DexInstrumenter.Summary s = DexInstrumenter.instrument(in, dir.resolve("lambdas-out.dex"), new ProfilingConfig(), null, null);
        Map<String, String> outer = new TreeMap<>();
        Map<String, String> lambdaClasses = new TreeMap<>();
        for (ProbeInfo p : s.manifest().probes()) {
            if (p.loop()) continue;
            String m = p.methodName() + p.descriptor();
            if (LambdaThreadEntries.isDesugaredLambda("L" + p.className() + ";")) {
                if (!p.methodName().equals("<init>") && !p.methodName().equals("<clinit>"))
                    lambdaClasses.merge(m + " " + p.resolution().label(), "1", (a, b) -> String.valueOf(Integer.parseInt(a) + 1));
            } else {
                outer.put(m, p.resolution().label());
            }
        }
        // bodies keep javac's names through D8 (numbered in source order)
        assertEquals("thread", outer.get("lambda$startAll$0()V"), outer.toString());
        assertEquals("thread", outer.get("work()V"), "method reference target");
        assertEquals("thread", outer.get("lambda$startAll$1()Ljava/lang/Integer;"), "Callable");
        assertEquals("thread", outer.get("lambda$startAll$2()V"), "Runnable to submit");
        assertEquals("thread", outer.get("lambda$startAll$3()Ljava/lang/Integer;"), "Supplier to supplyAsync");
        assertEquals("method", outer.get("lambda$startAll$4()Ljava/lang/Integer;"), "Supplier used in place");
        assertEquals("method", outer.get("lambda$startAll$5()Ljava/lang/Integer;"), "Supplier to orElseGet");
        assertEquals("method", outer.get("lambda$startAll$6(Ljava/lang/Integer;)Ljava/lang/Integer;"), "Function");
        assertEquals("method", outer.get("spin(I)I"));
        assertEquals("process", outer.get("main([Ljava/lang/String;)V"));
        // the synthetic classes: three Runnables (lambda 0, work, lambda 2), one Callable, one Supplier run async
        assertEquals(Map.of("run()V thread", "3", "call()Ljava/lang/Object; thread", "1", "get()Ljava/lang/Object; thread", "1",
                "get()Ljava/lang/Object; method", "2", "apply(Ljava/lang/Object;)Ljava/lang/Object; method", "1"), lambdaClasses);
        assertEquals(List.of(), TypeCheck.introduced(original, Fixtures.open(Files.readAllBytes(dir.resolve("lambdas-out.dex"))),
                DexRewriteTest.runtime()));
    }
}
