package org.hyprof.collector;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
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
     * {@link #TOTAL_BUFFER_BYTES}); each must hold at least one largest frame; before {@link #start}.
     */
    public Collector bufferLimits(long perConnectionBytes, long totalBytes) {
        this.budget = new BufferBudget(perConnectionBytes, totalBytes);
        return this;
    }

    /** Bytes of agents' frames held now (received in part or waiting for the store), for tests and status. */
    public long bufferedBytes() {
        return budget.used();
    }

    /** Binds and returns the port (useful with port 0). */
    public int start() throws InterruptedException {
        boss = new NioEventLoopGroup(1);
        workers = new NioEventLoopGroup(2);
        ServerBootstrap b = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
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
                    ctx.writeAndFlush(new Welcome(0, "hyprof collector"));
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
                    ctx.writeAndFlush(new Welcome(processId, "hyprof collector", agents.resumeSecret(processId)));
                } else {
                    reject(ctx, "unknown role '" + Printable.of(h.role()) + "'");
                }
                return;
            }
            if (hello.role().equals(Wire.ROLE_CTL)) {
                account.release(in.budgetBytes());
                if (f instanceof Command c) {
                    running.incrementAndGet();
                    commandRunner.execute(() -> {
                        Result r;
                        try {
                            r = commands.execute(c.args());
                        } catch (RuntimeException e) {
                            r = new Result(70, "internal error: " + e);
                        }
                        lastActivityNanos = System.nanoTime();
                        running.decrementAndGet();
                        ch.writeAndFlush(r);
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
                        ch.writeAndFlush(new Ack(c.seq()));
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

        @Override
        public void send(Frame f) {
            if (ch != null && ch.isActive()) ch.writeAndFlush(f);
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
