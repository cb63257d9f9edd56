package org.hyprof.instrument.jvm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.instrument.ProbeIds;
import org.hyprof.instrument.ProbeSet;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Snapshot;
import org.hyprof.runtime.Stats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Instruments fixtures.Workload with ASM, runs it, and checks exact counts. */
class ClassRewriterTest {
    Map<String, ProbeInfo> byName = new HashMap<>();
    Class<?> workload;

    @BeforeEach
    void instrumentAndLoad() throws Exception {
        Hyprof.reset();
        Options o = new Options();
        o.calibrate = false;
        Hyprof.start(o);
        byte[] original;
        try (InputStream in = getClass().getResourceAsStream("/fixtures/Workload.class")) {
            original = in.readAllBytes();
        }
        ClassRewriter.Result r = ClassRewriter.forLoader(getClass().getClassLoader(), true)
                .rewrite(original, new ProbeIds()::next);
        ProbeSet set = new ProbeSet(new ProfilingConfig());
        set.defineInRuntime(r.probes(), r.skipped(), set.add(r.probes(), r.skipped()));
        for (ProbeInfo p : r.probes()) byName.put(p.displayName(), p);
        assertTrue(r.skipped().isEmpty(), "nothing skipped: " + r.skipped());
        byte[] bytes = r.bytes();
        ClassLoader loader = new ClassLoader(getClass().getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.equals("fixtures.Workload")) {
                    synchronized (this) {
                        Class<?> c = findLoadedClass(name);
                        return c != null ? c : defineClass(name, bytes, 0, bytes.length);
                    }
                }
                return super.loadClass(name, resolve);
            }
        };
        workload = loader.loadClass("fixtures.Workload");
    }

    @AfterEach
    void stop() {
        Hyprof.reset();
    }

    long stat(String name, int field) {
        ProbeInfo p = byName.get(name);
        assertNotNull(p, "no probe " + name + " in " + byName.keySet());
        return Hyprof.snapshot().total(p.id(), field);
    }

    @Test
    void outputUnchangedAndCountsExact() throws Exception {
        Method run = workload.getMethod("run");
        int expected = fixtures.Workload.run(); // the uninstrumented original
        assertEquals(expected, run.invoke(null));

        String W = "fixtures.Workload.";
        assertEquals(1, stat(W + "run()I", Stats.CALLS));
        assertEquals(177, stat(W + "fib(I)I", Stats.CALLS));
        assertEquals(1, stat(W + "fib(I)I", Stats.OUTER_CALLS));
        // nested(): outer loop 10 iterations; inner entered 9 times (i=3 continues before it)
        assertEquals(1, stat(W + "nested()I#loop0", Stats.CALLS));
        assertEquals(10, stat(W + "nested()I#loop0", Stats.ITERATIONS));
        assertEquals(9, stat(W + "nested()I#loop1", Stats.CALLS));
        assertEquals(8 * 5 + 2, stat(W + "nested()I#loop1", Stats.ITERATIONS));
        assertEquals(1, stat(W + "doWhile()I#loop0", Stats.CALLS));
        assertEquals(3, stat(W + "doWhile()I#loop0", Stats.ITERATIONS));
        assertEquals(1, stat(W + "doWhileFirst(I)I#loop0", Stats.CALLS), "a loop entered from the method entry");
        assertEquals(3, stat(W + "doWhileFirst(I)I#loop0", Stats.ITERATIONS));
        assertEquals(1, stat(W + "returnFromLoop()I#loop0", Stats.CALLS));
        assertEquals(2, stat(W + "returnFromLoop()I#loop0", Stats.ITERATIONS));
        assertEquals(2, stat(W + "tryCatchFinally(I)I", Stats.CALLS));
        assertEquals(0, stat(W + "tryCatchFinally(I)I", Stats.THROWS));
        assertEquals(2, stat(W + "syncBlock(I)I", Stats.CALLS));
        assertEquals(1, stat(W + "syncBlock(I)I", Stats.THROWS));
        // constructors: () once; (Z) throws after super (recorded, by exception);
        // (String) throws before this(): no probe fired; ("abc") once, via (I)
        assertEquals(1, stat(W + "<init>()V", Stats.CALLS));
        assertEquals(1, stat(W + "<init>(Z)V", Stats.CALLS));
        assertEquals(1, stat(W + "<init>(Z)V", Stats.THROWS));
        assertEquals(1, stat(W + "<init>(Ljava/lang/String;)V", Stats.CALLS));
        assertEquals(1, stat(W + "<init>(I)V", Stats.CALLS));
        assertEquals(2, stat(W + "check(Ljava/lang/String;)I", Stats.CALLS));
        assertEquals(1, stat(W + "check(Ljava/lang/String;)I", Stats.THROWS));
        assertEquals(4, stat(W + "sw(I)I", Stats.CALLS));
        assertEquals(1, stat(W + "wide(JDIJ)J", Stats.CALLS));
        // exception through several instrumented frames: every enter matched
        assertEquals(4, stat(W + "deep(I)V", Stats.CALLS));
        assertEquals(4, stat(W + "deep(I)V", Stats.THROWS));
        assertEquals(1, stat(W + "catchDeep()I", Stats.CALLS));
        assertEquals(0, stat(W + "catchDeep()I", Stats.THROWS));
        for (Snapshot.ThreadData t : Hyprof.snapshot().threads) assertEquals(0, t.depthDrops);
    }

    @Test
    void resolutionsAreClassified() {
        assertEquals("method", byName.get("fixtures.Workload.run()I").resolution().label());
        List<ProbeInfo> loops = byName.values().stream().filter(ProbeInfo::loop).toList();
        assertEquals(6, loops.size(), loops.toString());
        for (ProbeInfo l : loops) assertTrue(l.line() > 0, "loop line known: " + l);
    }
}
