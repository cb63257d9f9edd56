package org.hyprof.instrument.jvm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.InputStream;
import java.util.Map;
import java.util.TreeMap;
import org.hyprof.config.ProbeInfo;
import org.hyprof.instrument.ProbeIds;
import org.junit.jupiter.api.Test;

/** Lambda bodies and method-reference targets bound to thread-entry interfaces are classified thread (fixtures.LambdaThreads). */
class LambdaThreadsTest {
    @Test
    void lambdaAndMethodReferenceThreadEntriesAreThread() throws Exception {
        byte[] original;
        try (InputStream in = getClass().getResourceAsStream("/fixtures/LambdaThreads.class")) {
            original = in.readAllBytes();
        }
        ClassRewriter.Result r = ClassRewriter.forLoader(getClass().getClassLoader(), false).rewrite(original, new ProbeIds()::next);
        Map<String, String> res = new TreeMap<>();
        for (ProbeInfo p : r.probes()) res.put(p.methodName() + p.descriptor(), p.resolution().label());
        Map<String, String> expected = new TreeMap<>(Map.of(
                "lambda$startAll$0()V", "thread",
                "work()V", "thread",
                "lambda$startAll$1()Ljava/lang/Integer;", "thread",
                "lambda$startAll$2()V", "thread",
                "lambda$startAll$3()Ljava/lang/Integer;", "thread",
                "lambda$startAll$4()Ljava/lang/Integer;", "method",
                "lambda$startAll$5()Ljava/lang/Integer;", "method",
                "lambda$startAll$6(Ljava/lang/Integer;)Ljava/lang/Integer;", "method",
                "startAll()I", "method",
                "spin(I)I", "method"));
        expected.put("main([Ljava/lang/String;)V", "process");
        expected.put("<init>()V", "method");
        assertEquals(expected, res);
    }
}
