package org.hyprof.bb;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hyprof.bb.cost.CpuProfile;
import org.hyprof.bb.cost.Estimate;
import org.hyprof.bb.disasm.Listing;
import org.hyprof.bb.emu.Backend;
import org.hyprof.bb.emu.Emulator;
import org.hyprof.bb.emu.Engine;

/**
 * The result of one native call: return registers, executed blocks and instructions, counts per
 * category, the estimate under the CPU profile, the hottest blocks and per-function estimates.
 *
 * <p>JSON contract ({@code hyprof native --format json}): an object with at least {@code return}
 * (integer value of the return register), {@code blocks}, {@code instructions}, {@code categories}
 * (name → count), {@code cycles}, {@code time_ns}, {@code energy_uj}; also {@code return_double},
 * {@code return_float}, {@code return_long}, {@code library}, {@code symbol}, {@code arch},
 * {@code cpu}, {@code engine} (its id), {@code engine_version} (the engine with the Unicorn it runs),
 * {@code functions}, {@code hot_blocks} (each with {@code block}, the
 * name every output gives it, e.g. {@code libkernels.so+0x1a2c}; {@code address}, its offset in
 * the library; and its disassembly, as {@link Listing} prints it); with system libraries loaded
 * ({@code --userland bionic}) {@code libraries}: each loaded library's share (instructions,
 * cycles, time, energy), the library first, then {@code libc.so}, {@code libm.so}, ….
 */
public record NativeRun(String library, String symbol, Backend.Arch arch, Engine engine, CpuProfile cpu, Emulator.Result result,
                        long blocks, Estimate estimate, Map<String, Long> categories, List<Tracer.HotBlock> hot,
                        Map<String, Estimate> functions, Map<String, Estimate> libraries, long emulatedNanos) {

    public long returnValue() {
        return result.intValue();
    }

    public double returnDouble() {
        return arch == Backend.Arch.ARM64 ? Double.longBitsToDouble(result.fp0()) : Double.longBitsToDouble(result.longValue(false));
    }

    public float returnFloat() {
        return Float.intBitsToFloat((int) (arch == Backend.Arch.ARM64 ? result.fp0() : result.r0()));
    }

    public void json(PrintWriter out, int top) {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode o = m.createObjectNode();
        o.put("library", library).put("symbol", symbol).put("arch", arch == Backend.Arch.ARM64 ? "arm64-v8a" : "armeabi-v7a");
        o.put("cpu", cpu.name);
        o.put("engine", engine.id);
        o.put("engine_version", engine.description());
        o.put("return", arch == Backend.Arch.ARM ? (int) result.r0() : result.r0());
        o.put("return_long", result.longValue(arch == Backend.Arch.ARM64));
        o.put("return_double", returnDouble());
        o.put("return_float", returnFloat());
        o.put("blocks", blocks);
        o.put("instructions", estimate.instructions());
        ObjectNode c = o.putObject("categories");
        categories.forEach(c::put);
        o.put("cycles", Math.round(estimate.cycles()));
        o.put("time_ns", estimate.timeNanos());
        o.put("energy_uj", estimate.energyMicrojoules());
        o.put("power_mw", estimate.powerMilliwatts());
        o.put("emulated_ns", emulatedNanos);
        ObjectNode f = o.putObject("functions");
        functions.forEach((k, v) -> f.putObject(k).put("instructions", v.instructions()).put("cycles", Math.round(v.cycles()))
                .put("time_ns", v.timeNanos()).put("energy_uj", v.energyMicrojoules()));
        if (libraries.size() > 1) {
            ObjectNode l = o.putObject("libraries");
            libraries.forEach((k, v) -> l.putObject(k).put("instructions", v.instructions()).put("cycles", Math.round(v.cycles()))
                    .put("time_ns", v.timeNanos()).put("energy_uj", v.energyMicrojoules()));
        }
        ArrayNode hb = o.putArray("hot_blocks");
        for (Tracer.HotBlock h : hot.subList(0, Math.min(top, hot.size()))) {
            ObjectNode b = hb.addObject();
            b.put("block", h.block().id());
            b.put("address", "0x" + Long.toHexString(h.block().offset()));
            b.put("function", h.block().function());
            b.put("executions", h.executions());
            b.put("cycles", Math.round(h.estimate().cycles()));
            ArrayNode d = b.putArray("disassembly");
            for (String line : Listing.lines(h.block().instructions())) d.add(line);
        }
        try {
            out.println(m.writeValueAsString(o));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        out.flush();
    }

    public void table(PrintWriter out, int top) {
        out.printf(Locale.ROOT, "%s %s  (%s, CPU profile %s, engine %s)%n", library, symbol, arch == Backend.Arch.ARM64 ? "arm64-v8a" : "armeabi-v7a",
                cpu.name, engine.description());
        out.printf(Locale.ROOT, "return     %d (as double %s, as float %s)%n", arch == Backend.Arch.ARM ? (int) result.r0() : result.r0(),
                returnDouble(), returnFloat());
        out.printf(Locale.ROOT, "blocks     %,d executed%ninstructions %,d%n", blocks, estimate.instructions());
        out.printf(Locale.ROOT, "estimate   %,.0f cycles, %.3f us at %.0f MHz, %.3f uJ (%.1f mW)%n", estimate.cycles(),
                estimate.timeNanos() / 1000, cpu.frequencyHz / 1e6, estimate.energyMicrojoules(), estimate.powerMilliwatts());
        out.print("categories");
        categories.forEach((k, v) -> { if (v > 0) out.printf(Locale.ROOT, "  %s %,d", k, v); });
        out.println();
        if (libraries.size() > 1) {
            out.println("libraries:");
            long all = Math.max(1, estimate.instructions());
            libraries.forEach((k, v) -> out.printf(Locale.ROOT, "  %14s cycles %12s instr %5.1f%%  %s%n", String.format(Locale.ROOT, "%,.0f", v.cycles()),
                    String.format(Locale.ROOT, "%,d", v.instructions()), 100.0 * v.instructions() / all, k));
        }
        out.println("functions:");
        functions.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue().cycles(), a.getValue().cycles()))
                .forEach(e -> out.printf(Locale.ROOT, "  %14s cycles %12s instr  %s%n", String.format(Locale.ROOT, "%,.0f", e.getValue().cycles()),
                        String.format(Locale.ROOT, "%,d", e.getValue().instructions()), e.getKey()));
        out.println("hottest blocks:");
        for (Tracer.HotBlock h : hot.subList(0, Math.min(top, hot.size()))) {
            out.printf(Locale.ROOT, "  %s in %s: %,d executions, %,.0f cycles%n", h.block().id(), h.block().function(),
                    h.executions(), h.estimate().cycles());
            for (String line : Listing.lines(h.block().instructions())) out.println("      " + line);
        }
        out.flush();
    }
}
