package org.hyprof.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code hyprof demo}: the bundled sample, profiled end to end with the embedded defaults. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Profile the bundled sample workload (DPA's verification kernels: matrix, loop, sieve,",
            "bubble sort, random, string concatenation, recursive fib and hanoi) and print the hotspots.",
            "The session is kept in the output database for 'hyprof report'."})
public final class DemoCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = {"-o", "--output"}, paramLabel = "S.db", defaultValue = "hyprof-demo.db",
            description = "Session database (replaced if it exists). Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10", description = "Rows to show. Default: ${DEFAULT-VALUE}.")
    int top;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Path samples = Home.lib().resolve("hyprof-samples-java.jar");
        if (!Files.isRegularFile(samples)) throw new UserError(samples + ": bundled samples not found (rebuild with ./hyprof)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        err.println("hyprof demo: profiling workload.CallHeavy (kernels) into " + out);
        err.flush();
        int code = HyprofCommand.newCommandLine()
                .setOut(spec.commandLine().getOut()).setErr(err)
                .execute("profile", "--force", "-o", out.toString(), "--", java, "-cp", samples.toString(),
                        "workload.CallHeavy", "kernels", "20");
        if (code != 0) return code;
        return HyprofCommand.newCommandLine().setOut(spec.commandLine().getOut()).setErr(err)
                .execute("report", out.toString(), "--top", Integer.toString(top));
    }
}
