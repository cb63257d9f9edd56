package org.hyprof.correlate;

import org.hyprof.runtime.DurationHistogram;
import org.hyprof.runtime.Stats;
import org.hyprof.store.ProbeStats;

/**
 * A probe's per-call durations merged over threads (and processes): the log₂ histogram every
 * session has, and the fine one ({@link org.hyprof.runtime.Buckets}) when every row with timed
 * calls brought one. Percentiles come from the fine one then, else from log₂ (a row without one
 * would leave its calls out of the fine histogram, so it is not used at all).
 */
public final class CallDistribution {
    private final long[] log2 = new long[Stats.HIST_BUCKETS];
    private final DurationHistogram fine = new DurationHistogram(DurationHistogram.HOST_MAX_SLOTS);
    private boolean fineComplete = true;

    /** Adds one (thread, probe) row's calls. */
    public void add(ProbeStats s) {
        Histogram.add(log2, s.hist());
        if (s.calls() <= 0) return;
        if (s.fine() == null) fineComplete = false;
        else if (fineComplete) fine.merge(s.fine());
    }

    /** The merged log₂ buckets. */
    public long[] log2() {
        return log2;
    }

    /** The merged fine histogram, or null when some row had none (log₂ percentiles only). */
    public DurationHistogram fine() {
        return fineComplete && fine.total() > 0 ? fine : null;
    }

    /** The q-quantile in nanoseconds (0 when there are no timed calls). */
    public long percentile(double q, long minNanos, long maxNanos) {
        DurationHistogram f = fine();
        return f != null ? Histogram.percentile(f, q, minNanos, maxNanos) : Histogram.percentile(log2, q, minNanos, maxNanos);
    }

    /**
     * How far a percentile may be from the exact order statistic, relative: 0.0078 at full
     * resolution, more when a histogram was coarsened, {@link Histogram#LOG2_ERROR_BOUND} from log₂.
     */
    public double errorBound() {
        DurationHistogram f = fine();
        return f != null ? Histogram.errorBound(f.subBits()) : Histogram.LOG2_ERROR_BOUND;
    }
}
