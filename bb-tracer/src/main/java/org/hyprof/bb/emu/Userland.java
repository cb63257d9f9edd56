package org.hyprof.bb.emu;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import org.hyprof.bb.NativeException;

/**
 * What native code's imports bind to ({@code --userland}).
 *
 * <ul>
 * <li>{@link #STUBS}: about 45 libc/libm/liblog functions written in Java
 * ({@link LibC}); their work is not counted, anything else fails when called.
 * <li>{@link #BIONIC} (the default): Android 6.0's own {@code libc.so}, {@code libm.so} and {@code libz.so}
 * (taken at build time from unidbg-android's jar into this module's resources) are loaded next to
 * the library and run in the emulator, every block counted; bionic's start-up data, TLS and the
 * Linux system calls they make are emulated ({@link Syscalls}). {@code libdl.so} (the dynamic
 * linker's functions), {@code liblog.so} and {@code libandroid.so} ({@link LibAndroid}) are Java
 * stand-ins.
 * </ul>
 */
public enum Userland {
    STUBS("stubs"),
    BIONIC("bionic");

    /** The name users give. */
    public final String id;

    Userland(String id) {
        this.id = id;
    }

    /**
     * {@code stubs} or {@code bionic}; null or empty: the {@code hyprof.userland} system property,
     * else the {@code HYPROF_USERLAND} environment variable, else {@link #BIONIC}. Anything else is a
     * one-line error naming the value.
     */
    public static Userland named(String name) {
        if (name == null || name.isBlank()) name = System.getProperty("hyprof.userland");
        if (name == null || name.isBlank()) name = System.getenv("HYPROF_USERLAND");
        if (name == null || name.isBlank()) return BIONIC;
        for (Userland u : values()) if (u.id.equals(name.toLowerCase(Locale.ROOT))) return u;
        throw new NativeException("--userland '" + name + "': not a userland (stubs, bionic)");
    }

    /** System libraries the Java stand-ins replace: they are never loaded from a file. */
    static boolean standIn(String soname) {
        return soname.equals("libdl.so") || soname.equals("liblog.so") || soname.equals("libandroid.so");
    }

    private static Path extracted;

    /**
     * Android 6.0's build of a system library ({@code libc.so}, {@code libm.so}, {@code libz.so})
     * for an instruction set, or null when hyprof has none. Extracted from the class path once per
     * JVM into a private temporary directory.
     */
    static synchronized Path systemLibrary(Backend.Arch arch, String soname) {
        String res = "bionic/android/sdk23/" + (arch == Backend.Arch.ARM64 ? "lib64/" : "lib/") + soname;
        if (!soname.matches("lib[a-z0-9_+]+\\.so") || Userland.class.getResource(res) == null) return null;
        try {
            if (extracted == null) {
                extracted = Files.createTempDirectory("hyprof-bionic");
                extracted.toFile().deleteOnExit();
            }
            Path dir = extracted.resolve(arch == Backend.Arch.ARM64 ? "lib64" : "lib");
            Files.createDirectories(dir);
            dir.toFile().deleteOnExit();
            Path f = dir.resolve(soname);
            if (!Files.exists(f)) {
                try (InputStream in = Userland.class.getResourceAsStream(res)) {
                    Files.copy(in, f, StandardCopyOption.REPLACE_EXISTING);
                }
                f.toFile().deleteOnExit();
            }
            return f;
        } catch (IOException e) {
            throw new NativeException("cannot extract the system library " + soname + ": " + e.getMessage(), e);
        }
    }
}
