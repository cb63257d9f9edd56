package org.hyprof.control;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadWriter;
import org.hyprof.testing.Golden;
import org.junit.jupiter.api.Test;

/**
 * Every frame type against golden bytes (src/test/resources/golden/frames.hex), and round trips.
 * Regenerate with -Dhyprof.regenerateGoldens=true and review the diff.
 */
class FrameGoldenTest {
    static Map<String, Frame> samples() {
        BitSet on = new BitSet();
        on.set(1);
        on.set(3);
        on.set(9);
        ControlState st = new ControlState(10, on, new int[] {3}, 1_000_000, 5, 12, true, 65536);
        Map<String, Frame> m = new LinkedHashMap<>();
        m.put("hello", new Hello(Wire.VERSION, Wire.ROLE_AGENT, "tok", 4242, "com.example.App", "OpenJDK 17", 1700000000000L, 123456789L, "jvm",
                "r3sume"));
        m.put("welcome", new Welcome(7, "hyprof collector", "r3sume"));
        m.put("reject", new Reject("wrong token"));
        m.put("chunk", new Chunk(300, SessionFormat.ERROR, new PayloadWriter().string("boom").toByteArray()));
        m.put("ack", new Ack(300));
        m.put("config", new ConfigFrame(st));
        m.put("state", new StateFrame(st));
        m.put("snapshot-request", new SnapshotRequest(2));
        m.put("command", new Command(List.of("off", "com.x.*")));
        m.put("result", new Result(0, "ok\n"));
        m.put("bye", new Bye("process exit"));
        return m;
    }

    @Test
    void framesMatchGoldenBytes() throws Exception {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Frame> e : samples().entrySet())
            b.append(e.getKey()).append(' ').append(HexFormat.of().formatHex(e.getValue().toBytes())).append('\n');
        Golden.check("frames.hex", b.toString());
    }

    @Test
    void framesRoundTrip() {
        for (Frame f : samples().values()) {
            byte[] bytes = f.toBytes();
            byte[] payload = java.util.Arrays.copyOfRange(bytes, 5, bytes.length);
            Frame back = Frame.decode(bytes[4], payload);
            assertArrayEquals(bytes, back.toBytes(), f.toString());
        }
    }

    @Test
    void helloAndWelcomeWithoutTheResumeFieldReadAsAnEmptySecret() {
        // as a runtime or collector older than the field writes them
        byte[] hello = new PayloadWriter().varint(Wire.VERSION).string(Wire.ROLE_AGENT).string("tok").varint(1).string("p")
                .string("vm").varint(2).varint(3).string("jvm").toByteArray();
        assertEquals("", ((Hello) Frame.decode(Wire.HELLO, hello)).resume());
        byte[] welcome = new PayloadWriter().varint(7).string("hyprof collector").toByteArray();
        assertEquals(new Welcome(7, "hyprof collector", ""), Frame.decode(Wire.WELCOME, welcome));
    }

    @Test
    void lengthsAndCountsBeyondThePayloadAreRefusedBeforeAllocating() {
        // a 329-byte HELLO whose token length is 0x7FFFFF00 (issue 20)
        PayloadWriter w = new PayloadWriter().varint(Wire.VERSION).string(Wire.ROLE_AGENT).varint(0x7FFFFF00L);
        byte[] hello = java.util.Arrays.copyOf(w.toByteArray(), 329 - 5);
        assertThrows(FrameException.class, () -> Frame.decode(Wire.HELLO, hello));
        // a control state announcing 2^24 roots in a few bytes
        byte[] state = new PayloadWriter().varint(1 << 24).bytes(new byte[1 << 21]).varint(1 << 24).toByteArray();
        assertThrows(FrameException.class, () -> Frame.decode(Wire.STATE, state));
        byte[] command = new PayloadWriter().varint(999).toByteArray();
        assertThrows(FrameException.class, () -> Frame.decode(Wire.COMMAND, command));
    }

    @Test
    void malformedPayloadsAreFrameExceptions() {
        List<String> failures = new ArrayList<>();
        for (Frame f : samples().values()) {
            byte[] bytes = f.toBytes();
            byte[] cut = java.util.Arrays.copyOfRange(bytes, 5, Math.max(5, bytes.length - 1));
            if (f instanceof Chunk || f instanceof Bye || f instanceof Reject || f instanceof Result) continue; // prefixes may parse
            try {
                Frame.decode(bytes[4], cut);
                failures.add(f.getClass().getSimpleName());
            } catch (FrameException expected) {
                // good
            }
        }
        assertTrue(failures.isEmpty(), "truncated payload accepted: " + failures);
        assertThrows(FrameException.class, () -> Frame.decode(99, new byte[0]));
        assertThrows(FrameException.class, () -> Frame.decode(Wire.HELLO, new PayloadWriter().varint(2).toByteArray()));
        assertThrows(FrameException.class, () -> Frame.decode(Wire.CHUNK, new PayloadWriter().varint(1).u8(77).toByteArray()));
    }
}
