package org.hyprof.instrument.jvm;

import java.lang.instrument.Instrumentation;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.IntSupplier;
import org.hyprof.runtime.Hyprof;

/**
 * Loop code placed on demand, for agent runs whose loop probes start off ({@code --resolution}
 * without {@code loop}). A class is first rewritten with its loops' probe ids and manifest
 * entries but none of their code ({@link ClassRewriter#loopCode}); when the runtime says one of
 * its loop probes was switched on ({@link Hyprof#onLoopsSwitchedOn}: {@code ctl on}, a zoom step
 * to loops), this class's thread retransforms the class, which the agent rewrites again from its
 * original bytes with the same ids, loops' code included.
 *
 * <p>Why: a loop probe compiled in and switched off is not free in a cold program. The interpreter
 * calls its site on every loop entry, and every method carries its loops' code, so it compiles
 * later (single-call kernels: +24 % of their time with the loops' code in and off, none without).
 *
 * <p>Calls already running keep the code they started in; the change applies from each method's
 * next call (and to a loop running in OSR-compiled code at its method's next call). Once placed, a
 * loop's code stays: switched off again, it costs what an off probe costs.
 */
final class LoopPlacer implements Hyprof.LoopsSwitchedOn {
    /** An instrumented class: the ids its rewrite handed out, in order, and whether its loops have code. */
    static final class Rewritten {
        final String internalName;
        final WeakReference<ClassLoader> loader;
        final int[] ids;
        final boolean hasLoops;
        /** Guarded by the placer: waiting (its loops off and without code), queued, placed, or failed. */
        int state;

        Rewritten(String internalName, ClassLoader loader, int[] ids, boolean hasLoops) {
            this.internalName = internalName;
            this.loader = new WeakReference<>(loader);
            this.ids = ids;
            this.hasLoops = hasLoops;
        }

        /** The ids again, in the order the first rewrite took them; a rewrite that asks for more fails. */
        IntSupplier replay() {
            int[] next = {0};
            return () -> {
                if (next[0] == ids.length) throw new IllegalStateException("the rewrite asks for more probe ids than the first one took");
                return ids[next[0]++];
            };
        }
    }

    static final int WAITING = 0, QUEUED = 1, PLACED = 2, FAILED = 3;

    private final Instrumentation inst;
    /** Every instrumented class by its first id (ids of one class are one range: the agent rewrites one class at a time). */
    private final TreeMap<Integer, Rewritten> byFirstId = new TreeMap<>();
    private final Map<String, List<Rewritten>> byName = new HashMap<>();
    private final LinkedBlockingQueue<Rewritten> queue = new LinkedBlockingQueue<>();

    LoopPlacer(Instrumentation inst) {
        this.inst = inst;
        Thread t = new Thread(this::run, "hyprof-loop-placer");
        t.setDaemon(true);
        t.start();
    }

    /** Remembers a class the agent rewrote without loop code. */
    synchronized void rewritten(String internalName, ClassLoader loader, int[] ids, boolean hasLoops) {
        if (ids.length == 0) return;
        Rewritten r = new Rewritten(internalName, loader, ids, hasLoops);
        byFirstId.put(ids[0], r);
        byName.computeIfAbsent(internalName, k -> new ArrayList<>(1)).add(r);
    }

    /** The class defined by {@code loader} under this name, if the agent rewrote it. */
    synchronized Rewritten find(ClassLoader loader, String internalName) {
        List<Rewritten> l = byName.get(internalName);
        if (l == null) return null;
        for (Rewritten r : l) if (r.loader.get() == loader) return r;
        return null;
    }

    /** Whether a rewrite of this class now includes its loops' code (queued or placed). */
    synchronized boolean withLoops(Rewritten r) {
        return r.state == QUEUED || r.state == PLACED;
    }

    synchronized void done(Rewritten r, boolean placed) {
        r.state = placed ? PLACED : FAILED;
    }

    /** Runs under the runtime's configuration lock: only queues. */
    @Override
    public void switchedOn(int[] ids) {
        synchronized (this) {
            for (int id : ids) {
                Map.Entry<Integer, Rewritten> e = byFirstId.floorEntry(id);
                if (e == null) continue;
                Rewritten r = e.getValue();
                if (!r.hasLoops || r.state != WAITING || id > r.ids[r.ids.length - 1]) continue;
                r.state = QUEUED;
                queue.add(r);
            }
        }
    }

    private void run() {
        while (true) {
            List<Rewritten> batch = new ArrayList<>();
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                return;
            }
            queue.drainTo(batch);
            List<Class<?>> classes = new ArrayList<>(batch.size());
            List<Rewritten> found = new ArrayList<>(batch.size());
            for (Rewritten r : batch) {
                Class<?> c = loaded(r);
                if (c == null) { done(r, false); continue; } // its loader is gone: nothing runs it
                classes.add(c);
                found.add(r);
            }
            if (classes.isEmpty()) continue;
            try {
                inst.retransformClasses(classes.toArray(new Class<?>[0]));
            } catch (Throwable t) {
                // one class the JVM refused takes the batch with it: try each alone, to name it
                for (int i = 0; i < classes.size(); i++) {
                    try {
                        inst.retransformClasses(classes.get(i));
                    } catch (Throwable one) {
                        done(found.get(i), false);
                        System.err.println("hyprof: the loops of " + classes.get(i).getName() + " stay without probes: " + one);
                    }
                }
            }
        }
    }

    /** The loaded class a record stands for, or null. */
    private Class<?> loaded(Rewritten r) {
        ClassLoader loader = r.loader.get();
        if (loader == null) return null;
        String dotted = r.internalName.replace('/', '.');
        try {
            Class<?> c = Class.forName(dotted, false, loader);
            if (c.getClassLoader() == loader) return c;
        } catch (Throwable ignored) {
            // not found by name through its own loader (a loader that does not delegate as usual): look it up below
        }
        for (Class<?> c : inst.getAllLoadedClasses())
            if (c.getClassLoader() == loader && c.getName().equals(dotted)) return c;
        return null;
    }
}
