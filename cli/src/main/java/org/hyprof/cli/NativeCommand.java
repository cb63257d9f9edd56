package org.hyprof.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hyprof.bb.NativeException;
import org.hyprof.bb.NativeRun;
import org.hyprof.bb.Tracer;
import org.hyprof.bb.cost.CpuProfile;
import org.hyprof.bb.cost.Estimate;
import org.hyprof.bb.disasm.Listing;
import org.hyprof.bb.emu.Backend;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Limits;
import org.hyprof.store.NativeRunRecord;
import org.hyprof.store.Store;
import org.hyprof.store.StoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code hyprof native LIB.so --call SYMBOL}: one native function in the emulator, counted and costed. */
@Command(name = "native", mixinStandardHelpOptions = true,
        description = {"Run one function of a shared object in the emulator and count what it executed.",
            "armeabi-v7a (ARM/Thumb) and arm64-v8a. Prints the return value, executed blocks and instructions,",
            "instruction categories, estimated cycles, time and energy under a CPU profile, and the hottest blocks",
            "with their disassembly.",
            "Example: hyprof native samples/native/lib/arm64-v8a/libkernels.so --call kernel_fft --arg 256 --arg 4"})
public final class NativeCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "LIB.so", description = "Shared object for armeabi-v7a or arm64-v8a (e.g. from an APK's lib/<abi>/).") Path library;

    @Option(names = "--call", required = true, paramLabel = "SYMBOL", description = "Exported function to call.")
    String symbol;

    @Option(names = "--arg", paramLabel = "V",
            description = "Argument, in order: 42 / 0x2a (int), 7L (64-bit), 1.5f (float), 2.25 or 2.25d (double). Repeatable.")
    List<String> args = new ArrayList<>();

    @Option(names = "--cpu", paramLabel = "PROFILE",
            description = "CPU profile: cortex-a8, cortex-a9, generic-aarch64 or a profile file. Default: cortex-a9 (ARM), generic-aarch64 (AArch64).")
    String cpu;

    @Option(names = "--engine", paramLabel = "E",
            description = "Emulator engine: libunicorn (blocks counted in C; built when Debian's libunicorn-dev is installed), "
                    + "unidbg (a Java hook per block, ~20x slower) or auto (libunicorn when built). Default: auto, or $HYPROF_ENGINE.")
    String engine;

    @Option(names = "--userland", paramLabel = "U",
            description = "What the library's libc/libm calls run on: stubs (Java versions of ~45 functions, not counted) or bionic "
                    + "(Android 6.0's own libc.so/libm.so loaded beside it and run in the emulator, every instruction counted; "
                    + "the output splits the cost by library). Default: bionic, or $HYPROF_USERLAND.")
    String userland;

    @Option(names = "--native-sandbox", paramLabel = "DIR",
            description = "With --userland bionic: the directory the library's file calls (open, read, write, stat, mkdir, unlink, mmap, ...) "
                    + "see as /; no path outside it is ever opened. Created if missing, kept afterwards. "
                    + "Default: a private temporary directory (mode 0700), removed at the end.")
    Path sandbox;

    @Option(names = "--native-limit", paramLabel = "LIMIT", defaultValue = "10g,120s",
            description = "Stop the call when it runs longer than this: instructions (k/m/g suffix) and/or wall time (s or ms), "
                    + "e.g. 500m,30s, or off. Exceeding it is an error naming the function (exit 1). Default: ${DEFAULT-VALUE}.")
    String limit;

    @Option(names = "--top", paramLabel = "N", defaultValue = "5", description = "Hottest blocks to show. Default: ${DEFAULT-VALUE}.")
    int top;

    @Option(names = "--format", paramLabel = "F", defaultValue = "table", description = "table or json. Default: ${DEFAULT-VALUE}.")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "S.db",
            description = "Also store the run in a session database (created, or added to): 'hyprof report S.db --by native' lists "
                    + "the runs, 'hyprof compare A.db B.db' compares two databases' runs (e.g. two --cpu profiles).")
    Path store;

    @Override
    public Integer call() {
        if (!format.equals("table") && !format.equals("json")) throw new UserError("--format: table or json, not '" + format + "'", 2);
        try {
            List<Emulator.Arg> parsed = new ArrayList<>();
            for (String a : args) parsed.add(Emulator.Arg.parse(a));
            CpuProfile p = cpu == null ? null : CpuProfile.load(cpu);
            Limits lim = limits(limit);
            if (store != null) checkWritable(store);
            org.hyprof.bb.emu.Userland u = userland(userland);
            try (org.hyprof.bb.emu.Sandbox files = sandbox == null ? null : sandbox(sandbox, u);
                 Tracer t = Tracer.open(library, p, engine(engine), u, files)) {
                t.emulator.limits(lim);
                NativeRun run = t.call(symbol, parsed);
                PrintWriter out = spec.commandLine().getOut();
                if (format.equals("json")) run.json(out, top);
                else run.table(out, top);
                if (store != null) {
                    long id = save(run, String.join(", ", args), store);
                    spec.commandLine().getErr().println("hyprof: " + store + ": stored as native run " + id);
                }
            }
            return 0;
        } catch (NativeException | StoreException e) {
            throw new UserError(e.getMessage());
        }
    }

    /** Refuses an output that is not a session database before the run, not after it. */
    private static void checkWritable(Path db) {
        OutputFile.check(db);
        if (Files.exists(db)) try (Store s = Store.open(db)) {
            s.schemaVersion();
        }
    }

    /** Stores a run with every block it executed (addresses as offsets in the library). */
    static long save(NativeRun run, String args, Path db) {
        List<NativeRunRecord.Function> functions = new ArrayList<>();
        run.functions().forEach((name, e) -> functions.add(new NativeRunRecord.Function(name, e.instructions(), Math.round(e.cycles()),
                Math.round(e.timeNanos()), Math.round(e.energyMicrojoules() * 1e6))));
        List<NativeRunRecord.Block> blocks = new ArrayList<>();
        for (Tracer.HotBlock h : run.hot())
            blocks.add(new NativeRunRecord.Block(h.block().offset(), h.block().function(), h.executions(),
                    h.block().instructions().size(), Math.round(h.estimate().cycles()), Listing.text(h.block().instructions())));
        Estimate e = run.estimate();
        NativeRunRecord r = new NativeRunRecord(0, Path.of(run.library()).toAbsolutePath().toString(), run.symbol(), args,
                run.arch() == Backend.Arch.ARM64 ? "arm64-v8a" : "armeabi-v7a", run.cpu().name, run.engine().id,
                run.arch() == Backend.Arch.ARM ? (int) run.result().r0() : run.result().r0(), run.blocks(), e.instructions(),
                Math.round(e.cycles()), Math.round(e.timeNanos()), Math.round(e.energyMicrojoules() * 1e6), run.emulatedNanos(),
                run.categories(), System.currentTimeMillis(), functions, blocks);
        try (Store s = Files.exists(db) ? Store.open(db) : Store.create(db)) {
            return s.addNativeRun(r);
        }
    }

    /** The limits a {@code --native-limit} option gives; a bad value is a usage error. */
    static Limits limits(String spec) {
        try {
            return Limits.parse(spec);
        } catch (NativeException e) {
            throw new UserError(e.getMessage(), 2);
        }
    }

    /**
     * The directory a {@code --native-sandbox} option names (created if missing); it needs
     * {@code --userland bionic} (the stubs have no files): a usage error otherwise.
     */
    static org.hyprof.bb.emu.Sandbox sandbox(Path dir, org.hyprof.bb.emu.Userland u) {
        if (u != org.hyprof.bb.emu.Userland.BIONIC)
            throw new UserError("--native-sandbox needs --userland bionic (the stubs userland opens no files)", 2);
        try {
            return org.hyprof.bb.emu.Sandbox.at(dir);
        } catch (NativeException e) {
            throw new UserError(e.getMessage());
        }
    }

    /** The userland a {@code --userland} option names (null: the default); a bad name is a usage error. */
    static org.hyprof.bb.emu.Userland userland(String name) {
        try {
            return org.hyprof.bb.emu.Userland.named(name);
        } catch (NativeException e) {
            throw new UserError(e.getMessage(), 2);
        }
    }

    /** The engine an {@code --engine} option names (null: the default); a bad name is a usage error. */
    static Engine engine(String name) {
        try {
            return Engine.named(name);
        } catch (NativeException e) {
            throw new UserError("--engine: " + e.getMessage(), name != null && name.matches("libunicorn|unidbg|auto") ? 1 : 2);
        }
    }
}
