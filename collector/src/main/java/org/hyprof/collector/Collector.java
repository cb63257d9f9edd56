package org.hyprof.collector;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.buffer.Unpooled;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.DecoderException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.hyprof.control.Ack;
import org.hyprof.control.Bye;
import org.hyprof.control.Chunk;
import org.hyprof.control.Command;
import org.hyprof.control.ControlState;
import org.hyprof.control.Frame;
import org.hyprof.control.FrameException;
import org.hyprof.control.Hello;
import org.hyprof.control.Reject;
import org.hyprof.control.Result;
import org.hyprof.control.StateFrame;
import org.hyprof.control.Welcome;
import org.hyprof.correlate.Printable;
import org.hyprof.runtime.Wire;

/**
 * The collector agents connect to (Netty). Each agent connection is a process of the session;
 * {@code hyprof ctl} connections run commands. A connection that breaks the protocol (no HELLO
 * first, wrong version or token, malformed or oversized frame, a frame its role may not send, no
 * HELLO within {@link #HELLO_TIMEOUT_MILLIS}) is closed with a logged reason; the others go on.
 *
 * <p>Limits, all checked before anything is buffered or allocated (see {@link FrameCodec}): before
 * HELLO only a HELLO of at most {@link Wire#MAX_HELLO_FRAME} bytes; agents' frames within a
 * {@link BufferBudget} ({@link #CONNECTION_BUFFER_BYTES} per connection, {@link #TOTAL_BUFFER_BYTES}
 * in all) whose excess stops the connection's reading until the store catches up; a ctl
 * connection idle for {@link #CTL_IDLE_MILLIS} with no command running is closed. Agents' idle
 * connections are not (a program may be idle, sending nothing but its periodic snapshots).
 *
 * <p>Outbound too: what the collector sends a peer that does not read waits in that connection's
 * Netty queue, so the queue is bounded. Above {@link #OUTBOUND_HIGH_WATER_BYTES} queued the
 * connection is unwritable: a ctl connection then stops being read (no new commands) until it is
 * below {@link #OUTBOUND_LOW_WATER_BYTES} again; a frame that would take the queue past
 * {@link #OUTBOUND_MAX_BYTES} (unless the queue is empty), or a connection unwritable for {@link #OUTBOUND_STALL_MILLIS}, closes
 * the connection (an agent reconnects and sends again what was not acknowledged). A ctl may have
 * at most {@link #MAX_CTL_COMMANDS_RUNNING} commands unanswered, and a reply's output is cut at
 * {@link #MAX_RESULT_OUTPUT_BYTES} (the largest control frame a client reads).
 *
 * <p>Agents' frames are handled in order on one thread, {@code hyprof-store} (the store takes
 * one writer), never on the network threads; a chunk is acknowledged once stored. Listens on
 * loopback unless told otherwise.
 */
public final class Collector implements AutoCloseable {

    /**
     * How long a new connection has to complete its HELLO frame before it is closed (a client that
     * connects and sends nothing, or trickles bytes, would otherwise hold its connection forever).
     */
    public static final long HELLO_TIMEOUT_MILLIS = 5_000;

    /** How long a ctl connection may stay idle, with no command running, before it is closed. */
    public static final long CTL_IDLE_MILLIS = 60_000;

    /** Bytes of agents' frames one connection may hold (received or waiting for the store). */
    public static final long CONNECTION_BUFFER_BYTES = 2L * (Wire.MAX_FRAME + 4);

    /** Bytes of agents' frames all connections together may hold. */
    public static final long TOTAL_BUFFER_BYTES = 256L << 20;

    /** Bytes queued for a peer above which its connection is unwritable (Netty's high water mark). */
    public static final int OUTBOUND_HIGH_WATER_BYTES = 2 << 20;

    /** Bytes queued for a peer below which an unwritable connection is writable again. */
    public static final int OUTBOUND_LOW_WATER_BYTES = 512 << 10;

    /** Bytes queued for a peer beyond which the connection is closed: the peer is not reading. */
    public static final long OUTBOUND_MAX_BYTES = 16L << 20;

    /** How long a connection may stay unwritable (its peer not reading) before it is closed. */
    public static final long OUTBOUND_STALL_MILLIS = 30_000;

    /** Commands one ctl connection may have unanswered; one more closes it (clients wait for each). */
    public static final int MAX_CTL_COMMANDS_RUNNING = 8;

    /**
     * UTF-8 bytes of a ctl reply's output at most: a longer output is cut there with a line saying
     * so, so that the RESULT frame stays within {@link Wire#MAX_CONTROL_FRAME}, which clients read.
     */
    public static final int MAX_RESULT_OUTPUT_BYTES = Wire.MAX_CONTROL_FRAME - 4096;

    /** The reason given to agents' connections when the collector itself stops. */
    public static final String STOPPED = "collector stopped";

    /** An open connection, as the owner of agents sees it. */
    public interface Connection {
        /** Sends a frame if the connection is still open (never blocks). */
        void send(Frame f);

        /** The peer's address, for messages. */
        String remote();

        /** Closes the connection; {@code reason} is logged and passed to {@link Agents#disconnected}. */
        void close(String reason);
    }

    /** What happens to agents and their data (the session store implements it). */
    public interface Agents {
        /** A new agent connection; returns its process id in the session (throw to reject). */
        long connected(Hello hello, Connection connection);

        /**
         * The secret the agent of this process presents to resume its row when it connects again
         * (sent in WELCOME; see {@link Hello#resume()}).
         */
        String resumeSecret(long processId);

        /**
         * Recorded data, from {@code connection}; stored before the chunk is acknowledged. Data
         * from a connection the process has replaced since is not stored (the agent sends it
         * again on its new connection).
         */
        void chunk(long processId, Connection connection, Chunk chunk);

        /** The agent's control state in effect. */
        void state(long processId, ControlState state);

        /**
         * A connection of this process ended; {@code clean} when the agent said BYE. The process
         * may have connected again already (the new connection is not {@code connection}).
         */
        void disconnected(long processId, Connection connection, String reason, boolean clean);
    }

    /** Runs ctl commands (off the network threads: a command may wait for an agent). */
    public interface Commands {
        Result execute(List<String> args);
    }

    private final String host;
    private final int port;
    private final byte[] token;
    private final Agents agents;
    private final Commands commands;
    private final Consumer<String> log;
    private EventLoopGroup boss, workers;
    private final ExecutorService commandRunner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "hyprof-ctl-commands");
        t.setDaemon(true);
        return t;
    });
    /** Agents' frames, in order, off the network threads (the store takes one writer). */
    private final ExecutorService store = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "hyprof-store");
        t.setDaemon(true);
        return t;
    });
    private Channel server;
    private volatile long helloTimeoutMillis = HELLO_TIMEOUT_MILLIS;
    private volatile long ctlIdleMillis = CTL_IDLE_MILLIS;
    private BufferBudget budget = new BufferBudget(CONNECTION_BUFFER_BYTES, TOTAL_BUFFER_BYTES);
    private int outboundLowWaterBytes = OUTBOUND_LOW_WATER_BYTES, outboundHighWaterBytes = OUTBOUND_HIGH_WATER_BYTES;
    private long outboundMaxBytes = OUTBOUND_MAX_BYTES;
    private volatile long outboundStallMillis = OUTBOUND_STALL_MILLIS;
    private final java.util.concurrent.atomic.AtomicLong peakOutbound = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean closing;

    /**
     * @param token required in every HELLO when non-empty
     * @param log   receives one line per notable event (rejections, protocol errors, disconnects)
     */
    public Collector(String host, int port, String token, Agents agents, Commands commands, Consumer<String> log) {
        this.host = host;
        this.port = port;
        this.token = token == null ? new byte[0] : token.getBytes(StandardCharsets.UTF_8);
        this.agents = agents;
        this.commands = commands;
        this.log = log;
    }

    /** Sets how long a new connection has to send its HELLO (default {@link #HELLO_TIMEOUT_MILLIS}); before {@link #start}. */
    public Collector helloTimeoutMillis(long millis) {
        if (millis <= 0) throw new IllegalArgumentException("hello timeout " + millis + " ms: must be positive");
        this.helloTimeoutMillis = millis;
        return this;
    }

    /** Sets how long an idle ctl connection stays open (default {@link #CTL_IDLE_MILLIS}); before {@link #start}. */
    public Collector ctlIdleMillis(long millis) {
        if (millis <= 0) throw new IllegalArgumentException("ctl idle timeout " + millis + " ms: must be positive");
        this.ctlIdleMillis = millis;
        return this;
    }

    /**
     * Sets the buffered-bytes limits (defaults {@link #CONNECTION_BUFFER_BYTES} and
     * {@link #TOTAL_BUFFER_BYTES}), positive, the total at least one connection's. A frame larger
     * than a limit is still taken when nothing else is held (alone); before {@link #start}.
     */
    public Collector bufferLimits(long perConnectionBytes, long totalBytes) {
        this.budget = new BufferBudget(perConnectionBytes, totalBytes);
        return this;
    }

    /**
     * Sets the outbound limits (defaults {@link #OUTBOUND_LOW_WATER_BYTES},
     * {@link #OUTBOUND_HIGH_WATER_BYTES}, {@link #OUTBOUND_MAX_BYTES}, {@link #OUTBOUND_STALL_MILLIS}):
     * {@code 0 < lowWater <= highWater <= maxQueued}, {@code stallMillis > 0}. A frame larger than
     * {@code maxQueued} is still sent when nothing else is queued; before {@link #start}.
     */
    public Collector outboundLimits(int lowWaterBytes, int highWaterBytes, long maxQueuedBytes, long stallMillis) {
        if (lowWaterBytes <= 0 || highWaterBytes < lowWaterBytes || maxQueuedBytes < highWaterBytes || stallMillis <= 0)
            throw new IllegalArgumentException("outbound limits " + lowWaterBytes + "/" + highWaterBytes + "/" + maxQueuedBytes
                    + " bytes, " + stallMillis + " ms: need 0 < low <= high <= max and a positive stall time");
        this.outboundLowWaterBytes = lowWaterBytes;
        this.outboundHighWaterBytes = highWaterBytes;
        this.outboundMaxBytes = maxQueuedBytes;
        this.outboundStallMillis = stallMillis;
        return this;
    }

    /** Bytes of agents' frames held now (received in part or waiting for the store), for tests and status. */
    public long bufferedBytes() {
        return budget.used();
    }

    /** The most bytes of agents' frames held at once since the start (all connections). */
    public long peakBufferedBytes() {
        return budget.peakUsed();
    }

    /** The most bytes of agents' frames one connection has held at once since the start. */
    public long peakConnectionBufferedBytes() {
        return budget.peakHeld();
    }

    /** The most bytes queued for one peer (frames sent, not yet taken by its socket) since the start. */
    public long peakOutboundQueuedBytes() {
        return peakOutbound.get();
    }

    /** Connections whose reading is stopped now because their frames do not fit the buffer limits. */
    public int connectionsWaitingForBuffer() {
        return budget.pausedConnections();
    }

    /** Binds and returns the port (useful with port 0). */
    public int start() throws InterruptedException {
        boss = new NioEventLoopGroup(1);
        workers = new NioEventLoopGroup(2);
        ServerBootstrap b = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(outboundLowWaterBytes, outboundHighWaterBytes))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        BufferBudget.Account account = budget.account(ch);
                        FrameCodec codec = new FrameCodec(account);
                        ch.pipeline().addLast(codec, new Handler(codec, account));
                    }
                });
        server = b.bind(new InetSocketAddress(host, port)).sync().channel();
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /**
     * Stops listening and closes every connection; each agent's process gets
     * {@link Agents#disconnected} with reason {@link #STOPPED} before this returns.
     */
    @Override
    public void close() {
        closing = true;
        if (server != null) server.close().awaitUninterruptibly();
        if (workers != null) workers.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).awaitUninterruptibly();
        if (boss != null) boss.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).awaitUninterruptibly();
        commandRunner.shutdownNow();
        // what the closed connections handed over is stored, their ends recorded, before we return
        store.shutdown();
        try {
            store.awaitTermination(STORE_DRAIN_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code r} with its output cut to {@link #MAX_RESULT_OUTPUT_BYTES} UTF-8 bytes, saying so. */
    static Result bounded(Result r) {
        String out = r.output();
        // a char takes at most 3 UTF-8 bytes (a surrogate pair 4 for 2 chars): most outputs need no count
        if ((long) out.length() * 3 <= MAX_RESULT_OUTPUT_BYTES) return r;
        byte[] utf8 = out.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= MAX_RESULT_OUTPUT_BYTES) return r;
        String note = "\n[hyprof: output cut at " + MAX_RESULT_OUTPUT_BYTES + " of its " + utf8.length
                + " bytes; hyprof report on the session database prints all of it]\n";
        int end = MAX_RESULT_OUTPUT_BYTES - note.length();
        while (end > 0 && (utf8[end] & 0xC0) == 0x80) end--; // not inside a character
        return new Result(r.exitCode(), new String(utf8, 0, end, StandardCharsets.UTF_8) + note);
    }

    /** How long {@link #close} waits for frames already received to be stored. */
    private static final long STORE_DRAIN_SECONDS = 30;

    private final class Handler extends SimpleChannelInboundHandler<FrameCodec.Inbound> implements Connection {
        private final FrameCodec codec;
        private final BufferBudget.Account account;
        private Channel ch;
        private Hello hello;
        private long processId = -1;
        private volatile boolean clean;
        private volatile String closeReason = "connection closed";
        private ScheduledFuture<?> helloTimeout;
        /** ctl: commands sent and not answered yet (the idle timeout waits for them). */
        private final java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        private volatile long lastActivityNanos = System.nanoTime();
        private ScheduledFuture<?> idleCheck;
        /** While the connection is unwritable: closes it when it stays so (see {@link #OUTBOUND_STALL_MILLIS}). */
        private ScheduledFuture<?> stallCheck;
        /** Set when the connection broke the protocol: frames still queued for the store are dropped. */
        private volatile boolean failed;

        Handler(FrameCodec codec, BufferBudget.Account account) {
            this.codec = codec;
            this.account = account;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ch = ctx.channel();
            long millis = helloTimeoutMillis;
            helloTimeout = ctx.executor().schedule(() -> {
                if (hello == null && ch.isActive()) protocolError(ctx, "no HELLO within " + millis + " ms");
            }, millis, TimeUnit.MILLISECONDS);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FrameCodec.Inbound in) {
            Frame f = in.frame();
            lastActivityNanos = System.nanoTime();
            if (hello == null) {
                account.release(in.budgetBytes());
                if (!(f instanceof Hello h)) { reject(ctx, "first frame must be HELLO, got type " + f.type()); return; }
                if (token.length > 0 && !MessageDigest.isEqual(token, h.token().getBytes(StandardCharsets.UTF_8))) {
                    reject(ctx, "wrong token");
                    return;
                }
                hello = h;
                helloTimeout.cancel(false);
                if (h.role().equals(Wire.ROLE_CTL)) {
                    codec.admitted(FrameCodec.Phase.CTL);
                    send(new Welcome(0, "hyprof collector"));
                    long idle = ctlIdleMillis;
                    idleCheck = ctx.executor().scheduleAtFixedRate(() -> {
                        if (running.get() == 0 && System.nanoTime() - lastActivityNanos >= idle * 1_000_000)
                            protocolError(ctx, "ctl idle for " + idle + " ms");
                    }, idle, Math.max(1, idle / 4), TimeUnit.MILLISECONDS);
                } else if (h.role().equals(Wire.ROLE_AGENT)) {
                    try {
                        processId = agents.connected(h, this);
                    } catch (RuntimeException e) {
                        reject(ctx, "cannot take this agent: " + e.getMessage());
                        return;
                    }
                    codec.admitted(FrameCodec.Phase.AGENT);
                    log.accept(remote() + ": agent " + Printable.of(h.process()) + " (pid " + h.pid() + ") connected as process "
                            + processId);
                    send(new Welcome(processId, "hyprof collector", agents.resumeSecret(processId)));
                } else {
                    reject(ctx, "unknown role '" + Printable.of(h.role()) + "'");
                }
                return;
            }
            if (hello.role().equals(Wire.ROLE_CTL)) {
                account.release(in.budgetBytes());
                if (f instanceof Command c) {
                    if (running.incrementAndGet() > MAX_CTL_COMMANDS_RUNNING) {
                        protocolError(ctx, "ctl sent more than " + MAX_CTL_COMMANDS_RUNNING + " commands without reading their answers");
                        return;
                    }
                    commandRunner.execute(() -> {
                        Result r;
                        try {
                            r = commands.execute(c.args());
                        } catch (RuntimeException e) {
                            r = new Result(70, "internal error: " + e);
                        }
                        lastActivityNanos = System.nanoTime();
                        running.decrementAndGet();
                        send(bounded(r));
                    });
                } else if (f instanceof Bye) {
                    ctx.close();
                } else {
                    protocolError(ctx, "ctl sent frame type " + f.type());
                }
                return;
            }
            if (f instanceof Bye b) {
                account.release(in.budgetBytes());
                clean = true;
                closeReason = "agent said bye: " + Printable.of(b.reason());
                ctx.close();
                return;
            }
            // in order, off the event loop; the budget bytes go back once stored (and reading
            // resumes if it had stopped for them)
            store.execute(() -> {
                try {
                    if (failed) return;
                    if (f instanceof Chunk c) {
                        agents.chunk(processId, this, c);
                        send(new Ack(c.seq()));
                    } else if (f instanceof StateFrame st) {
                        agents.state(processId, st.state());
                    }
                } catch (RuntimeException e) {
                    failed = true;
                    ch.eventLoop().execute(() -> protocolError(ctx, e instanceof IllegalArgumentException ? e.getMessage() : e.toString()));
                } finally {
                    account.release(in.budgetBytes());
                }
            });
        }

        private void reject(ChannelHandlerContext ctx, String reason) {
            log.accept(remote() + ": rejected: " + reason);
            closeReason = "rejected: " + reason;
            // small and the last frame: written past the outbound limits, the connection closes after it
            ctx.writeAndFlush(new Reject(reason)).addListener(x -> ctx.close());
        }

        private void protocolError(ChannelHandlerContext ctx, String reason) {
            if (!ctx.channel().isActive() && closeReason.equals(reason)) return; // decodeLast repeats it
            failed = true;
            log.accept(remote() + ": closed: " + reason);
            closeReason = reason;
            ctx.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
            protocolError(ctx, c instanceof FrameException ? c.getMessage() : c.toString());
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (helloTimeout != null) helloTimeout.cancel(false);
            if (idleCheck != null) idleCheck.cancel(false);
            if (stallCheck != null) stallCheck.cancel(false);
            account.closed();
            codec.closed();
            if (processId >= 0) {
                // after the frames it handed over (the END chunk decides how the process ended)
                Runnable end = () -> {
                    if (closing && !clean && closeReason.equals("connection closed")) closeReason = STOPPED;
                    if (!clean) log.accept(remote() + ": process " + processId + " disconnected: " + closeReason);
                    agents.disconnected(processId, this, closeReason, clean);
                };
                try {
                    store.execute(end);
                } catch (java.util.concurrent.RejectedExecutionException stopped) {
                    end.run();
                }
            }
        }

        /**
         * Queues a frame for the peer, on the event loop, within the outbound limits: one that
         * would take the queue past the maximum closes the connection instead (the peer is not
         * reading what it was sent).
         */
        @Override
        public void send(Frame f) {
            if (ch == null || !ch.isActive()) return;
            if (!ch.eventLoop().inEventLoop()) {
                ch.eventLoop().execute(() -> send(f));
                return;
            }
            byte[] bytes = f.toBytes();
            ChannelOutboundBuffer queue = ch.unsafe().outboundBuffer();
            long queued = queue == null ? 0 : queue.totalPendingWriteBytes();
            // one frame, however big, when nothing is queued (a RESULT may be as big as a control frame)
            if (queued > 0 && queued + bytes.length > outboundMaxBytes) {
                outboundError("the peer is not reading: " + queued + " bytes unsent, and " + bytes.length
                        + " more would pass the limit of " + outboundMaxBytes);
                return;
            }
            peakOutbound.accumulateAndGet(queued + bytes.length, Math::max);
            ch.writeAndFlush(Unpooled.wrappedBuffer(bytes));
        }

        private void outboundError(String reason) {
            if (!ch.isActive()) return;
            failed = true;
            log.accept(remote() + ": closed: " + reason);
            closeReason = reason;
            ch.close();
        }

        /**
         * The peer stopped or resumed reading what it is sent: a ctl takes no new commands while
         * it is unwritable, and a connection unwritable for the stall time is closed.
         */
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            boolean writable = ch.isWritable();
            if (hello != null && hello.role().equals(Wire.ROLE_CTL)) ch.config().setAutoRead(writable);
            if (writable) {
                if (stallCheck != null) stallCheck.cancel(false);
                stallCheck = null;
            } else if (stallCheck == null) {
                long millis = outboundStallMillis;
                stallCheck = ctx.executor().schedule(() -> {
                    if (!ch.isWritable()) outboundError("the peer read nothing of what it was sent for " + millis + " ms");
                }, millis, TimeUnit.MILLISECONDS);
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void close(String reason) {
            if (ch == null) return;
            ch.eventLoop().execute(() -> {
                if (!ch.isActive()) return;
                log.accept(remote() + ": closed: " + reason);
                closeReason = reason;
                ch.close();
            });
        }

        @Override
        public String remote() {
            return ch != null && ch.remoteAddress() != null ? ch.remoteAddress().toString() : "?";
        }
    }
}
