package org.hyprof.collector;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageCodec;
import java.util.List;
import org.hyprof.control.Frame;
import org.hyprof.control.FrameException;
import org.hyprof.runtime.Wire;

/**
 * Netty codec for {@link Frame}s of one connection. Every decision is taken on the 5-byte header,
 * before the body is buffered or anything is allocated for it:
 * <ul>
 * <li>before the handshake only {@link Wire#HELLO} is accepted, at most {@link Wire#MAX_HELLO_FRAME}
 *     bytes (a 64 MiB chunk frame sent first is refused at its length prefix);</li>
 * <li>after it, each role may send only its own frame types, each within its limit
 *     ({@link Wire#MAX_FRAME} for an agent's chunks, {@link Wire#MAX_CONTROL_FRAME} otherwise);</li>
 * <li>an agent's frame must fit the {@link BufferBudget} (the bytes of frames being received or
 *     waiting for the store, per connection and for the whole collector): when it does not, the
 *     connection stops reading until the store has caught up, and the peer waits (TCP
 *     backpressure).</li>
 * </ul>
 * Decoded frames come out as {@link Inbound}: the frame and the budget bytes it holds until its
 * handler releases them.
 */
final class FrameCodec extends ByteToMessageCodec<Frame> {

    /** A decoded frame and the budget bytes it holds (0 for frames outside the budget). */
    record Inbound(Frame frame, int budgetBytes) {}

    enum Phase { HELLO, AGENT, CTL }

    private final BufferBudget.Account account;
    private Phase phase = Phase.HELLO;
    /** Bytes reserved for the frame whose header has been read, whose body is still coming. */
    private int reservedForNext;

    FrameCodec(BufferBudget.Account account) {
        this.account = account;
    }

    /** The handshake is done: {@code phase} decides which frames may follow. */
    void admitted(Phase phase) {
        this.phase = phase;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Frame f, ByteBuf out) {
        out.writeBytes(f.toBytes());
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 5) return;
        int at = in.readerIndex();
        long len = in.getUnsignedInt(at);
        int type = in.getUnsignedByte(at + 4);
        if (phase == Phase.AGENT && type != Wire.CHUNK && type != Wire.STATE && type != Wire.BYE)
            throw new FrameException("agent sent frame type " + type);
        if (phase == Phase.CTL && type != Wire.COMMAND && type != Wire.BYE) throw new FrameException("ctl sent frame type " + type);
        long max = limit(type);
        if (len < 1 || len > max) throw new FrameException("frame length " + len + " out of bounds for type " + type
                + (phase == Phase.HELLO ? " before HELLO" : "") + " (max " + max + ")");
        if (phase == Phase.HELLO && type != Wire.HELLO) throw new FrameException("first frame must be HELLO, got type " + type);
        int frameBytes = (int) len + 4;
        boolean budgeted = phase != Phase.HELLO;
        if (budgeted && reservedForNext == 0) {
            if (!account.reserve(frameBytes)) return; // reading stops; the budget resumes it and decoding goes on
            reservedForNext = frameBytes;
        }
        if (in.readableBytes() < 4 + len) return;
        in.skipBytes(5);
        byte[] payload = new byte[(int) len - 1];
        in.readBytes(payload);
        int held = reservedForNext;
        reservedForNext = 0;
        Frame f;
        try {
            f = Frame.decode(type, payload);
        } catch (RuntimeException e) {
            account.release(held);
            throw e;
        }
        out.add(new Inbound(f, held));
    }

    private long limit(int type) {
        return switch (phase) {
            case HELLO -> Wire.MAX_HELLO_FRAME;
            case AGENT -> type == Wire.CHUNK ? Wire.MAX_FRAME : Wire.MAX_CONTROL_FRAME;
            case CTL -> Wire.MAX_CONTROL_FRAME;
        };
    }

    /** The connection is gone, maybe with a frame half received: its reservation goes back. */
    void closed() {
        if (reservedForNext > 0) account.release(reservedForNext);
        reservedForNext = 0;
    }
}
