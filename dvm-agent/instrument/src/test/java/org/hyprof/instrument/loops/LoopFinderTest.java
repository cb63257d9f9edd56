package org.hyprof.instrument.loops;

import static org.junit.jupiter.api.Assertions.*;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Natural loops on hand-made graphs (the rewriters' own tests cover them on real code). */
class LoopFinderTest {
    private static BitSet nodes(int... n) {
        BitSet b = new BitSet();
        for (int i : n) b.set(i);
        return b;
    }

    @Test
    void nestedLoopsAreFoundWithTheirBodiesAndLatches() {
        // 0 -> 1 (outer header) -> 2 (inner header) -> 3 -> 2 (inner back edge); 3 -> 4 -> 1 (outer back edge); 1 -> 5 exit
        int[][] succ = {{1}, {2, 5}, {3}, {2, 4}, {1}, {}};
        List<LoopFinder.Loop> loops = LoopFinder.find(succ);
        assertEquals(2, loops.size());
        LoopFinder.Loop outer = loops.get(0), inner = loops.get(1);
        assertEquals(1, outer.header);
        assertEquals(nodes(1, 2, 3, 4), outer.body);
        assertEquals(List.of(4), outer.latches);
        assertEquals(2, inner.header);
        assertEquals(nodes(2, 3), inner.body);
        assertEquals(List.of(3), inner.latches);
        assertTrue(outer.contains(inner));
        assertFalse(inner.contains(outer));
        assertFalse(outer.contains(outer));
    }

    @Test
    void aHandlerThatJumpsBackIsNotALoopButAThrowingBodyStaysInside() {
        // 0 -> 1 -> 2 -> 3 (return); handler 4 jumps back to 1. When 0 and 1 both throw to 4, node 1
        // does not dominate 4: no loop (the address-order heuristic would see one). When only 1
        // throws to 4, the retry path is a real loop and the handler is part of its body.
        int[][] normal = {{1}, {2}, {3}, {}, {1}};
        int[][] exceptional = {{4}, {4}, {}, {}, {}};
        assertEquals(List.of(), LoopFinder.find(normal, exceptional), "4 is reached from 0 too: 1 does not dominate it");

        int[][] exceptionalFromBodyOnly = {{}, {4}, {}, {}, {}};
        List<LoopFinder.Loop> loops = LoopFinder.find(normal, exceptionalFromBodyOnly);
        assertEquals(1, loops.size());
        assertEquals(nodes(1, 4), loops.get(0).body, "the handler's path back is the loop's body");
    }

    @Test
    void aHandlerCoveringItselfIsACycleButNotALoop() {
        // javac's synchronized cleanup: handler 2 covers itself (exception edge 2 -> 2)
        int[][] normal = {{1}, {}, {1}};
        int[][] exceptional = {{2}, {}, {2}};
        assertEquals(List.of(), LoopFinder.find(normal, exceptional));
    }

    @Test
    void unreachableCodeAndEmptyGraphsHaveNoLoops() {
        assertEquals(List.of(), LoopFinder.find(new int[0][]));
        int[][] succ = {{}, {2}, {1}}; // 1 <-> 2 unreachable from the entry
        assertEquals(List.of(), LoopFinder.find(succ));
    }
}
