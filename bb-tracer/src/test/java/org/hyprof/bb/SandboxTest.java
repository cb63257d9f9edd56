package org.hyprof.bb;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Sandbox;
import org.hyprof.bb.emu.Userland;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Native code's files (issue 16, userland bionic): bionic's own stdio, stat, unlink, opendir and
 * mmap, called in the emulator (fixture samples/native/src/userland.c), on a sandbox directory:
 * what they do lands there and nowhere else, errors come back as the errno Linux gives, shared
 * mappings reach the file. Both ABIs, both engines.
 */
class SandboxTest {
    static Path library(String abi) {
        return sample(abi, "libuserland.so");
    }

    /** One of the native samples ({@code samples/native/lib/ABI/SO}). */
    static Path sample(String abi, String so) {
        return Path.of("../samples/native/lib", abi, so);
    }

    /** A native function's {@code long} result (32 bits on ARM, sign-extended). */
    static long call(Tracer t, String fn, Emulator.Arg... args) {
        long r = t.call(fn, List.of(args)).returnValue();
        return t.emulator.cpu.arch() == org.hyprof.bb.emu.Backend.Arch.ARM ? (int) r : r;
    }

    /** A native function's {@code int} result. */
    static int callInt(Tracer t, String fn, Emulator.Arg... args) {
        return (int) t.call(fn, List.of(args)).returnValue();
    }

    /** A NUL-terminated string in emulated memory. */
    static Emulator.Arg string(Tracer t, String s) {
        byte[] b = (s + "\0").getBytes(StandardCharsets.UTF_8);
        long p = t.emulator.heap.malloc(b.length);
        t.emulator.cpu.write(p, b);
        return Emulator.Arg.ofInt(p);
    }

    static Emulator.Arg i(long v) {
        return Emulator.Arg.ofInt(v);
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void stdioWritesReadsStatsAndUnlinksInTheSandbox(String abi, @TempDir Path dir) {
        long expected = 0;
        for (int k = 0; k < 5000; k++) expected += (k * 7) & 0xff;
        for (Engine engine : Engines.all()) {
            try (Sandbox sb = Sandbox.at(dir.resolve(engine.id)); Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC, sb)) {
                assertEquals(expected, call(t, "files_roundtrip", i(5000)), engine.id);
                assertTrue(Files.isDirectory(sb.root().resolve("data")), engine.id);
                assertFalse(Files.exists(sb.root().resolve("data/t.bin")), engine.id + ": unlinked");
                assertEquals(Map.of(), t.emulator.syscalls.unknown(), engine.id);
                assertSame(sb, t.emulator.syscalls.sandbox());
            }
            assertTrue(Files.isDirectory(dir.resolve(engine.id)), "a sandbox the user named is kept");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void noPathOutsideTheSandboxIsOpened(String abi, @TempDir Path dir) throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "not for native code");
        Path root = Files.createDirectories(dir.resolve("sandbox"));
        Files.createSymbolicLink(root.resolve("out"), outside);
        Files.createSymbolicLink(root.resolve("secret-link"), outside.resolve("secret"));
        int rdonly = 0, create = 2 | 0100;
        for (Engine engine : Engines.all()) {
            try (Sandbox sb = Sandbox.at(root); Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC, sb)) {
                assertEquals(-13, callInt(t, "open_path", string(t, "/../outside/secret"), i(rdonly)), engine.id + ": .. above the root: EACCES");
                assertEquals(-13, callInt(t, "open_path", string(t, "../../outside/secret"), i(rdonly)), engine.id);
                assertEquals(-40, callInt(t, "open_path", string(t, "/out/secret"), i(rdonly)), engine.id + ": a link on the way: ELOOP");
                assertEquals(-40, callInt(t, "open_path", string(t, "/secret-link"), i(rdonly)), engine.id + ": a link at the end: ELOOP");
                assertEquals(-40, callInt(t, "open_path", string(t, "/out/new"), i(create)), engine.id + ": nothing created through a link");
                assertEquals(-2, callInt(t, "open_path", string(t, "/no/such/file"), i(rdonly)), engine.id + ": ENOENT");
                // names are resolved lexically ("a" need not exist), never above the root
                long fd = callInt(t, "open_path", string(t, "/a/../made-here"), i(create));
                assertTrue(fd >= 3, engine.id + ": " + fd);
                assertEquals(0, callInt(t, "close_fd", i(fd)), engine.id);
                assertEquals(-9, callInt(t, "close_fd", i(fd)), engine.id + ": closed twice: EBADF");
                assertTrue(Files.isRegularFile(root.resolve("made-here")), engine.id);
                Files.delete(root.resolve("made-here"));
                assertEquals(-2, callInt(t, "open_path", string(t, "/a/../made-here"), i(rdonly)), engine.id + ": gone on the host: ENOENT");
            }
        }
        assertFalse(Files.exists(outside.resolve("new")));
        assertEquals("not for native code", Files.readString(outside.resolve("secret")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void theFileDescriptorTableIsBounded(String abi) {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC)) {
                assertEquals(256 - 3, callInt(t, "open_until_failure"), engine.id + ": fds 3..255");
                assertEquals(24, callInt(t, "errno_value"), engine.id + ": EMFILE");
                t.call("close_from", List.of(i(3)));
                long fd = callInt(t, "open_path", string(t, "/many.txt"), i(0));
                assertEquals(3, fd, engine.id + ": the lowest free fd again");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void sharedMappingsReachTheFileByMsyncMunmapAndClose(String abi, @TempDir Path dir) throws Exception {
        int n = 3 * 4096;
        byte[] pattern = new byte[n];
        long sum = 0;
        for (int k = 0; k < n; k++) {
            pattern[k] = (byte) (k * 3);
            sum += (k * 3) & 0xff;
        }
        for (Engine engine : Engines.all()) {
            Path root = dir.resolve(engine.id);
            try (Sandbox sb = Sandbox.at(root)) {
                try (Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC, sb)) {
                    // msync: another fd reads what was written through the mapping
                    assertEquals(sum, call(t, "mapped_file", string(t, "/m0"), i(n), i(0)), engine.id);
                    // munmap and close
                    assertEquals(0, call(t, "mapped_file", string(t, "/m1"), i(n), i(1)), engine.id);
                    assertArrayEquals(pattern, Files.readAllBytes(root.resolve("m1")), engine.id + ": munmap");
                    // still mapped, fd still open: the emulator's close writes it back
                    assertEquals(0, call(t, "mapped_file", string(t, "/m2"), i(n), i(2)), engine.id);
                }
                assertArrayEquals(pattern, Files.readAllBytes(root.resolve("m2")), engine.id + ": close");
                assertArrayEquals(pattern, Files.readAllBytes(root.resolve("m0")), engine.id + ": msync");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void directoriesListAndRefuseRemovalWhileNotEmpty(String abi) {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC)) {
                assertEquals(3 * 100 + 39, callInt(t, "dir_listing"), engine.id + ": 3 entries, rmdir ENOTEMPTY");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void seekSyncLockFlagsDupStatAndRename(String abi, @TempDir Path dir) {
        for (Engine engine : Engines.all()) {
            Path root = dir.resolve(engine.id);
            try (Sandbox sb = Sandbox.at(root); Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC, sb)) {
                assertEquals(0, callInt(t, "misc_calls"), engine.id + ": the step that failed");
                assertTrue(Files.isRegularFile(root.resolve("misc2")), engine.id);
                assertEquals(Map.of(), t.emulator.syscalls.unknown(), engine.id);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void hostileSizesAreRefusedBeforeAnyHostAllocation(String abi) {
        for (Engine engine : Engines.all()) {
            try (Tracer t = Tracer.open(library(abi), null, engine, Userland.BIONIC)) {
                assertEquals(-14, call(t, "write_huge", i(0x7fff_ffffL)), engine.id + ": past the buffer: EFAULT");
                assertEquals(16, call(t, "write_huge", i(16)), engine.id);
                assertEquals(-27, callInt(t, "truncate_huge", Emulator.Arg.ofLong(1L << 31)), engine.id + ": past the file size cap: EFBIG");
                assertEquals(0, callInt(t, "truncate_huge", Emulator.Arg.ofLong(1 << 20)), engine.id);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void aTemporarySandboxIsPrivateAndRemovedAtTheEnd(String abi) throws Exception {
        Path root;
        try (Tracer t = Tracer.open(library(abi), null, Engine.defaultEngine(), Userland.BIONIC)) {
            assertTrue(call(t, "files_roundtrip", i(10)) > 0);
            root = t.emulator.syscalls.sandbox().root();
            assertTrue(Files.isDirectory(root.resolve("data")));
            assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(root)));
        }
        assertFalse(Files.exists(root), root + " removed");
    }
}
