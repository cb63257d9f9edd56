package org.hyprof.tui;

import com.googlecode.lanterna.input.KeyStroke;
import com.googlecode.lanterna.input.KeyType;
import com.googlecode.lanterna.screen.Screen;
import com.googlecode.lanterna.screen.TerminalScreen;
import com.googlecode.lanterna.terminal.DefaultTerminalFactory;
import com.googlecode.lanterna.terminal.Terminal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hyprof.collector.Collector;
import org.hyprof.config.MethodNames;
import org.hyprof.live.LiveSession;
import org.hyprof.store.Store;

/**
 * Entry point of the terminal UI, run in a JVM of its own by {@code hyprof tui} (Lanterna never
 * shares a process with the emulator; see THIRD-PARTY.md). Arguments: {@code SESSION.db}, or
 * {@code --listen HOST:PORT [--token T | --token-file F] -o S.db} (without either, the token of
 * {@code S.db.token}, created if missing); {@code --descriptors} names methods by JVM descriptor.
 */
public final class TuiMain {
    private TuiMain() {}

    public static void main(String[] args) {
        int code;
        try {
            Terminal t = new DefaultTerminalFactory().setForceTextTerminal(true).createTerminal();
            Screen screen = new TerminalScreen(t);
            code = run(screen, args);
        } catch (IOException e) {
            System.err.println("hyprof tui: cannot use this terminal: " + e.getMessage());
            code = 1;
        }
        System.exit(code);
    }

    /**
     * Runs the UI on a screen (tests pass a virtual terminal); the terminal is restored on every
     * path. Returns the exit code: 0 after q, 1 when the session could not be opened or read (the
     * reason was on screen until q).
     */
    static int run(Screen screen, String[] args) throws IOException {
        screen.startScreen();
        screen.setCursorPosition(null);
        Source source = null;
        try {
            try {
                source = open(args);
            } catch (RuntimeException | IOException | InterruptedException e) {
                showError(screen, e.getMessage() == null ? e.toString() : e.getMessage());
                return 1;
            }
            return new TuiApp(screen, source).run();
        } finally {
            if (source != null) source.close();
            screen.stopScreen();
        }
    }

    static Source open(String[] args) throws IOException, InterruptedException {
        String listen = null, token = null, tokenFile = null, out = null, session = null;
        MethodNames.Style style = MethodNames.Style.JAVA;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--listen" -> listen = args[++i];
                case "--token" -> token = args[++i];
                case "--token-file" -> tokenFile = args[++i];
                case "-o" -> out = args[++i];
                case "--descriptors" -> style = MethodNames.Style.DESCRIPTOR;
                default -> session = args[i];
            }
        }
        if (listen == null) {
            if (session == null) throw new IllegalArgumentException("no session given");
            return new Source.Stored(Path.of(session), style);
        }
        int colon = listen.lastIndexOf(':');
        Path db = Path.of(out != null ? out : "hyprof-live.db");
        // authentication on by default: the token of S.db.token (made now if missing), as 'hyprof serve'
        Path tokenPath = tokenFile != null ? Path.of(tokenFile) : org.hyprof.collector.TokenFile.beside(db);
        String tokenSaid = token != null ? "token given with --token" : "token in " + tokenPath;
        if (token == null) token = org.hyprof.collector.TokenFile.createOrRead(tokenPath).value();
        Store store = Files.exists(db) ? Store.open(db) : Store.create(db);
        LiveSession live = new LiveSession(store, token.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Collector c = new Collector(listen.substring(0, colon), Integer.parseInt(listen.substring(colon + 1)), token,
                live, live, line -> { });
        int port;
        try {
            port = c.start();
        } catch (Exception e) {
            store.close();
            throw new IllegalStateException(listen + ": cannot listen (" + e.getMessage() + ")");
        }
        return new Source.Live(store, live, c, listen.substring(0, colon) + ":" + port + " (" + tokenSaid + ")", style);
    }

    private static void showError(Screen screen, String message) throws IOException {
        var g = screen.newTextGraphics();
        screen.clear();
        g.putString(0, 0, Text.fit("hyprof: " + message, screen.getTerminalSize().getColumns()));
        g.putString(0, 2, "press q to quit");
        screen.refresh();
        while (true) {
            KeyStroke k = screen.readInput();
            if (k == null || k.getKeyType() == KeyType.EOF || k.getKeyType() == KeyType.Escape
                    || (k.getKeyType() == KeyType.Character && k.getCharacter() == 'q')) return;
        }
    }
}
