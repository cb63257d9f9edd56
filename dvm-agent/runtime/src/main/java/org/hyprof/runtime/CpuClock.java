package org.hyprof.runtime;

/**
 * Where a thread's CPU time comes from, per VM. On the JVM: {@code ThreadMXBean}
 * ({@link JvmCpuClock}, loaded by name so that the DEX runtime, which leaves it out, still
 * verifies: {@code java.lang.management} does not exist on Android). On Android (and as the
 * fallback on Linux): another thread's time from {@code /proc/self/task/TID/schedstat} (its first
 * field: ns on a CPU), the calling thread's from {@code android.os.Debug.threadCpuTimeNanos()}.
 *
 * <p>Modes ({@code cpuClock} option, see {@link Stats#CPU_CLOCK}): {@link #SAMPLED}, the default,
 * reads each recorded thread's clock every {@code cpuSampleMicros} on a thread of its own
 * ({@code hyprof-cpu}) and lets probes extrapolate from the last reading (a volatile read, no
 * system call: {@link ThreadState#cpuAt}); {@link #DUAL} reads the calling thread's clock at
 * every probe event, as Android's dual-clock method tracing does (a system call per event, its
 * cost calibrated and deducted); {@link #OFF} records no CPU time.
 */
abstract class CpuClock {
    static final int OFF = 0, SAMPLED = 1, DUAL = 2;

    /** The mode's name, as the option and the session header spell it. */
    static String name(int mode) {
        return mode == SAMPLED ? "sampled" : mode == DUAL ? "dual" : "off";
    }

    /** Cumulative CPU time of the thread {@code s} records, ns; -1 when it cannot be read (ended). */
    abstract long threadCpuNanos(ThreadState s);

    /** Cumulative CPU time of the calling thread, ns; -1 when it cannot be read. */
    abstract long currentThreadCpuNanos();

    /** The clock of this VM, or null when it has none (CPU time is then not recorded). */
    static CpuClock forThisVm() {
        if (!Hyprof.isAndroid()) {
            try {
                CpuClock c = (CpuClock) Class.forName("org.hyprof.runtime.JvmCpuClock").newInstance();
                if (c.currentThreadCpuNanos() >= 0) return c;
            } catch (Throwable noManagement) {
                // fall through to /proc
            }
        }
        try {
            CpuClock c = new Proc();
            return c.currentThreadCpuNanos() >= 0 ? c : null;
        } catch (Throwable none) {
            return null;
        }
    }

    /** Android: {@code /proc/self/task/TID/schedstat}; the calling thread through {@code Debug}. */
    static final class Proc extends CpuClock {
        private final java.lang.reflect.Method threadCpu; // android.os.Debug.threadCpuTimeNanos, or null
        private final byte[] buf = new byte[128];          // the sampler thread's only

        Proc() {
            threadCpu = method("android.os.Debug", "threadCpuTimeNanos");
        }

        private static java.lang.reflect.Method method(String cls, String name) {
            try {
                return Class.forName(cls).getMethod(name);
            } catch (Throwable e) {
                return null;
            }
        }

        @Override
        long threadCpuNanos(ThreadState s) { // the thread's OS id: ThreadState.currentOsTid
            return s.osTid > 0 ? schedstat("/proc/self/task/" + s.osTid + "/schedstat") : -1;
        }

        @Override
        long currentThreadCpuNanos() {
            try {
                // allocates a Long per read: dual mode on Android only
                if (threadCpu != null) return ((Long) threadCpu.invoke(null)).longValue();
            } catch (Throwable e) {
                return -1;
            }
            return schedstat("/proc/thread-self/schedstat");
        }

        /** The first field of a schedstat file (ns the task ran), or -1. Bounded read, digits only. */
        private long schedstat(String path) {
            java.io.FileInputStream in = null;
            try {
                in = new java.io.FileInputStream(path);
                int n = in.read(buf, 0, buf.length);
                long v = 0;
                int i = 0;
                for (; i < n && i < 19 && buf[i] >= '0' && buf[i] <= '9'; i++) v = v * 10 + (buf[i] - '0');
                return i == 0 ? -1 : v;
            } catch (Throwable e) {
                return -1;
            } finally {
                if (in != null) try { in.close(); } catch (Throwable ignored) { /* nothing to do */ }
            }
        }
    }
}
