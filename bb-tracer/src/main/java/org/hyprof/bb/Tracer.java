package org.hyprof.bb;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyprof.bb.cost.CpuProfile;
import org.hyprof.bb.cost.Estimate;
import org.hyprof.bb.disasm.BlockDisassembler;
import org.hyprof.bb.disasm.Instruction;
import org.hyprof.bb.emu.Backend;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;
import org.hyprof.runtime.chunk.NativeBlocksChunk;

/**
 * bb-tracer's entry point: a shared object in the emulator, a CPU profile, and for each call the
 * executed blocks with their instructions, categories and estimated cycles, time and energy.
 * Each distinct block is disassembled and categorized once (its static cost cached); a call's
 * cost is then Σ executions × block cost.
 */
public final class Tracer implements AutoCloseable {
    /**
     * A block's static description and cost under the profile: {@code offset} is where it starts
     * in {@code library} (the file name), as objdump shows it, never the emulator's load address.
     */
    public record Block(int index, String library, long offset, String function, List<Instruction> instructions,
                        Map<String, Long> categories) {
        /** How the block is named everywhere ({@code libkernels.so+0x1a2c}). */
        public String id() {
            return NativeBlocksChunk.blockId(library, offset);
        }
    }

    /** A block of a run with how often it ran. */
    public record HotBlock(Block block, long executions, Estimate estimate) {}

    /**
     * What a set of block executions costs under the profile (formulas 1–4 are linear in the
     * counts, so per-block costs add up): instructions, cycles, estimated device time and energy.
     */
    public record Cost(long blocks, long instructions, double cycles, double timeNanos, double energyPicojoules) {}

    public final Emulator emulator;
    public final CpuProfile cpu;
    private final BlockDisassembler disassembler;
    private final Map<Integer, Block> blocks = new HashMap<>();
    // per-execution cost of each block, by index (filled on first use)
    private long[] costInstr = new long[0];
    private double[] costCycles = new double[0], costPicojoules = new double[0];
    private int costed;

    private Tracer(Emulator e, CpuProfile cpu) {
        this.emulator = e;
        this.cpu = cpu;
        this.disassembler = new BlockDisassembler(e.cpu.arch(), cpu);
    }

    /**
     * Loads a library on the default engine; {@code cpu} null picks the default profile for its
     * instruction set.
     */
    public static Tracer open(Path so, CpuProfile cpu) {
        return open(so, cpu, Engine.defaultEngine());
    }

    /** Loads a library on an engine; {@code cpu} null picks the default profile for its instruction set. */
    public static Tracer open(Path so, CpuProfile cpu, Engine engine) {
        return open(so, cpu, engine, org.hyprof.bb.emu.Userland.STUBS);
    }

    /** The same with a choice of what the library's imports bind to ({@code --userland}). */
    public static Tracer open(Path so, CpuProfile cpu, Engine engine, org.hyprof.bb.emu.Userland userland) {
        return open(so, cpu, engine, userland, null);
    }

    /**
     * The same with the directory native code's files live in ({@code --native-sandbox}; userland
     * bionic); null: a temporary one, removed when the tracer closes. The caller closes a sandbox it gives.
     */
    public static Tracer open(Path so, CpuProfile cpu, Engine engine, org.hyprof.bb.emu.Userland userland, org.hyprof.bb.emu.Sandbox sandbox) {
        Emulator e = Emulator.load(so, engine, true, userland, sandbox);
        boolean arm64 = e.cpu.arch() == Backend.Arch.ARM64;
        CpuProfile p = cpu != null ? cpu : CpuProfile.forArch(arm64);
        if (p.arch.equals("arm64") != arm64) {
            e.close();
            throw new NativeException(so + ": " + (arm64 ? "AArch64" : "ARM") + " code, but CPU profile " + p.name + " is for " + p.arch);
        }
        return new Tracer(e, p);
    }

    /** Calls a function and analyses what ran. */
    public NativeRun call(String symbol, List<Emulator.Arg> args) {
        long t0 = System.nanoTime();
        Emulator.Result r = emulator.call(symbol, args);
        long emulatedNanos = System.nanoTime() - t0;
        return analyze(symbol, r, emulatedNanos);
    }

    /** Static description of block {@code index} (disassembled on first use). */
    public Block block(int index) {
        return blocks.computeIfAbsent(index, i -> {
            long addr = emulator.counter.address(i);
            int size = emulator.counter.size(i);
            byte[] code = emulator.cpu.read(addr, size);
            boolean thumb = emulator.counter.isThumb(i); // the CPU state when the block first ran
            Emulator.Module m = emulator.moduleAt(addr);
            long offset = addr - m.base();
            List<Instruction> insns = disassembler.disassemble(code, offset, thumb); // at the offset: targets as objdump's
            Map<String, Long> cats = new LinkedHashMap<>();
            for (Instruction in : insns) cats.merge(in.category(), 1L, Long::sum);
            String fn = emulator.functionAt(addr);
            return new Block(i, m.name(), offset, fn, insns, cats);
        });
    }

    /** The cost of executions {@code counts} (index → executions), blocks analysed on first use. */
    public Cost cost(long[] counts) {
        int n = Math.min(counts.length, emulator.counter.blockCount());
        if (n > costed) {
            costInstr = java.util.Arrays.copyOf(costInstr, n);
            costCycles = java.util.Arrays.copyOf(costCycles, n);
            costPicojoules = java.util.Arrays.copyOf(costPicojoules, n);
            for (int i = costed; i < n; i++) {
                Estimate e = Estimate.of(block(i).categories(), cpu);
                costInstr[i] = e.instructions();
                costCycles[i] = e.cycles();
                costPicojoules[i] = e.energyMicrojoules() * 1e6;
            }
            costed = n;
        }
        long executed = 0, instr = 0;
        double cycles = 0, pj = 0;
        for (int i = 0; i < n; i++) {
            long c = counts[i];
            if (c == 0) continue;
            executed += c;
            instr += c * costInstr[i];
            cycles += c * costCycles[i];
            pj += c * costPicojoules[i];
        }
        return new Cost(executed, instr, cycles, cycles / cpu.frequencyHz * 1e9, pj);
    }

    /** Category counts of an epoch's executions. */
    public Map<String, Long> categories(long[] counts) {
        Map<String, Long> cats = new LinkedHashMap<>();
        for (String c : cpu.categoryNames()) cats.put(c, 0L);
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0) continue;
            for (Map.Entry<String, Long> e : block(i).categories().entrySet()) cats.merge(e.getKey(), e.getValue() * counts[i], Long::sum);
        }
        return cats;
    }

    NativeRun analyze(String symbol, Emulator.Result r, long emulatedNanos) {
        long[] counts = r.counts().counts();
        Map<String, Long> cats = categories(counts);
        List<HotBlock> hot = new ArrayList<>();
        Map<String, Map<String, Long>> perFunction = new LinkedHashMap<>();
        Map<String, Map<String, Long>> perLibrary = new LinkedHashMap<>();
        for (Emulator.Module m : emulator.modules) perLibrary.put(m.name(), new LinkedHashMap<>());
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0) continue;
            Block b = block(i);
            Map<String, Long> bc = new LinkedHashMap<>();
            for (Map.Entry<String, Long> e : b.categories().entrySet()) bc.put(e.getKey(), e.getValue() * counts[i]);
            hot.add(new HotBlock(b, counts[i], Estimate.of(bc, cpu)));
            Map<String, Long> f = perFunction.computeIfAbsent(b.function() == null ? "?" : b.function(), k -> new LinkedHashMap<>());
            bc.forEach((k, v) -> f.merge(k, v, Long::sum));
            Map<String, Long> l = perLibrary.computeIfAbsent(b.library(), k -> new LinkedHashMap<>());
            bc.forEach((k, v) -> l.merge(k, v, Long::sum));
        }
        hot.sort((a, b) -> Double.compare(b.estimate().cycles(), a.estimate().cycles()));
        Map<String, Estimate> functions = new LinkedHashMap<>();
        perFunction.forEach((k, v) -> functions.put(k, Estimate.of(v, cpu)));
        Map<String, Estimate> libraries = new LinkedHashMap<>();
        perLibrary.forEach((k, v) -> libraries.put(k, Estimate.of(v, cpu)));
        return new NativeRun(emulator.image.path.toString(), symbol, emulator.cpu.arch(), emulator.cpu.engine(), cpu, r, r.counts().executedBlocks(),
                Estimate.of(cats, cpu), cats, hot, functions, libraries, emulatedNanos);
    }

    @Override
    public void close() {
        disassembler.close();
        emulator.close();
    }
}
