package org.hyprof.export;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Folded stacks ({@code frame;frame;leaf weight}, one line per distinct stack), what
 * flamegraph.pl, speedscope and Perfetto read. The weight is the time spent in the leaf frame
 * itself (µs, rounded); thread names are the root frames. Loops appear as frames of their own.
 */
public final class Folded {
    private Folded() {}

    public static void write(List<Timeline> timelines, PrintWriter out) {
        Map<String, double[]> weights = new TreeMap<>();
        for (Timeline t : timelines) {
            for (Timeline.ThreadCalls th : t.threads) {
                List<Long> childTime = new ArrayList<>();
                Sweep.walk(th.calls(), new Sweep.Visitor() {
                    @Override
                    public void open(Timeline.Call c, Deque<Timeline.Call> s) {
                        childTime.add(0L);
                    }

                    @Override
                    public void close(Timeline.Call c, Deque<Timeline.Call> s) {
                        long dur = c.endNanos() - c.startNanos();
                        long self = dur - childTime.remove(childTime.size() - 1);
                        if (!childTime.isEmpty()) childTime.set(childTime.size() - 1, childTime.get(childTime.size() - 1) + dur);
                        StringBuilder path = new StringBuilder(th.name().replace(';', ':').replace(' ', '_'));
                        for (Iterator<Timeline.Call> it = s.descendingIterator(); it.hasNext(); )
                            path.append(';').append(frame(t, it.next()));
                        path.append(';').append(frame(t, c));
                        weights.computeIfAbsent(path.toString(), k -> new double[1])[0] += self / 1000.0;
                    }
                });
            }
        }
        for (Map.Entry<String, double[]> e : weights.entrySet()) {
            long w = Math.round(e.getValue()[0]);
            if (w > 0) out.println(e.getKey() + " " + w);
        }
        out.flush();
    }

    private static String frame(Timeline t, Timeline.Call c) {
        return ChromeTrace.name(t, c).replace(';', ':').replace(' ', '_');
    }
}
