package org.hyprof.cli;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hyprof.control.Command;
import org.hyprof.control.Frame;
import org.hyprof.control.Hello;
import org.hyprof.control.Reject;
import org.hyprof.control.Result;
import org.hyprof.runtime.Wire;
import org.hyprof.runtime.WireCodec;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code hyprof ctl}: drive a live session from a script. */
@CommandLine.Command(name = "ctl", mixinStandardHelpOptions = true,
        description = {"Send one command to a running collector ('hyprof serve' or 'hyprof tui --listen').",
            "Commands:",
            "  processes                         list the session's processes",
            "  probes [PATTERN]                  probes with id, state (on/off) and counts",
            "  on PATTERN | off PATTERN          switch probes whose report name matches (glob)",
            "  zoom-in ID | zoom-out | scope     process -> thread -> method -> loop level and back",
            "  root PATTERN | root none          caller filter: record only inside these methods",
            "  rule min-duration=DUR | min-calls=N | max-depth=N | none",
            "  stats [--format table|csv|json] [--by method|loop|thread|process] [--top N]",
            "  dump                              the events each thread's log keeps (profile --keep last), sent",
            "                                    at its next event, without stopping the program",
            "The collector's token is read from S.db.token with --session S.db (or --token-file F, or HYPROF_TOKEN).",
            "Example: hyprof ctl --session s.db --connect 127.0.0.1:7811 off 'com.example.*'"})
public final class CtlCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--connect", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:7811",
            description = "Collector address. Default: ${DEFAULT-VALUE}.")
    String connect;

    @Mixin TokenOptions auth;

    @Option(names = "--process", paramLabel = "ID", description = "Apply to this process of the session only (ids: 'processes').")
    Long process;

    @Option(names = "--timeout-ms", paramLabel = "N", defaultValue = "2000", description = "How long to wait for agents. Default: ${DEFAULT-VALUE}.")
    long timeoutMillis;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "The command and its arguments.")
    List<String> command = new ArrayList<>();

    @Override
    public Integer call() {
        String[] hp = HostPort.parse(connect, "--connect");
        List<String> args = new ArrayList<>();
        if (process != null) { args.add("--process"); args.add(process.toString()); }
        args.add("--timeout-ms");
        args.add(Long.toString(timeoutMillis));
        args.addAll(command);
        PrintWriter out = spec.commandLine().getOut();
        String token = auth.resolve();
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), 3000);
            s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMillis * 4 + 10_000));
            OutputStream o = new BufferedOutputStream(s.getOutputStream());
            DataInputStream in = new DataInputStream(s.getInputStream());
            o.write(Hello.ctl(token).toBytes());
            o.flush();
            Frame f = read(in);
            if (f instanceof Reject r)
                throw new UserError(connect + ": rejected: " + r.reason() + (token.isEmpty() ? TokenOptions.HINT : ""));
            o.write(new Command(args).toBytes());
            o.flush();
            f = read(in);
            if (!(f instanceof Result r)) throw new UserError(connect + ": unexpected answer (frame type " + f.type() + ")");
            if (r.exitCode() != 0) throw new UserError(r.output().strip(), r.exitCode());
            out.print(r.output());
            out.flush();
            return 0;
        } catch (IOException e) {
            throw new UserError(connect + ": " + e.getMessage());
        }
    }

    private static Frame read(DataInputStream in) throws IOException {
        int[] type = new int[1];
        byte[] p = WireCodec.readFrame(in, type, Wire.MAX_CONTROL_FRAME);
        return Frame.decode(type[0], p);
    }
}
