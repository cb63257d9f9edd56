package org.hyprof.instrument.jvm;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import org.hyprof.config.ConfigException;
import org.hyprof.config.ProfilingConfig;
import org.hyprof.instrument.ProbeIds;
import org.hyprof.instrument.ProbeSet;
import org.hyprof.runtime.Hyprof;

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

        Transformer(ProfilingConfig cfg) {
            this.cfg = cfg;
            this.probes = new ProbeSet(cfg);
        }

        /** {@code class\tname\tdescriptor} of a method probe placed so far, or null. */
        synchronized String methodKey(int id) {
            org.hyprof.config.ProbeInfo p = probes.probe(id);
            return p == null || p.loop() ? null : p.className() + "\t" + p.methodName() + "\t" + p.descriptor();
        }

        @Override
        public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
                                ProtectionDomain pd, byte[] bytes) {
            if (loader == null || className == null || redefined != null || loader == ownLoader) return null;
            String dotted = className.replace('/', '.');
            if (!cfg.classes.accepts(dotted)) return null;
            try {
                synchronized (this) {
                    ClassRewriter.Result r = ClassRewriter.forLoader(loader, true).hybrid(cfg.isHybrid())
                            .staticSites(cfg.staticSites).rewrite(bytes, ids::next);
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
    }
}
