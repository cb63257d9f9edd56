package org.hyprof.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.hyprof.bb.NativeException;
import org.hyprof.bb.cost.CpuProfile;
import picocli.CommandLine.Option;

/**
 * A hybrid run: the app's native libraries run in bb-tracer. Validated here, before the program
 * starts, so a typo is a one-line error rather than a run without native code.
 */
public final class HybridOptions {
    static final List<String> ABIS = List.of("arm64-v8a", "armeabi-v7a");

    @Option(names = "--native-libs", paramLabel = "DIR",
            description = "Run the program's native methods in bb-tracer: its .so files from DIR/<abi>/, DIR/lib/<abi>/ (an unpacked APK) or DIR/.")
    Path dir;

    @Option(names = "--abi", paramLabel = "ABI",
            description = "arm64-v8a or armeabi-v7a (default: the first of these DIR has).")
    String abi;

    @Option(names = "--cpu", paramLabel = "PROFILE",
            description = "CPU profile for native code: cortex-a8, cortex-a9, generic-aarch64 or a file (default: cortex-a9 for armeabi-v7a, generic-aarch64 for arm64-v8a).")
    String cpu;

    @Option(names = "--engine", paramLabel = "E",
            description = "Emulator engine: libunicorn (blocks counted in C; built when Debian's libunicorn-dev is installed), "
                    + "unidbg (a Java hook per block, ~20x slower) or auto (libunicorn when built). Default: auto, or $HYPROF_ENGINE.")
    String engine;

    @Option(names = "--userland", paramLabel = "U",
            description = "What native code's libc/libm calls run on: stubs (Java versions of ~45 functions, not counted) or bionic "
                    + "(Android 6.0's own libc.so/libm.so run in the emulator, every instruction counted). Default: bionic, or $HYPROF_USERLAND.")
    String userland;

    @Option(names = "--native-limit", paramLabel = "LIMIT",
            description = "Stop a native call that runs longer than this: instructions (k/m/g suffix) and/or wall time (s or ms), "
                    + "e.g. 500m,30s, or off; the error names the method, the Java side goes on. Default: 10g,120s.")
    String limit;

    @Option(names = "--native-sandbox", paramLabel = "DIR",
            description = "With --userland bionic: the directory native code's file calls (open, read, write, stat, mkdir, unlink, mmap, ...) "
                    + "see as /; no path outside it is ever opened. Created if missing, kept afterwards. "
                    + "Default: a private temporary directory (mode 0700), removed when recording ends.")
    Path sandbox;

    /** Agent settings of the run, or empty when not hybrid. Throws one-line UserErrors. */
    List<String> agentArgs() {
        List<String> a = new ArrayList<>();
        if (dir == null) {
            if (abi != null || cpu != null || engine != null || userland != null || limit != null || sandbox != null)
                throw new UserError("--abi, --cpu, --engine, --userland, --native-limit and --native-sandbox need --native-libs DIR", 2);
            return a;
        }
        if (!Files.isDirectory(dir)) throw new UserError(dir + ": no such directory (--native-libs)");
        String chosen = abi;
        if (chosen != null && !ABIS.contains(chosen)) throw new UserError("--abi: '" + abi + "' is not one of " + String.join(", ", ABIS), 2);
        if (chosen == null) {
            for (String x : ABIS) if (Files.isDirectory(dir.resolve(x)) || Files.isDirectory(dir.resolve("lib").resolve(x))) { chosen = x; break; }
        }
        if (chosen == null && !hasLibraries(dir))
            throw new UserError(dir + ": no native libraries (expected " + String.join("/ or ", ABIS) + "/ with lib*.so, or lib*.so)");
        if (chosen != null && !Files.isDirectory(dir.resolve(chosen)) && !Files.isDirectory(dir.resolve("lib").resolve(chosen)) && !hasLibraries(dir))
            throw new UserError(dir + ": no " + chosen + " libraries (" + dir.resolve(chosen) + " does not exist)");
        if (cpu != null) {
            CpuProfile p;
            try {
                p = CpuProfile.load(cpu);
            } catch (NativeException e) {
                throw new UserError(e.getMessage());
            }
            if (chosen != null && p.arch.equals("arm64") != chosen.equals("arm64-v8a"))
                throw new UserError("--cpu " + cpu + " is a profile for " + p.arch + ", not for " + chosen, 2);
            a.add("cpu=" + (Files.isRegularFile(Path.of(cpu)) ? Path.of(cpu).toAbsolutePath().toString() : cpu));
        }
        if (engine != null) a.add("engine=" + NativeCommand.engine(engine).id);
        if (userland != null) a.add("userland=" + NativeCommand.userland(userland).id);
        if (limit != null) a.add("nativeLimit=" + NativeCommand.limits(limit).setting());
        if (sandbox != null) a.add("nativeSandbox=" + NativeCommand.sandbox(sandbox, NativeCommand.userland(userland)).root());
        a.add(0, "nativeLibs=" + dir.toAbsolutePath());
        if (chosen != null) a.add(1, "abi=" + chosen);
        return a;
    }

    private static boolean hasLibraries(Path d) {
        try (Stream<Path> s = Files.list(d)) {
            return s.anyMatch(p -> p.getFileName().toString().matches("lib.*\\.so"));
        } catch (IOException e) {
            return false;
        }
    }
}
