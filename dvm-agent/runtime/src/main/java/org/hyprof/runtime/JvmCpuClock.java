package org.hyprof.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The JVM's thread CPU clocks ({@code ThreadMXBean}; on Linux HotSpot a
 * {@code clock_gettime} of the thread's CPU clock). Left out of the DEX runtime: Android has no
 * {@code java.lang.management}; {@link CpuClock#forThisVm} loads it by name.
 */
@JvmOnly
final class JvmCpuClock extends CpuClock {
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();

    JvmCpuClock() {
        if (!mx.isThreadCpuTimeSupported()) throw new UnsupportedOperationException("no thread CPU time");
        if (!mx.isThreadCpuTimeEnabled()) mx.setThreadCpuTimeEnabled(true);
    }

    @Override
    long threadCpuNanos(ThreadState s) {
        return mx.getThreadCpuTime(s.tid);
    }

    @Override
    long currentThreadCpuNanos() {
        return mx.getCurrentThreadCpuTime();
    }
}
