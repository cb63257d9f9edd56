package org.hyprof.collector;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageCodec;
import java.util.List;
import org.hyprof.control.Frame;
import org.hyprof.control.FrameException;
import org.hyprof.runtime.Wire;

/**
 * Netty codec for {@link Frame}s. The declared length is checked against the limit for its type
 * ({@link Wire#MAX_FRAME} for chunks, {@link Wire#MAX_CONTROL_FRAME} otherwise) as soon as the
 * 5-byte header is in, before anything is allocated for the body.
 */
public final class FrameCodec extends ByteToMessageCodec<Frame> {
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
        long max = type == Wire.CHUNK ? Wire.MAX_FRAME : Wire.MAX_CONTROL_FRAME;
        if (len < 1 || len > max) throw new FrameException("frame length " + len + " out of bounds for type " + type + " (max " + max + ")");
        if (in.readableBytes() < 4 + len) return;
        in.skipBytes(5);
        byte[] payload = new byte[(int) len - 1];
        in.readBytes(payload);
        out.add(Frame.decode(type, payload));
    }
}
