package org.hyprof.collector;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.util.Arrays;
import org.hyprof.control.FrameException;
import org.hyprof.runtime.Wire;
import org.hyprof.testing.FuzzChecks;

/**
 * Fuzzes the collector's frame decoder ({@link FrameCodec}) on a Netty {@link EmbeddedChannel}, as
 * a connection's bytes arrive: input byte 0 picks the phase (before HELLO, agent, ctl), byte 1 the
 * size of the pieces the rest arrives in. Only a {@link FrameException} with a one-line message may
 * stop decoding (the connection is then closed), the buffer budget gets back every byte reserved,
 * and allocation stays within the input's size (a length prefix is never trusted for one). Seeds:
 * the golden frames of {@code rmp-config} in each phase and the issue 20 attacks, in
 * {@code FrameCodecFuzzTestInputs/}.
 */
class FrameCodecFuzzTest {
    @FuzzTest(maxDuration = "15m", maxExecutions = 1_000_000)
    void decode(byte[] input) throws Exception {
        if (input.length < 2) return;
        FrameCodec.Phase phase = FrameCodec.Phase.values()[(input[0] & 0xff) % 3];
        int piece = 1 + (input[1] & 0xff);
        byte[] stream = Arrays.copyOfRange(input, 2, input.length);
        FuzzChecks.allocationBounded(input.length, 64, 4 << 20, () -> {
            BufferBudget budget = new BufferBudget(Wire.MAX_FRAME + 4L, 2L * Wire.MAX_FRAME);
            EmbeddedChannel ch = new EmbeddedChannel();
            BufferBudget.Account account = budget.account(ch);
            FrameCodec codec = new FrameCodec(account);
            ch.pipeline().addLast(codec);
            codec.admitted(phase);
            try {
                for (int at = 0; at < stream.length; at += piece) {
                    ch.writeInbound(Unpooled.wrappedBuffer(stream, at, Math.min(piece, stream.length - at)));
                    release(ch, account);
                }
            } catch (DecoderException e) {
                protocolError(e);
            }
            // as the collector closes a connection: the codec decodes what is left, then its reservation goes back
            try {
                ch.finish();
            } catch (DecoderException e) {
                protocolError(e);
            }
            release(ch, account);
            codec.closed();
            if (budget.used() != 0) throw new AssertionError(budget.used() + " budget bytes still reserved after the connection closed");
        });
    }

    /** The frames decoded so far are handled: what they hold of the budget goes back. */
    private static void release(EmbeddedChannel ch, BufferBudget.Account account) {
        for (Object o; (o = ch.readInbound()) != null; ) account.release(((FrameCodec.Inbound) o).budgetBytes());
    }

    /** What ends a connection must be a protocol error (the collector closes it with the message). */
    private static void protocolError(DecoderException e) {
        if (!(e.getCause() instanceof FrameException f)) throw e;
        FuzzChecks.inputError(f);
    }
}
