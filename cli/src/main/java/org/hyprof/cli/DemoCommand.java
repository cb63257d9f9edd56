package org.hyprof.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code hyprof demo}: the bundled hybrid demo, profiled end to end with the embedded defaults: its
 * Java code with probes, its native methods (libhyprofdemo.so) in bb-tracer, energy per method.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Profile the bundled hybrid demo and print its top methods by energy.",
            "The demo (samples/java, package demo) has SciMark-like kernels written both in Java and in C (JNI),",
            "plus JNI calls of every kind. The native methods run in the emulator (armeabi-v7a, Cortex-A9 profile);",
            "the report lists the top methods by energy, Java and native side by side. The session is kept in the",
            "output database for 'hyprof report'."})
public final class DemoCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = {"-o", "--output"}, paramLabel = "S.db", defaultValue = "hyprof-demo.db",
            description = "Session database (replaced if it exists). Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10", description = "Rows to show. Default: ${DEFAULT-VALUE}.")
    int top;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "5", description = "Rounds of the demo workload. Default: ${DEFAULT-VALUE}.")
    int rounds;

    @Option(names = "--abi", paramLabel = "ABI", defaultValue = "armeabi-v7a",
            description = "armeabi-v7a or arm64-v8a. Default: ${DEFAULT-VALUE}.")
    String abi;

    @Option(names = "--cpu", paramLabel = "PROFILE",
            description = "CPU profile for native code (default: cortex-a9 for armeabi-v7a, generic-aarch64 for arm64-v8a).")
    String cpu;

    @Option(names = "--engine", paramLabel = "E",
            description = "Emulator engine: libunicorn, unidbg or auto (see hyprof profile --help). Default: auto, or $HYPROF_ENGINE.")
    String engine;

    @Option(names = "--userland", paramLabel = "U",
            description = "What the demo library's libc/libm calls run on: stubs or bionic (Android 6.0's libc.so/libm.so, counted; "
                    + "see hyprof profile --help). Default: bionic, or $HYPROF_USERLAND.")
    String userland;

    @Option(names = "--native-limit", paramLabel = "LIMIT",
            description = "Limit of each native call: instructions (k/m/g) and/or wall time (s, ms), or off (see hyprof profile --help). "
                    + "Default: 10g,120s.")
    String limit;

    @Option(names = "--native-sandbox", paramLabel = "DIR",
            description = "With --userland bionic: the directory the demo library's file calls see as / (created if missing, kept; "
                    + "see hyprof profile --help). Default: a private temporary directory, removed at the end.")
    Path sandbox;

    @Mixin NamingOptions naming;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Path samples = Home.lib().resolve("hyprof-samples-java.jar");
        Path natives = Home.lib().resolve("native");
        if (!Files.isRegularFile(samples)) throw new UserError(samples + ": bundled samples not found (rebuild with ./hyprof)");
        if (!Files.isDirectory(natives)) throw new UserError(natives + ": bundled native libraries not found (rebuild with ./hyprof)");
        if (rounds < 1) throw new UserError("--rounds must be ≥ 1", 2);
        // checked before anything is printed (issue 20: '--abi x86' used to start the demo first)
        if (!HybridOptions.ABIS.contains(abi))
            throw new UserError("--abi: '" + abi + "' is not one of " + String.join(", ", HybridOptions.ABIS), 2);
        String profile = cpu != null ? cpu : abi.equals("arm64-v8a") ? "generic-aarch64" : "cortex-a9";
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        err.println("hyprof demo: profiling demo.HybridDemo into " + out + " (Java with probes; native methods of "
                + "libhyprofdemo.so in the emulator, " + abi + ", " + profile + ")");
        err.flush();
        List<String> argv = new ArrayList<>(List.of("profile", "--force", "--no-next-commands", "-o", out.toString(),
                "--native-libs", natives.toString(), "--abi", abi, "--cpu", profile));
        if (engine != null) argv.addAll(List.of("--engine", engine));
        if (userland != null) argv.addAll(List.of("--userland", userland));
        if (limit != null) argv.addAll(List.of("--native-limit", limit));
        if (sandbox != null) argv.addAll(List.of("--native-sandbox", sandbox.toString()));
        argv.addAll(List.of("--", java, "-cp", samples.toString(), "demo.HybridDemo", Integer.toString(rounds)));
        int code = HyprofCommand.newCommandLine()
                .setOut(spec.commandLine().getOut()).setErr(err)
                .execute(argv.toArray(String[]::new));
        if (code != 0) return code;
        err.println("hyprof demo: top " + top + " methods by energy (Java: time x CPU power of the sample power profile;"
                + " native: the emulator's estimate); all rows: hyprof report " + out + " --sort energy");
        err.flush();
        List<String> report = new ArrayList<>(List.of("report", out.toString(), "--top", Integer.toString(top), "--sort", "energy"));
        if (naming.descriptors) report.add("--descriptors");
        code = HyprofCommand.newCommandLine().setOut(spec.commandLine().getOut()).setErr(err).execute(report.toArray(String[]::new));
        if (code == 0) NextCommands.print(err, out, false, true, true); // the demo records in aggregate mode, its native half in the emulator
        return code;
    }
}
