package org.hyprof.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hyprof.collector.TokenFile;
import picocli.CommandLine.Option;

/**
 * How a client of a collector ({@code ctl}, {@code profile --connect}) finds its token, first
 * match wins: {@code --token T} (visible in {@code ps}: avoid), {@code --token-file F},
 * {@code --session S.db} (its {@code S.db.token}, which {@code serve -o S.db} wrote), the
 * environment variable {@code HYPROF_TOKEN}; else none (a collector that wants one rejects us).
 */
final class TokenOptions {
    @Option(names = "--token", paramLabel = "T", description = "The collector's token (prefer --token-file, --session or HYPROF_TOKEN: a command line is visible to other users).")
    String token;

    @Option(names = "--token-file", paramLabel = "F", description = "File holding the collector's token (e.g. S.db.token).")
    Path tokenFile;

    @Option(names = "--session", paramLabel = "S.db", description = "The collector's session database: its token is read from S.db.token (the default way to authenticate).")
    Path session;

    /** The file the token is read from, or null (a --token value, HYPROF_TOKEN, or none). */
    Path file() {
        if (token != null) return null;
        if (tokenFile != null) return tokenFile;
        return session != null ? TokenFile.beside(session) : null;
    }

    /** The token, or "" when none is given. */
    String resolve() {
        if (token != null) return token;
        Path f = file();
        if (f != null) {
            if (!Files.exists(f)) throw new UserError(f + ": no token file (does 'hyprof serve -o " + (session != null ? session : "S.db")
                    + "' run here?)");
            try {
                return TokenFile.read(f);
            } catch (IOException e) {
                throw new UserError(e.getMessage());
            }
        }
        String env = System.getenv("HYPROF_TOKEN");
        return env == null ? "" : env.trim();
    }

    /** What to say when the collector wanted a token we did not give. */
    static final String HINT = " (give the collector's token: --session S.db reads S.db.token, or --token-file F, or HYPROF_TOKEN)";
}
