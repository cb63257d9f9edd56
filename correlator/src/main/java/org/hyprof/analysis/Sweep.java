package org.hyprof.analysis;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Walks one thread's calls in nesting order: {@code open} for each call as it starts,
 * {@code close} when it ends, children always closed before their parent. Calls come in start
 * order with their depth, which decides what is still open when the next one starts.
 */
public final class Sweep {
    private Sweep() {}

    public interface Visitor {
        void open(Timeline.Call c, Deque<Timeline.Call> stack);

        void close(Timeline.Call c, Deque<Timeline.Call> stack);
    }

    public static void walk(List<Timeline.Call> calls, Visitor v) {
        Deque<Timeline.Call> stack = new ArrayDeque<>();
        for (Timeline.Call c : calls) {
            while (stack.size() > c.depth()) v.close(stack.pop(), stack);
            v.open(c, stack);
            stack.push(c);
        }
        while (!stack.isEmpty()) v.close(stack.pop(), stack);
    }
}
