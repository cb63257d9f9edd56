package org.hyprof.runtime;

import java.io.File;
import java.io.IOException;

/**
 * Control API of the runtime, used by the {@code -javaagent}, by the start-up code of offline
 * instrumented programs ({@link Bootstrap}) and later by the live-control client.
 *
 * <p>Probe ids are handed out by the instrumenter; {@link #defineProbes} makes them known here
 * (kind and initial state) before any code carrying them runs. Every setter publishes a new
 * immutable config through one volatile write, so the change is visible at every thread's next
 * probe.
 */
public final class Hyprof {
    private Hyprof() {}

    /** Probe kinds for {@link #defineProbes}. */
    public static final byte METHOD = Config.KIND_METHOD;
    public static final byte LOOP = Config.KIND_LOOP;

    private static final Object LOCK = new Object();
    private static boolean started;
    private static Options options = new Options();
    private static Thread reporter;
    private static Thread shutdownHook;
    private static volatile boolean stopping;
    private static final java.util.List<Runnable> BEFORE_STOP = new java.util.ArrayList<Runnable>();

    /** Runs {@code r} when recording stops, before the session closes (hybrid runs flush their chunks). */
    public static void beforeStop(Runnable r) {
        synchronized (BEFORE_STOP) {
            BEFORE_STOP.add(r);
        }
    }

    /**
     * Starts recording: opens the session file (if {@code o.out} is set), calibrates, starts the
     * background thread that writes snapshots, and registers a shutdown hook that writes the
     * final snapshot. Returns false (with a line on stderr) when the session file cannot be opened.
     */
    public static boolean start(Options o) {
        synchronized (LOCK) {
            if (started) return true;
            options = o;
            stopping = false;
            Recorder.setBudget(o.events ? o.budgetBytes : 0);
            Recorder.keepLast = o.keepLast;
            Recorder.maxAgeNanos = o.keepLast ? o.maxAgeNanos : 0;
            Recorder.setStatsBudget(o.statsBudgetBytes);
            PathTree.setBudget(o.treeNodes);
            Recorder.countOnlyAllowed = !o.timeAll;
            CpuClock cpu = o.cpuClock == CpuClock.OFF ? null : CpuClock.forThisVm();
            if (cpu == null && o.cpuClock != CpuClock.OFF)
                Recorder.report("this VM has no thread CPU clock hyprof can read: CPU time is not recorded");
            Recorder.cpuClock = cpu;
            Recorder.cpuMode = cpu == null ? CpuClock.OFF : o.cpuClock;
            // one reading of the start times: the session file's (and a spill file's) header and the
            // collector's HELLO must name the same run, so that an import finds its process row
            long startWallMillis = System.currentTimeMillis(), startNanos = System.nanoTime();
            String header = header(o, startWallMillis, startNanos);
            Sink file = null, net = null;
            if (o.out != null) {
                try {
                    file = new SessionWriter(new File(o.out), header);
                } catch (IOException e) {
                    Recorder.report("cannot open session file " + o.out + ": " + e.getMessage());
                    return false;
                }
            }
            if (o.connect != null) {
                String token;
                try {
                    token = o.resolveToken();
                } catch (IOException e) {
                    Recorder.report("cannot read the collector token from " + o.tokenFile + ": " + e.getMessage()
                            + " (connecting without one)");
                    token = "";
                }
                SocketClient c = new SocketClient(o.connect, token, new String[] {
                    Long.toString(pid()), processName(o), System.getProperty("java.vm.name") + " "
                        + System.getProperty("java.vm.version"), Long.toString(startWallMillis),
                    Long.toString(startNanos), isAndroid() ? "android" : "jvm"}, o.exitGraceMillis, header, o.spillDir,
                    file != null ? o.out : null);
                c.start();
                net = c;
            }
            if (file != null && net != null) Recorder.setSink(new TeeSink(file, net));
            else if (file != null) Recorder.setSink(file);
            else if (net != null) Recorder.setSink(net);
            Config c = Recorder.config;
            c = c.withEvents(o.events).withRules(o.minDurationNanos, o.minCalls, o.maxDepth);
            Recorder.publish(c);
            setRoots(o.roots);
            installLoopHandOver();
            synchronized (CALIBRATIONS) {
                CALIBRATIONS.clear(); // a run's own measurements only
            }
            if (o.calibrate) calibrate(false);
            started = true;
            startReporter(o);
            if (Recorder.cpuMode == CpuClock.SAMPLED) startCpuSampler(o.cpuSampleMicros);
            shutdownHook = new Thread(new Runnable() {
                @Override
                public void run() {
                    stop();
                }
            }, "hyprof-shutdown");
            try {
                Runtime.getRuntime().addShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                shutdownHook = null;
            }
            return true;
        }
    }

    /** True between {@link #start} and {@link #stop}. */
    public static boolean isStarted() {
        synchronized (LOCK) {
            return started;
        }
    }

    /** The options recording was started with. */
    public static Options options() {
        synchronized (LOCK) {
            return options;
        }
    }

    /**
     * Makes probes {@code firstId … firstId+kinds.length-1} known. {@code on[i]} says whether
     * probe {@code firstId+i} starts on. {@code manifestTsv} (may be null) is the manifest text
     * for these probes, kept in the session so it is self-contained.
     */
    public static void defineProbes(int firstId, byte[] kinds, boolean[] on, String manifestTsv) {
        synchronized (LOCK) {
            Config c = Recorder.config.grow(firstId + kinds.length);
            boolean[] newOn = c.on.clone();
            byte[] newKind = c.kind.clone();
            System.arraycopy(kinds, 0, newKind, firstId, kinds.length);
            System.arraycopy(on, 0, newOn, firstId, on.length);
            Recorder.publish(new Config(newOn, c.root, newKind, c.minDurationNanos, c.minCalls,
                    c.maxDepth, c.events, c.countOnly));
            if (manifestTsv != null && !manifestTsv.isEmpty()) Recorder.sink().manifest(manifestTsv);
        }
    }

    /** Pieces defined so far: key → base id ({@link #piece}). */
    private static final java.util.Map<String, Integer> PIECES = new java.util.HashMap<String, Integer>();

    /**
     * The base id of an instrumented piece (a jar, a DEX file or an APK instrumented on its own):
     * its code calls probe {@code base + local} for the local ids its manifest numbers from 1, so
     * pieces instrumented one by one never share ids. The first call defines the piece's probes
     * from its manifest, {@code META-INF/hyprof/pieces/KEY/manifest.tsv} (an APK:
     * {@code assets/hyprof/pieces/KEY/manifest.tsv}), read through the class loader of
     * {@code anyClass} (a class of the piece), starting recording first as an offline-instrumented
     * program does ({@link Bootstrap}); later calls return the same base. A piece whose manifest
     * cannot be read gets a base all the same (its probes stay unknown, so off) and one line on
     * stderr. Called from the piece's holder class ({@code org.hyprof.pieces.P_KEY}, whose static
     * initializer keeps the base in a final field) and from {@link ProbeSites}.
     */
    public static int piece(String key, Class<?> anyClass) {
        synchronized (PIECES) {
            Integer known = PIECES.get(key);
            if (known != null) return known;
            ClassLoader loader = anyClass != null ? anyClass.getClassLoader() : null;
            String manifest = null;
            try {
                Bootstrap.startForPiece(loader);
                manifest = Bootstrap.pieceManifest(loader, key);
            } catch (Throwable t) {
                Recorder.report("piece " + key + ": " + t);
            }
            int base;
            synchronized (LOCK) {
                base = Math.max(Recorder.config.on.length, 1) - 1; // id 0 stays the calibrator's
                if (manifest == null) {
                    Recorder.report("piece " + key + ": no manifest found (its probes stay off)");
                    Recorder.publish(Recorder.config.grow(base + 1));
                } else {
                    try {
                        Bootstrap.defineFromManifest(manifest, options, base, key);
                    } catch (Throwable t) {
                        Recorder.report("piece " + key + ": damaged manifest (" + t.getMessage() + "); its probes stay off");
                        Recorder.publish(Recorder.config.grow(base + 1));
                    }
                }
            }
            PIECES.put(key, base);
            return base;
        }
    }

    /** Told of loop probes switched on ({@link #onLoopsSwitchedOn}). */
    public interface LoopsSwitchedOn {
        /**
         * {@code ids}: loop probes just switched on (or defined on). Called with the runtime's
         * configuration lock held, on whichever thread changed the flags: hand the work to another
         * thread, never block, never define probes here.
         */
        void switchedOn(int[] ids);
    }

    /**
     * Registers who is told when loop probes are switched on: the JVM agent places a loop's code
     * only then, so loops switched off from the start cost nothing. One listener; null removes it.
     */
    public static void onLoopsSwitchedOn(LoopsSwitchedOn l) {
        Recorder.loopsListener = l;
    }

    /** Number of probe ids known (highest id + 1). */
    public static int probeCount() {
        return Recorder.config.on.length;
    }

    /** Switches one probe on or off. */
    public static void setOn(int id, boolean on) {
        synchronized (LOCK) {
            Config c = Recorder.config;
            if (id < 0 || id >= c.on.length || c.on[id] == on) return;
            boolean[] n = c.on.clone();
            n[id] = on;
            Recorder.publish(c.withFlags(n));
        }
    }

    /** Replaces all flags at once; ids beyond {@code on.length} go off. */
    public static void setFlags(boolean[] on) {
        synchronized (LOCK) {
            Config c = Recorder.config;
            boolean[] n = new boolean[c.on.length];
            System.arraycopy(on, 0, n, 0, Math.min(on.length, n.length));
            Recorder.publish(c.withFlags(n));
        }
    }

    /**
     * Switches probe id to count-only: from its next call on, calls are counted without reading
     * the clock, and their time shows in the caller's exclusive time. Open activations finish as
     * they began (timed). Called by the runtime when a probe's calls prove too short to time.
     */
    public static void countOnly(int id) {
        synchronized (LOCK) {
            Config c = Recorder.config;
            if (id < 0 || id >= c.on.length || c.decidedCountOnly(id)) return;
            boolean[] n = java.util.Arrays.copyOf(c.countOnly, Math.max(c.countOnly.length, id + 1));
            n[id] = true;
            Recorder.publish(c.withCountOnly(n));
        }
    }

    /** Whether probe id is on. */
    public static boolean isOn(int id) {
        Config c = Recorder.config;
        return id >= 0 && id < c.on.length && c.on[id];
    }

    /** Caller filter: only record inside activations of these probes (empty = everywhere). */
    public static void setRoots(int[] ids) {
        synchronized (LOCK) {
            Config c = Recorder.config;
            int max = c.on.length;
            for (int id : ids) max = Math.max(max, id + 1);
            c = c.grow(max);
            boolean[] r = new boolean[c.on.length];
            for (int id : ids) if (id >= 0) r[id] = true;
            Recorder.publish(c.withRoots(r));
        }
    }

    /** Rules: minimum deducted duration, minimum call count, maximum depth (0 = off). */
    public static void setRules(long minDurationNanos, int minCalls, int maxDepth) {
        synchronized (LOCK) {
            Recorder.publish(Recorder.config.withRules(minDurationNanos, minCalls, maxDepth));
        }
    }

    /**
     * Applies a configuration received from the collector: flags, roots, rules, events mode and,
     * when switching events on, the budget. Ids beyond {@code on.length} were defined after the
     * collector computed the configuration: they keep their state.
     */
    public static void applyRemoteConfig(boolean[] on, int[] roots, long minDurationNanos, int minCalls,
                                         int maxDepth, boolean events, long budgetBytes) {
        synchronized (LOCK) {
            Config cur = Recorder.config;
            boolean[] n = cur.on.clone();
            System.arraycopy(on, 0, n, 0, Math.min(on.length, n.length));
            Recorder.publish(cur.withFlags(n));
            setRoots(roots);
            setRules(minDurationNanos, minCalls, maxDepth);
            Config c = Recorder.config;
            if (c.events != events) {
                if (events && Recorder.budgetRemaining() <= 0) Recorder.setBudget(budgetBytes);
                Recorder.publish(c.withEvents(events));
            }
        }
    }

    /**
     * Measures probe costs now and puts them in the session. The first measurement goes into
     * effect; later ones ({@code quick}, periodic) are held together with it: the one in effect is
     * the median by probe-event cost of the last {@code Calibration.KEPT} (7), when it moved beyond
     * the noise of the measurements ({@link Calibration#movedBeyondNoise}). So a GC pause or a JIT
     * recompilation during one measurement, or a few seconds of contention for the core on a
     * shared machine (its costs then read up to 1.5× for a second or two: {@code hyprof calibrate}),
     * does not change how the rest of the run is deducted; a lasting change does once it is most
     * of the measurements kept. A measurement with a cost of 0 (all noise) or a disturbed one
     * (its rounds spread widely) goes into effect only while no other is there. Every measurement
     * goes to the session, and after one that did not go into effect the figures in effect again,
     * stamped with the time. Returns the calibration in effect afterwards.
     */
    public static Calibration calibrate(boolean quick) {
        Calibration cal = Calibrator.measure(quick);
        Recorder.sink().calibration(cal);
        synchronized (CALIBRATIONS) {
            Calibration inEffect = Calibration.choose(CALIBRATIONS, cal, Recorder.calibration);
            Recorder.calibration = inEffect;
            // the session's last calibration record is always the one in effect (reports show it):
            // after a measurement that did not go into effect, its figures again, stamped now (the
            // session orders calibrations by time and keeps one per time)
            if (inEffect != cal) Recorder.sink().calibration(inEffect.restatedAt(System.nanoTime()));
        }
        return Recorder.calibration;
    }

    /** The last measurements with positive costs, oldest first (guarded by itself; see {@link Calibration#choose}). */
    private static final java.util.ArrayList<Calibration> CALIBRATIONS = new java.util.ArrayList<Calibration>();

    /**
     * Measures probe costs now, as {@link #calibrate} does, and returns the measurement without
     * putting it in the session or in effect: for {@code hyprof calibrate}, which repeats it to
     * show how much this machine's probe costs move.
     */
    public static Calibration measureCalibration(boolean quick) {
        return Calibrator.measure(quick);
    }

    /** The calibration in effect. */
    public static Calibration calibration() {
        return Recorder.calibration;
    }

    /**
     * A copy of the aggregates recorded so far by the threads the runtime holds: a thread that has
     * ended is dropped once its final figures are in the session ({@link #statsBytes}).
     */
    public static Snapshot snapshot() {
        return new Snapshot(Recorder.threads(), Recorder.calibration);
    }

    /** Events dropped because the log budget was used up, over all threads. */
    public static long eventDrops() {
        return Recorder.totalEventDrops();
    }

    /**
     * Activations not recorded because the thread needed a new stats page past the stats budget
     * ({@code statsBudget}), over all threads, ended ones included.
     */
    public static long statsDrops() {
        return Recorder.totalStatsDrops();
    }

    /** Bytes of stats pages held by the threads still registered (counted against {@code statsBudget}). */
    public static long statsBytes() {
        return Recorder.statsBytes();
    }

    /** Why recording was switched off, or null while all is well. */
    public static String failure() {
        return Recorder.failure();
    }

    /**
     * Stops recording: switches every probe off, writes what is buffered and the final snapshot,
     * and closes the session file. Safe to call more than once.
     */
    public static void stop() {
        Thread r;
        synchronized (LOCK) {
            if (!started || stopping) return;
            stopping = true;
            r = reporter;
        }
        Runnable[] hooks;
        synchronized (BEFORE_STOP) {
            hooks = BEFORE_STOP.toArray(new Runnable[0]);
        }
        for (Runnable h : hooks) {
            try {
                h.run();
            } catch (Throwable t) {
                Recorder.report("a shutdown step failed: " + t);
            }
        }
        Recorder.reporter = null;
        Thread sampler = cpuSampler;
        cpuSampler = null;
        if (sampler != null) sampler.interrupt();
        if (r != null) {
            r.interrupt();
            try {
                r.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (LOCK) {
            Config c = Recorder.config;
            Recorder.publish(c.withFlags(new boolean[c.on.length]));
            // threads may still be inside a probe: their buffers are read as they are
            try {
                for (ThreadState t : Recorder.threads()) t.log.flush();
                Sink s = Recorder.sink();
                long overwritten = Recorder.totalEventOverwrites();
                if (options != null && options.events && options.keepLast && overwritten > 0) // nothing to say when the budget was enough
                    s.error(SessionFormat.INFO_PREFIX + "keep last: " + overwritten + " of the dropped events were overwritten by newer ones (the log keeps the last"
                            + " events within its budget of " + options.budgetBytes + " bytes"
                            + (options.maxAgeNanos > 0 ? " and " + options.maxAgeNanos / 1000000 + " ms" : "") + ")");
                noteStatsBudget(s);
                long statsDrops = Recorder.totalStatsDrops();
                if (statsDrops > 0)
                    s.error(statsDrops + " activations were not recorded: the stats budget of " + Recorder.statsBudget()
                            + " bytes was used up (statsBudget)");
                s.close();
            } catch (Throwable t) {
                Recorder.report("could not finish the session cleanly: " + t); // never a stack trace into the app's output
            }
            Recorder.setSink(new Recorder.DiscardSink());
            if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdownHook);
                } catch (IllegalStateException ignored) {
                    // already shutting down
                }
            }
            started = false;
        }
    }

    /** Stops and forgets everything recorded (tests). */
    public static void reset() {
        stop();
        synchronized (CALIBRATIONS) {
            CALIBRATIONS.clear();
        }
        synchronized (LOCK) {
            Recorder.reset();
            Recorder.loopsListener = null;
            options = new Options();
        }
        synchronized (PIECES) {
            PIECES.clear();
        }
    }

    /**
     * The {@code hyprof-cpu} daemon thread: {@link Recorder#sampleCpu} every {@code periodMicros}.
     * Its own cost is a clock read per live recorded thread per period (about 1 µs each on a JVM,
     * a /proc read on Android), on a core the app may not be using; the probes pay a volatile read.
     */
    private static void startCpuSampler(final long periodMicros) {
        Recorder.cpuStaleNanos = 2 * periodMicros * 1000L;
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {
                try {
                    // its own generation: a sampler of an earlier start that is still parked when
                    // recording restarts (tests) ends instead of sampling alongside the new one
                    while (cpuSampler == Thread.currentThread() && !stopping) {
                        java.util.concurrent.locks.LockSupport.parkNanos(periodMicros * 1000L);
                        Recorder.sampleCpu();
                    }
                } catch (Throwable e) {
                    Recorder.internalFailure(e);
                }
            }
        }, "hyprof-cpu");
        t.setDaemon(true);
        cpuSampler = t;
        t.start();
    }

    /** The running CPU sampler, or null; {@link #stop} clears it. */
    private static volatile Thread cpuSampler;

    private static void startReporter(final Options o) {
        reporter = new Thread(new Runnable() {
            @Override
            public void run() {
                long nextSnapshot = System.nanoTime() + o.snapshotMillis * 1000_000L;
                long nextCal = o.recalibrateMillis > 0 ? System.nanoTime() + o.recalibrateMillis * 1000_000L : Long.MAX_VALUE;
                Recorder.reporter = Thread.currentThread();
                long roundNanos = Math.max(1, Math.min(50, o.snapshotMillis / 4)) * 1000_000L;
                while (!stopping) {
                    try {
                        Sink s = Recorder.sink();
                        // a round every roundNanos, or sooner when threads need stats pages past
                        // half the budget (Recorder.reserveStats): ended threads give theirs back
                        java.util.concurrent.locks.LockSupport.parkNanos(roundNanos);
                        if (Thread.interrupted()) return;
                        Recorder.reporterAwake();
                        s.drain();
                        retireEnded(s);
                        noteStatsBudget(s);
                        long now = System.nanoTime();
                        if (now >= nextSnapshot) {
                            s.snapshot(true);
                            nextSnapshot = now + o.snapshotMillis * 1000_000L;
                        }
                        if (now >= nextCal && !stopping) {
                            calibrate(true);
                            nextCal = System.nanoTime() + o.recalibrateMillis * 1000_000L;
                        }
                    } catch (Throwable t) {
                        Recorder.internalFailure(t);
                        return;
                    }
                }
            }
        }, "hyprof-recorder");
        reporter.setDaemon(true);
        reporter.start();
    }

    /**
     * Threads that have ended: their last events and final figures go to the sink, then their
     * states are dropped, so the runtime's memory follows the live threads, not all threads ever.
     */
    static void retireEnded(Sink s) {
        ThreadState[] ended = Recorder.deadThreads();
        if (ended.length == 0) return;
        for (ThreadState t : ended) t.log.flush(); // the thread is gone: nothing else writes its log
        s.retire(ended);
        Recorder.retire(ended);
    }

    private static void noteStatsBudget(Sink s) {
        String note = Recorder.statsBudgetNote();
        if (note != null) {
            Recorder.report(note);
            s.error(note);
        }
    }

    private static String header(Options o, long startWallMillis, long startNanos) {
        StringBuilder b = new StringBuilder();
        b.append("format=").append(SessionFormat.VERSION).append('\n');
        b.append("pid=").append(pid()).append('\n');
        b.append("process=").append(processName(o)).append('\n');
        b.append("startWallMillis=").append(startWallMillis).append('\n');
        b.append("startNanos=").append(startNanos).append('\n');
        b.append("mode=").append(o.events ? "events" : "aggregate").append('\n');
        b.append("cpuClock=").append(CpuClock.name(Recorder.cpuMode)).append('\n');
        b.append("budgetBytes=").append(o.events ? o.budgetBytes : 0).append('\n');
        if (o.events) b.append("keep=").append(o.keepLast ? "last" : "first").append('\n');
        b.append("vm=").append(System.getProperty("java.vm.name")).append(' ')
                .append(System.getProperty("java.vm.version")).append('\n');
        return b.toString();
    }

    /** The process id, from /proc (Linux and Android), or -1. */
    static long pid() {
        try {
            return Long.parseLong(new File("/proc/self").getCanonicalFile().getName());
        } catch (Throwable e) {
            return -1;
        }
    }

    /**
     * On the JVM, the code's hand-overs of count-only loops reach the recorder through
     * {@link OutOfLineLoops} (its class initialization installs it; loaded by name: the DEX runtime
     * leaves it out). Before the calibration, which measures the hand-over through what is installed.
     */
    private static void installLoopHandOver() {
        if (isAndroid()) return;
        try {
            Class.forName("org.hyprof.runtime.OutOfLineLoops");
        } catch (Throwable t) {
            Recorder.report("loop probes stay inlined: " + t);
        }
        try {
            Class.forName("org.hyprof.runtime.CountSiteTrees"); // the calibrator's count-only trees, through a site
        } catch (Throwable t) {
            Recorder.report("count-only calls calibrated through the static entry: " + t);
        }
    }

    static boolean isAndroid() {
        return System.getProperty("java.vm.name", "").toLowerCase().contains("dalvik");
    }

    private static String processName(Options o) {
        if (o.process != null) return o.process;
        String cmd = System.getProperty("sun.java.command");
        if (cmd != null && !cmd.isEmpty()) {
            int sp = cmd.indexOf(' ');
            return sp > 0 ? cmd.substring(0, sp) : cmd;
        }
        return "pid-" + pid();
    }
}
