package org.hyprof.collector;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.hyprof.runtime.Wire;

/**
 * The bytes of agents' frames the collector holds: received in part, or decoded and waiting for
 * the store. A frame reserves its length when its header arrives and releases it once stored.
 * A connection may hold at most {@code perConnectionBytes} (but always one frame, however big,
 * when it holds nothing), all connections together at most {@code totalBytes} (but always one
 * frame when nothing at all is held: a frame larger than the limits still gets through, alone, so
 * no connection can wait forever). So the bytes held never exceed the larger of
 * {@code totalBytes} and one largest frame ({@link Wire#MAX_FRAME} + 4). A connection whose
 * next frame does not fit stops reading (Netty {@code autoRead} off): its peer's writes wait in
 * TCP buffers and then in the peer, until released bytes let it go on.
 *
 * <p>Thread-safe: reserved on the connections' event loops, released on the store's thread.
 */
final class BufferBudget {
    private final long perConnectionBytes;
    private final long totalBytes;
    private long used;
    /** The most {@link #used} has been, and the most one connection has held (tests check the limits with them). */
    private long peakUsed, peakHeld;
    private final Set<Account> paused = new LinkedHashSet<>();

    BufferBudget(long perConnectionBytes, long totalBytes) {
        if (perConnectionBytes <= 0 || totalBytes < perConnectionBytes)
            throw new IllegalArgumentException("buffer limits " + perConnectionBytes + "/" + totalBytes
                    + " bytes: each must be positive, the total at least one connection's");
        this.perConnectionBytes = perConnectionBytes;
        this.totalBytes = totalBytes;
    }

    /** Bytes reserved now, over all connections. */
    synchronized long used() {
        return used;
    }

    /** The most bytes reserved at once, over all connections, since the start. */
    synchronized long peakUsed() {
        return peakUsed;
    }

    /** The most bytes one connection has held at once since the start. */
    synchronized long peakHeld() {
        return peakHeld;
    }

    /** Connections whose reading is stopped now, waiting for bytes to be released. */
    synchronized int pausedConnections() {
        return paused.size();
    }

    Account account(Channel ch) {
        return new Account(ch);
    }

    /** One connection's share. */
    final class Account {
        private final Channel ch;
        private long held;

        private Account(Channel ch) {
            this.ch = ch;
        }

        /**
         * Reserves a frame's bytes, or stops the connection's reading and returns false (called
         * again when bytes are released elsewhere and reading resumes).
         */
        boolean reserve(int bytes) {
            synchronized (BufferBudget.this) {
                boolean fits = used == 0
                        || (held == 0 ? used + bytes <= totalBytes
                                : held + bytes <= perConnectionBytes && used + bytes <= totalBytes);
                if (fits) {
                    held += bytes;
                    used += bytes;
                    peakHeld = Math.max(peakHeld, held);
                    peakUsed = Math.max(peakUsed, used);
                    paused.remove(this);
                    return true;
                }
                paused.add(this);
            }
            ch.config().setAutoRead(false);
            return false;
        }

        void release(int bytes) {
            if (bytes <= 0) return;
            List<Account> wake;
            synchronized (BufferBudget.this) {
                held -= bytes;
                used -= bytes;
                wake = new ArrayList<>(paused);
                paused.clear();
            }
            for (Account a : wake) a.resume();
        }

        /** Forgets a closed connection's waiting (what it holds is released by its frames' owners). */
        void closed() {
            synchronized (BufferBudget.this) {
                paused.remove(this);
            }
        }

        private void resume() {
            ch.eventLoop().execute(() -> {
                if (!ch.isActive()) return;
                ch.config().setAutoRead(true);
                // the header that did not fit may already be buffered: decode it again
                ch.pipeline().fireChannelRead(Unpooled.EMPTY_BUFFER);
            });
        }
    }
}
