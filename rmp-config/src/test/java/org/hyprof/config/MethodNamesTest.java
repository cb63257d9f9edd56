package org.hyprof.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hyprof.control.ControlState;
import org.hyprof.config.MethodNames.Style;
import org.junit.jupiter.api.Test;

class MethodNamesTest {
    private static String java(String cls, String m, String desc) {
        return MethodNames.method(cls, m, desc, Style.JAVA);
    }

    @Test
    void javaSignaturesWithoutReturnType() {
        assertEquals("demo.HybridDemo.round(boolean)", java("demo.HybridDemo", "round", "(Z)V"));
        assertEquals("demo.JavaKernels.fftTransform(double[], int, int)", java("demo.JavaKernels", "fftTransform", "([DII)V"));
        assertEquals("a.B.m()", java("a.B", "m", "()J"));
        assertEquals("a.B.m(byte, char, float, long, short)", java("a.B", "m", "(BCFJS)[[I"));
    }

    @Test
    void classesArraysAndInnerClasses() {
        assertEquals("a.B.m(java.lang.String[][], int[][][], java.util.Map$Entry)",
                java("a.B", "m", "([[Ljava/lang/String;[[[ILjava/util/Map$Entry;)Ljava/lang/Object;"));
        assertEquals("a.Outer$Inner.<init>(a.Outer)", java("a.Outer$Inner", "<init>", "(La/Outer;)V"));
        assertEquals("a.B.<clinit>()", java("a.B", "<clinit>", "()V"));
        assertEquals("A.run(A)", java("A", "run", "(LA;)V")); // default package
    }

    @Test
    void descriptorStyleKeepsTheDescriptor() {
        assertEquals("demo.HybridDemo.round(Z)V", MethodNames.method("demo.HybridDemo", "round", "(Z)V", Style.DESCRIPTOR));
    }

    @Test
    void malformedDescriptorsAreShownRaw() {
        for (String bad : new String[] {"", "Z", "(", "(Z", "(Z)", "(Q)V", "(L;)V", "(Ljava/lang/String)V", "([)V", "(V)V",
            "()[V", "(I)VX", "(La.b;)V", "()", "()LA"}) {
            assertNull(MethodNames.javaParameters(bad), bad);
            assertEquals("a.B.m" + bad, java("a.B", "m", bad), bad);
        }
        assertNull(MethodNames.javaParameters(null));
        assertNull(MethodNames.javaParameters("(" + "[".repeat(256) + "I)V")); // past the JVM's 255 dimensions
    }

    @Test
    void loopsByLineElseByIndex() {
        ProbeInfo m = new ProbeInfo(1, false, Resolution.METHOD, "demo.JavaKernels", "fftTransform", "([DII)V", -1, -1, 50, "JavaKernels.java");
        ProbeInfo l0 = new ProbeInfo(2, true, Resolution.LOOP, "demo.JavaKernels", "fftTransform", "([DII)V", 1, 0, 57, "JavaKernels.java");
        ProbeInfo l1 = new ProbeInfo(3, true, Resolution.LOOP, "demo.JavaKernels", "fftTransform", "([DII)V", 1, 1, -1, "");
        assertEquals("demo.JavaKernels.fftTransform(double[], int, int)", m.displayName());
        assertEquals("demo.JavaKernels.fftTransform(double[], int, int)#loop@57", l0.displayName());
        assertEquals("demo.JavaKernels.fftTransform([DII)V#loop@57", l0.displayName(Style.DESCRIPTOR));
        assertEquals("demo.JavaKernels.fftTransform(double[], int, int)#loop1", l1.displayName());
    }

    @Test
    void loopsSharingALineKeepTheirIndex() {
        ProbeInfo a = new ProbeInfo(2, true, Resolution.LOOP, "a.B", "m", "()V", 1, 0, 9, "B.java");
        ProbeInfo b = new ProbeInfo(3, true, Resolution.LOOP, "a.B", "m", "()V", 1, 1, 9, "B.java");
        ProbeInfo c = new ProbeInfo(4, true, Resolution.LOOP, "a.B", "m", "()V", 1, 2, 11, "B.java");
        Map<Integer, String> n = MethodNames.names(List.of(a, b, c), Style.JAVA);
        assertEquals("a.B.m()#loop0@9", n.get(2));
        assertEquals("a.B.m()#loop1@9", n.get(3));
        assertEquals("a.B.m()#loop@11", n.get(4));
    }

    @Test
    void patternsMatchEitherSpelling() {
        ProbeInfo m = new ProbeInfo(1, false, Resolution.METHOD, "demo.HybridDemo", "round", "(Z)V", -1, -1, 5, "");
        ProbeInfo l = new ProbeInfo(2, true, Resolution.LOOP, "demo.HybridDemo", "round", "(Z)V", 1, 0, 7, "");
        Manifest man = new Manifest();
        man.add(m);
        man.add(l);
        ControlState none = new ControlState(3, new java.util.BitSet(), new int[0], 0, 0, 0, false, 0);
        for (String pat : new String[] {"demo.HybridDemo.round(boolean)", "demo.HybridDemo.round(Z)V", "*.round"})
            assertEquals(1, Zoom.setRoots(none, man, pat).roots().length, pat);
        assertTrue(Zoom.setFlags(none, man, "*round(boolean)#loop@7", true).isOn(2));
        assertTrue(Zoom.setFlags(none, man, "*round(Z)V#loop0", true).isOn(2));
    }

    @Test
    void abbreviatesAsIdesDo() {
        String n = "demo.HybridDemo.round(boolean)";
        assertEquals(n, MethodNames.abbreviate(n, 40));
        assertEquals("d.HybridDemo.round(boolean)", MethodNames.abbreviate(n, 28));
        String f = "org.example.JavaKernels.fft(java.lang.String[], int)#loop@57";
        assertEquals("o.e.JavaKernels.fft(java.lang.String[], int)#loop@57", MethodNames.abbreviate(f, 52));
        assertEquals("o.e.JavaKernels.fft(j.l.String[], int)#loop@57", MethodNames.abbreviate(f, 46));
        assertEquals("o.e.JavaKernels.fft(…)#loop@57", MethodNames.abbreviate(f, 40));
        assertEquals("…vaKernels.fft(…)#loop@57", MethodNames.abbreviate(f, 25));
        assertEquals("…so!fn", MethodNames.abbreviate("libhyprofdemo.so!fn", 6));
        assertEquals("…", MethodNames.abbreviate("abc", 1));
        assertEquals("", MethodNames.abbreviate("abc", 0));
        for (int w = 1; w < 70; w++) assertTrue(MethodNames.abbreviate(f, w).length() <= w, "width " + w);
    }
}
