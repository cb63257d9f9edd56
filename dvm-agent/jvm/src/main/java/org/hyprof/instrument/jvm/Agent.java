package org.hyprof.instrument.jvm;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Arrays;
import java.util.function.IntSupplier;
import org.hyprof.config.ConfigException;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.config.Resolution;
import org.hyprof.instrument.ProbeIds;
import org.hyprof.instrument.ProbeSet;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.ProbeSites;

/**
 * The {@code -javaagent}: starts the runtime with the agent argument's settings and instruments
 * every class that passes the include/exclude patterns as it loads.
 *
 * <p>{@code -javaagent:hyprof-agent.jar=out=s.hyprof,include=com.x.*,mode=events} — settings as in
 * {@link ProfilingConfig}. A bad argument stops the JVM before {@code main} with one line on
 * stderr and exit code 2.
 */
public final class Agent {
    private Agent() {}

    public static void premain(String args, Instrumentation inst) {
        ProfilingConfig cfg;
        try {
            cfg = ProfilingConfig.parseAgentArgs(args);
        } catch (ConfigException e) {
            System.err.println("hyprof: " + e.getMessage());
            System.err.flush();
            Runtime.getRuntime().halt(2);
            return;
        }
        if (!Hyprof.start(cfg.runtime)) {
            Runtime.getRuntime().halt(2);
            return;
        }
        // the JDK's code behind the probe sites generated now, before main, not at the program's
        // first timed calls (their first outlined body cost a cold JVM 6-8 ms)
        ProbeSites.warmUp();
        Transformer t = new Transformer(cfg);
        if (cfg.isHybrid()) {
            try {
                ClassLoader own = Hybrid.loader();
                t.ownLoader = own; // before any of its classes load: they are never instrumented
                inst.addTransformer(t, false);
                Hybrid.start(own, cfg.hybrid, t::methodKey);
                return;
            } catch (Hybrid.StartException e) {
                System.err.println("hyprof: " + e.getMessage());
                System.err.flush();
                Runtime.getRuntime().halt(2);
                return;
            }
        }
        // Loops off unless asked for from the start: their code is placed when one is switched on
        // (LoopPlacer). Loops on from the start cost single-call kernels +55 to +62 % of their time,
        // placed on demand +2 to +6 % (bench/perturbation.sh; bench/README), so that is the default.
        boolean loopsFromStart = cfg.resolutionsGiven() && cfg.resolutions.contains(Resolution.LOOP);
        if (!loopsFromStart && inst.isRetransformClassesSupported()) {
            cfg.resolutions.remove(Resolution.LOOP);
            t.placer = new LoopPlacer(inst);
            inst.addTransformer(t, true);
            Hyprof.onLoopsSwitchedOn(t.placer);
            return;
        }
        inst.addTransformer(t, false);
    }

    public static void agentmain(String args, Instrumentation inst) {
        premain(args, inst);
    }

    /** Rewrites classes as they load; one at a time, so each class gets a contiguous id range. */
    static final class Transformer implements ClassFileTransformer {
        private final ProfilingConfig cfg;
        private final ProbeIds ids = new ProbeIds();
        private final ProbeSet probes;
        private volatile boolean failedOnce;
        /** hyprof's own class loader in a hybrid run (bb-tracer): never instrumented. */
        volatile ClassLoader ownLoader;
        /** Loop code placed on demand (loops off from the start); null: loops always get their code. */
        volatile LoopPlacer placer;

        Transformer(ProfilingConfig cfg) {
            this.cfg = cfg;
            this.probes = new ProbeSet(cfg);
        }

        /** {@code class\tname\tdescriptor} of a method probe placed so far, or null. */
        synchronized String methodKey(int id) {
            ProbeInfo p = probes.probe(id);
            return p == null || p.loop() ? null : p.className() + "\t" + p.methodName() + "\t" + p.descriptor();
        }

        @Override
        public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
                                ProtectionDomain pd, byte[] bytes) {
            if (loader == null || className == null || loader == ownLoader) return null;
            LoopPlacer lp = placer;
            if (redefined != null) return lp == null ? null : again(lp, loader, className, bytes);
            String dotted = className.replace('/', '.');
            if (!cfg.classes.accepts(dotted)) return null;
            try {
                synchronized (this) {
                    if (lp == null) {
                        ClassRewriter.Result r = rewriter(loader).rewrite(bytes, ids::next);
                        boolean newRoots = probes.add(r.probes(), r.skipped());
                        probes.defineInRuntime(r.probes(), r.skipped(), newRoots);
                        return r.bytes();
                    }
                    IdLog taken = new IdLog(ids);
                    ClassRewriter.Result r = rewriter(loader).loopCode(false).rewrite(bytes, taken);
                    if (r.bytes() != null) // before the probes are known: a switch-on finds the class
                        lp.rewritten(className, loader, taken.ids(), r.probes().stream().anyMatch(ProbeInfo::loop));
                    boolean newRoots = probes.add(r.probes(), r.skipped());
                    probes.defineInRuntime(r.probes(), r.skipped(), newRoots);
                    return r.bytes();
                }
            } catch (Throwable t) {
                // the class loads unchanged: instrumentation never breaks the app
                if (!failedOnce) {
                    failedOnce = true;
                    System.err.println("hyprof: " + dotted + " left without probes: " + t);
                }
                return null;
            }
        }

        private ClassRewriter rewriter(ClassLoader loader) {
            return ClassRewriter.forLoader(loader, true).hybrid(cfg.isHybrid()).staticSites(cfg.staticSites).outline(cfg.outline);
        }

        /**
         * A retransformation of a class this agent rewrote (its original bytes again): the same
         * rewrite with the same ids, with its loops' code once they were switched on. Returning
         * null would leave the class without any probe, so a class rewritten before is never
         * returned unrewritten; a class the agent did not rewrite is left alone.
         */
        private byte[] again(LoopPlacer lp, ClassLoader loader, String className, byte[] bytes) {
            LoopPlacer.Rewritten was = lp.find(loader, className);
            if (was == null) return null;
            boolean withLoops = lp.withLoops(was);
            synchronized (this) {
                if (withLoops) {
                    String failed;
                    try {
                        ClassRewriter.Result r = rewriter(loader).rewrite(bytes, was.replay());
                        // the same ids, each once: a method that no longer fits with its loops' code
                        // would be skipped, and the ids after it would name other methods
                        failed = r.bytes() == null ? "nothing rewritten"
                                : sameIds(r, was.ids) ? null : "its rewrite with their code gives other probes (a method too large with them?)";
                        if (failed == null) {
                            lp.done(was, true);
                            return r.bytes();
                        }
                    } catch (Throwable t) {
                        failed = t.toString();
                    }
                    lp.done(was, false);
                    System.err.println("hyprof: the loops of " + className.replace('/', '.') + " stay without probes: " + failed);
                }
                try {
                    return rewriter(loader).loopCode(false).rewrite(bytes, was.replay()).bytes();
                } catch (Throwable t) { // it succeeded before, from the same bytes: not expected
                    System.err.println("hyprof: " + className.replace('/', '.') + " rewritten again failed: " + t);
                    return null;
                }
            }
        }
    }

    /** Whether a rewrite placed exactly the probe ids of the first one. */
    static boolean sameIds(ClassRewriter.Result r, int[] ids) {
        int[] got = r.probes().stream().mapToInt(ProbeInfo::id).sorted().toArray();
        int[] want = ids.clone();
        Arrays.sort(want);
        return Arrays.equals(got, want);
    }

    /** Hands out ids and keeps them, in order. */
    static final class IdLog implements IntSupplier {
        private final ProbeIds ids;
        private int[] taken = new int[8];
        private int n;

        IdLog(ProbeIds ids) {
            this.ids = ids;
        }

        @Override
        public int getAsInt() {
            if (n == taken.length) taken = Arrays.copyOf(taken, n * 2);
            return taken[n++] = ids.next();
        }

        int[] ids() {
            return Arrays.copyOf(taken, n);
        }
    }
}
