package org.hyprof.bb.jni;

import static org.junit.jupiter.api.Assertions.*;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.hyprof.bb.Engines;
import org.hyprof.bb.RealLibraries;
import org.hyprof.bb.Tracer;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Userland;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * zstd-jni 1.5.7-3's unmodified libzstd-jni-1.5.7-3.so (its Android AAR) through its JNI methods
 * on Android 6.0's bionic (issue 16), against the test-only twins in {@code com.github.luben.zstd}:
 * 1 MiB of compressible data compressed at level 3 must give exactly the bytes the host's
 * zstd-jni (same version, its own class loader, single-threaded) gives, and decompress back to
 * the input; then the same with two worker threads (ZSTD_c_nbWorkers, bionic's pthread_create in
 * the emulator), compared by round trip. libzstd's and libc's instructions are both counted.
 * Both ABIs, both engines.
 */
class ZstdJniTest {
    /** Two workers, 512 KiB jobs (zstd's minimum): the 1 MiB is two jobs, one per worker thread. */
    static final int LEVEL = 3, WORKERS = 2, JOB_BYTES = 512 << 10;
    static final Twin ZSTD = new Twin(Zstd.class, 100), CCTX = new Twin(ZstdCompressCtx.class, 200), DCTX = new Twin(ZstdDecompressCtx.class, 300);
    static final Map<Integer, String> KEYS = new HashMap<>();

    static {
        KEYS.putAll(ZSTD.keys);
        KEYS.putAll(CCTX.keys);
        KEYS.putAll(DCTX.keys);
    }

    /** 1 MiB of words drawn (seeded) from a small vocabulary: text-like, compressible about 3:1. */
    static byte[] input() {
        String[] words = new String[64];
        Random r = new Random(16);
        for (int i = 0; i < words.length; i++) {
            StringBuilder w = new StringBuilder();
            for (int n = 2 + r.nextInt(8); n > 0; n--) w.append((char) ('a' + r.nextInt(26)));
            words[i] = w.append(' ').toString();
        }
        byte[] out = new byte[1 << 20];
        for (int at = 0; at < out.length; ) {
            byte[] w = words[r.nextInt(words.length)].getBytes(StandardCharsets.US_ASCII);
            int n = Math.min(w.length, out.length - at);
            System.arraycopy(w, 0, out, at, n);
            at += n;
        }
        return out;
    }

    /**
     * The host's zstd-jni (the real jar, in a loader of its own: the twins have its class names).
     * Its native library is extracted into {@code target/zstd/host/} (zstd-jni's
     * {@code ZstdTempFolder}), not the shared temporary directory, as ParquetExport does.
     */
    static byte[] hostCompress(byte[] data, int level) throws Exception {
        Path dir = RealLibraries.zstdJar().resolveSibling("host");
        java.nio.file.Files.createDirectories(dir);
        System.setProperty("ZstdTempFolder", dir.toAbsolutePath().toString());
        try (URLClassLoader real = new URLClassLoader(new URL[] {RealLibraries.zstdJar().toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            return (byte[]) real.loadClass("com.github.luben.zstd.Zstd").getMethod("compress", byte[].class, int.class).invoke(null, data, level);
        }
    }

    static long call(HybridRuntime h, Twin twin, Class<?> k, String method, Object... args) throws Throwable {
        Object r = twin.call(h, k, method, args);
        return r instanceof Number n ? n.longValue() : r instanceof Boolean b ? (b ? 1 : 0) : 0;
    }

    /** A zstd size result: an error code fails with zstd's name for it. */
    static int size(HybridRuntime h, long code, String what) throws Throwable {
        assertFalse((Boolean) ZSTD.call(h, Zstd.class, "isError", code), () -> {
            try {
                return what + ": " + ZSTD.call(h, Zstd.class, "getErrorName", code);
            } catch (Throwable t) {
                return what + ": error " + code;
            }
        });
        return Math.toIntExact(code);
    }

    /** Compresses {@code data} in the emulator on a fresh context (level 3, {@code workers} threads). */
    static byte[] compress(HybridRuntime h, byte[] data, int workers, String what) throws Throwable {
        long ctx = call(h, CCTX, ZstdCompressCtx.class, "init");
        assertNotEquals(0L, ctx, what);
        try {
            call(h, CCTX, ZstdCompressCtx.class, "setLevel0", ctx, LEVEL);
            if (workers > 0) {
                size(h, call(h, ZSTD, Zstd.class, "setCompressionWorkers", ctx, workers), what + ": nbWorkers");
                size(h, call(h, ZSTD, Zstd.class, "setCompressionJobSize", ctx, JOB_BYTES), what + ": jobSize");
            }
            byte[] dst = new byte[Math.toIntExact(call(h, ZSTD, Zstd.class, "compressBound", (long) data.length))];
            int n = size(h, call(h, CCTX, ZstdCompressCtx.class, "compressByteArray0", ctx, dst, 0, dst.length, data, 0, data.length), what);
            return Arrays.copyOf(dst, n);
        } finally {
            call(h, CCTX, ZstdCompressCtx.class, "free", ctx);
        }
    }

    static byte[] decompress(HybridRuntime h, byte[] compressed, int size, String what) throws Throwable {
        long ctx = call(h, DCTX, ZstdDecompressCtx.class, "init");
        assertNotEquals(0L, ctx, what);
        try {
            byte[] dst = new byte[size];
            assertEquals(size, size(h, call(h, DCTX, ZstdDecompressCtx.class, "decompressByteArray0", ctx, dst, 0, size, compressed, 0, compressed.length), what), what);
            return dst;
        } finally {
            call(h, DCTX, ZstdDecompressCtx.class, "free", ctx);
        }
    }

    /** Instructions executed per library ({@code libc.so}, the zstd library...) over all calls so far. */
    static Map<String, Long> instructionsByLibrary(NativeLibrary lib) {
        Map<String, Long> out = new TreeMap<>();
        for (long[] counts : lib.countsByMethod().values())
            for (int i = 0; i < counts.length; i++)
                if (counts[i] > 0) {
                    Tracer.Block b = lib.tracer.block(i);
                    out.merge(b.library(), counts[i] * b.instructions().size(), Long::sum);
                }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void oneMebibyteCompressedAsTheHostDoesAndBackAlsoWithWorkerThreads(String abi) throws Throwable {
        byte[] data = input();
        byte[] expected = hostCompress(data, LEVEL);
        assertTrue(expected.length < data.length / 2, "host: " + expected.length);
        Path lib = RealLibraries.zstd(abi);
        for (Engine engine : Engines.all()) {
            String what = abi + " " + engine.id;
            HybridRuntime h = new HybridRuntime(lib.getParent(), abi, null, engine, Userland.BIONIC, KEYS::get);
            h.loadLibrary("zstd-jni-1.5.7-3");
            try {
                byte[] compressed = compress(h, data, 0, what);
                assertArrayEquals(expected, compressed, what + ": " + compressed.length + " bytes, the host's " + expected.length);
                assertArrayEquals(data, decompress(h, compressed, data.length, what), what);

                // worker threads (bionic's pthread_create): the jobs run on them, the same data back
                NativeLibrary zstd = h.libraries().get(0);
                int threadsBefore = zstd.tracer.emulator.syscalls.threads().size();
                byte[] threaded = compress(h, data, WORKERS, what + ", " + WORKERS + " workers");
                assertArrayEquals(data, decompress(h, threaded, data.length, what + ", " + WORKERS + " workers"), what);
                var threads = zstd.tracer.emulator.syscalls.threads();
                assertTrue(threads.size() >= threadsBefore + WORKERS, what + ": threads " + threadsBefore + " -> " + threads);
                long workerBlocks = threads.subList(threadsBefore, threads.size()).stream().mapToLong(t -> t.blocks()).sum();
                assertTrue(workerBlocks > 0, what + ": " + threads);
                assertEquals(Map.of(), zstd.tracer.emulator.syscalls.unknown(), what);

                Map<String, Long> byLibrary = instructionsByLibrary(zstd);
                assertTrue(byLibrary.getOrDefault("libzstd-jni-1.5.7-3.so", 0L) > 0, what + ": " + byLibrary);
                assertTrue(byLibrary.getOrDefault("libc.so", 0L) > 0, what + ": " + byLibrary);
            } finally {
                for (NativeLibrary l : h.libraries()) l.close();
            }
        }
    }
}
