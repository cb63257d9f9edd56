package org.hyprof.cli;

import static org.junit.jupiter.api.Assertions.*;

import org.hyprof.config.ProfilingConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --time-all} (issue 15 item 4): the runtime option {@code timeAll=true}, passed to the agent
 * by {@code profile} and kept in the settings {@code instrument} writes; its help says what it does.
 */
class TimeAllOptionTest {
    private static ProfileCommand profile(String... args) {
        ProfileCommand p = new ProfileCommand();
        new CommandLine(p).parseArgs(args);
        return p;
    }

    @Test
    void setsTheRuntimeOptionAndIsOffByDefault() {
        ProfileCommand on = profile("--time-all", "-o", "s.db", "--", "java", "Main");
        assertTrue(on.options.agentArgs().contains("timeAll=true"), on.options.agentArgs().toString());
        assertTrue(on.options.build().runtime.timeAll);
        assertTrue(ProfilingConfig.parseAgentArgs(String.join(",", on.options.agentArgs())).runtime.timeAll,
                "the agent accepts what profile passes");
        ProfileCommand off = profile("-o", "s.db", "--", "java", "Main");
        assertFalse(off.options.agentArgs().stream().anyMatch(a -> a.startsWith("timeAll")), off.options.agentArgs().toString());
        assertFalse(off.options.build().runtime.timeAll);
    }

    @Test
    void helpSaysWhatItDoes() {
        for (Object cmd : new Object[] {new ProfileCommand(), new InstrumentCommand()}) {
            String help = new CommandLine(cmd).getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
            assertTrue(help.contains("--time-all Keep timing every method, however short its calls."), help);
            assertTrue(help.contains("goes count-only"), help);
        }
    }
}
