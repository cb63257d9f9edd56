package org.hyprof.live;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.control.Chunk;
import org.hyprof.collector.Collector;
import org.hyprof.control.ConfigFrame;
import org.hyprof.control.ControlState;
import org.hyprof.control.Frame;
import org.hyprof.control.Hello;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.chunk.PayloadWriter;
import org.hyprof.runtime.chunk.TextChunk;
import org.hyprof.runtime.Wire;
import org.hyprof.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live session's control logic against the agent's end of a connection that does what the
 * runtime does: applies every CONFIG and confirms it with its STATE.
 */
class LiveSessionTest {
    @TempDir Path dir;

    static ProbeInfo method(int id, Resolution r, String cls, String name) {
        return new ProbeInfo(id, false, r, cls, name, "()V", -1, -1, 1, "");
    }

    static Chunk manifest(ProbeInfo... probes) {
        Manifest m = new Manifest();
        for (ProbeInfo p : probes) m.add(p);
        PayloadWriter w = new PayloadWriter();
        TextChunk.encode(w, m.toText());
        return new Chunk(0, SessionFormat.MANIFEST, w.toByteArray());
    }

    static ControlState allOn(int ids) {
        BitSet on = new BitSet();
        on.set(1, ids);
        return new ControlState(ids, on, new int[0], 0, 0, 0, false, 0);
    }

    static BitSet bits(int... ids) {
        BitSet b = new BitSet();
        for (int i : ids) b.set(i);
        return b;
    }

    @Test
    void probesDefinedAfterAZoomStepGetTheScopesFlags() throws Exception {
        try (Store store = Store.create(dir.resolve("live.db"))) {
            LiveSession live = new LiveSession(store);
            List<ControlState> configs = new ArrayList<>();
            long[] id = {-1};
            Collector.Connection agent = new Collector.Connection() {
                @Override public void send(Frame f) {
                    if (f instanceof ConfigFrame c) {
                        configs.add(c.state());
                        live.state(id[0], c.state()); // applied and confirmed, as the runtime does
                    }
                }
                @Override public String remote() { return "test"; }
                @Override public void close(String reason) { }
            };
            id[0] = live.connected(new Hello(Wire.VERSION, Wire.ROLE_AGENT, "", 4242, "app.Main", "vm", 0, 0, "jvm"), agent);
            live.chunk(id[0], manifest(method(1, Resolution.PROCESS, "app.Main", "main")));
            live.state(id[0], allOn(2));                   // the agent's start-up settings: everything on

            live.zoomIn(id[0], -1, 2_000);                 // process -> thread level, before the other classes loaded
            assertEquals(bits(1), live.proc(id[0]).state().on());
            live.change(id[0], s -> s.withOn(bits(), s.idCount()), 2_000); // the user switches main off

            // the application loads more classes: their probes arrive, the agent (defaults: on) reports them
            live.chunk(id[0], manifest(method(2, Resolution.THREAD, "app.Worker", "run"), method(3, Resolution.METHOD, "app.Main", "m1")));
            live.state(id[0], new ControlState(4, bits(2, 3), new int[0], 0, 0, 0, false, 0));
            ControlState last = configs.get(configs.size() - 1);
            assertEquals(4, last.idCount());
            assertEquals(bits(2), last.on(), "Worker.run on (thread level), m1 off (method level), main left off by the user");
            assertEquals(bits(2), live.proc(id[0]).state().on(), "and the agent confirmed it");
            int sent = configs.size();
            live.state(id[0], live.proc(id[0]).state());   // nothing new: nothing sent
            assertEquals(sent, configs.size());
        }
    }
}
