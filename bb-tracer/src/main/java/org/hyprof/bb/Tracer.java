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

/**
 * bb-tracer's entry point: a shared object in the emulator, a CPU profile, and for each call the
 * executed blocks with their instructions, categories and estimated cycles, time and energy.
 * Each distinct block is disassembled and categorized once (its static cost cached); a call's
 * cost is then Σ executions × block cost.
 */
public final class Tracer implements AutoCloseable {
    /** A block's static description and cost under the profile. */
    public record Block(int index, long address, String function, List<Instruction> instructions,
                        Map<String, Long> categories) {}

    /** A block of a run with how often it ran. */
    public record HotBlock(Block block, long executions, Estimate estimate) {}

    public final Emulator emulator;
    public final CpuProfile cpu;
    private final BlockDisassembler disassembler;
    private final Map<Integer, Block> blocks = new HashMap<>();

    private Tracer(Emulator e, CpuProfile cpu) {
        this.emulator = e;
        this.cpu = cpu;
        this.disassembler = new BlockDisassembler(e.cpu.arch(), cpu);
    }

    /** Loads a library; {@code cpu} null picks the default profile for its instruction set. */
    public static Tracer open(Path so, CpuProfile cpu) {
        Emulator e = Emulator.load(so);
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
            List<Instruction> insns = disassembler.disassemble(code, addr, emulator.isThumb(addr));
            Map<String, Long> cats = new LinkedHashMap<>();
            for (Instruction in : insns) cats.merge(in.category(), 1L, Long::sum);
            String fn = emulator.functionAt(addr);
            return new Block(i, addr, fn, insns, cats);
        });
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
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0) continue;
            Block b = block(i);
            Map<String, Long> bc = new LinkedHashMap<>();
            for (Map.Entry<String, Long> e : b.categories().entrySet()) bc.put(e.getKey(), e.getValue() * counts[i]);
            hot.add(new HotBlock(b, counts[i], Estimate.of(bc, cpu)));
            Map<String, Long> f = perFunction.computeIfAbsent(b.function() == null ? "?" : b.function(), k -> new LinkedHashMap<>());
            bc.forEach((k, v) -> f.merge(k, v, Long::sum));
        }
        hot.sort((a, b) -> Double.compare(b.estimate().cycles(), a.estimate().cycles()));
        Map<String, Estimate> functions = new LinkedHashMap<>();
        perFunction.forEach((k, v) -> functions.put(k, Estimate.of(v, cpu)));
        return new NativeRun(emulator.image.path.toString(), symbol, emulator.cpu.arch(), cpu, r, r.counts().executedBlocks(),
                Estimate.of(cats, cpu), cats, hot, functions, emulatedNanos);
    }

    @Override
    public void close() {
        disassembler.close();
        emulator.close();
    }
}
