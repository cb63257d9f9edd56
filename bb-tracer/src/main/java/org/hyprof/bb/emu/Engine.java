package org.hyprof.bb.emu;

import java.util.Locale;
import org.hyprof.bb.NativeException;

/**
 * The emulator engines bb-tracer can run native code on. Both are Unicorn 2 (QEMU's ARM and
 * AArch64 translators) and count the same blocks; they differ in where counting happens.
 */
public enum Engine {
    /**
     * Unicorn 2 from Debian's libunicorn-dev (2.1.1 fetched by {@code fetch-unicorn.sh}, else the
     * system's 2.0.1), linked into hyprof's JNI shim ({@code libhyprof-unicorn.so}, built with
     * bb-tracer): blocks are counted in C, a few ns each. {@link #description} names the version.
     */
    LIBUNICORN("libunicorn"),
    /**
     * Unicorn 2 bundled with unidbg-unicorn2 (Maven Central, always present): blocks are counted by
     * a Java hook, a JNI up-call per executed block (about 90 ns).
     */
    UNIDBG("unidbg");

    /** The name users give ({@code --engine}, {@code -Dhyprof.engine}, {@code HYPROF_ENGINE}). */
    public final String id;

    Engine(String id) {
        this.id = id;
    }

    /**
     * The engine and the Unicorn it runs, for people: {@code libunicorn (Unicorn 2.1.1
     * (libunicorn-dev 2.1.1-2+b2, fetched))}, {@code unidbg (Unicorn 2 of unidbg-unicorn2)}.
     */
    public String description() {
        if (this == UNIDBG) return id + " (Unicorn 2 of unidbg-unicorn2, Java block hook)";
        String v = LibUnicornBackend.unicornVersion();
        return v == null ? id : id + " (" + v + ")";
    }

    /** A backend of this engine for an instruction set. */
    public Backend open(Backend.Arch arch) {
        return this == LIBUNICORN ? new LibUnicornBackend(arch) : new UnicornBackend(arch);
    }

    /**
     * The engine named {@code name}: {@code libunicorn}, {@code unidbg} or {@code auto} (the fastest
     * one available: libunicorn when its shim was built). Null or empty means the system property
     * {@code hyprof.engine}, else the environment variable {@code HYPROF_ENGINE}, else auto.
     */
    public static Engine named(String name) {
        String n = name;
        if (n == null || n.isBlank()) n = System.getProperty("hyprof.engine");
        if (n == null || n.isBlank()) n = System.getenv("HYPROF_ENGINE");
        if (n == null || n.isBlank()) n = "auto";
        n = n.trim().toLowerCase(Locale.ROOT);
        switch (n) {
            case "auto":
                return LibUnicornBackend.unavailableBecause() == null ? LIBUNICORN : UNIDBG;
            case "libunicorn": {
                String why = LibUnicornBackend.unavailableBecause();
                if (why != null) throw new NativeException("engine libunicorn: " + why);
                return LIBUNICORN;
            }
            case "unidbg":
                return UNIDBG;
            default:
                throw new NativeException("unknown engine '" + n + "' (choose libunicorn, unidbg or auto)");
        }
    }

    /** The engine chosen when nobody names one (see {@link #named}). */
    public static Engine defaultEngine() {
        return named(null);
    }
}
