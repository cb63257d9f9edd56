package org.hyprof.export;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hyprof.analysis.Sweep;
import org.hyprof.analysis.Timeline;

/**
 * Folded stacks ({@code frame;frame;leaf weight}, one line per distinct stack), what
 * flamegraph.pl, speedscope and Perfetto read. The weight is what the leaf frame spent itself:
 * time (µs) or energy (µJ, see {@link Timeline#selfEnergyMicrojoules}), summed per stack and
 * rounded; thread names are the root frames. Loops appear as frames of their own.
 */
public final class Folded {
    private Folded() {}

    /** Time weights (µs). */
    public static void write(List<Timeline> timelines, PrintWriter out) {
        write(timelines, out, false);
    }

    /** Time (µs) or, with {@code energy}, energy (µJ) weights. */
    public static void write(List<Timeline> timelines, PrintWriter out, boolean energy) {
        Map<String, double[]> weights = new TreeMap<>();
        for (Timeline t : timelines) {
            for (Timeline.ThreadCalls th : t.threads) {
                List<Long> childTime = new ArrayList<>();
                double[] selfEnergy = energy ? t.selfEnergyMicrojoules(th) : null;
                Map<Timeline.Call, Integer> index = new java.util.IdentityHashMap<>();
                if (energy) for (int i = 0; i < th.calls().size(); i++) index.put(th.calls().get(i), i);
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
                        weights.computeIfAbsent(path.toString(), k -> new double[1])[0] += energy ? selfEnergy[index.get(c)] : self / 1000.0;
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
