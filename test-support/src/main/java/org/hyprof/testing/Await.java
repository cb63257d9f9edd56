package org.hyprof.testing;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * Waiting in tests, the project's one mechanism: look at something until it is as expected or a
 * deadline passes, then fail naming what was awaited and what was seen last. Tests wait for
 * conditions, never for fixed times, and assert counts, presence and consistency, never elapsed
 * times: a slow, loaded machine only makes them take longer. The deadline is generous (a minute
 * by default) because it costs nothing when the condition comes true and is only reached when
 * something is wrong.
 *
 * <p>A look that throws (an assertion inside it, a command that failed this time) counts as "not
 * yet"; the last such failure is the cause of the error at the deadline.
 */
public final class Await {
    private Await() {}

    /** How long a condition may take by default: far beyond anything a loaded machine needs. */
    public static final Duration DEADLINE = Duration.ofSeconds(60);

    /** The pause between two looks. */
    static final long POLL_MILLIS = 50;

    /** Something to look at; it may throw (that look then counts as not yet). */
    @FunctionalInterface
    public interface Look<T> {
        T get() throws Exception;
    }

    /** A condition to look at; it may throw (that look then counts as not yet). */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Looks until {@code done} accepts what {@code look} returns, within {@link #DEADLINE}; returns that value. */
    public static <T> T until(String what, Look<T> look, Predicate<? super T> done) throws InterruptedException {
        return until(what, DEADLINE, look, done);
    }

    /** Looks until {@code done} accepts what {@code look} returns, within {@code deadline}; returns that value. */
    public static <T> T until(String what, Duration deadline, Look<T> look, Predicate<? super T> done) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        Object last = "nothing yet";
        Throwable failure = null;
        while (true) {
            try {
                T v = look.get();
                if (done.test(v)) return v;
                last = v;
                failure = null;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception | AssertionError e) {
                last = e;
                failure = e;
            }
            if (System.nanoTime() - end >= 0)
                throw new AssertionError("waited " + deadline.toSeconds() + " s for " + what + "; last seen: " + last, failure);
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** Looks until {@code condition} holds, within {@link #DEADLINE}. */
    public static void until(String what, Condition condition) throws InterruptedException {
        until(what, DEADLINE, condition);
    }

    /** Looks until {@code condition} holds, within {@code deadline}. */
    public static void until(String what, Duration deadline, Condition condition) throws InterruptedException {
        until(what, deadline, condition::holds, Boolean::booleanValue);
    }
}
