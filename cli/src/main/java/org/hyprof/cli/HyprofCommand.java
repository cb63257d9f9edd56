package org.hyprof.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hyprof} command: one subcommand per job (see the README for all of them). */
@Command(name = "hyprof",
        mixinStandardHelpOptions = true,
        versionProvider = HyprofCommand.Version.class,
        description = "Hybrid Java/native profiler: per-method time and energy, Java and JNI code.",
        subcommands = {
            CommandLine.HelpCommand.class,
            ProfileCommand.class,
            InstrumentCommand.class,
            ImportCommand.class,
            ReportCommand.class,
            ExportCommand.class,
            CompareCommand.class,
            NativeCommand.class,
            CalibrateCommand.class,
            DemoCommand.class,
            ServeCommand.class,
            CtlCommand.class,
            TuiCommand.class,
        })
public final class HyprofCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Runs the command line and returns the exit code. */
    public static int execute(String... args) {
        return newCommandLine().execute(args);
    }

    /** The configured command line (tests use it with their own writers). */
    public static CommandLine newCommandLine() {
        CommandLine cl = new CommandLine(new HyprofCommand());
        // 'hyprof ctl stats --top 5': options after the command word belong to the command
        cl.getSubcommands().get("ctl").setStopAtPositional(true);
        cl.setExecutionExceptionHandler(new Errors());
        cl.setUsageHelpWidth(120); // descriptions are written in lines of up to about 110 characters
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("hyprof: " + ex.getMessage());
            err.println("try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'");
            return 2;
        });
        return cl;
    }

    public static void main(String[] args) {
        // sqlite-jdbc logs through SLF4J; with no binding it prints three warning lines per run
        if (System.getProperty("slf4j.provider") == null) {
            System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
            System.setProperty("slf4j.internal.verbosity", "WARN");
        }
        int code;
        try {
            code = execute(args);
        } catch (OutOfMemoryError e) {
            // a one-line error, not a stack trace: what was written is closed by the commands' own
            // try-with-resources; the session read is never written by reports and exports
            System.err.println("hyprof: out of memory (Java heap of " + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MB): run it with more, e.g. HYPROF_JAVA_OPTS=-Xmx4g, or ask for less (a report's --top, --depth, --prune)");
            code = 1;
        }
        System.exit(code);
    }

    /** Version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = HyprofCommand.class.getPackage().getImplementationVersion();
            return new String[] {"hyprof " + (v != null ? v : "dev")};
        }
    }

    /**
     * Turns failures into one line naming the input and the problem, and a non-zero exit.
     * {@link UserError}s carry their own message and exit code; anything else is a bug and gets
     * its type too (set HYPROF_DEBUG=1 for the stack trace).
     */
    static final class Errors implements CommandLine.IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult pr) {
            PrintWriter err = cl.getErr();
            if (ex instanceof UserError) {
                err.println("hyprof: " + ex.getMessage());
                err.flush();
                return ((UserError) ex).exitCode;
            }
            err.println("hyprof: internal error: " + ex);
            if (System.getenv("HYPROF_DEBUG") != null) ex.printStackTrace(err);
            err.flush();
            return 70;
        }
    }
}
