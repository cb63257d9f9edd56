package org.hyprof.config;

import static org.junit.jupiter.api.Assertions.*;

import java.util.BitSet;
import org.hyprof.control.ControlState;
import org.junit.jupiter.api.Test;

class ZoomTest {
    // 1 main (process), 2 Worker.run (thread), 3 m1, 4 m1#loop0, 5 m2, 6 run#loop0
    static Manifest manifest() {
        Manifest m = new Manifest();
        m.add(new ProbeInfo(1, false, Resolution.PROCESS, "a.Main", "main", "([Ljava/lang/String;)V", -1, -1, 1, ""));
        m.add(new ProbeInfo(2, false, Resolution.THREAD, "a.Worker", "run", "()V", -1, -1, 5, ""));
        m.add(new ProbeInfo(3, false, Resolution.METHOD, "a.Main", "m1", "()V", -1, -1, 9, ""));
        m.add(new ProbeInfo(4, true, Resolution.LOOP, "a.Main", "m1", "()V", 3, 0, 10, ""));
        m.add(new ProbeInfo(5, false, Resolution.METHOD, "a.Main", "m2", "()V", -1, -1, 12, ""));
        m.add(new ProbeInfo(6, true, Resolution.LOOP, "a.Worker", "run", "()V", 2, 0, 6, ""));
        return m;
    }

    static ControlState base() {
        return new ControlState(7, new BitSet(), new int[0], 0, 0, 0, false, 0);
    }

    static BitSet bits(int... ids) {
        BitSet b = new BitSet();
        for (int i : ids) b.set(i);
        return b;
    }

    @Test
    void probesKnownAfterAZoomStepGetTheScopesFlagsAndTheOthersKeepTheirs() {
        Manifest early = new Manifest();
        early.add(manifest().probes().get(0));                              // only main is known yet
        Zoom.Scope thread = Zoom.zoomIn(Zoom.start(), early, -1);           // thread level
        ControlState cur = Zoom.apply(thread, early, new ControlState(2, new BitSet(), new int[0], 0, 0, 0, false, 0));
        cur = cur.withOn(bits(), 2);                                         // the user switched main off since
        Manifest later = manifest();                                         // the other classes loaded
        ControlState next = Zoom.extend(thread, later, new ControlState(7, cur.on(), new int[0], 0, 0, 0, false, 0), 2);
        assertEquals(bits(2), next.on(), "Worker.run (thread) on as the scope says; main stays off as the user left it");
        assertEquals(7, next.idCount());
    }

    @Test
    void zoomsInStepByStepAndBackOut() {
        Manifest m = manifest();
        Zoom.Scope s = Zoom.start();
        assertEquals(Resolution.PROCESS, s.level());
        assertEquals(bits(1), Zoom.apply(s, m, base()).on());

        s = Zoom.zoomIn(s, m, -1);
        assertEquals(Resolution.THREAD, s.level());
        assertEquals(bits(1, 2), Zoom.apply(s, m, base()).on());

        s = Zoom.zoomIn(s, m, 2);
        ControlState method = Zoom.apply(s, m, base());
        assertEquals(Resolution.METHOD, s.level());
        assertEquals(bits(1, 2, 3, 5), method.on());
        assertArrayEquals(new int[] {2}, method.roots());

        s = Zoom.zoomIn(s, m, 3);
        ControlState loop = Zoom.apply(s, m, base());
        assertEquals(Resolution.LOOP, s.level());
        assertEquals(bits(1, 2, 3, 4, 5), loop.on(), "only m1's loop among loops");
        assertArrayEquals(new int[] {3}, loop.roots());
        assertThrows(ConfigException.class, () -> Zoom.zoomIn(Zoom.zoomIn(Zoom.zoomIn(Zoom.zoomIn(Zoom.start(), m, -1), m, 2), m, 3), m, 5));

        s = Zoom.zoomOut(s);
        assertEquals(Resolution.METHOD, s.level());
        assertEquals(method, Zoom.apply(s, m, base()));
        s = Zoom.zoomOut(Zoom.zoomOut(s));
        assertEquals(Resolution.PROCESS, s.level());
        assertEquals(s, Zoom.zoomOut(s), "zoom out at the top stays");
    }

    @Test
    void zoomKeepsRulesAndRejectsLoopsAsTargets() {
        Manifest m = manifest();
        ControlState withRules = base().withRules(1000, 2, 3);
        ControlState z = Zoom.apply(Zoom.start(), m, withRules);
        assertEquals(1000, z.minDurationNanos());
        assertEquals(2, z.minCalls());
        assertThrows(ConfigException.class, () -> Zoom.zoomIn(Zoom.zoomIn(Zoom.start(), m, -1), m, 4));
        assertThrows(ConfigException.class, () -> Zoom.zoomIn(Zoom.zoomIn(Zoom.start(), m, -1), m, 99));
    }

    @Test
    void flagsRootsAndRules() {
        Manifest m = manifest();
        ControlState s = Zoom.setFlags(base(), m, "a.Main.m?()*", true);
        assertEquals(bits(3, 4, 5), s.on(), "m1, its loop and m2; not main");
        s = Zoom.setFlags(s, m, "a.Main.m1()V#loop0", false);
        assertEquals(bits(3, 5), s.on());
        s = Zoom.setFlags(Zoom.setFlags(base(), m, "a.Worker.run()V#loop0", true), m, "a.Main.m1*", false);
        assertTrue(s.isOn(2), "a loop switched on switches its method on");
        assertThrows(ConfigException.class, () -> Zoom.setFlags(base(), m, "nothing.*", true));

        ControlState atLoopLevel = Zoom.apply(Zoom.zoomIn(Zoom.zoomIn(Zoom.zoomIn(Zoom.start(), m, -1), m, 2), m, 3), m, base());
        assertTrue(atLoopLevel.isOn(3) && atLoopLevel.isOn(4));
        assertEquals(bits(1, 2, 5), Zoom.setFlags(atLoopLevel, m, "a.Main.m1()V", false).on(),
                "ctl off on a method switches its loop off too (it could not be switched off otherwise)");

        ControlState r = Zoom.setRoots(base(), m, "a.Worker.run");
        assertArrayEquals(new int[] {2}, r.roots());
        assertTrue(r.isOn(2), "a root records");
        assertEquals(0, Zoom.setRoots(r, m, null).roots().length);

        ControlState rules = Zoom.setRule(base(), "min-duration=5ms");
        assertEquals(5_000_000, rules.minDurationNanos());
        rules = Zoom.setRule(rules, "min-calls=3");
        assertEquals(3, rules.minCalls());
        assertEquals(5_000_000, rules.minDurationNanos(), "other rules kept");
        assertEquals(0, Zoom.setRule(rules, "none").minCalls());
        assertThrows(ConfigException.class, () -> Zoom.setRule(base(), "colour=blue"));
        assertThrows(ConfigException.class, () -> Zoom.setRule(base(), "min-calls=-1"));
        assertThrows(ConfigException.class, () -> Zoom.setRule(base(), "min-duration=soon"));
    }

    @Test
    void switchingAMethodOffSwitchesItsLoopsOffAndALoopOnSwitchesItsMethodOn() {
        Manifest m = manifest();
        ControlState loopLevel = Zoom.apply(Zoom.zoomIn(Zoom.zoomIn(Zoom.zoomIn(Zoom.start(), m, -1), m, 2), m, 3), m, base());
        assertEquals(bits(1, 2, 3, 4, 5), loopLevel.on());

        ControlState off = Zoom.setProbe(loopLevel, m, 3, false);
        assertEquals(bits(1, 2, 5), off.on(), "m1 off, and its loop");
        assertArrayEquals(loopLevel.roots(), off.roots(), "roots are left alone");

        ControlState loopOn = Zoom.setProbe(off, m, 4, true);
        assertEquals(bits(1, 2, 3, 4, 5), loopOn.on(), "the loop on, and its method (a loop records only in its method's frame)");

        ControlState loopOff = Zoom.setProbe(loopLevel, m, 4, false);
        assertEquals(bits(1, 2, 3, 5), loopOff.on(), "a loop off leaves its method on");
        ControlState bothOff = Zoom.setProbe(loopOff, m, 3, false);
        assertEquals(bits(1, 2, 5), bothOff.on());
        assertEquals(bits(1, 2, 3, 5), Zoom.setProbe(bothOff, m, 3, true).on(), "switching a method on leaves its loops as they are");

        // what LiveSession.change applies after any change: the same rule, from the state before
        BitSet methodOff = loopLevel.on();
        methodOff.clear(3);
        assertEquals(bits(1, 2, 5), Zoom.normalize(loopLevel, loopLevel.withOn(methodOff, 7), m).on());
        assertEquals(bits(1, 2, 3, 4, 5), Zoom.normalize(loopLevel.withOn(methodOff, 7), m).on(),
                "without a previous state, a loop that is on switches its method on");
        assertThrows(ConfigException.class, () -> Zoom.setProbe(loopLevel, m, 99, false));
    }
}
