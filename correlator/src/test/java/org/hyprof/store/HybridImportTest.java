package org.hyprof.store;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProbeInfo;
import org.hyprof.config.Resolution;
import org.hyprof.correlate.EnergyModel;
import org.hyprof.correlate.MethodRow;
import org.hyprof.correlate.Profile;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.NativeCall;
import org.hyprof.runtime.Options;
import org.hyprof.runtime.Probe;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.chunk.NativeBlocksChunk;
import org.hyprof.runtime.chunk.NativeEpochsChunk;
import org.hyprof.runtime.chunk.NativeLibrariesChunk;
import org.hyprof.runtime.chunk.PayloadWriter;
import org.hyprof.runtime.chunk.TextChunk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real runtime records what a hybrid run records (native costs charged to a method, the
 * native-info, epoch, block and per-library cost chunks in the layout SessionFormat documents), and the importer
 * stores all of it; the profile's sums check against the thread totals.
 */
class HybridImportTest {
    @TempDir Path dir;

    @AfterEach
    void reset() {
        Hyprof.reset();
    }

    @Test
    void nativeChunksAndCostsImport() throws Exception {
        Hyprof.reset();
        Path session = dir.resolve("h.hyprof");
        assertTrue(Hyprof.start(Options.parse("out=" + session + ",calibrate=false,snapshotMillis=60000")));
        Manifest m = new Manifest();
        m.add(new ProbeInfo(1, false, Resolution.PROCESS, "app.Main", "main", "([Ljava/lang/String;)V", -1, -1, 3, "Main.java"));
        m.add(new ProbeInfo(2, false, Resolution.METHOD, "app.Native", "fft", "(I)D", -1, -1, -1, ""));
        Hyprof.defineProbes(1, new byte[] {Hyprof.METHOD, Hyprof.METHOD}, new boolean[] {true, true}, Manifest.lines(m.probes(), m.skipped()));
        Probe.enter(1);
        for (int i = 0; i < 3; i++) {
            Probe.enter(2);
            NativeCall.charge(1_000, 1_500, 750, 400_000);
            Probe.exit(2);
        }
        Probe.exit(1);
        PayloadWriter w = new PayloadWriter();
        TextChunk.encode(w, "abi=armeabi-v7a\ncpu.profile=cortex-a9\nerror.0=unsupported JNI function X\n");
        NativeCall.chunk(SessionFormat.NATIVE_INFO, w.toByteArray());
        List<NativeEpochsChunk.Epoch> epochs = new ArrayList<>();
        for (int i = 1; i <= 3; i++)
            epochs.add(new NativeEpochsChunk.Epoch(i, Thread.currentThread().getId(), 2, "Java_app_Native_fft", 40, 1_000, 1_500,
                    750, 400_000, 90_000));
        new NativeEpochsChunk(epochs).encode(w.reset());
        NativeCall.chunk(SessionFormat.NATIVE_EPOCHS, w.toByteArray());
        new NativeBlocksChunk(List.of(new NativeBlocksChunk.Block("libx.so", 0, 0x5a0, "kernel", 8, 2, "alu=1,branch=1",
                "000005a0  add      r0, r0, #1\n000005a4  bne      #0x5a0\n",
                new int[] {2, -1}, new long[] {120, 3}))) // -1: JNI_OnLoad's executions
                .encode(w.reset());
        NativeCall.chunk(SessionFormat.NATIVE_BLOCKS, w.toByteArray());
        new NativeLibrariesChunk(List.of(new NativeLibrariesChunk.Row("libx.so", "libx.so", false, 2, 90, 2_400, 3_000, 1_500, 800_000),
                new NativeLibrariesChunk.Row("libx.so", "libc.so", true, 2, 30, 600, 1_500, 750, 400_000))).encode(w.reset());
        NativeCall.chunk(SessionFormat.NATIVE_LIBRARIES, w.toByteArray());
        Hyprof.stop();

        Path db = dir.resolve("h.db");
        try (Store s = Store.create(db)) {
            SessionImporter.Result r = SessionImporter.importFile(session, s);
            assertTrue(r.cleanEnd(), r.notes().toString());
            long p = s.processes().get(0).id();
            assertEquals(Map.of("abi", "armeabi-v7a", "cpu.profile", "cortex-a9"), s.nativeInfo(p));
            assertTrue(s.notes().stream().anyMatch(n -> n.contains("native code: unsupported JNI function X")), s.notes().toString());
            List<NativeEpoch> ep = s.nativeEpochs(p);
            assertEquals(3, ep.size());
            assertEquals(new NativeEpoch(2, Thread.currentThread().getId(), 2, "Java_app_Native_fft", 40, 1_000, 1_500, 750, 400_000, 90_000), ep.get(1));
            List<NativeBlock> bl = s.nativeBlocks(p);
            assertEquals(1, bl.size());
            assertEquals(Map.of(-1, 3L, 2, 120L), bl.get(0).executionsByProbe());
            assertEquals(0x5a0, bl.get(0).address());
            assertTrue(bl.get(0).disassembly().contains("bne"));
            assertEquals(List.of(new NativeLibraryCost("libx.so", "libx.so", false, 2, 90, 2_400, 3_000, 1_500, 800_000),
                    new NativeLibraryCost("libx.so", "libc.so", true, 2, 30, 600, 1_500, 750, 400_000)), s.nativeLibraryCosts(p));

            Profile prof = Profile.load(s, new EnergyModel(1000, "1 W (test)"));
            MethodRow fft = prof.methods().stream().filter(x -> x.method().equals("app.Native.fft(int)")).findFirst().orElseThrow();
            assertEquals(new NativeCost(3_000, 4_500, 2_250, 1_200_000, 3_000, 4_500, 2_250, 1_200_000), fft.nativeCost());
            MethodRow main = prof.methods().stream().filter(x -> x.method().startsWith("app.Main.main")).findFirst().orElseThrow();
            assertEquals(0, main.nativeCost().instructions());
            assertEquals(3_000, main.nativeCost().instructionsIncl());
            assertTrue(prof.hybrid());
            Profile.Totals t = prof.totals();
            assertEquals(1_200_000, t.nativeExclPicojoules());
            assertEquals(t.nativeExclPicojoules(), t.nativeTopPicojoules(), "native energy: Σ exclusive = thread totals, exactly");
            assertEquals(t.topInclNanos(), t.exclNanos(), "no calibration: times add up exactly");
            assertEquals(t.totalEnergyMicrojoules(), t.exclEnergyMicrojoules(), 1e-9);
        }
    }
}
