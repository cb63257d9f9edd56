package org.hyprof.bb.jni;

import static org.junit.jupiter.api.Assertions.*;

import com.tencent.mmkv.MMKV;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.hyprof.bb.Engines;
import org.hyprof.bb.RealLibraries;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Sandbox;
import org.hyprof.bb.emu.Userland;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * mmkv 1.3.9's unmodified libmmkv.so (Tencent's key-value store: files mapped with MAP_SHARED,
 * C++ with its own libc++) through its JNI methods on Android 6.0's bionic (issue 16): its
 * JNI_OnLoad runs against the test-only twin {@code com.tencent.mmkv.MMKV}, then it is initialised
 * with a directory in the sandbox, 10,000 key-value pairs are written, the store closed and
 * reopened and every value read back; then a fresh emulator on the same sandbox reads them from
 * the files alone. Both ABIs, both engines.
 */
class MmkvJniTest {
    static final int PAIRS = 10_000;
    static final Twin TWIN = new Twin(MMKV.class);

    /** A native method of the twin: {@code self} is the MMKV instance, or MMKV.class for a static one. */
    static Object call(HybridRuntime h, Object self, String method, Object... args) throws Throwable {
        return TWIN.call(h, self, method, args);
    }

    /** libmmkv.so loaded (JNI_OnLoad), initialised on /mmkv of the sandbox, the store "hyprof" opened: its handle. */
    static long open(HybridRuntime h) throws Throwable {
        h.loadLibrary("mmkv");
        call(h, MMKV.class, "jniInitialize", "/mmkv", "/cache", MMKV.LOG_INFO, true);
        long handle = (Long) call(h, MMKV.class, "getMMKVWithID", "hyprof", MMKV.SINGLE_PROCESS_MODE, null, null, 0L);
        assertNotEquals(0L, handle, "getMMKVWithID; mmkv logged: " + MMKV.LOG);
        return handle;
    }

    static void readBack(HybridRuntime h, MMKV kv, long handle, String what) throws Throwable {
        assertEquals(PAIRS + 1L, call(h, kv, "count", handle, false), what + "; mmkv logged: " + MMKV.LOG); // the strings and "answer"
        for (int i = 0; i < PAIRS; i++) assertEquals("value-" + i + "-" + i * 7, call(h, kv, "decodeString", handle, "key" + i, null), what);
        assertEquals(42, call(h, kv, "decodeInt", handle, "answer", 0), what);
        assertEquals(-1, call(h, kv, "decodeInt", handle, "absent", -1), what);
    }

    static void closeAll(HybridRuntime h) {
        for (NativeLibrary l : h.libraries()) l.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void tenThousandPairsWrittenClosedReopenedAndReadBack(String abi, @TempDir Path dir) throws Throwable {
        Path lib = RealLibraries.mmkv(abi);
        for (Engine engine : Engines.all()) {
            MMKV.LOG.clear();
            Path root = dir.resolve(engine.id);
            String what = abi + " " + engine.id;
            try (Sandbox sandbox = Sandbox.at(root)) {
                HybridRuntime h = new HybridRuntime(lib.getParent(), abi, null, engine, Userland.BIONIC, TWIN.keys::get);
                h.sandbox(sandbox);
                long handle = open(h);
                MMKV kv = MMKV.of(handle);
                assertEquals("hyprof", call(h, kv, "mmapID"), what);
                for (int i = 0; i < PAIRS; i++) assertEquals(true, call(h, kv, "encodeString", handle, "key" + i, "value-" + i + "-" + i * 7), what);
                assertEquals(true, call(h, kv, "encodeInt", handle, "answer", 42), what);
                call(h, kv, "close");

                long again = (Long) call(h, MMKV.class, "getMMKVWithID", "hyprof", MMKV.SINGLE_PROCESS_MODE, null, null, 0L);
                MMKV kv2 = MMKV.of(again);
                readBack(h, kv2, again, what + ", reopened");
                call(h, kv2, "close");
                call(h, MMKV.class, "onExit");
                assertEquals(Map.of(), h.libraries().get(0).tracer.emulator.syscalls.unknown(), what);
                closeAll(h);

                // the files alone: a fresh emulator on the same sandbox
                assertTrue(Files.size(root.resolve("mmkv/hyprof")) > PAIRS * 10L, what);
                assertTrue(Files.exists(root.resolve("mmkv/hyprof.crc")), what);
                HybridRuntime fresh = new HybridRuntime(lib.getParent(), abi, null, engine, Userland.BIONIC, TWIN.keys::get);
                fresh.sandbox(sandbox);
                long h3 = open(fresh);
                readBack(fresh, MMKV.of(h3), h3, what + ", from the files");
                call(fresh, MMKV.of(h3), "close");
                closeAll(fresh);
            }
        }
    }
}
