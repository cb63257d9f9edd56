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
import org.hyprof.runtime.Wire;

/**
 * The collector agents connect to (Netty). Each agent connection is a process of the session;
 * {@code hyprof ctl} connections run commands. A connection that breaks the protocol (no HELLO
 * first, wrong version or token, malformed or oversized frame, no HELLO within
 * {@link #HELLO_TIMEOUT_MILLIS}) is closed with a logged reason; the others go on. After HELLO
 * there is no idle timeout: an agent whose program is idle may send nothing but its periodic
 * snapshots, and a ctl connection waits while its command runs. Listens on loopback unless told
 * otherwise.
 */
public final class Collector implements AutoCloseable {

    /**
     * How long a new connection has to complete its HELLO frame before it is closed (a client that
     * connects and sends nothing, or trickles bytes, would otherwise hold its connection forever).
     */
    public static final long HELLO_TIMEOUT_MILLIS = 5_000;

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

        /** Recorded data; stored before the chunk is acknowledged. */
        void chunk(long processId, Chunk chunk);

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
    private Channel server;
    private volatile long helloTimeoutMillis = HELLO_TIMEOUT_MILLIS;
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

    /** Binds and returns the port (useful with port 0). */
    public int start() throws InterruptedException {
        boss = new NioEventLoopGroup(1);
        workers = new NioEventLoopGroup(2);
        ServerBootstrap b = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new FrameCodec(), new Handler());
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
    }

    private final class Handler extends SimpleChannelInboundHandler<Frame> implements Connection {
        private Channel ch;
        private Hello hello;
        private long processId = -1;
        private boolean clean;
        private String closeReason = "connection closed";
        private ScheduledFuture<?> helloTimeout;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ch = ctx.channel();
            long millis = helloTimeoutMillis;
            helloTimeout = ctx.executor().schedule(() -> {
                if (hello == null && ch.isActive()) protocolError(ctx, "no HELLO within " + millis + " ms");
            }, millis, TimeUnit.MILLISECONDS);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Frame f) {
            if (hello == null) {
                if (!(f instanceof Hello h)) { reject(ctx, "first frame must be HELLO, got type " + f.type()); return; }
                if (token.length > 0 && !MessageDigest.isEqual(token, h.token().getBytes(StandardCharsets.UTF_8))) {
                    reject(ctx, "wrong token");
                    return;
                }
                hello = h;
                helloTimeout.cancel(false);
                if (h.role().equals(Wire.ROLE_CTL)) {
                    ctx.writeAndFlush(new Welcome(0, "hyprof collector"));
                } else if (h.role().equals(Wire.ROLE_AGENT)) {
                    try {
                        processId = agents.connected(h, this);
                    } catch (RuntimeException e) {
                        reject(ctx, "cannot take this agent: " + e.getMessage());
                        return;
                    }
                    log.accept(remote() + ": agent " + h.process() + " (pid " + h.pid() + ") connected as process " + processId);
                    ctx.writeAndFlush(new Welcome(processId, "hyprof collector"));
                } else {
                    reject(ctx, "unknown role '" + h.role() + "'");
                }
                return;
            }
            if (hello.role().equals(Wire.ROLE_CTL)) {
                if (f instanceof Command c) {
                    commandRunner.execute(() -> {
                        Result r;
                        try {
                            r = commands.execute(c.args());
                        } catch (RuntimeException e) {
                            r = new Result(70, "internal error: " + e);
                        }
                        ch.writeAndFlush(r);
                    });
                } else if (f instanceof Bye) {
                    ctx.close();
                } else {
                    protocolError(ctx, "ctl sent frame type " + f.type());
                }
                return;
            }
            if (f instanceof Chunk c) {
                agents.chunk(processId, c);
                ctx.writeAndFlush(new Ack(c.seq()));
            } else if (f instanceof StateFrame s) {
                agents.state(processId, s.state());
            } else if (f instanceof Bye b) {
                clean = true;
                closeReason = "agent said bye: " + b.reason();
                ctx.close();
            } else {
                protocolError(ctx, "agent sent frame type " + f.type());
            }
        }

        private void reject(ChannelHandlerContext ctx, String reason) {
            log.accept(remote() + ": rejected: " + reason);
            closeReason = "rejected: " + reason;
            ctx.writeAndFlush(new Reject(reason)).addListener(x -> ctx.close());
        }

        private void protocolError(ChannelHandlerContext ctx, String reason) {
            if (!ctx.channel().isActive() && closeReason.equals(reason)) return; // decodeLast repeats it
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
            if (processId >= 0) {
                if (closing && !clean && closeReason.equals("connection closed")) closeReason = STOPPED;
                if (!clean) log.accept(remote() + ": process " + processId + " disconnected: " + closeReason);
                agents.disconnected(processId, this, closeReason, clean);
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
