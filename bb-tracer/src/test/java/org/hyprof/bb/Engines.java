package org.hyprof.bb;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.LibUnicornBackend;

/** The engines tests run on: unidbg always; libunicorn when its shim was built. */
public final class Engines {
    private Engines() {}

    /**
     * Every engine this build has. Where Debian's libunicorn-dev is installed (CI installs it) the
     * libunicorn engine must have been built and must load: a missing shim there fails the tests
     * instead of quietly testing one engine.
     */
    public static List<Engine> all() {
        List<Engine> l = new ArrayList<>();
        l.add(Engine.UNIDBG);
        if (Files.exists(Path.of("/usr/include/unicorn/unicorn.h"))) {
            assertNull(LibUnicornBackend.unavailableBecause(), "libunicorn-dev is installed, so the libunicorn engine must load");
            l.add(Engine.LIBUNICORN);
        } else if (LibUnicornBackend.unavailableBecause() == null) {
            l.add(Engine.LIBUNICORN);
        }
        return l;
    }
}
